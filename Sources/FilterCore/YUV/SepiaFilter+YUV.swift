/// Sepia on YUV planes: the sepia of the pixel's grey as the RGB filter weighs it (each
/// row of the sepia matrix is its row sum times one grey, `0.291 R′ + 0.569 G′ + 0.140 B′`),
/// i.e. the R′G′B′ colour `(min(255, 1.351 g), min(255, 1.203 g), min(255, 0.937 g))`, turned
/// into samples with the frame's matrix, then mixed with the original by `intensity`. The
/// grey is the pixel's luma plus a correction from its site's chroma (the grey's weights
/// are not the matrix's: without it saturated colours came out up to 24 levels off on
/// BT.709 frames, 5 on BT.601 ones, on flat colours). Each luma follows the tone of its
/// grey; a site's chroma is the tone of its pixels' mean grey. In fixed point (`SepiaTone`),
/// so the loops vectorize.
///
/// Against the RGB filter's result converted by videoconvert: ±2 per sample where chroma
/// is flat over each site (flat colours, BT.601 and BT.709: `SepiaYUVTests`). Where colours
/// change inside a site, its pixels share one correction (the site's chroma), and a
/// site's chroma is the tone of its pixels' mean grey where the RGB result's is the mean of
/// each pixel's tone (the tone bends where a channel reaches 255): up to 20 on noise, and
/// 47 (58 at intensity 1) at 1280×720 and 1920×1080 colour bars from a BGRx source, whose
/// green/magenta edge falls inside sites (39 was stated, measured another way).
extension SepiaFilter: YUVFilter {
    func apply(to frame: YUVFrame) {
        guard intensity > 0 else { return }
        let tone = SepiaTone(frame.matrix, intensity: intensity)
        switch frame.format {
        case .yuy2, .uyvy: frame.forEachMacropixel(SepiaMacropixel(tone: tone))
        case .i420, .nv12:
            // Each site's correction from its chroma as it was, then the chroma (the tone of
            // the luma as it was), then the luma with its site's correction.
            let u = frame.chromaGrid(v: false), v = frame.chromaGrid(v: true)
            let corrections = yuvCorrections.reserve(u.width * u.height)
            Self.findCorrections(u, v, tone, into: corrections)
            frame.forEachChromaSite(SepiaChroma(tone: tone))
            Self.mapLuma(frame.lumaGrid, tone, corrections: corrections, perRow: u.width)
        }
    }

    /// Each chroma site's grey correction, row by row into `corrections`.
    private static func findCorrections(_ u: SampleGrid, _ v: SampleGrid, _ tone: SepiaTone,
                                        into corrections: UnsafeMutablePointer<Int16>) {
        let w = u.width
        RowSplitter.shared.run(rows: u.height, columns: w) { rows in
            for y in rows {
                let us = u.row(y), vs = v.row(y), out = corrections + y &* w
                u.withConstantStep { s in
                    for x in 0..<w { out[x] = Int16(truncatingIfNeeded: tone.correction(us[x &* s], vs[x &* s])) }
                }
            }
        }
    }

    /// Each luma sample through the tone of its grey (I420, NV12: a site covers two rows).
    private static func mapLuma(_ luma: SampleGrid, _ tone: SepiaTone, corrections: UnsafeMutablePointer<Int16>, perRow: Int) {
        let w = luma.width
        RowSplitter.shared.run(rows: luma.height, columns: w) { rows in
            // Each row's corrections spread to one a pixel first: read as `c[x >> 1]` in the
            // loop, they kept it from vectorizing (720p I420 sepia: 860 → 240 fps).
            withUnsafeTemporaryAllocation(of: Int16.self, capacity: 2 * perRow) { buffer in
                let spread = buffer.baseAddress!
                for y in rows {
                    let row = luma.row(y), c = corrections + (y &>> 1) &* perRow
                    for x in 0..<perRow {
                        spread[2 &* x] = c[x]
                        spread[2 &* x &+ 1] = c[x]
                    }
                    for x in 0..<w { row[x] = tone.map(row[x], correction: Int32(spread[x])) }
                }
            }
        }
    }

