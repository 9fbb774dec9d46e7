/// Edges and focus peaking on YUV planes: Sobel on the luma plane as it is. A video-range
/// luma sample is 219/255 of the grey level it stands for, so the gradient of the samples
/// is 219/255 of the grey's, which is also how a grey level becomes a luma sample again:
/// the RGB filters' `min(|gx| + |gy|, 255)` of grey becomes `min(|gx| + |gy|, 219)` of
/// luma, above black (full range: 255 and 255, no scaling).
///
/// Against the RGB result through videoconvert: luma samples are rounded (and 220 of them
/// stand for 256 grey levels), and Sobel sums eight of them with weights 1 and 2; between
/// two flat areas the rounding of each side adds up: measured ±3 on colour bars, a gradient
/// and noise, up to 8 on a photo. BT.709 frames give edges of BT.709 luma rather than
/// Rec.601's.

/// Edges: luma becomes `black + min(|gx| + |gy|, white − black)` of the luma samples,
/// chroma 128 (grey).
extension EdgesFilter: YUVFilter {
    func apply(to frame: YUVFrame) {
        let grid = frame.lumaGrid, plane = grid.padded(in: grey)
        let (black, white) = frame.lumaRange
        let span = white &- black, w = grid.width
        RowSplitter.shared.run(rows: grid.height, columns: w) { rows in
            for y in rows {
                let above = plane.row(y &- 1), at = plane.row(y), below = plane.row(y &+ 1)
                grid.fill(row: y) { out in
                    for x in 0..<w {
                        out[x] = UInt8(truncatingIfNeeded: black &+ min(sobelMagnitude(above, at, below, x), span))
                    }
                }
            }
        }
        let neutral = [UInt8](repeating: 128, count: 256)
        frame.mapChroma(u: neutral, v: neutral)
    }
    var yuvTolerance: String {
        "±6 per sample on BT.601 colour bars, gradients and noise (5–6 measured at 320×240 and 640×480, 3 at 32×16); up to 8 on a photo (Sobel sums the rounding of 8 luma samples)"
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
        let w = grid.width, h = grid.height
        let full = frame.matrix.fullRange
        // magnitude · 255/219 > threshold, i.e. magnitude · 255 > threshold · 219: for a whole
        // magnitude that is magnitude > ⌊threshold · 219 / 255⌋.
        let limit = full ? Int32(threshold) : Int32(threshold) * 219 / 255
        let c = frame.matrix.samples(r: Double((color >> 16) & 0xFF), g: Double((color >> 8) & 0xFF),
                                     b: Double(color & 0xFF))
        if frame.format.isPacked {
            return frame.forEachMacropixel(FocusPeakingMacropixel(plane: plane, limit: limit, paint: c))
        }
        let marks = painted.reserve(w * h)
        RowSplitter.shared.run(rows: h, columns: w) { rows in
            for y in rows {
                let above = plane.row(y &- 1), at = plane.row(y), below = plane.row(y &+ 1)
                let mark = marks + y &* w, paintY = c.y
                // Without a branch, so that the row vectorizes: `paint` is all ones where
                // painted (the sign of limit − magnitude), else 0. A store only where painted,
                // or `paint ? colour : luma`, left it scalar (2.9 ms a 720p I420 frame on one
                // thread, edges 0.5).
                grid.fill(row: y) { out in
                    for x in 0..<w {
                        let paint = UInt8(truncatingIfNeeded: (limit &- sobelMagnitude(above, at, below, x)) &>> 31)
                        mark[x] = paint & 1
                        out[x] = (paintY & paint) | (at[x] & ~paint)
                    }
                }
            }
        }
        let u = frame.chromaGrid(v: false), v = frame.chromaGrid(v: true)
        RowSplitter.shared.run(rows: u.height, columns: u.width) { rows in
            withUnsafeTemporaryAllocation(of: Int32.self, capacity: 2 * u.width) { buffer in
                let painted = buffer.baseAddress!, shifts = painted + u.width
                for cy in rows {
                    Self.countPainted(marks, row: cy, width: w, height: h,
                                      sites: u.width, painted: painted, shifts: shifts)
                    // Each site moves towards the colour by the share of it painted, rounded.
                    @inline(__always) func towardsColour(_ grid: SampleGrid, _ target: UInt8) {
                        let r = grid.row(cy)
                        grid.fill(row: cy) { out in
                            grid.withConstantStep { s in
                                for cx in 0..<grid.width {
                                    out[cx] = Self.moved(r[cx &* s], towards: target, share: painted[cx], shift: shifts[cx])
                                }
                            }
                        }
                    }
                    towardsColour(u, c.u)
                    towardsColour(v, c.v)
                }
            }
        }
    }

