/// The `lut` filter on YUV planes: per chroma site, each pixel's Y′CbCr (its luma, the
/// site's chroma) goes through the look as R′G′B′ (`YUVLook`); the pixel keeps its new luma
/// and the site takes the mean of its pixels' new chroma (what videoconvert's chroma of the
/// RGB result is). `intensity` mixes each sample with the
/// original as on RGB. From 2²⁴ pixels on, a table of that mapping for every Y, U, V triple
/// of the frame's matrix (`LookTables`) gives the same samples, eight sites per gather
/// (`TableLookSites`).
///
/// Against the RGB result through videoconvert: ±2 per sample where chroma is flat over each
/// site (a gradient, noise at 32×16), more where colours change inside a site, since the look
/// bends each pixel's colour by its own amount and a site keeps one chroma: measured with the
/// six shipped looks, up to 9 on a photo and 19 at colour bars' edges.
extension LookFilter: YUVFilter {
    func apply(to frame: YUVFrame) {
        guard let look, mix.take > 0 else { return }
        if let table = LookTables.shared.table(for: look, space: .yuv(frame.matrix), pixels: frame.width * frame.height) {
            withExtendedLifetime(table) { TableLookSites(entries: table.entries, mix: mix).apply(to: frame) }
            return
        }
        switch look.kernel.form {
        case .cube(let cube): Self.apply(YUVLook(cube, frame.matrix), mix, to: frame)
        case .curves(let curves): Self.apply(YUVLook(curves, frame.matrix), mix, to: frame)
        }
    }

    var yuvTolerance: String {
        "±2 per sample where chroma is flat over each chroma site (a gradient, grey noise); where colours change inside a site the look bends each pixel differently: up to 10 on a photo and 20 at colour bars' edges (the shipped looks)"
    }

    static func apply<Source: YUVLookSource>(_ source: Source, _ mix: LookMix, to frame: YUVFrame) {
        frame.forEachChromaSite(LookSites(source: source, mix: mix))
    }
}

/// The look at each chroma site: each pixel's new luma, the site's chroma from their mean.
struct LookSites<Source: YUVLookSource>: ChromaSiteVisitor {
    let source: Source
    let mix: LookMix

    @inline(__always)
    func visit(_ site: ChromaSite) {
        let u = Int32(site.u.pointee), v = Int32(site.v.pointee)
        let chroma = UInt32(bitPattern: u &<< 8 | v &<< 16)
        var sumU: Int32 = 0, sumV: Int32 = 0, count: Int32 = 0
        @inline(__always) func pixel(_ p: UnsafeMutablePointer<UInt8>) {
            let y = Int32(p.pointee)
            let e = source.look(UInt32(bitPattern: y) | chroma)
            p.pointee = UInt8(truncatingIfNeeded: mix.mix(y, Int32(bitPattern: e & 0xFF)))
            sumU &+= Int32(bitPattern: (e &>> 8) & 0xFF)
            sumV &+= Int32(bitPattern: e &>> 16)
            count &+= 1
        }
        pixel(site.y0)
        if let y1 = site.y1 { pixel(y1) }
        if let y2 = site.y2 { pixel(y2) }
        if let y3 = site.y3 { pixel(y3) }
        // 1, 2 or 4 pixels: the mean, rounded half up, is a shift.
        let shift: Int32 = count == 4 ? 2 : count == 2 ? 1 : 0
        let half = (Int32(1) &<< shift) &>> 1
        site.u.pointee = UInt8(truncatingIfNeeded: mix.mix(u, (sumU &+ half) &>> shift))
        site.v.pointee = UInt8(truncatingIfNeeded: mix.mix(v, (sumV &+ half) &>> shift))
    }
}

/// A look on Y′CbCr: `y | u << 8 | v << 16` to the looked samples, packed the same way.
protocol YUVLookSource {
    func look(_ yuv: UInt32) -> UInt32
}

/// The look's table for the frame's matrix.
struct TableYUVLook: YUVLookSource {
    let entries: LookEntries

    @inline(__always)
    func look(_ yuv: UInt32) -> UInt32 { entries[colour: yuv] }
}

/// A look computed on Y′CbCr samples: the pixel's R′G′B′ (16-bit fixed point, the frame's
/// matrix and range, rounded and clamped to 0…255), through the look, and the change the
/// look made to it carried back into the samples: `Y′ = Y + A·(look(rgb) − rgb)`, A the
/// linear part of R′G′B′ → Y′CbCr, rounded. Where the look changes nothing (an identity
/// lattice) the samples stay exactly as they were, which a round trip through 8-bit R′G′B′
/// would not give.
struct YUVLook<Look: RGBLook>: YUVLookSource {
    let rgb: Look
    /// R′, G′, B′ from Y, U − 128, V − 128: coefficients and offset (rounding included).
    private let ry, ru, rv, ro, gy, gu, gv, go, by, bu, bv, bo: Int32
    /// Y, U, V changes from R′, G′, B′ changes.
    private let yr, yg, yb, ur, ug, ub, vr, vg, vb: Int32

    init(_ look: Look, _ matrix: YUVMatrix) {
        rgb = look
        let forward = YUVAffine.forward(matrix), inverse = YUVAffine.invert(forward)
        func fixed(_ x: Double) -> Int32 { Int32((x * 65536).rounded()) }
        let i = inverse.map { r in [fixed(r[0]), fixed(r[1]), fixed(r[2]), fixed(r[3] + 128 * (r[1] + r[2])) + 32768] }
        (ry, ru, rv, ro) = (i[0][0], i[0][1], i[0][2], i[0][3])
        (gy, gu, gv, go) = (i[1][0], i[1][1], i[1][2], i[1][3])
        (by, bu, bv, bo) = (i[2][0], i[2][1], i[2][2], i[2][3])
        let f = forward.map { r in r.prefix(3).map(fixed) }
        (yr, yg, yb) = (f[0][0], f[0][1], f[0][2])
        (ur, ug, ub) = (f[1][0], f[1][1], f[1][2])
        (vr, vg, vb) = (f[2][0], f[2][1], f[2][2])
    }

    @inline(__always)
    func look(_ yuv: UInt32) -> UInt32 {
        look(Int32(bitPattern: yuv & 0xFF), Int32(bitPattern: (yuv &>> 8) & 0xFF), Int32(bitPattern: yuv &>> 16))
    }

    @inline(__always)
    func look(_ y: Int32, _ u: Int32, _ v: Int32) -> UInt32 {
        let cu = u &- 128, cv = v &- 128
        let r = clampChannel((ry &* y &+ ru &* cu &+ rv &* cv &+ ro) &>> 16)
        let g = clampChannel((gy &* y &+ gu &* cu &+ gv &* cv &+ go) &>> 16)
        let b = clampChannel((by &* y &+ bu &* cu &+ bv &* cv &+ bo) &>> 16)
        let o = rgb.look(r, g, b)
        let dr = Int32(bitPattern: o & 0xFF) &- r, dg = Int32(bitPattern: (o &>> 8) & 0xFF) &- g
        let db = Int32(bitPattern: o &>> 16) &- b
        let ny = clampChannel(y &+ ((yr &* dr &+ yg &* dg &+ yb &* db &+ 32768) &>> 16))
        let nu = clampChannel(u &+ ((ur &* dr &+ ug &* dg &+ ub &* db &+ 32768) &>> 16))
        let nv = clampChannel(v &+ ((vr &* dr &+ vg &* dg &+ vb &* db &+ 32768) &>> 16))
        return UInt32(bitPattern: ny | nu &<< 8 | nv &<< 16)
    }
}
