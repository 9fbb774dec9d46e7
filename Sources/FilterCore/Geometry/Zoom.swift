/// Digital zoom: a centred crop of the (oriented) picture scaled back to the full size.
///
/// The crop for zoom z of a W×H picture is the centred lens of width and height 1/z,
/// rounded by the lens rule (half away from zero):
///
///     left = round(W · (1 − 1/z) / 2)      right  = round(W · (1 + 1/z) / 2)
///     top  = round(H · (1 − 1/z) / 2)      bottom = round(H · (1 + 1/z) / 2)
///
/// (at least one pixel; zoom 2 of 1920×1080 is 960×540+480+270), so a zoom crop matches
/// `videocrop` with the same borders as the lens.
///
/// Scaling is bilinear on pixel centres: destination pixel i samples the rectangle at
/// (i + 0.5) · rectWidth / destWidth − 0.5, clamped to the rectangle's edge pixels (the
/// rectangle alone decides the result). Weights are 8-bit fixed point (1/256), every channel
/// (alpha too) is interpolated, and results round half up. Equal sizes copy exactly.
public enum Zoom {
    /// `zoom` limited to 1…max (NaN counts as 1).
    public static func clamp(_ zoom: Double, max: Double) -> Double {
        let upper = max.isNaN ? 1 : Swift.max(max, 1)
        return zoom.isNaN ? 1 : Swift.min(Swift.max(zoom, 1), upper)
    }

