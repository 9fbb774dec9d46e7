/// `mono`: grey from Rec.601 luma, mixed with the original by `intensity`.
///
///     mono intensity=1
///
/// `y = 0.299 r + 0.587 g + 0.114 b`; each channel becomes `c + k (y − c)`.
/// At full intensity the kernel is the fixed-point luma `(306 r + 601 g + 117 b + 512) >> 10`
/// (coefficients × 1024, rounded so they sum to 1024: grey stays exactly grey) written to all
/// three channels; below it, the mix is folded into one colour matrix (`ColorMatrix`).
/// Either way the result is within ±1 of the real formula rounded.
final class MonoFilter: PassFilter {
    static let descriptor = FilterDescriptor(
        id: "mono", title: "Mono",
        summary: "Grey picture from Rec.601 luma",
        parameters: [FilterParameter("intensity", .double(range: 0...1, defaultValue: 1),
                                     "0 = original picture, 1 = fully grey")],
        strengthParameter: "intensity",
        make: { MonoFilter(intensity: $0.double("intensity")) })

    let intensity: Double
    private let partial: ColorMatrix

    init(intensity: Double) {
        self.intensity = intensity
        partial = ColorMatrix.luma.mixed(intensity)
    }

    func run(_ pass: FramePass) {
        if intensity < 1 {
            partial.run(pass)
        } else if pass.format.isRGBOrder {
            GreyKernel<RedFirst>().run(pass)
        } else {
            GreyKernel<BlueFirst>().run(pass)
        }
    }
}

/// Rec.601 luma in fixed point, `(306 r + 601 g + 117 b + 512) >> 10`.
@inline(__always)
func luma<Order: ChannelOrder>(_ p: UInt32, _: Order.Type) -> Int32 {
    (306 &* Order.red(p) &+ 601 &* Order.green(p) &+ 117 &* Order.blue(p) &+ 512) &>> 10
}

struct GreyKernel<Order: ChannelOrder>: PixelKernel {
    @inline(__always)
    func map(_ p: UInt32) -> UInt32 {
        let y = UInt32(bitPattern: luma(p, Order.self))
        return (p & alphaMask) | y | y &<< 8 | y &<< 16
    }
}
