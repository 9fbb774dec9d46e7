/// Blur and sharpen on YUV planes: both are linear in R′G′B′ (up to rounding and
/// clamping), so they carry over to luma and chroma unchanged; what needs care is that a
/// chroma sample stands for the mean of 2 (4:2:2) or 2×2 (4:2:0) pixels, as
/// `videoconvert` makes it. A kernel of pixels seen by such samples is the pixel kernel
/// convolved with that mean and read at the samples' spacing (`RunningKernel.sites`).

/// A 1-D smoothing kernel along one axis of a grid, in running-sum form:
///
///     out = (4·S + e·(c[−E] + c[+E])) / D,   S = Σ c[−R…R]
///
/// - `box(r)`: the mean of 2r + 1 samples (e = 0, D = 4(2r + 1));
/// - `sites(pixelRadius: r)`: what a box of 2r + 1 *pixels* becomes on samples that each
///   hold the mean of 2 pixels. The pixel box convolved with the pair mean weighs pixels
///   −r and r + 1 by ½, the ones between by 1 (in units of 1/(2r + 1)); summed per pair:
///   r even (R = r/2): pairs −R and R get 1.5, the inner ones 2, i.e. `(4S − c[−R] − c[R]) / (4r + 2)`;
///   r odd (R = (r − 1)/2): pairs −R…R get 2, pairs ±(R + 1) get ½, i.e. `(4S + c[−R−1] + c[R+1]) / (4r + 2)`.
///   (r = 2: weights 0.3, 0.4, 0.3; r = 1: 1/6, 4/6, 1/6.)
///
/// Means are rounded to nearest through a reciprocal with 24 fractional bits (error
/// below 0.002 of a step before rounding).
struct RunningKernel {
    let radius: Int
    let edge: Int
    let edgeWeight: Int32
    let reciprocal: UInt64

    private init(radius: Int, edge: Int, edgeWeight: Int32, divisor: Int) {
        self.radius = radius
        self.edge = edge
        self.edgeWeight = edgeWeight
        reciprocal = (UInt64(1 << 24) + UInt64(divisor / 2)) / UInt64(divisor)
    }

    static func box(_ r: Int) -> RunningKernel {
        RunningKernel(radius: r, edge: 0, edgeWeight: 0, divisor: 4 * (2 * r + 1))
    }

    static func sites(pixelRadius r: Int) -> RunningKernel {
        r % 2 == 0
            ? RunningKernel(radius: r / 2, edge: r / 2, edgeWeight: -1, divisor: 4 * r + 2)
            : RunningKernel(radius: (r - 1) / 2, edge: (r + 1) / 2, edgeWeight: 1, divisor: 4 * r + 2)
    }

    /// The rounded mean from the window's sum and the two edge samples' sum.
    @inline(__always)
    func mean(_ sum: Int32, _ ends: Int32) -> UInt8 {
        let n = UInt64(UInt32(bitPattern: 4 &* sum &+ edgeWeight &* ends))
        return UInt8(truncatingIfNeeded: (n &* reciprocal &+ (1 << 23)) &>> 24)
    }
}

enum YUVNeighbourhood {
    /// Smooths `grid` in place: `across` along rows, then `down` along columns (edge
    /// samples repeated outside), through `rows` (the first pass's result) and `sums`
    /// (running column sums of each band).
    static func blur(_ grid: SampleGrid, across: RunningKernel, down: RunningKernel,
                     rows: Scratch<UInt8>, sums: Scratch<Int32>) {
        let w = grid.width, h = grid.height
        let tmp = rows.reserve(w * h)
        let r = across.radius, e = across.edge
        // Each row copied with its edge samples repeated `pad` times on both sides, and its
        // running sums (`prefix[x]`: the samples before x), so that a window's sum is one
        // difference and the loop that makes the means vectorizes; a sum carried from one
        // sample to the next did not (blur on I420 at 720p: 6 ms a frame on one thread).
        let pad = max(r &+ 1, e)
        RowSplitter.shared.run(rows: h, columns: w) { band in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: w &+ 2 &* pad) { samples in
            withUnsafeTemporaryAllocation(of: Int32.self, capacity: w &+ 2 &* pad &+ 1) { sums in
                let line = samples.baseAddress! + pad, prefix = sums.baseAddress! + pad
                for y in band {
                    let input = grid.row(y), out = tmp + y &* w
                    grid.withConstantStep { s in for x in 0..<w { line[x] = input[x &* s] } }
                    for i in 1...pad {
                        line[-i] = line[0]
                        line[w &- 1 &+ i] = line[w &- 1]
                    }
                    var total: Int32 = 0
                    for x in -pad..<(w &+ pad) {
                        prefix[x] = total
                        total &+= Int32(line[x])
                    }
                    prefix[w &+ pad] = total
                    for x in 0..<w {
                        out[x] = across.mean(prefix[x &+ r &+ 1] &- prefix[x &- r], Int32(line[x &- e]) &+ Int32(line[x &+ e]))
                    }
                }
            }
            }
        }
        let columns = sums.reserve(2 * w)
        let rd = down.radius, ed = down.edge
        @inline(__always) func tmpRow(_ y: Int) -> UnsafeMutablePointer<UInt8> { tmp + min(max(y, 0), h &- 1) &* w }
        RowSplitter.shared.splitIntoBands(width: w, height: h) { band, rows in
            let column = columns + band &* w
            column.update(repeating: 0, count: w)
            for i in (rows.lowerBound - rd)...(rows.lowerBound + rd) {
                let above = tmpRow(i)
                for x in 0..<w { column[x] &+= Int32(above[x]) }
            }
            for y in rows {
                let top = tmpRow(y &- ed), bottom = tmpRow(y &+ ed)
                let entering = tmpRow(y &+ rd &+ 1), leaving = tmpRow(y &- rd)
                grid.fill(row: y) { out in
                    for x in 0..<w {
                        out[x] = down.mean(column[x], Int32(top[x]) &+ Int32(bottom[x]))
                        column[x] = column[x] &+ Int32(entering[x]) &- Int32(leaving[x])
                    }
                }
            }
        }
    }

    /// Unsharp mask of `grid` in place, as `SharpenFilter` does it to each channel:
    /// `c + amount (c − m)`, m the mean of the 3×3 neighbourhood (edge samples repeated),
    /// `K = round(amount · 65536 / 9)`, `c + ((9c − Σ) K + 32768) >> 16`; clamped to `low…high`.
    static func sharpen(_ grid: SampleGrid, amount: Double, low: Int32, high: Int32, copy: Scratch<UInt8>) {
        let k = Int32((amount * 65536 / 9).rounded())
        if k == 0 { return }
        let plane = grid.padded(in: copy)
        let w = grid.width
        RowSplitter.shared.run(rows: grid.height, columns: w) { rows in
            for y in rows {
                let above = plane.row(y &- 1), at = plane.row(y), below = plane.row(y &+ 1)
                @inline(__always) func across(_ r: UnsafeMutablePointer<UInt8>, _ x: Int) -> Int32 {
                    Int32(r[x &- 1]) &+ Int32(r[x]) &+ Int32(r[x &+ 1])
                }
                grid.fill(row: y) { out in
                    for x in 0..<w {
                        let c = Int32(at[x])
                        let sum = across(above, x) &+ across(at, x) &+ across(below, x)
                        let v = c &+ ((9 &* c &- sum) &* k &+ 32768) &>> 16
                        out[x] = UInt8(truncatingIfNeeded: min(max(v, low), high))
                    }
                }
            }
        }
    }
}