    /// The centred crop of a `width`×`height` picture that `zoom` (≥ 1) shows.
    public static func cropRect(width: Int, height: Int, zoom: Double) -> PixelRect {
        let f = 1 / Swift.max(zoom, 1)
        let (left, right) = LensRect.span((1 - f) / 2, (1 + f) / 2, width)
        let (top, bottom) = LensRect.span((1 - f) / 2, (1 + f) / 2, height)
        return PixelRect(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// Scales the rectangle `sourceRect` of `src` to the whole of `dst`.
    public static func scale(from src: FrameView, sourceRect: PixelRect, to dst: FrameView) {
        scale(from: src, sourceRect: sourceRect, fullWidth: dst.width, fullHeight: dst.height,
              window: PixelRect(x: 0, y: 0, width: dst.width, height: dst.height), to: dst)
    }

    /// Writes the `window` part of `sourceRect` scaled to `fullWidth`×`fullHeight` into `dst`
    /// (the window's size): pixel (i, j) of `dst` is pixel (window.x + i, window.y + j) of the
    /// full scaled picture, which is never made.
    public static func scale(from src: FrameView, sourceRect r: PixelRect, fullWidth: Int, fullHeight: Int,
                             window: PixelRect, to dst: FrameView) {
        precondition(r.x >= 0 && r.y >= 0 && r.width > 0 && r.height > 0
                     && r.x + r.width <= src.width && r.y + r.height <= src.height,
                     "source rectangle \(r) is outside the \(src.width)x\(src.height) frame")
        precondition(window.x >= 0 && window.y >= 0 && window.x + window.width <= fullWidth
                     && window.y + window.height <= fullHeight, "window \(window) is outside \(fullWidth)x\(fullHeight)")
        precondition(dst.width == window.width && dst.height == window.height,
                     "destination \(dst.width)x\(dst.height) is not the window's size \(window.width)x\(window.height)")
        precondition(!Orientation.overlaps(src, dst), "source and destination of a zoom overlap")

        if r.width == fullWidth && r.height == fullHeight {
            dst.copyPixels(from: src.subview(PixelRect(x: r.x + window.x, y: r.y + window.y,
                                                       width: window.width, height: window.height)))
            return
        }
        let columns = samples(count: window.width, offset: window.x, full: fullWidth, source: r.width)
        let rows = samples(count: window.height, offset: window.y, full: fullHeight, source: r.height)
        let base = src.subview(r)
        let horizontalCopy = r.width == fullWidth   // every column weight is 0: columns are copied

        columns.first.withUnsafeBufferPointer { x0s in
        columns.second.withUnsafeBufferPointer { x1s in
        columns.weight.withUnsafeBufferPointer { fxs in
        rows.first.withUnsafeBufferPointer { y0s in
        rows.second.withUnsafeBufferPointer { y1s in
        rows.weight.withUnsafeBufferPointer { fys in
            RowSplitter.shared.run(rows: dst.height, columns: dst.width) { range in
                scaleRows(range, base: base, dst: dst, horizontalCopy: horizontalCopy,
                          x0s: x0s, x1s: x1s, fxs: fxs, y0s: y0s, y1s: y1s, fys: fys)
            }
        }}}}}}
    }

    /// Rows `range` of the window. Each source row is scaled horizontally once into one of
    /// two cached rows (with zoom ≥ 1 consecutive output rows share source rows); output
    /// rows are then a vertical blend of the two cached rows, which vectorizes.
    private static func scaleRows(_ range: Range<Int>, base: FrameView, dst: FrameView, horizontalCopy: Bool,
                                  x0s: UnsafeBufferPointer<Int32>, x1s: UnsafeBufferPointer<Int32>,
                                  fxs: UnsafeBufferPointer<UInt32>, y0s: UnsafeBufferPointer<Int32>,
                                  y1s: UnsafeBufferPointer<Int32>, fys: UnsafeBufferPointer<UInt32>) {
        let w = dst.width
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 4 * w) { buffer in
            let memory = buffer.baseAddress!
            var rowA = memory, rowB = memory + w
            let left = memory + 2 * w, right = memory + 3 * w
            var cachedA = -1, cachedB = -1
            let x0 = x0s.baseAddress!, x1 = x1s.baseAddress!, fx = fxs.baseAddress!

            func horizontal(_ sourceRow: Int, into out: UnsafeMutablePointer<UInt32>) {
                let s = UnsafePointer(base.row(sourceRow))
                if horizontalCopy {
                    UnsafeMutableRawPointer(out).copyMemory(from: s + Int(x0[0]), byteCount: w &* 4)
                    return
                }
                // Gather the two neighbours first: the blend loop then runs on contiguous
                // rows and vectorizes.
                for i in 0..<w {
                    left[i] = s[Int(x0[i])]
                    right[i] = s[Int(x1[i])]
                }
                for i in 0..<w {
                    out[i] = lerp(left[i], right[i], fx[i])
                }
            }

            for j in range {
                let ya = Int(y0s[j]), yb = Int(y1s[j]), fy = fys[j]
                if cachedA != ya {
                    if cachedB == ya {
                        swap(&rowA, &rowB)
                        swap(&cachedA, &cachedB)
                    } else {
                        horizontal(ya, into: rowA)
                        cachedA = ya
                    }
                }
                let d = dst.row(j)
                if fy == 0 {
                    UnsafeMutableRawPointer(d).copyMemory(from: rowA, byteCount: w &* 4)
                    continue
                }
                if cachedB != yb {
                    horizontal(yb, into: rowB)
                    cachedB = yb
                }
                let a = UnsafePointer(rowA), b = UnsafePointer(rowB)
                for i in 0..<w {
                    d[i] = lerp(a[i], b[i], fy)
                }
            }
        }
    }

    /// For each destination index: the two source indices and the weight (0…255, of 256)
    /// of the second one.
    static func samples(count: Int, offset: Int, full: Int, source: Int)
        -> (first: [Int32], second: [Int32], weight: [UInt32]) {
        var first = [Int32](repeating: 0, count: count)
        var second = first
        var weight = [UInt32](repeating: 0, count: count)
        let ratio = Double(source) / Double(full)
        for k in 0..<count {
            let pos = (Double(offset + k) + 0.5) * ratio - 0.5
            var i = Int(pos.rounded(.down))
            var f = Int(((pos - Double(i)) * 256).rounded())
            if f == 256 { i += 1; f = 0 }
            if i < 0 { i = 0; f = 0 }
            if i >= source - 1 { i = source - 1; f = 0 }
            first[k] = Int32(i)
            second[k] = Int32(min(i + 1, source - 1))
            weight[k] = UInt32(f)
        }
        return (first, second, weight)
    }

    /// a + (b − a)·f/256 on all four channels at once, two 8-bit channels per 16-bit lane
    /// (255·256 + 128 < 65536, so lanes never carry into each other).
    @inline(__always)
    static func lerp(_ a: UInt32, _ b: UInt32, _ f: UInt32) -> UInt32 {
        let g = 256 &- f
        let m: UInt32 = 0x00FF_00FF
        let rb = ((a & m) &* g &+ (b & m) &* f &+ 0x0080_0080) >> 8 & m
        let ag = (((a >> 8) & m) &* g &+ ((b >> 8) & m) &* f &+ 0x0080_0080) & ~m
        return rb | ag
    }
}
