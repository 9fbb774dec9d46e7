import CGStreamer
import CFilterCamShim
import FilterCore

/// Each frame's task (worker thread): the recipe of geometry and filters, then faces,
/// stills, the recording's copy, the flash and the on-screen display on the finished
/// picture; YUV frames on their planes.
extension FilterCamElement {
    /// The settings of a frame arriving now, kept with it until the worker takes it, and
    /// the stills asked for so far (it serves those, not later ones). Window keys held
    /// behind a still taken meanwhile run first: a turn pressed after `s` turns this frame.
    func taskMaker() -> FrameTaskMaker {
        runKeysAfterStill()
        let s = settings.withLock { $0 }, asked = snapshots.askedSoFar
        return FrameTaskMaker { [weak self] input, stream in self?.task(for: input, stream: stream, settings: s, stillsAsked: asked) }
    }

    /// One frame's task, from the settings copied when it arrived: the recipe (geometry
    /// and filters), then on the finished picture faces, stills, the recording's copy, the
    /// flash and the on-screen display (the last two for the preview only), then the faces
    /// onto the buffer. Faces go from the pixels to the buffer through this task's own
    /// closures.
    private func task(for input: FrameShape, stream: StreamState, settings s: FilterCamSettings, stillsAsked: Int) -> FrameTask {
        let chain = s.effectiveChain
        let activeFilters = frameState.withLock { f -> [any FrameFilter] in
            if chain != f.chain || s.filterSets != f.filterSets {
                f.chain = chain
                f.filterSets = s.filterSets
                f.filters = chain.makeFilters()
            }
            return f.filters
        }
        streamTag.withLock { $0 = stream.tagOrientation }
        let method = s.effectiveOrientation(tag: stream.tagOrientation)
        let plan = GeometryPlan(inputWidth: input.width, inputHeight: input.height, method: method,
                                zoom: s.zoom, lens: s.lens, lensCrop: s.lensCrop, lensGrid: input.format.isYUV ? 2 : 1)
        activePlan.withLock { $0 = plan }
        let recipe = FrameRecipe(plan: plan, filters: activeFilters)
        if s.gallery && GalleryLayout.fits(width: plan.outputWidth, height: plan.outputHeight) {
            return galleryTask(recipe, settings: s, format: input.format, method: method, live: stream.isLive,
                               recording: recordingFacts(stream), stillsAsked: stillsAsked)
        }
        if input.format.isYUV {
            return yuvTask(recipe, chain: chain, filters: activeFilters, settings: s, format: input.format, method: method,
                           stream: stream, stillsAsked: stillsAsked)
        }
        let lensRect = recipe.lensRect
        let snapshots = self.snapshots, faces = self.faces, live = stream.isLive
        let detecting = faces.isEnabled
        let recording = self.recording, recorded = recording.needsFrame, facts = recordingFacts(stream)
        // The on-screen display goes on last: never into a still or a recording.
        let overlay = onScreenItems(recipe, settings: s)
        // Work on the finished picture: faces are found and squared, stills and the
        // recording's frame copied from it (squares included), then the flash drawn.
        var found: [DetectedFace] = []
        var picture: GreyImage?
        let unfiltered: ((FrameView) -> Void)? = detecting ? { picture = faces.searchPicture(of: $0) } : nil
        let finish: ((FrameView) -> Void)? = snapshots.needsFrame || recorded || detecting || !overlay.isEmpty ? { frame in
            if detecting {
                found = faces.process(frame, searching: picture, method: method, plan: plan, deviceUpright: s.deviceUpright, live: live)
            }
            let still = snapshots.needsFrame
            if still { snapshots.capture(frame, lensRect: lensRect, method: method, timestamp: frame.timestamp, live: live,
                                         askedBeforeArrival: stillsAsked) }
            if recorded { recording.capture(frame, facts: facts) }
            if still { snapshots.drawFlash(frame, timestamp: frame.timestamp) }
            OSDRenderer.draw(overlay, on: frame)
        } : nil
        // After detection stops, one more decoration reports "no faces".
        let decorate: ((UnsafeMutablePointer<GstBuffer>, UInt64?) -> Void)? = detecting || faces.hasReportedFaces ? { buffer, timestamp in
            faces.decorate(buffer, faces: found, timestamp: timestamp)
        } : nil
        return FrameTask(recipe.job(unfiltered: unfiltered, finish: finish), decorate: decorate)
    }

