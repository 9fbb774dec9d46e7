/// Paints one frame of the effects gallery: the picture as the window shows it (turned
/// and zoomed, `GeometryPlan`) is scaled once to the thumbnail size, then each filter of
/// the page works on its own copy of that thumbnail in its cell, so a page costs about
/// one frame of filtering, not one per filter. The rest of the frame is dark grey; the
/// titles are the display's (`GalleryPage.items`).
///
/// Keeps the filters (one configured instance per chain, rebuilt when the chains change)
/// and the scratch thumbnails between frames; used on one worker thread.
public final class GalleryPainter {
    private var chains: [String] = []
    private var filters: [[any FrameFilter]] = []
    private var rgb: (thumbnail: PixelBuffer, unturned: PixelBuffer)?
    private var yuv: (thumbnail: YUVBuffer, unturned: YUVBuffer)?

    /// The grey around the thumbnails.
    static let background: UInt8 = 32

    public init() {}

    /// The filters of `chains` (chain text per catalog entry); a chain that does not parse shows the picture as it is.
    private func filters(for chains: [String]) -> [[any FrameFilter]] {
        if chains != self.chains {
            self.chains = chains
            filters = chains.map { (try? FilterChain.parse($0))?.makeFilters() ?? [] }
        }
        return filters
    }

    /// Whether `chain` can be shown on YUV frames (every filter of it has a YUV path).
    public func worksOnYUV(_ index: Int, chains: [String]) -> Bool {
        filters(for: chains)[index].workOnYUV
    }

    // MARK: RGB

    public func paint(_ page: GalleryPage, chains: [String], from source: FrameView, plan: GeometryPlan, to destination: FrameView) {
        let filters = filters(for: chains)
        fill(destination)
        let thumbnail = thumbnail(of: source, plan: plan, size: page.thumbnailSize)
        for (index, rect) in page.thumbnails {
            filters[index].apply(from: thumbnail, to: destination.subview(rect))
        }
    }

    /// The gallery's grey alone: the help card is shown in place of the thumbnails.
    public func paintBackground(to destination: FrameView) { fill(destination) }

    private func fill(_ frame: FrameView) {
        let grey = UInt32(Self.background) * 0x010101 | 0xFF00_0000
        for y in 0..<frame.height { frame.row(y).update(repeating: grey, count: frame.width) }
    }

    /// The shown picture (zoom crop, turned) scaled into the scratch thumbnail.
    private func thumbnail(of source: FrameView, plan: GeometryPlan, size: (width: Int, height: Int)) -> FrameView {
        let unturned = plan.method.swapsAxes ? (size.height, size.width) : size
        if rgb?.thumbnail.width != size.width || rgb?.thumbnail.height != size.height || rgb?.thumbnail.format != source.format {
            rgb = (PixelBuffer(width: size.width, height: size.height, format: source.format),
                   PixelBuffer(width: unturned.0, height: unturned.1, format: source.format))
        }
        let (thumbnail, scratch) = rgb!
        let crop = Self.crop(of: plan)
        if plan.method == .identity {
            Zoom.scale(from: source, sourceRect: crop, to: thumbnail.view)
        } else {
            Zoom.scale(from: source, sourceRect: crop, to: scratch.view)
            Orientation.transform(plan.method, from: scratch.view, to: thumbnail.view)
        }
        return thumbnail.view
    }

    /// The input pixels the window shows: the zoom crop, before it is turned.
    static func crop(of plan: GeometryPlan) -> PixelRect {
        plan.method.sourceRect(forOutputRect: plan.zoomRect, inputWidth: plan.inputWidth, inputHeight: plan.inputHeight)
    }

    // MARK: YUV

