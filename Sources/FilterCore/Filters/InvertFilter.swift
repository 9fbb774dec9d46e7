/// `invert`: the negative, `255 − c` on R, G and B (alpha untouched), as ImageMagick's
/// `-negate`; `intensity` mixes it with the original: `c + k (255 − 2c)`.
///
///     invert intensity=1
///
/// Full intensity flips the colour bits (`p ^ 0x00FFFFFF`, exact); partial intensity runs
/// as a colour matrix (within ±1 of the formula rounded).
final class InvertFilter: PassFilter {
    static let descriptor = FilterDescriptor(
        id: "invert", title: "Invert",
        summary: "The negative picture: 255 − c on red, green and blue",
        parameters: [FilterParameter("intensity", .double(range: 0...1, defaultValue: 1),
                                     "0 = original picture, 1 = full negative")],
        strengthParameter: "intensity",
        make: { InvertFilter(intensity: $0.double("intensity")) })

    let intensity: Double
    private let partial: ColorMatrix

    init(intensity: Double) {
        self.intensity = intensity
        partial = ColorMatrix([-1, 0, 0, 1, 0, -1, 0, 1, 0, 0, -1, 1]).mixed(intensity)
    }

    func run(_ pass: FramePass) {
        if intensity < 1 {
            partial.run(pass)
        } else {
            InvertKernel().run(pass)
        }
    }
}

struct InvertKernel: PixelKernel {
    @inline(__always)
    func map(_ p: UInt32) -> UInt32 { p ^ 0x00FF_FFFF }
}