    /// A chroma sample `c` moved towards `target` by `share` of the site's `1 << shift`
    /// pixels, rounded: the mean of the pixels' chroma, painted ones taking the colour's.
    @inline(__always)
    static func moved(_ c: UInt8, towards target: UInt8, share: Int32, shift: Int32) -> UInt8 {
        let n = Int32(1) &<< shift
        return UInt8(truncatingIfNeeded: (Int32(c) &* (n &- share) &+ Int32(target) &* share &+ n &>> 1) &>> shift)
    }

    /// For each chroma site of site row `row`: how many of its pixels are painted, and the
    /// log2 of how many pixels it has (4, fewer at odd edges), so that
    /// the mean is a shift (a division does not vectorize).
    @inline(__always)
    private static func countPainted(_ marks: UnsafeMutablePointer<UInt8>, row: Int, width w: Int, height h: Int,
                                     sites: Int, painted: UnsafeMutablePointer<Int32>, shifts: UnsafeMutablePointer<Int32>) {
        let top = marks + 2 &* row &* w
        let bottom = 2 &* row &+ 1 < h ? top + w : nil
        let whole = w / 2
        if let bottom {
            for cx in 0..<whole {
                painted[cx] = Int32(top[2 &* cx]) &+ Int32(top[2 &* cx &+ 1]) &+ Int32(bottom[2 &* cx]) &+ Int32(bottom[2 &* cx &+ 1])
                shifts[cx] = 2
            }
        } else {
            for cx in 0..<whole {
                painted[cx] = Int32(top[2 &* cx]) &+ Int32(top[2 &* cx &+ 1])
                shifts[cx] = 1
            }
        }
        if whole < sites {   // an odd width's last column
            painted[whole] = Int32(top[2 &* whole]) &+ (bottom.map { Int32($0[2 &* whole]) } ?? 0)
            shifts[whole] = bottom == nil ? 0 : 1
        }
    }
    var yuvTolerance: String {
        "±2 per sample where both paint the same pixels (colour bars, a gradient, noise); pixels whose edge strength is within a few levels of the threshold may be painted on one side only: up to 3 % of a photo's samples, each off by up to the colour's distance"
    }
}

/// Focus peaking on a YUY2/UYVY macropixel, in one pass: each pixel painted or not from the
/// Sobel magnitude of `plane` (the frame's luma as it was, padded), and the chroma moved
/// towards the colour by the share of the two pixels painted, as the 4:2:0 path does per
/// site (720p, one thread, whole process per frame: YUY2 1.15–1.36 ms with a luma pass,
/// marks and two chroma passes, 0.82–0.97 in one; BGRx 0.65–0.78).
struct FocusPeakingMacropixel: MacropixelVisitor {
    let plane: PaddedPlane<UInt8>
    let limit: Int32
    let paint: (y: UInt8, u: UInt8, v: UInt8)

    typealias Rows = (above: UnsafeMutablePointer<UInt8>, at: UnsafeMutablePointer<UInt8>, below: UnsafeMutablePointer<UInt8>)

    @inline(__always)
    func rowState(_ row: Int) -> Rows { (plane.row(row &- 1), plane.row(row), plane.row(row &+ 1)) }

    /// All ones where pixel `x` is painted, else 0 (without a branch, so that it vectorizes).
    @inline(__always)
    private func painted(_ rows: Rows, _ x: Int) -> Int32 {
        (limit &- sobelMagnitude(rows.above, rows.at, rows.below, x)) &>> 31
    }

    @inline(__always)
    private func luma(_ y: UInt8, _ painted: Int32) -> UInt8 {
        let mask = UInt8(truncatingIfNeeded: painted)
        return (paint.y & mask) | (y & ~mask)
    }

    @inline(__always)
    func visit(_ y0: inout UInt8, _ y1: inout UInt8, _ u: inout UInt8, _ v: inout UInt8, column i: Int, row: Rows) {
        let p0 = painted(row, 2 &* i), p1 = painted(row, 2 &* i &+ 1), share = (p0 & 1) &+ (p1 & 1)
        y0 = luma(y0, p0)
        y1 = luma(y1, p1)
        u = FocusPeakingFilter.moved(u, towards: paint.u, share: share, shift: 1)
        v = FocusPeakingFilter.moved(v, towards: paint.v, share: share, shift: 1)
    }

    @inline(__always)
    func visitPadded(_ y0: inout UInt8, _ u: inout UInt8, _ v: inout UInt8, column i: Int, row: Rows) {
        let p0 = painted(row, 2 &* i)
        y0 = luma(y0, p0)
        u = FocusPeakingFilter.moved(u, towards: paint.u, share: p0 & 1, shift: 0)
        v = FocusPeakingFilter.moved(v, towards: paint.v, share: p0 & 1, shift: 0)
    }
}
