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
/// Fixed point: coefficients × 1024 rounded to nearest (402 787 194 / 357 702 172 /
/// 279 547 134), `s = (Σ + 512) >> 10`; `K = round(1024 k)` and the mix
/// `c + ((s − c) K + 512) >> 10` (arithmetic shift, so rounding is half up). The result
/// is within ±1 of the real formula rounded to the nearest integer.
final class SepiaFilter: FrameFilter {
    static let descriptor = FilterDescriptor(
        id: "sepia", title: "Sepia Tone",
        summary: "Maps colours to warm browns, as Core Image's CISepiaTone",
        parameters: [FilterParameter("intensity", .double(range: 0...1, defaultValue: 0.8),
                                     "0 = original picture, 1 = full sepia")],
        strengthParameter: "intensity",
        make: { SepiaFilter(intensity: $0.double("intensity")) })

    let intensity: Double
    init(intensity: Double) { self.intensity = intensity }

    func apply(to frame: FrameView) {
        let k = Int32((intensity * 1024).rounded())
        if k == 0 { return }
        if frame.format.isRGBOrder {
            SepiaKernel<RedFirst>(k: k).run(on: frame)
        } else {
            SepiaKernel<BlueFirst>(k: k).run(on: frame)
        }
    }
}

struct SepiaKernel<Order: ChannelOrder>: PixelKernel {
    /// Intensity × 1024.
    let k: Int32

    @inline(__always)
    func map(_ p: UInt32) -> UInt32 {
        let r = Order.red(p), g = Order.green(p), b = Order.blue(p)
        let sr = min((402 &* r &+ 787 &* g &+ 194 &* b &+ 512) &>> 10, 255)
        let sg = min((357 &* r &+ 702 &* g &+ 172 &* b &+ 512) &>> 10, 255)
        let sb = min((279 &* r &+ 547 &* g &+ 134 &* b &+ 512) &>> 10, 255)
        let nr = r &+ (((sr &- r) &* k &+ 512) &>> 10)
        let ng = g &+ (((sg &- g) &* k &+ 512) &>> 10)
        let nb = b &+ (((sb &- b) &* k &+ 512) &>> 10)
        return Order.pack(nr, ng, nb, keeping: p)
    }
}
