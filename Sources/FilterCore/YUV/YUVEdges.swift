/// Edges and focus peaking on YUV planes: Sobel on the luma plane as it is. A video-range
/// luma sample is 219/255 of the grey level it stands for, so the gradient of the samples
/// is 219/255 of the grey's, which is also how a grey level becomes a luma sample again:
/// the RGB filters' `min(|gx| + |gy|, 255)` of grey becomes `min(|gx| + |gy|, 219)` of
/// luma, above black (full range: 255 and 255, no scaling).
///
/// Against the RGB result through videoconvert: luma samples are rounded (and 220 of them
/// stand for 256 grey levels), and Sobel sums eight of them with weights 1 and 2; between
/// two flat areas the rounding of each side adds up: measured ±3 on colour bars, a gradient
/// and noise, up to 7 on a photo. BT.709 frames give edges of BT.709 luma rather than
/// Rec.601's.

/// Edges: luma becomes `black + min(|gx| + |gy|, white − black)` of the luma samples,
/// chroma 128 (grey).
extension EdgesFilter: YUVFilter {
    func apply(to frame: YUVFrame) {
        let grid = frame.lumaGrid, plane = grid.padded(in: grey)
        let (black, white) = frame.lumaRange
        let span = white &- black, w = grid.width, s = grid.step
        RowSplitter.shared.run(rows: grid.height, columns: w) { rows in
            for y in rows {
                let above = plane.row(y &- 1), at = plane.row(y), below = plane.row(y &+ 1)
                let out = grid.row(y)
                for x in 0..<w {
                    out[x &* s] = UInt8(truncatingIfNeeded: black &+ min(sobelMagnitude(above, at, below, x), span))
                }
            }
        }
        let neutral = [UInt8](repeating: 128, count: 256)
        frame.mapChroma(u: neutral, v: neutral)
    }
    var yuvTolerance: String {
        "±3 per sample on BT.601 colour bars, gradients and noise; up to 7 on a photo (Sobel sums the rounding of 8 luma samples)"
    }
}

/// Focus peaking: a pixel is painted where the Sobel magnitude of luma, in grey levels
/// (× 255/219 in video range), is above `threshold`; painted pixels take the colour's luma
/// (`YUVMatrix.samples`), and each chroma site moves towards the colour's chroma by the
/// share of its pixels painted (what videoconvert's mean of the pixels' chroma gives).
/// Pixels whose edge strength lies within a step or two of the threshold can be painted
/// on one side and not on the other: such a pixel differs by the colour's distance.
/// Measured: ±1 on colour bars, a gradient and noise; on a photo 1.5–2.5 % of the samples
/// differ by more than 2 (up to 104, a red or green pixel against the picture's).
extension FocusPeakingFilter: YUVFilter {
    func apply(to frame: YUVFrame) {
        if threshold >= 255 { return }
        let grid = frame.lumaGrid, plane = grid.padded(in: grey)
        let w = grid.width, h = grid.height, s = grid.step
        let full = frame.matrix.fullRange
        // magnitude · 255/219 > threshold, without a division.
        let scale: Int32 = full ? 1 : 255, limit = Int32(threshold) * (full ? 1 : 219)
        let c = frame.matrix.samples(r: Double((color >> 16) & 0xFF), g: Double((color >> 8) & 0xFF),
                                     b: Double(color & 0xFF))
        let marks = painted.reserve(w * h)
        RowSplitter.shared.run(rows: h, columns: w) { rows in
            for y in rows {
                let above = plane.row(y &- 1), at = plane.row(y), below = plane.row(y &+ 1)
                let out = grid.row(y), mark = marks + y &* w
                for x in 0..<w {
                    let paint = sobelMagnitude(above, at, below, x) &* scale > limit
                    mark[x] = paint ? 1 : 0
                    if paint { out[x &* s] = c.y }
                }
            }
        }
        let u = frame.chromaGrid(v: false), v = frame.chromaGrid(v: true)
        let rowsPerSite = frame.format.isPacked ? 1 : 2
        let cu = Int32(c.u), cv = Int32(c.v)
        RowSplitter.shared.run(rows: u.height, columns: u.width) { rows in
            for cy in rows {
                let top = marks + rowsPerSite &* cy &* w
                let bottom: UnsafeMutablePointer<UInt8>? = rowsPerSite == 2 && 2 &* cy &+ 1 < h ? top + w : nil
                let ur = u.row(cy), vr = v.row(cy)
                for cx in 0..<u.width {
                    let x0 = 2 &* cx, pair = x0 &+ 1 < w
                    var n: Int32 = 1, p = Int32(top[x0])
                    if pair { n &+= 1; p &+= Int32(top[x0 &+ 1]) }
                    if let bottom {
                        n &+= 1; p &+= Int32(bottom[x0])
                        if pair { n &+= 1; p &+= Int32(bottom[x0 &+ 1]) }
                    }
                    if p == 0 { continue }
                    let i = cx &* u.step
                    ur[i] = UInt8(truncatingIfNeeded: (Int32(ur[i]) &* (n &- p) &+ cu &* p &+ n / 2) / n)
                    vr[i] = UInt8(truncatingIfNeeded: (Int32(vr[i]) &* (n &- p) &+ cv &* p &+ n / 2) / n)
                }
            }
        }
    }
    var yuvTolerance: String {
        "±2 per sample where both paint the same pixels (colour bars, a gradient, noise); pixels whose edge strength is within a few levels of the threshold may be painted on one side only: up to 3 % of a photo's samples, each off by up to the colour's distance"
    }
}