    var yuvTolerance: String {
        "±2 per sample where chroma is flat over each chroma site (a gradient, flat colours; BT.601 and BT.709); where colours change inside a site, up to 20 (noise) and 47 at the default intensity, 58 at 1 (colour bars' green/magenta edge at 1280×720 and 1920×1080)"
    }
}

/// Sepia's tone on Y′CbCr samples in integers. Each channel of the tone is a clamped line
/// in the luma sample, `clamp(s · (Y − offset))` (the grey's R′G′B′ level times the
/// channel's row sum), and Y, U, V are sums of the three channels: a few multiplies and
/// clamps a sample, which vectorize where a lookup per sample (the previous tables) did
/// not (720p, one thread, whole filter: I420 1.2–1.6 → 0.8–1.0 ms a frame, YUY2 1.8–1.9 →
/// 1.35; BGRx takes 0.6–0.8). Channels carry 8
/// fractional bits, coefficients 10, so each sample's sum fits in 32 bits; the result is
/// within ±1 of the same formula in floating point (`SepiaYUVTests`).
struct SepiaTone {
    /// The luma sample of black (16 in video range).
    let black: Int32
    /// The tone's red, green and blue levels per luma step above black, × 65536.
    let redSlope, greenSlope, blueSlope: Int32
    /// Blue's ceiling (× 256): 0.937 of white; red and green reach 255.
    let blueCeiling: Int32
    /// Y, U, V from the tone's R′, G′, B′ (× 256): coefficients × 1024, offsets × 2¹⁸
    /// with half of 2¹⁸ added for rounding.
    let yr, yg, yb, yo, ur, ug, ub, uo, vr, vg, vb, vo: Int32
    /// `intensity` in 1024ths, and what is kept of the original.
    let take, keep: Int32
    /// The grey's correction from chroma, in luma steps × 1024 per chroma step: the grey
    /// `0.291 R′ + 0.569 G′ + 0.140 B′` is the luma plus `cu (U − 128) + cv (V − 128)`.
    let cu, cv: Int32

    static let rowSums = (red: 1.351, green: 1.203, blue: 0.937)

    init(_ m: YUVMatrix, intensity: Double) {
        let lumaScale = m.fullRange ? 255.0 : 219, chromaScale = m.fullRange ? 255.0 : 224
        let offset = m.fullRange ? 0.0 : 16
        black = Int32(offset)
        let level = 255 / lumaScale   // R′G′B′ level per luma step
        func fixed(_ x: Double, _ bits: Int) -> Int32 { Int32((x * Double(1 << bits)).rounded()) }
        redSlope = fixed(Self.rowSums.red * level, 16)
        greenSlope = fixed(Self.rowSums.green * level, 16)
        blueSlope = fixed(Self.rowSums.blue * level, 16)
        blueCeiling = fixed(Self.rowSums.blue * 255, 8)
        // YUVMatrix.samples(r:g:b:) as coefficients of R′, G′, B′.
        let kg = 1 - m.kr - m.kb
        let ys = lumaScale / 255, us = chromaScale / 255 / (2 * (1 - m.kb)), vs = chromaScale / 255 / (2 * (1 - m.kr))
        let y = [m.kr * ys, kg * ys, m.kb * ys]
        let u = [-m.kr * us, -kg * us, (1 - m.kb) * us]
        let v = [(1 - m.kr) * vs, -kg * vs, -m.kb * vs]
        (yr, yg, yb) = (fixed(y[0], 10), fixed(y[1], 10), fixed(y[2], 10))
        (ur, ug, ub) = (fixed(u[0], 10), fixed(u[1], 10), fixed(u[2], 10))
        (vr, vg, vb) = (fixed(v[0], 10), fixed(v[1], 10), fixed(v[2], 10))
        let half: Int32 = 1 << 17
        yo = fixed(offset, 18) + half
        uo = fixed(128, 18) + half
        vo = fixed(128, 18) + half
        take = fixed(min(max(intensity, 0), 1), 10)
        keep = 1024 - take
        // R′, G′, B′ from Y′, Pb, Pr (YUVMatrix's inverse), weighed by the grey's weights
        // (the red row's, normalised: the three rows' differ by less than 0.001).
        let w = Self.redRow.map { $0 / Self.rowSums.red }
        let pb = w[2] * 2 * (1 - m.kb) - w[1] * 2 * m.kb * (1 - m.kb) / kg
        let pr = w[0] * 2 * (1 - m.kr) - w[1] * 2 * m.kr * (1 - m.kr) / kg
        cu = fixed(pb * lumaScale / chromaScale, 10)
        cv = fixed(pr * lumaScale / chromaScale, 10)
    }

