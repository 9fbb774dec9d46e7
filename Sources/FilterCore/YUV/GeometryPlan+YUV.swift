/// `GeometryPlan.render` for YUV frames. The output is `videoflip video-direction=…`
/// followed by `videocrop` of the window, byte for byte:
/// - I420 and NV12: each plane is turned with its own size (as videoflip does) and the
///   window cut from it as videocrop cuts planes: chroma from ⌊left/2⌋, ⌊top/2⌋, ⌈w/2⌉×⌈h/2⌉
///   samples. Only the window is computed: its rectangle in each turned plane is mapped
///   back to the source plane and turned alone.
/// - YUY2 and UYVY: `PackedOrientation` over the window.
/// Zoom turns the zoom crop into scratch memory, then scales each plane bilinearly
/// (`PlaneScaler`; within ±2 of `videocrop ! videoscale method=bilinear`, not byte-exact).
extension GeometryPlan {
    public func render(from src: YUVFrame, to dst: YUVFrame) {
        precondition(src.width == inputWidth && src.height == inputHeight,
                     "plan for \(inputWidth)x\(inputHeight) got a \(src.width)x\(src.height) frame")
        precondition(dst.width == outputWidth && dst.height == outputHeight && dst.format == src.format,
                     "plan writes \(outputWidth)x\(outputHeight) \(src.format.rawValue), got \(dst.width)x\(dst.height) \(dst.format.rawValue)")
        guard zooms else {
            Self.orient(method, src, window: window, into: dst)
            return
        }
        let scratch = YUVBuffer(format: src.format, width: zoomRect.width, height: zoomRect.height, zeroed: false)
        let turned = scratch.frame
        Self.orient(method, src, window: zoomRect, into: turned)
        if src.format.isPacked {
            PlaneScaler.scalePacked(from: turned.planes[0], sourceWidth: zoomRect.width, fullWidth: orientedWidth,
                                    fullHeight: orientedHeight, window: window, format: src.format, to: dst.planes[0])
            return
        }
        for p in 0..<src.planes.count {
            let full = src.format.plane(p, width: orientedWidth, height: orientedHeight)
            PlaneScaler.scale(from: turned.planes[p], fullWidth: full.width, fullHeight: full.height,
                              window: Self.planeWindow(window, plane: p, format: src.format, size: dst.planes[p]),
                              to: dst.planes[p])
        }
    }

    /// The `window` of `method` applied to `src`, into `dst` (the window's size).
    static func orient(_ method: OrientationMethod, _ src: YUVFrame, window: PixelRect, into dst: YUVFrame) {
        // A crop is a row `memcpy` per plane: handing each plane's rows to the second core
        // cost more than the copy (both threads spinning through three hand-overs a frame).
        RowSplitter.withOneThread(method == .identity) { orientPlanes(method, src, window: window, into: dst) }
    }

    private static func orientPlanes(_ method: OrientationMethod, _ src: YUVFrame, window: PixelRect, into dst: YUVFrame) {
        if src.format.isPacked {
            PackedOrientation.transform(method, from: src.planes[0], width: src.width, height: src.height,
                                        window: window, format: src.format, to: dst.planes[0])
            return
        }
        for (p, (s, d)) in zip(src.planes, dst.planes).enumerated() {
            let w = planeWindow(window, plane: p, format: src.format, size: d)
            let sourceRect = method.sourceRect(forOutputRect: w, inputWidth: s.width, inputHeight: s.height)
            PlaneOrientation.transform(method, from: s.subplane(sourceRect), to: d)
        }
    }

    /// A window of the picture in plane `plane`'s elements, as videocrop cuts planes:
    /// from the rounded-down subsampled corner, `size` (the output plane) elements.
    static func planeWindow(_ window: PixelRect, plane: Int, format: YUVFormat, size: Plane) -> PixelRect {
        let sx = plane == 0 ? 1 : format.chromaWidthFactor, sy = plane == 0 ? 1 : format.chromaHeightFactor
        return PixelRect(x: window.x / sx, y: window.y / sy, width: size.width, height: size.height)
    }
}
