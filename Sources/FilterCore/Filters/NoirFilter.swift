/// `noir`: high-contrast black and white, in the spirit of Core Image's CIPhotoEffectNoir.
///
///     noir intensity=1
///
/// Grey from Rec.601 luma (`y`, as `mono`: `(306 r + 601 g + 117 b + 512) >> 10`), then an
/// S-shaped contrast curve, smoothstep: with `t = y / 255`,
///
///     y' = 255 · t² (3 − 2t)
///
/// which keeps black, mid-grey and white where they are and steepens the middle tones
/// 1.5× (shadows darker, highlights brighter). Each channel becomes `c + k (y' − c)`,
/// k = intensity, rounded to nearest (computed in `Float`; within ±1 of the formula).
final class NoirFilter: PassFilter {
    static let descriptor = FilterDescriptor(
        id: "noir", title: "Noir",
        summary: "High-contrast black and white: luma through an S-shaped contrast curve",
        parameters: [FilterParameter("intensity", .double(range: 0...1, defaultValue: 1),
                                     "0 = original picture, 1 = full effect")],
        strengthParameter: "intensity",
        make: { NoirFilter(intensity: $0.double("intensity")) })

    let intensity: Double
    init(intensity: Double) { self.intensity = intensity }

    func run(_ pass: FramePass) {
        if intensity == 0 { return pass.leaveUnchanged() }
        if pass.format.isRGBOrder {
            NoirKernel<RedFirst>(k: Float(intensity)).run(pass)
        } else {
            NoirKernel<BlueFirst>(k: Float(intensity)).run(pass)
        }
    }
}

struct NoirKernel<Order: ChannelOrder>: PixelKernel {
    let k: Float

    @inline(__always)
    func map(_ p: UInt32) -> UInt32 {
        let t = Float(luma(p, Order.self)) * (1 / 255)
        let curve = 255 * t * t * (3 - 2 * t)
        let r = Float(Order.red(p)), g = Float(Order.green(p)), b = Float(Order.blue(p))
        // The mix stays within 0…255 (between c and the curve), so no clamp is needed.
        let nr = roundedToInteger(r + k * (curve - r))
        let ng = roundedToInteger(g + k * (curve - g))
        let nb = roundedToInteger(b + k * (curve - b))
        return (p & alphaMask) | nr &<< Order.redShift | ng &<< 8 | nb &<< Order.blueShift
    }
}
