import CGStreamer
import FilterCore

/// The effects gallery (`gallery=true`, key g): the output frame shows the page of
/// thumbnails that holds the current filter (`GalleryPage`), painted by `GalleryPainter`
/// from the picture as the window would show it, with each filter's title drawn by the
/// on-screen display's renderer. Same output size as without it, so nothing renegotiates.
extension FilterCamElement {
    /// The gallery's frame task (worker thread). A still asked for meanwhile, and a running
    /// recording's frame, are of the picture, not of the gallery: the picture is made
    /// first, copied, then painted over. Faces are not searched among the thumbnails;
    /// squares already posted are cleared.
    func galleryTask(_ recipe: FrameRecipe, settings s: FilterCamSettings, format: FrameFormat,
                     method: OrientationMethod, live: Bool, recording facts: RecordingBranch.FrameFacts,
                     stillsAsked: Int) -> FrameTask {
        let plan = recipe.plan
        let entries = FilterRegistry.shared.pickable
        let chains = entries.map { FilterShowcase.chain(for: $0.id) }
        let chosen = FilterRegistry.shared.pickableID(of: s.chain)
        let page = GalleryPage(count: entries.count, selected: chosen.flatMap { id in entries.firstIndex { $0.id == id } },
                               width: plan.outputWidth, height: plan.outputHeight,
                               pictureWidth: plan.orientedWidth, pictureHeight: plan.orientedHeight)
        let painter = galleryPainter, snapshots = self.snapshots, faces = self.faces
        let recording = self.recording, recorded = recording.needsFrame
        let isYUV = format.isYUV
        // The help card (h in the gallery) is shown in place of the thumbnails, not over them.
        let card = s.osd && display.withLock { $0.helpShown }
        let items = (card ? [] : page.items { i in
            entries[i].title + (isYUV && !painter.worksOnYUV(i, chains: chains) ? " (RGB only)" : "")
        }) + displayOverGallery(recipe, settings: s)
        let decorate: ((UnsafeMutablePointer<GstBuffer>, UInt64?) -> Void)? = faces.hasReportedFaces ? { buffer, timestamp in
            faces.decorate(buffer, faces: [], timestamp: timestamp)
        } : nil
        let lensRect = recipe.lensRect
        func job(_ work: FrameJob.Work) -> FrameTask {
            FrameTask(FrameJob(outputWidth: plan.outputWidth, outputHeight: plan.outputHeight, work: work,
                               geometry: plan.isIdentity ? nil : plan), decorate: decorate)
        }
        if isYUV {
            let canvas = osdCanvas, stillPossible = recipe.filters.workOnYUV
            return job(.yuvRender(Self.galleryWork(
                still: { stillPossible && snapshots.needsFrame }, recorded: stillPossible && recorded, picture: { (source: YUVFrame, destination: YUVFrame) in recipe.apply(from: source, to: destination) },
                capture: { frame, still in
                    if still { snapshots.capture(frame, lensRect: lensRect, method: method, timestamp: frame.timestamp, live: live,
                                                 askedBeforeArrival: stillsAsked) }
                    if recorded { recording.capture(frame, facts: facts) }
                },
                gallery: { card ? painter.paintBackground(to: $1) : painter.paint(page, chains: chains, from: $0, plan: plan, to: $1) },
                over: { frame, still in
                    if still { snapshots.drawFlash(frame, timestamp: frame.timestamp) }
                    canvas.draw(items, on: frame)
                })))
        }
        return job(.render(Self.galleryWork(
            still: { snapshots.needsFrame }, recorded: recorded, picture: { (source: FrameView, destination: FrameView) in recipe.apply(from: source, to: destination) },
            capture: { frame, still in
                if still { snapshots.capture(frame, lensRect: lensRect, method: method, timestamp: frame.timestamp, live: live,
                                             askedBeforeArrival: stillsAsked) }
                if recorded { recording.capture(frame, facts: facts) }
            },
            gallery: { card ? painter.paintBackground(to: $1) : painter.paint(page, chains: chains, from: $0, plan: plan, to: $1) },
            over: { frame, still in
                if still { snapshots.drawFlash(frame, timestamp: frame.timestamp) }
                OSDRenderer.draw(items, on: frame)
            })))
    }

    /// One gallery frame from `source` into `destination`, RGB or YUV alike: when a still
    /// is due or a recording runs, the picture first (`picture`) and the still and the
    /// recording's frame copied from it (`capture`, told whether a still is due); then the
    /// gallery painted over everything, then the flash and the titles (`over`).
    private static func galleryWork<Frame>(still: @escaping () -> Bool, recorded: Bool, picture: @escaping (Frame, Frame) -> Void,
                                           capture: @escaping (Frame, Bool) -> Void, gallery: @escaping (Frame, Frame) -> Void,
                                           over: @escaping (Frame, Bool) -> Void) -> (Frame, Frame) -> Void {
        { source, destination in
            let still = still()
            if still || recorded {
                picture(source, destination)
                capture(destination, still)
            }
            gallery(source, destination)
            over(destination, still)
        }
    }

    /// What of the on-screen display goes over the gallery (with osd on): see
    /// `OnScreenDisplay.Item.showsOverGallery`.
    private func displayOverGallery(_ recipe: FrameRecipe, settings s: FilterCamSettings) -> [OnScreenDisplay.Item] {
        onScreenItems(recipe, settings: s).filter(\.showsOverGallery)
    }
}
