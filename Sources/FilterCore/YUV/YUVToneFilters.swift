/// Noir, vignette, exposure and posterize on YUV planes.

/// Noir keeps luma's own grey and takes it through the RGB filter's smoothstep: the grey
/// level of luma Y (`YUVMatrix.luma`, 0…255) through the curve and back to a luma sample,
/// mixed with Y by `intensity`; chroma is pulled to neutral by `intensity` (the RGB mix
/// `c + k (y′ − c)` of a grey is exactly that in YUV). Two tables, as `mono`. Within ±2 of
/// the RGB result through videoconvert on BT.601 frames; on BT.709 frames the grey follows
/// BT.709's weights instead of Rec.601's.
extension NoirFilter: YUVFilter {
    func apply(to frame: YUVFrame) {
        guard intensity > 0 else { return }
        let m = frame.matrix
        let curve = (0..<256).map { y -> Int in
            let t = min(max(m.luma(y), 0), 255) / 255
            let grey = 255 * t * t * (3 - 2 * t)
            return Int(m.samples(r: grey, g: grey, b: grey).y)
        }
        frame.mapLuma(YUVTables.mix(curve, intensity))
        let chroma = YUVTables.towardsNeutral(keep: 1 - intensity)
        frame.mapChroma(u: chroma, v: chroma)
    }
    var yuvTolerance: String { "±2 per sample on BT.601 frames (the grey is the frame's own luma)" }
}

/// Vignette scales R′, G′ and B′ by one gain per pixel, which in YUV is
/// `Y′ = black + (Y − black)·gain` and `C′ = 128 + (C − 128)·gain`: luma with each pixel's
/// gain (the RGB filter's map), chroma with the gain at the centre of its chroma site
/// (of the pixels it covers). Gains are kept per frame size and layout. Within ±2 of the
/// RGB result through videoconvert where chroma is flat over each site (measured ≤ 2 on a
/// gradient, noise and a photo); where a colour edge falls inside a site, the site's mean
/// of (chroma × gain) is not (mean chroma) × (centre gain): up to 4 on 32×16 colour bars
/// (gains changing fast).
extension VignetteFilter: YUVFilter {
    func apply(to frame: YUVFrame) {
        if intensity == 0 { return }
        let luma = frame.lumaGrid, u = frame.chromaGrid(v: false), v = frame.chromaGrid(v: true)
        let w = frame.width, h = frame.height
        let map = yuvGains.reserve(w * h + u.width * u.height)
        if yuvGainsLayout != (w, h, u.height) {
            for y in 0..<h {
                for x in 0..<w { map[y * w + x] = gain256(x: Double(x) + 0.5, y: Double(y) + 0.5, width: w, height: h) }
            }
            // A site's centre: the middle of the pixels it covers (fewer at odd edges).
            let rowsPerSite = frame.format.isPacked ? 1 : 2
            for cy in 0..<u.height {
                let y = Double(rowsPerSite * cy + min(rowsPerSite * cy + rowsPerSite, h)) / 2
                for cx in 0..<u.width {
                    let x = Double(2 * cx + min(2 * cx + 2, w)) / 2
                    map[w * h + cy * u.width + cx] = gain256(x: x, y: y, width: w, height: h)
                }
            }
            yuvGainsLayout = (w, h, u.height)
        }
        Self.scale(luma, by: map, around: frame.lumaRange.black)
        Self.scale(u, by: map + w * h, around: 128)
        Self.scale(v, by: map + w * h, around: 128)
    }

    /// Each sample `c` of `grid` becomes `centre + ((c − centre)·gain256 + 128) >> 8`.
    private static func scale(_ grid: SampleGrid, by gains: UnsafeMutablePointer<UInt16>, around centre: Int32) {
        let w = grid.width, s = grid.step
        RowSplitter.shared.run(rows: grid.height, columns: w) { rows in
            for y in rows {
                let row = grid.row(y), gain = gains + y &* w
                for x in 0..<w {
                    let c = Int32(row[x &* s]) &- centre
                    row[x &* s] = UInt8(truncatingIfNeeded: centre &+ ((c &* Int32(gain[x]) &+ 128) &>> 8))
                }
            }
        }
    }

    var yuvTolerance: String {
        "±2 per sample where chroma is flat over each chroma site (a gradient, noise, a photo); up to 4 at colour edges inside a site (colour bars)"
    }
}

/// A curve applied to R′, G′ and B′ alike (exposure's sRGB curve, posterize's levels) on
/// YUV planes, in place and without an RGB frame: per chroma site, each pixel's R′G′B′ is
/// computed from its luma and the site's chroma (fixed point, 16 fractional bits, the
/// frame's matrix and range), taken through the 256-entry table, and turned back into its
/// luma; the site's chroma becomes that of the mean of its pixels' new R′G′B′ (what
/// videoconvert's chroma of the RGB result is: the mean of the pixels' chroma).
///
/// No closed form: the curve is not linear, and the pixels of a site share one chroma, so
/// where chroma changes inside a site each pixel's R′G′B′ is only approximated; a luma
/// sample (220 steps in video range) also stands for more than one R′G′B′ grey. The curve
/// magnifies both by its slope; where a pixel's approximated R′G′B′ falls below 0 (a dark
/// pixel sharing a site with a saturated colour) the clamp and the curve brighten it.
struct YUVChannelCurve {
    /// R′, G′, B′ from luma and centred chroma: rows of `[Y, U − 128, V − 128, offset]`.
    private let inverse: [Int32]
    /// Y, U − 128, V − 128 from R′G′B′: rows of `[R, G, B, offset]`.
    private let forward: [Int32]

