import CPixelGather

/// A `ColorMatrix` (affine on R′G′B′) on a YUV frame's samples, clamped as the RGB filter
/// clamps: per pixel, its luma and its site's chroma go to R′G′B′, through the matrix, each
/// channel is clamped to 0…255, and the result comes back to YUV (luma per pixel, chroma
/// from the mean of the site's clamped R′G′B′). The frame never becomes RGB; the three
/// small matrices are folded together where no clamp sits between them.
///
/// Without the clamp in R′G′B′ (one affine map on the samples, `YUVAffine`), a matrix that
/// pushes colours past 0…255 (contrast 3, brightness 0.5, channel gains of 2) looked unlike
/// its RGB result (a red flag stayed deep red where RGB washes it pink; 55–81 levels of
/// luma apart) and left samples outside video range (Y up to 255 in limited-range frames,
/// which encoders keep as superwhites). Clamped in R′G′B′, the result stays in range and
/// within ±2 of the RGB result where chroma is flat over each site.
struct YUVColourMatrix {
    static let tolerance = "±2 per sample where chroma is flat over each chroma site, clamping channels included (each R′G′B′ channel is clamped to 0…255 per pixel, as in RGB); at colour edges inside a chroma site, where two colours share one chroma sample, more: on colour bars up to 27 (channel-mix's example matrix), 39 (contrast=3), 50 (saturation=2), 91 (channel gains of 2)"

    /// YUV samples → R′G′B′ after the matrix (× 1024): rows R, G, B of
    /// `[y, u − 128, v − 128, offset]`.
    let toRGB: [Int32]
    /// R′G′B′ (× 1024) → YUV samples (× 2²⁰ with the coefficients × 1024): rows Y, U, V of
    /// `[r, g, b, offset + ½]`.
    let toYUV: [Int32]

    init(_ m: ColorMatrix, _ yuv: YUVMatrix) {
        let forward = YUVAffine.forward(yuv)
        let rgb: [[Double]] = (0..<3).map { (r: Int) -> [Double] in
            let row: [Double] = Array(m.m[(r * 4)..<(r * 4 + 4)])
            return [row[0], row[1], row[2], row[3] * 255]
        }
        let samplesToRGB = YUVAffine.compose(rgb, YUVAffine.invert(forward))
        toRGB = samplesToRGB.flatMap { row -> [Int32] in
            let offset = row[3] + 128 * (row[1] + row[2])   // inputs are centred chroma
            return [row[0], row[1], row[2], offset].map { Int32(($0 * 1024).rounded()) }
        }
        toYUV = forward.flatMap { row -> [Int32] in
            [row[0], row[1], row[2]].map { Int32(($0 * 1024).rounded()) } + [Int32((row[3] * 1_048_576).rounded()) + 524_288]
        }
    }

    /// Applies the matrix to every chroma site of `frame`, in place: the whole sites of each
    /// 4:2:0 row pair in C (`fc_colour_matrix_420`, which vectorizes), the rest (packed
    /// frames, odd edges) site by site.
    func apply(to frame: YUVFrame) {
        let site = Site(toRGB: toRGB, toYUV: toYUV)
        let rows = ChromaSiteRows(frame)
        if rows.isPacked { return frame.forEachChromaSite(site) }
        let k = toRGB + toYUV, whole = rows.width / 2
        RowSplitter.shared.run(rows: rows.count, columns: rows.sitesPerRow) { range in
            k.withUnsafeBufferPointer { k in
                for row in range {
                    let (top, bottom) = rows.lumaRows(row)
                    guard let bottom, whole > 0 else {
                        rows.visit(row: row, from: 0, site)
                        continue
                    }
                    let (u, v) = rows.chroma(row)
                    fc_colour_matrix_420(top, bottom, u, v, whole, Int32(rows.chromaStep), k.baseAddress)
                    rows.visit(row: row, from: whole, site)
                }
            }
        }
    }

    private struct Site: ChromaSiteVisitor {
        let ry, ru, rv, ro, gy, gu, gv, go, by, bu, bv, bo: Int32
        let yr, yg, yb, yo, ur, ug, ub, uo, vr, vg, vb, vo: Int32
        init(toRGB k: [Int32], toYUV f: [Int32]) {
            (ry, ru, rv, ro) = (k[0], k[1], k[2], k[3])
            (gy, gu, gv, go) = (k[4], k[5], k[6], k[7])
            (by, bu, bv, bo) = (k[8], k[9], k[10], k[11])
            (yr, yg, yb, yo) = (f[0], f[1], f[2], f[3])
            (ur, ug, ub, uo) = (f[4], f[5], f[6], f[7])
            (vr, vg, vb, vo) = (f[8], f[9], f[10], f[11])
        }

        /// A channel × 1024, clamped to 0…255 × 1024.
        @inline(__always) private static func channel(_ x: Int32) -> Int32 { min(max(x, 0), 261_120) }

        /// The site's chroma parts of R′, G′, B′ (× 1024, offsets in).
        @inline(__always)
        private func chromaParts(_ u: UInt8, _ v: UInt8) -> (r: Int32, g: Int32, b: Int32) {
            let cu = Int32(u) &- 128, cv = Int32(v) &- 128
            return (ru &* cu &+ rv &* cv &+ ro, gu &* cu &+ gv &* cv &+ go, bu &* cu &+ bv &* cv &+ bo)
        }

        /// One pixel: its new luma, and its clamped R′G′B′ added to the site's sums.
        @inline(__always)
        private func pixel(_ y: inout UInt8, _ c: (r: Int32, g: Int32, b: Int32), _ sum: inout (r: Int32, g: Int32, b: Int32)) {
            let l = Int32(y)
            let r = Self.channel(ry &* l &+ c.r), g = Self.channel(gy &* l &+ c.g), b = Self.channel(by &* l &+ c.b)
            y = clampedByte((yr &* r &+ yg &* g &+ yb &* b &+ yo) &>> 20)
            sum.r &+= r; sum.g &+= g; sum.b &+= b
        }

        /// The site's chroma from the mean of its `n` pixels' clamped R′G′B′ (a site has 4,
        /// 2 or 1 pixels: a shift).
        @inline(__always)
        private func chroma(_ sum: (r: Int32, g: Int32, b: Int32), _ n: Int32, _ u: inout UInt8, _ v: inout UInt8) {
            let shift: Int32 = n == 4 ? 2 : n == 2 ? 1 : 0, half = (1 &<< shift) &>> 1
            let r = (sum.r &+ half) &>> shift, g = (sum.g &+ half) &>> shift, b = (sum.b &+ half) &>> shift
            u = clampedByte((ur &* r &+ ug &* g &+ ub &* b &+ uo) &>> 20)
            v = clampedByte((vr &* r &+ vg &* g &+ vb &* b &+ vo) &>> 20)
        }

        @inline(__always)
        func visit(_ site: ChromaSite) {
            let c = chromaParts(site.u.pointee, site.v.pointee)
            var sum: (r: Int32, g: Int32, b: Int32) = (0, 0, 0)
            var n: Int32 = 1
            pixel(&site.y0.pointee, c, &sum)
            if let y1 = site.y1 { pixel(&y1.pointee, c, &sum); n &+= 1 }
            if let y2 = site.y2 { pixel(&y2.pointee, c, &sum); n &+= 1 }
            if let y3 = site.y3 { pixel(&y3.pointee, c, &sum); n &+= 1 }
            chroma(sum, n, &site.u.pointee, &site.v.pointee)
        }
    }
}