    static let redRow = [0.393, 0.769, 0.189]

    /// The grey's correction, in luma steps, for a site's chroma `u`, `v`.
    @inline(__always)
    func correction(_ u: UInt8, _ v: UInt8) -> Int32 {
        (cu &* (Int32(u) &- 128) &+ cv &* (Int32(v) &- 128) &+ 512) &>> 10
    }

    /// The tone's Y, U, V samples for luma sample `luma`.
    @inline(__always)
    func tone(_ luma: Int32) -> (y: Int32, u: Int32, v: Int32) {
        let d = luma &- black
        let r = min(max((redSlope &* d) &>> 8, 0), 255 << 8)
        let g = min(max((greenSlope &* d) &>> 8, 0), 255 << 8)
        let b = min(max((blueSlope &* d) &>> 8, 0), blueCeiling)
        @inline(__always) func sample(_ cr: Int32, _ cg: Int32, _ cb: Int32, _ o: Int32) -> Int32 {
            Int32(clampedByte((cr &* r &+ cg &* g &+ cb &* b &+ o) &>> 18))
        }
        return (sample(yr, yg, yb, yo), sample(ur, ug, ub, uo), sample(vr, vg, vb, vo))
    }

    /// A sample mixed towards its target by `intensity`, rounded half up.
    @inline(__always)
    func mix(_ original: Int32, _ target: Int32) -> UInt8 {
        UInt8(truncatingIfNeeded: (original &* keep &+ target &* take &+ 512) &>> 10)
    }

    /// A luma sample through the tone of its grey (its luma plus its site's `correction`).
    @inline(__always)
    func map(_ y: UInt8, correction: Int32) -> UInt8 {
        let l = Int32(y)
        return mix(l, tone(l &+ correction).y)
    }
}

/// Sepia on a YUY2/UYVY macropixel, in one pass: its chroma towards the tone of its mean
/// luma, each luma through the curve. The padding macropixel of an odd width takes its
/// chroma from its one luma.
struct SepiaMacropixel: MacropixelVisitor {
    let tone: SepiaTone

    @inline(__always)
    func visit(_ y0: inout UInt8, _ y1: inout UInt8, _ u: inout UInt8, _ v: inout UInt8, column: Int, row: Void) {
        let c = tone.correction(u, v)
        let t = tone.tone(((Int32(y0) &+ Int32(y1) &+ 1) &>> 1) &+ c)
        u = tone.mix(Int32(u), t.u)
        v = tone.mix(Int32(v), t.v)
        y0 = tone.map(y0, correction: c)
        y1 = tone.map(y1, correction: c)
    }
}

/// Each chroma site's chroma towards the tone of its mean luma. A pass of its own, and the
/// luma curve one after it over the luma samples alone: together in one pass over the sites
/// the loop was too long for the vectorizer (7–8 ms a 720p I420 frame on one thread,
/// against 0.8–1.0 for the two passes).
struct SepiaChroma: WholeSiteVisitor {
    let tone: SepiaTone

    @inline(__always)
    func visit(_ site: ChromaSite) {
        let t = tone.tone(site.meanLuma &+ tone.correction(site.u.pointee, site.v.pointee))
        site.u.pointee = tone.mix(Int32(site.u.pointee), t.u)
        site.v.pointee = tone.mix(Int32(site.v.pointee), t.v)
    }

    @inline(__always)
    func visit(_ l0: inout UInt8, _ l1: inout UInt8, _ l2: inout UInt8, _ l3: inout UInt8,
               _ u: inout UInt8, _ v: inout UInt8) {
        let t = tone.tone(((Int32(l0) &+ Int32(l1) &+ Int32(l2) &+ Int32(l3) &+ 2) &>> 2) &+ tone.correction(u, v))
        u = tone.mix(Int32(u), t.u)
        v = tone.mix(Int32(v), t.v)
    }
}
