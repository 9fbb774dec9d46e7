/// `color-controls`: saturation, brightness and contrast, as Core Image's CIColorControls.
///
///     color-controls brightness=0.1 contrast=1.2 saturation=0.5
///
/// On channels as fractions of 255 (`c` in 0…1), in this order and without clamping in
/// between (Core Image works in unclamped floating point):
///
///     saturation:  c₁ = y + s (c − y)          y = 0.299 r + 0.587 g + 0.114 b
///     brightness:  c₂ = c₁ + brightness
///     contrast:    c₃ = (c₂ − 0.5) · contrast + 0.5
///
/// then clamped to 0…1. All three are affine, so they run as one colour matrix
/// (`ColorMatrix`, fixed point, within ±1 of the formula rounded).
final class ColorControlsFilter: PassFilter {
    static let descriptor = FilterDescriptor(
        id: "color-controls", title: "Color Controls",
        summary: "Brightness, contrast and saturation, as Core Image's CIColorControls",
        parameters: [
            FilterParameter("brightness", .double(range: -1...1, defaultValue: 0),
                            "added to every channel: −1 black, 0 unchanged, 1 white"),
            FilterParameter("contrast", .double(range: 0...4, defaultValue: 1),
                            "scales the distance from mid-grey: 0 flat grey, 1 unchanged"),
            FilterParameter("saturation", .double(range: 0...4, defaultValue: 1),
                            "0 grey, 1 unchanged, above 1 more vivid"),
        ],
        make: { ColorControlsFilter(brightness: $0.double("brightness"), contrast: $0.double("contrast"),
                                    saturation: $0.double("saturation")) })

    let matrix: ColorMatrix

    init(brightness: Double, contrast: Double, saturation: Double) {
        let saturate = ColorMatrix.luma.mixed(1 - saturation)
        let brighten = ColorMatrix([1, 0, 0, brightness, 0, 1, 0, brightness, 0, 0, 1, brightness])
        let offset = 0.5 - 0.5 * contrast
        let contrasted = ColorMatrix([contrast, 0, 0, offset, 0, contrast, 0, offset, 0, 0, contrast, offset])
        matrix = contrasted.after(brighten.after(saturate))
    }

    func run(_ pass: FramePass) { matrix.run(pass) }
}
