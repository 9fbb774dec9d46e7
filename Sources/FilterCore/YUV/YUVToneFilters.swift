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
        frame.map(luma: nil, chroma: .towardsNeutral(keep: 1 - intensity))
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
        let black = frame.lumaRange.black
        switch frame.format {
        case .yuy2, .uyvy: frame.forEachMacropixel(VignetteMacropixel(gains: map, width: w, height: h, black: black))
        case .i420, .nv12:
            Self.scale(luma, by: map, around: black)
            Self.scale(u, by: map + w * h, around: 128)
            Self.scale(v, by: map + w * h, around: 128)
        }
    }

    /// Each sample `c` of `grid` becomes `centre + ((c − centre)·gain256 + 128) >> 8`.
    private static func scale(_ grid: SampleGrid, by gains: UnsafeMutablePointer<UInt16>, around centre: Int32) {
        let w = grid.width
        RowSplitter.shared.run(rows: grid.height, columns: w) { rows in
            for y in rows {
                let row = grid.row(y), gain = gains + y &* w
                grid.fill(row: y) { out in
                    grid.withConstantStep { s in
                        for x in 0..<w { out[x] = scaled(row[x &* s], around: centre, by: gain[x]) }
                    }
                }
            }
        }
    }

    /// A sample `c` scaled about `centre`: `centre + ((c − centre)·gain256 + 128) >> 8`.
    @inline(__always)
    static func scaled(_ c: UInt8, around centre: Int32, by gain: UInt16) -> UInt8 {
        UInt8(truncatingIfNeeded: centre &+ (((Int32(c) &- centre) &* Int32(gain) &+ 128) &>> 8))
    }

    var yuvTolerance: String {
        "±2 per sample where chroma is flat over each chroma site (a gradient, noise, a photo); up to 4 at colour edges inside a site (colour bars); frames of a few sites more, where the gain changes fast across a site (3×3 colour bars: 19)"
    }
}

/// Vignette on a YUY2/UYVY macropixel, in one pass: each luma scaled by its pixel's gain,
/// the chroma by the macropixel's. `gains` holds every pixel's gain, then every macropixel's.
struct VignetteMacropixel: MacropixelVisitor {
    let gains: UnsafeMutablePointer<UInt16>
    let width: Int
    let height: Int
    let black: Int32

    /// A row's pixel gains and macropixel gains.
    typealias Gains = (luma: UnsafeMutablePointer<UInt16>, site: UnsafeMutablePointer<UInt16>)

    @inline(__always)
    func rowState(_ row: Int) -> Gains {
        (gains + row &* width, gains + width &* height + row &* ((width &+ 1) / 2))
    }

    @inline(__always)
    func visit(_ y0: inout UInt8, _ y1: inout UInt8, _ u: inout UInt8, _ v: inout UInt8,
               column i: Int, row: Gains) {
        y0 = VignetteFilter.scaled(y0, around: black, by: row.luma[2 &* i])
        y1 = VignetteFilter.scaled(y1, around: black, by: row.luma[2 &* i &+ 1])
        u = VignetteFilter.scaled(u, around: 128, by: row.site[i])
        v = VignetteFilter.scaled(v, around: 128, by: row.site[i])
    }

    @inline(__always)
    func visitPadded(_ y0: inout UInt8, _ u: inout UInt8, _ v: inout UInt8,
                     column i: Int, row: Gains) {
        y0 = VignetteFilter.scaled(y0, around: black, by: row.luma[2 &* i])
        u = VignetteFilter.scaled(u, around: 128, by: row.site[i])
        v = VignetteFilter.scaled(v, around: 128, by: row.site[i])
    }
}

/// Exposure on YUV planes: its sRGB table through `YUVChannelCurve`. Measured against the
/// RGB result through videoconvert at ev −2, 1 and 2: ±3 on a gradient and noise (greys),
/// up to 21 on a photo, and on colour bars, where black pixels share chroma sites with
/// saturated colours (ev 2), 53 at 320×240 and 91 from 640×480 on (63 as BT.709): a site's
/// one chroma lifts a saturated green pixel towards white.
extension ExposureFilter: YUVFilter {
    func apply(to frame: YUVFrame) {
        if ev == 0 { return }
        YUVChannelCurve(frame.matrix, curve: TableCurve(table: table.table)).apply(to: frame)
    }
    var yuvTolerance: String {
        "no closed form (a curve per R′G′B′ channel): ±3 per sample on greys (a gradient, noise); up to 22 on a photo and 91 at saturated colour edges inside chroma sites (colour bars: 53 at 320×240, 91 from 640×480 on as BT.601, 63 as BT.709); measured at ev −2…2"
    }
}

/// Posterize on YUV planes: its levels (the RGB kernel's arithmetic, which vectorizes)
/// through `YUVChannelCurve`. Where a pixel's R′G′B′ lies close to a step between levels,
/// the approximation can fall on the other side of it, and that pixel differs by up to a whole level (219/(levels − 1) luma
/// samples in video range). Measured at 6 levels: a gradient ±1 at 32×16 but 44 at 320×240
/// and 640×480 (the rows that lie on a step; under 1 % of the samples), 44 on noise, 32 on a
/// photo, 26 on colour bars (at 3 levels 65; at 16 levels colour bars reach 24, more than
/// the level of 15, where colour edges inside sites move several channels).
extension PosterizeFilter: YUVFilter {
    func apply(to frame: YUVFrame) {
        YUVChannelCurve(frame.matrix, curve: PosterizeCurve(kernel: PosterizeKernel(steps: UInt32(levels - 1)))).apply(to: frame)
    }
    var yuvTolerance: String {
        "no closed form (levels per R′G′B′ channel): ±2 per sample away from the steps between levels; where a channel lies near a step it can land on the other level: up to 46 (a level of luma, plus 2) on any picture, measured at 6 levels (a gradient 44 on the rows at a step, noise 44, a photo 32, colour bars 26)"
    }
}