    init(_ m: YUVMatrix) {
        let f = YUVAffine.forward(m), i = YUVAffine.invert(f)
        func fixed(_ x: Double) -> Int32 { Int32((x * 65536).rounded()) }
        inverse = i.flatMap { r in [fixed(r[0]), fixed(r[1]), fixed(r[2]), fixed(r[3] + 128 * (r[1] + r[2])) + 32768] }
        forward = f.enumerated().flatMap { n, r in [fixed(r[0]), fixed(r[1]), fixed(r[2]), n == 0 ? fixed(r[3]) + 32768 : 0] }
    }

    func apply(_ table: UnsafePointer<UInt8>, to frame: YUVFrame) {
        frame.forEachChromaSite(Site(inverse: inverse, forward: forward, table: table))
    }

    /// One site: its pixels' R′G′B′ through the table, back to luma, and the mean to chroma.
    private struct Site: ChromaSiteVisitor {
        let iry, iru, irv, iro, igy, igu, igv, igo, iby, ibu, ibv, ibo: Int32
        let fyr, fyg, fyb, fyo, fur, fug, fub, fvr, fvg, fvb: Int32
        let table: UnsafePointer<UInt8>

        init(inverse i: [Int32], forward f: [Int32], table: UnsafePointer<UInt8>) {
            (iry, iru, irv, iro) = (i[0], i[1], i[2], i[3])
            (igy, igu, igv, igo) = (i[4], i[5], i[6], i[7])
            (iby, ibu, ibv, ibo) = (i[8], i[9], i[10], i[11])
            (fyr, fyg, fyb, fyo) = (f[0], f[1], f[2], f[3])
            (fur, fug, fub) = (f[4], f[5], f[6])
            (fvr, fvg, fvb) = (f[8], f[9], f[10])
            self.table = table
        }

        @inline(__always) private func channel(_ v: Int32) -> Int32 { Int32(table[Int(min(max(v &>> 16, 0), 255))]) }

        @inline(__always)
        func visit(_ site: ChromaSite) {
            let cu = Int32(site.u.pointee) &- 128, cv = Int32(site.v.pointee) &- 128
            let rc = iru &* cu &+ irv &* cv &+ iro
            let gc = igu &* cu &+ igv &* cv &+ igo
            let bc = ibu &* cu &+ ibv &* cv &+ ibo
            var sr: Int32 = 0, sg: Int32 = 0, sb: Int32 = 0, n: Int32 = 0
            @inline(__always) func pixel(_ p: UnsafeMutablePointer<UInt8>) {
                let y = Int32(p.pointee)
                let r = channel(iry &* y &+ rc), g = channel(igy &* y &+ gc), b = channel(iby &* y &+ bc)
                sr &+= r; sg &+= g; sb &+= b; n &+= 1
                p.pointee = UInt8(clamping: (fyr &* r &+ fyg &* g &+ fyb &* b &+ fyo) &>> 16)
            }
            pixel(site.y0)
            if let y1 = site.y1 { pixel(y1) }
            if let y2 = site.y2 { pixel(y2) }
            if let y3 = site.y3 { pixel(y3) }
            // n is 1, 2 or 4: the mean is a shift.
            let shift: Int32 = n == 4 ? 18 : n == 2 ? 17 : 16
            let half = Int32(1) &<< (shift &- 1)
            site.u.pointee = UInt8(clamping: 128 &+ ((fur &* sr &+ fug &* sg &+ fub &* sb &+ half) &>> shift))
            site.v.pointee = UInt8(clamping: 128 &+ ((fvr &* sr &+ fvg &* sg &+ fvb &* sb &+ half) &>> shift))
        }
    }
}

/// Exposure on YUV planes: its sRGB table through `YUVChannelCurve`. Measured against the
/// RGB result through videoconvert at ev −2, 1 and 2: ±3 on a gradient and noise (greys),
/// up to 21 on a photo, and 53 on colour bars, where black pixels share chroma sites with
/// saturated colours (ev 2).
extension ExposureFilter: YUVFilter {
    func apply(to frame: YUVFrame) {
        if ev == 0 { return }
        YUVChannelCurve(frame.matrix).apply(table.table, to: frame)
    }
    var yuvTolerance: String {
        "no closed form (a curve per R′G′B′ channel): ±3 per sample on greys (a gradient, noise); up to 22 on a photo and 55 at saturated colour edges inside chroma sites (colour bars); measured at ev −2…2"
    }
}

/// Posterize on YUV planes: its levels as a table through `YUVChannelCurve`. Where a
/// pixel's R′G′B′ lies close to a step between levels, the approximation can fall on the
/// other side of it, and that pixel differs by up to a whole level (219/(levels − 1) luma
/// samples in video range). Measured at 6 levels: ±1 on a gradient, 44 on noise, 32 on a
/// photo, 26 on colour bars (at 3 levels 65; at 16 levels colour bars reach 24, more than
/// the level of 15, where colour edges inside sites move several channels).
extension PosterizeFilter: YUVFilter {
    func apply(to frame: YUVFrame) {
        YUVChannelCurve(frame.matrix).apply(levelTable.table, to: frame)
    }
    var yuvTolerance: String {
        "no closed form (levels per R′G′B′ channel): ±2 per sample on a gradient; where a channel lies near a step between levels it can land on the other one: up to 46 (a level of luma, plus 2) on noise, a photo and colour bars, measured at 6 levels"
    }
}
