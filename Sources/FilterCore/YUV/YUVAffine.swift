/// An affine map on R′G′B′ carried into YUV samples: `A · M · A⁻¹`, with A the frame's
/// R′G′B′ → YUV matrix (`YUVMatrix`). Used to re-express samples in another matrix or range
/// (`init(from:to:)`: the same R′G′B′, nothing to clamp); the colour filters, whose
/// matrices can push R′G′B′ past 0…255 and must clamp there as in RGB, go through
/// `YUVColourMatrix`, built from the same pieces (`forward`, `invert`, `compose`). Per
/// chroma site (the pixels sharing one U,V): each luma sample becomes `a·Y + b·U + c·V + d`
/// with the site's chroma, and the chroma becomes the same kind of sum of the site's mean
/// luma and its chroma.
struct YUVAffine {
    /// Rows Y, U, V of `[y, u − 128, v − 128, 1]` coefficients, × 1024 (offsets × 1024 + 512).
    let k: [Int32]

    init(_ m: ColorMatrix, _ yuv: YUVMatrix) {
        let forward = Self.forward(yuv)
        let inverse = Self.invert(forward)
        // RGB matrix with offsets in 0…255 units.
        let rgb: [[Double]] = (0..<3).map { (r: Int) -> [Double] in
            let row: [Double] = Array(m.m[(r * 4)..<(r * 4 + 4)])
            return [row[0], row[1], row[2], row[3] * 255]
        }
        self.init(samples: Self.compose(forward, Self.compose(rgb, inverse)))
    }

    /// Samples of `source`'s matrix and range re-expressed in `target`'s (the same R′G′B′).
    init(from source: YUVMatrix, to target: YUVMatrix) {
        self.init(samples: Self.compose(Self.forward(target), Self.invert(Self.forward(source))))
    }

    /// `t`: YUV samples → YUV samples, 3 rows of 4 (last column: offset).
    private init(samples t: [[Double]]) {
        // Inputs are centred chroma (u − 128): fold the 128s into the offsets.
        k = t.flatMap { row -> [Int32] in
            let offset = row[3] + 128 * (row[1] + row[2])
            return [row[0], row[1], row[2]].map { Int32(($0 * 1024).rounded()) } + [Int32((offset * 1024).rounded()) + 512]
        }
    }

    /// R′G′B′ (0…255) → Y, U, V samples, as 3 rows of 4 (last column: offset).
    static func forward(_ c: YUVMatrix) -> [[Double]] {
        let kg = 1 - c.kr - c.kb
        let sy = c.fullRange ? 1.0 : 219.0 / 255, sc = c.fullRange ? 1.0 : 224.0 / 255
        let oy = c.fullRange ? 0.0 : 16
        let ub = sc / (2 * (1 - c.kb)), vr = sc / (2 * (1 - c.kr))
        return [[sy * c.kr, sy * kg, sy * c.kb, oy],
                [-ub * c.kr, -ub * kg, ub * (1 - c.kb), 128],
                [vr * (1 - c.kr), -vr * kg, -vr * c.kb, 128]]
    }

    /// `a` after `b` for affine 3×4 matrices.
    static func compose(_ a: [[Double]], _ b: [[Double]]) -> [[Double]] {
        var out = [[Double]](repeating: [0, 0, 0, 0], count: 3)
        for r in 0..<3 {
            for c in 0..<4 {
                var v: Double = c == 3 ? a[r][3] : 0
                for i in 0..<3 { v += a[r][i] * b[i][c] }
                out[r][c] = v
            }
        }
        return out
    }