    /// A YUV frame's task: geometry, filters, faces (searched on the luma plane before the
    /// filters), stills
    /// (encoded in the frame's own format) and the on-screen display (blended into the
    /// planes by `OSDCanvas`). A filter without a YUV path on a YUV stream is an error that
    /// says what to put in front.
    private func yuvTask(_ recipe: FrameRecipe, chain: FilterChain, filters activeFilters: [any FrameFilter],
                         settings s: FilterCamSettings, format: FrameFormat,
                         method: OrientationMethod, stream: StreamState, stillsAsked: Int) -> FrameTask {
        let live = stream.isLive
        var problem: String?
        // The chain's filters are made already (`activeFilters`, in chain order): no new
        // instances per frame to ask.
        if let i = activeFilters.firstIndex(where: { !($0 is any YUVFilter) }) {
            let id = chain.steps.indices.contains(i) ? chain.steps[i].id : "?"
            problem = "filter \(id.quotedForMessage) works on RGB frames only"
        }
        guard let problem else {
            let faces = self.faces, detecting = faces.isEnabled
            let snapshots = self.snapshots, lensRect = recipe.lensRect, plan = recipe.plan
            let recording = self.recording, recorded = recording.needsFrame, facts = recordingFacts(stream)
            let overlay = onScreenItems(recipe, settings: s), canvas = osdCanvas
            var found: [DetectedFace] = []
            var picture: GreyImage?
            let unfiltered: ((YUVFrame) -> Void)? = detecting ? { picture = faces.searchPicture(of: $0) } : nil
            // Stills and the recording's copy only read; faces' squares, the flash and the
            // on-screen display are drawn into the frame.
            let onlyReads = !detecting && overlay.isEmpty && !snapshots.mayDrawFlash
            let finish: ((YUVFrame) -> Void)? = detecting || snapshots.needsFrame || recorded || !overlay.isEmpty ? { frame in
                if detecting {
                    found = faces.process(frame, searching: picture, method: method, plan: plan, deviceUpright: s.deviceUpright, live: live)
                }
                let still = snapshots.needsFrame
                if still { snapshots.capture(frame, lensRect: lensRect, method: method, timestamp: frame.timestamp, live: live,
                                             askedBeforeArrival: stillsAsked) }
                if recorded { recording.capture(frame, facts: facts) }
                if still && !onlyReads { snapshots.drawFlash(frame, timestamp: frame.timestamp) }
                canvas.draw(overlay, on: frame)
            } : nil
            let decorate: ((UnsafeMutablePointer<GstBuffer>, UInt64?) -> Void)? = detecting || faces.hasReportedFaces ? { buffer, timestamp in
                faces.decorate(buffer, faces: found, timestamp: timestamp)
            } : nil
            return FrameTask(recipe.yuvJob(unfiltered: unfiltered, finish: finish, finishOnlyReads: onlyReads), decorate: decorate)
        }
        if frameState.withLock({ f in defer { f.refusedYUV = true }; return !f.refusedYUV }) {
            fc_post_error(element, "\(GStreamer.name(of: element)) cannot process these \(format.name) frames: \(problem) "
                          + "(\(FormatProblem.rgbOnly(format: format.name).hint(for: GStreamer.name(of: element))))", nil)
        }
        return FrameTask(.passthrough(width: recipe.plan.inputWidth, height: recipe.plan.inputHeight))
    }

    /// A countdown running or due is called off (`reason`: why its still is not taken):
    /// said in a `snapshot-failed` and, unless the user called it off (`warn` false), a
    /// WARNING; `countdown` reads 0 (notified).
    func callOffCountdown(because reason: String, warn: Bool = true) {
        guard display.withLock({ $0.cancelCountdown() }) else { return }
        if warn { fc_post_warning(element, "countdown called off: \(reason)", nil) }
        snapshots.reportUnserved(reason: "no still: " + reason)
        g_object_notify(element.asGObject, Property.countdown.rawValue)
    }

    /// EOS: stills still waiting for a frame are written (or reported) now, and the
    /// running recording is finished, before EOS goes on.
    func endOfStream() {
        // A countdown still running has no frame after EOS to take its still from: called
        // off and said failed. It vanished silently, and the property went on counting
        // down by the clock after the stream had ended.
        callOffCountdown(because: "the stream ended before the countdown's end (no frame comes after it to take the still from)")
        // Window keys held behind a still have no frame left either: stills among them are
        // said not taken, as requests are.
        snapshots.failHeld(dropHeldKeys(), because: "the stream ended")
        snapshots.finish()
        recording.finish(atEndOfStream: true)
    }

    /// Lets go of the window keys held behind a still; returns how many were stills.
    func dropHeldKeys() -> Int {
        keysAfterStill.withLock { keys in
            defer { keys.removeAll() }
            return keys.filter { $0.command == .snapshot }.count
        }
    }

    /// After a flush, frames may follow an EOS: a still asked for waits for one again.
    func streamFlushed() {
        snapshots.streamEnd.resume()
        recording.streamEnd.resume()
    }

    /// What places this frame in a recording.
    private func recordingFacts(_ stream: StreamState) -> RecordingBranch.FrameFacts {
        RecordingBranch.FrameFacts(framesPerSecond: stream.framesPerSecond, runningTime: stream.frameRunningTime,
                                   duration: stream.frameDuration, live: stream.isLive)
    }
}