/// Blur on YUV planes: each plane box-blurred. Luma with the RGB filter's box; chroma with
/// the same box of pixels seen by chroma samples (`RunningKernel.sites`: along both axes
/// of 4:2:0, across only for 4:2:2, whose rows are not subsampled).
///
/// The blur is linear, so luma follows the RGB result within rounding (each pass rounds,
/// as the RGB filter's passes do). Chroma equals the blurred pixels' chroma averaged per
/// site where chroma is flat over each site; where it changes inside one (a colour edge
/// that does not fall between sites) the pixels' own chroma is gone and the result differs
/// more: measured (radius 1, 2 and 5, every format) ±1 on a gradient and noise, up to 6 on
/// a photo at 320×240 and 11 on one of 64×48 (more colour edges per site), and on colour bars, whose edges fall inside sites, 21 at radius 1 (13 at 2, 4
/// at 5). (A box of half the radius on chroma instead came to 58 at radius 1.)
extension BlurFilter: YUVFilter {
    func apply(to frame: YUVFrame) {
        if radius == 0 { return }
        let luma = RunningKernel.box(radius), chroma = RunningKernel.sites(pixelRadius: radius)
        let grids = frame.sampleGrids
        YUVNeighbourhood.blur(grids[0], across: luma, down: luma, rows: yuvRows, sums: yuvSums)
        for g in grids[1...] {
            YUVNeighbourhood.blur(g, across: chroma, down: frame.format.isPacked ? luma : chroma,
                                  rows: yuvRows, sums: yuvSums)
        }
    }
    var yuvTolerance: String {
        "±2 per sample where chroma is flat over each chroma site (a gradient, noise); up to 11 on a photo (small pictures; 6 at 320×240) and 21 at colour edges inside chroma sites (colour bars, radius 1); frames of a few sites more (3×3 colour bars: 27, 37 at radius 32)"
    }
}

/// Sharpen on YUV planes: the unsharp mask on the luma plane with the RGB filter's 3×3 box
/// and fixed point, clamped to the frame's black…white; chroma is left as it is. The mask is
/// linear, so sharpened R′G′B′ has exactly the sharpened luma; its chroma would be
/// sharpened too, but sharpening the subsampled chroma (even with the kernel of pixels seen
/// by chroma sites) came out further from the RGB result than leaving it: at colour edges a
/// site already mixes both sides, and sharpening that mix overshoots (measured on colour
/// bars: 22 against 7 at amount 0.5).
///
/// Where the RGB result clamps a channel (saturated colours at edges: a channel at 0 or
/// 255 cannot go further while luma can), luma differs by as much as the clamp took:
/// measured at amount 0.5 ±1 on a gradient and noise, 19 on a photo, 43 on colour bars
/// (49 in full range; 85 on colour bars at amount 2).
extension SharpenFilter: YUVFilter {
    func apply(to frame: YUVFrame) {
        let range = frame.lumaRange
        YUVNeighbourhood.sharpen(frame.lumaGrid, amount: amount, low: range.black, high: range.white, copy: yuvCopy)
    }
    var yuvTolerance: String {
        "±2 per sample where no channel of the RGB result clamps (a gradient, noise); up to 20 on a photo and 49 on colour bars, whose saturated colours clamp (amount 0.5; more at larger amounts)"
    }
}
