/// `sepia`: warm browns, with the `intensity` of Core Image's CISepiaTone
/// (0 = the original picture, 1 = full sepia).
///
///     sepia intensity=0.8
///
/// Full sepia is the classic matrix, each channel clamped to 255:
///
///     sr = min(255, 0.393 r + 0.769 g + 0.189 b)
///     sg = min(255, 0.349 r + 0.686 g + 0.168 b)
///     sb = min(255, 0.272 r + 0.534 g + 0.131 b)
///
/// and the output mixes it with the original: `c + k (s - c)`, k = intensity.
/// (Mixing after the clamp keeps bright pixels from turning paler than `k` implies.)
///
/// The mix is folded into the matrix: since k ≥ 0,
///
///     c + k (min(s, 255) − c) = min(c + k (s − c), c + k (255 − c))
///
/// and both sides of that `min` are affine in the pixel, so the kernel is one 3×3 matrix
/// (`k·Sepia + (1 − k)·I`) and one per-channel scale and offset, then a minimum.
/// Fixed point: every coefficient × 1024 rounded to nearest (k = 1: 402 787 194 /
/// 357 702 172 / 279 547 134), each sum `(Σ + 512) >> 10`, round half up. The result is
/// within ±1 of the real formula rounded to the nearest integer.
final class SepiaFilter: PassFilter {
    static let descriptor = FilterDescriptor(
        id: "sepia", title: "Sepia Tone",
        summary: "Maps colours to warm browns, as Core Image's CISepiaTone",
        parameters: [FilterParameter("intensity", .double(range: 0...1, defaultValue: 0.8),
                                     "0 = original picture, 1 = full sepia")],
        strengthParameter: "intensity",
        make: { SepiaFilter(intensity: $0.double("intensity")) })

    let intensity: Double
    /// On I420/NV12: each chroma site's grey correction (`SepiaFilter+YUV`).
    let yuvCorrections = Scratch<Int16>()
    init(intensity: Double) { self.intensity = intensity }

    func run(_ pass: FramePass) {
        if intensity == 0 { return pass.leaveUnchanged() }
        if pass.format.isRGBOrder {
            SepiaKernel<RedFirst>(intensity: intensity).run(pass)
        } else {
            SepiaKernel<BlueFirst>(intensity: intensity).run(pass)
        }
    }
}

struct SepiaKernel<Order: ChannelOrder>: PixelKernel {
    /// `k·Sepia + (1 − k)·I` × 1024. In 16 bits so the compiler knows each product fits
    /// the 16 × 16 → 32-bit multiply-add (`vpmaddwd`) instead of a slower 32-bit multiply.
    let rr, rg, rb, gr, gg, gb, br, bg, bb: Int16
    /// `1 − k` × 1024 and `255 k` × 1024 + 512: the ceiling `c + k (255 − c)`.
    let keep: Int16
    let ceiling: Int32

    init(intensity k: Double) {
        let sepia: [Double] = [0.393, 0.769, 0.189, 0.349, 0.686, 0.168, 0.272, 0.534, 0.131]
        let m = (0..<9).map { i in Int16((1024 * (k * sepia[i] + (i % 4 == 0 ? 1 - k : 0))).rounded()) }
        rr = m[0]; rg = m[1]; rb = m[2]
        gr = m[3]; gg = m[4]; gb = m[5]
        br = m[6]; bg = m[7]; bb = m[8]
        keep = Int16((1024 * (1 - k)).rounded())
        ceiling = Int32((1024 * 255 * k).rounded()) + 512
    }

    @inline(__always)
    func map(_ p: UInt32) -> UInt32 {
        let r = Order.red(p), g = Order.green(p), b = Order.blue(p)
        let sr = (Int32(rr) &* r &+ Int32(rg) &* g &+ Int32(rb) &* b &+ 512) &>> 10
        let sg = (Int32(gr) &* r &+ Int32(gg) &* g &+ Int32(gb) &* b &+ 512) &>> 10
        let sb = (Int32(br) &* r &+ Int32(bg) &* g &+ Int32(bb) &* b &+ 512) &>> 10
        let keep = Int32(self.keep)
        let nr = min(sr, (keep &* r &+ ceiling) &>> 10)
        let ng = min(sg, (keep &* g &+ ceiling) &>> 10)
        let nb = min(sb, (keep &* b &+ ceiling) &>> 10)
        return Order.pack(nr, ng, nb, keeping: p)
    }
}