    /// The inverse of an invertible affine 3×4 matrix.
    static func invert(_ a: [[Double]]) -> [[Double]] {
        let m = a.map { Array($0[0..<3]) }
        let det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
            - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
        func cof(_ r: Int, _ c: Int) -> Double {
            let rs = (0..<3).filter { $0 != r }, cs = (0..<3).filter { $0 != c }
            let v = m[rs[0]][cs[0]] * m[rs[1]][cs[1]] - m[rs[0]][cs[1]] * m[rs[1]][cs[0]]
            return (r + c) % 2 == 0 ? v : -v
        }
        let inv = (0..<3).map { r in (0..<3).map { c in cof(c, r) / det } }
        return (0..<3).map { (r: Int) -> [Double] in
            var offset: Double = 0
            for i in 0..<3 { offset -= inv[r][i] * a[i][3] }
            return inv[r] + [offset]
        }
    }

    /// Applies the transform to every chroma site of `frame`, in place.
    func apply(to frame: YUVFrame) {
        frame.forEachChromaSite(Site(k))
    }

    /// One site: its chroma from the mean luma, each luma sample from itself and the chroma.
    private struct Site: WholeSiteVisitor {
        let y0, yu, yv, yo, u0, uu, uv, uo, v0, vu, vv, vo: Int32
        init(_ k: [Int32]) {
            (y0, yu, yv, yo) = (k[0], k[1], k[2], k[3])
            (u0, uu, uv, uo) = (k[4], k[5], k[6], k[7])
            (v0, vu, vv, vo) = (k[8], k[9], k[10], k[11])
        }
        @inline(__always) private static func clamp(_ x: Int32) -> UInt8 { clampedByte(x &>> 10) }

        @inline(__always)
        func visit(_ site: ChromaSite) {
            let cu = Int32(site.u.pointee) &- 128, cv = Int32(site.v.pointee) &- 128
            let mean = site.meanLuma
            site.u.pointee = Self.clamp(u0 &* mean &+ uu &* cu &+ uv &* cv &+ uo)
            site.v.pointee = Self.clamp(v0 &* mean &+ vu &* cu &+ vv &* cv &+ vo)
            let offset = yu &* cu &+ yv &* cv &+ yo, gain = y0
            site.mapLuma { Self.clamp(gain &* Int32($0) &+ offset) }
        }

        /// The same for a whole 4:2:0 site, by value.
        @inline(__always)
        func visit(_ l0: inout UInt8, _ l1: inout UInt8, _ l2: inout UInt8, _ l3: inout UInt8,
                   _ u: inout UInt8, _ v: inout UInt8) {
            let cu = Int32(u) &- 128, cv = Int32(v) &- 128
            let mean = (Int32(l0) &+ Int32(l1) &+ Int32(l2) &+ Int32(l3) &+ 2) &>> 2
            u = Self.clamp(u0 &* mean &+ uu &* cu &+ uv &* cv &+ uo)
            v = Self.clamp(v0 &* mean &+ vu &* cu &+ vv &* cv &+ vo)
            let offset = yu &* cu &+ yv &* cv &+ yo
            l0 = Self.clamp(y0 &* Int32(l0) &+ offset)
            l1 = Self.clamp(y0 &* Int32(l1) &+ offset)
            l2 = Self.clamp(y0 &* Int32(l2) &+ offset)
            l3 = Self.clamp(y0 &* Int32(l3) &+ offset)
        }
    }
}

extension ColorMatrix {
    /// The matrix on a YUV frame's samples, in place, clamped in R′G′B′ as in RGB.
    func apply(to frame: YUVFrame) {
        if isIdentity { return }
        YUVColourMatrix(self, frame.matrix).apply(to: frame)
    }
}

/// The colour filters that are one `ColorMatrix` run it on YUV planes (`YUVColourMatrix`).
extension ChannelMixFilter: YUVFilter {
    func apply(to frame: YUVFrame) { matrix.apply(to: frame) }
    var yuvTolerance: String { YUVColourMatrix.tolerance }
}

extension ColorControlsFilter: YUVFilter {
    func apply(to frame: YUVFrame) { matrix.apply(to: frame) }
    var yuvTolerance: String { YUVColourMatrix.tolerance }
}

extension WhiteBalanceFilter: YUVFilter {
    func apply(to frame: YUVFrame) { matrix.apply(to: frame) }
    var yuvTolerance: String { YUVColourMatrix.tolerance }
}
