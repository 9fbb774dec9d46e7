/// Sepia on YUV planes: the sepia of a grey of the pixel's luma L, i.e. the R′G′B′ colour
/// `(min(255, 1.351 L), min(255, 1.203 L), min(255, 0.937 L))` (the sepia matrix's row sums)
/// turned into samples with the frame's matrix, then mixed with the original by `intensity`.
/// Luma follows a curve; chroma is fixed per luma, taken from the mean luma of the pixels
/// that share the chroma sample. Both in fixed point (`SepiaTone`), so the loops vectorize.
///
/// Against the RGB filter's result converted by videoconvert: within ±20 per sample (15
/// measured on colour bars; on noise up to 20 in chroma at 320×240–1280×720, every format:
/// a site's chroma is the tone of its pixels' mean luma, where the RGB result's is the mean
/// of each pixel's tone, and the tone bends where a channel reaches 255; flat greys ±2):
/// the RGB matrix does not weigh the channels as luma does either (sepia's luma takes 0.170
/// of blue, a grey's 0.133), so saturated colours of equal luma come out slightly different.
extension SepiaFilter: YUVFilter {
    func apply(to frame: YUVFrame) {
        guard intensity > 0 else { return }
        let tone = SepiaTone(frame.matrix, intensity: intensity)
        switch frame.format {
        case .yuy2, .uyvy: frame.forEachMacropixel(SepiaMacropixel(tone: tone))
        case .i420, .nv12:
            // Chroma first: it is the tone of the luma as it was.
            frame.forEachChromaSite(SepiaChroma(tone: tone))
            frame.map(frame.lumaGrid, tone)
        }
    }
    var yuvTolerance: String { "±20 per sample (a luma curve plus chroma fixed per luma: 20 on noise, 15 on colour bars; flat greys ±2)" }
}

/// Sepia's tone on Y′CbCr samples in integers. Each channel of the tone is a clamped line
/// in the luma sample, `clamp(s · (Y − offset))` (the grey's R′G′B′ level times the
/// channel's row sum), and Y, U, V are sums of the three channels: a few multiplies and
/// clamps a sample, which vectorize where a lookup per sample (the previous tables) did
/// not (720p, one thread, whole filter: I420 1.2–1.6 → 0.8–1.0 ms a frame, YUY2 1.8–1.9 →
/// 1.35; BGRx takes 0.6–0.8). Channels carry 8
/// fractional bits, coefficients 10, so each sample's sum fits in 32 bits; the result is
/// within ±1 of the same formula in floating point (`SepiaYUVTests`).
struct SepiaTone: SampleArithmetic {
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

    /// A luma sample through the curve.
    @inline(__always)
    func map(_ y: UInt8) -> UInt8 {
        let l = Int32(y)
        return mix(l, tone(l).y)
    }
}

/// Sepia on a YUY2/UYVY macropixel, in one pass: its chroma towards the tone of its mean
/// luma, each luma through the curve. The padding macropixel of an odd width takes its
/// chroma from its one luma.
struct SepiaMacropixel: MacropixelVisitor {
    let tone: SepiaTone

    @inline(__always)
    func visit(_ y0: inout UInt8, _ y1: inout UInt8, _ u: inout UInt8, _ v: inout UInt8, column: Int, row: Void) {
        let t = tone.tone((Int32(y0) &+ Int32(y1) &+ 1) &>> 1)
        u = tone.mix(Int32(u), t.u)
        v = tone.mix(Int32(v), t.v)
        y0 = tone.map(y0)
        y1 = tone.map(y1)
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
        let t = tone.tone(site.meanLuma)
        site.u.pointee = tone.mix(Int32(site.u.pointee), t.u)
        site.v.pointee = tone.mix(Int32(site.v.pointee), t.v)
    }

    @inline(__always)
    func visit(_ l0: inout UInt8, _ l1: inout UInt8, _ l2: inout UInt8, _ l3: inout UInt8,
               _ u: inout UInt8, _ v: inout UInt8) {
        let t = tone.tone((Int32(l0) &+ Int32(l1) &+ Int32(l2) &+ Int32(l3) &+ 2) &>> 2)
        u = tone.mix(Int32(u), t.u)
        v = tone.mix(Int32(v), t.v)
    }
}