    /// As the RGB `paint`, on the planes. A filter without a YUV path leaves its cell grey.
    public func paint(_ page: GalleryPage, chains: [String], from source: YUVFrame, plan: GeometryPlan, to destination: YUVFrame) {
        let filters = filters(for: chains)
        fill(destination)
        let thumbnail = thumbnail(of: source, plan: plan, size: page.thumbnailSize)
        for (index, rect) in page.thumbnails where filters[index].workOnYUV {
            let cell = destination.subframe(rect)
            cell.copy(from: thumbnail)
            filters[index].apply(to: cell)
        }
    }

    public func paintBackground(to destination: YUVFrame) { fill(destination) }

    private func fill(_ frame: YUVFrame) {
        let grey = frame.matrix.samples(r: Double(Self.background), g: Double(Self.background), b: Double(Self.background))
        if frame.format.isPacked {
            let k = frame.format.packedOffsets
            var macropixel: UInt32 = 0
            withUnsafeMutableBytes(of: &macropixel) { m in
                m[k.y0] = grey.y; m[k.y1] = grey.y; m[k.u] = grey.u; m[k.v] = grey.v
            }
            let plane = frame.planes[0]
            for y in 0..<plane.height {
                plane.row(y).assumingMemoryBound(to: UInt32.self).update(repeating: macropixel, count: plane.width)
            }
            return
        }
        for (i, plane) in frame.planes.enumerated() {
            let bytes = plane.width * plane.elementBytes
            // NV12's second plane interleaves U and V, both neutral as U alone is.
            let value = i == 0 ? grey.y : grey.u
            for y in 0..<plane.height { plane.row(y).initializeMemory(as: UInt8.self, repeating: value, count: bytes) }
        }
    }

    private func thumbnail(of source: YUVFrame, plan: GeometryPlan, size: (width: Int, height: Int)) -> YUVFrame {
        let unturned = plan.method.swapsAxes ? (size.height, size.width) : size
        if yuv?.thumbnail.width != size.width || yuv?.thumbnail.height != size.height || yuv?.thumbnail.format != source.format {
            yuv = (YUVBuffer(format: source.format, width: size.width, height: size.height),
                   YUVBuffer(format: source.format, width: unturned.0, height: unturned.1))
        }
        var thumbnail = yuv!.thumbnail.frame, scratch = yuv!.unturned.frame
        thumbnail.matrix = source.matrix
        scratch.matrix = source.matrix
        Self.scale(source, crop: Self.crop(of: plan), to: plan.method == .identity ? thumbnail : scratch)
        if plan.method != .identity {
            GeometryPlan.orient(plan.method, scratch, window: PixelRect(x: 0, y: 0, width: size.width, height: size.height),
                                into: thumbnail)
        }
        return thumbnail
    }

    /// The `crop` of `source` scaled to the whole of `destination`, plane by plane (chroma
    /// from the chroma samples the crop touches).
    static func scale(_ source: YUVFrame, crop: PixelRect, to destination: YUVFrame) {
        let format = source.format
        let cx0 = crop.x / 2, cx1 = (crop.x + crop.width + 1) / 2
        if format.isPacked {
            let plane = source.planes[0].subplane(PixelRect(x: cx0, y: crop.y, width: cx1 - cx0, height: crop.height))
            PlaneScaler.scalePacked(from: plane, sourceWidth: crop.width, fullWidth: destination.width,
                                    fullHeight: destination.height,
                                    window: PixelRect(x: 0, y: 0, width: destination.width, height: destination.height),
                                    format: format, to: destination.planes[0])
            return
        }
        let cy0 = crop.y / 2, cy1 = (crop.y + crop.height + 1) / 2
        for (p, (s, d)) in zip(source.planes, destination.planes).enumerated() {
            let rect = p == 0 ? crop : PixelRect(x: cx0, y: cy0, width: cx1 - cx0, height: cy1 - cy0)
            PlaneScaler.scale(from: s.subplane(rect), fullWidth: d.width, fullHeight: d.height,
                              window: PixelRect(x: 0, y: 0, width: d.width, height: d.height), to: d)
        }
    }
}
