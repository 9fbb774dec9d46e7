/// `sepia`: Core Image's CISepiaTone. Placeholder kernel (to be replaced by the fast one).
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
        let k = Float(intensity)
        for y in 0..<frame.height {
            for x in 0..<frame.width {
                var p = frame.pixel(x: x, y: y)
                let r = Float(p.r), g = Float(p.g), b = Float(p.b)
                let sr = min(255, 0.393 * r + 0.769 * g + 0.189 * b)
                let sg = min(255, 0.349 * r + 0.686 * g + 0.168 * b)
                let sb = min(255, 0.272 * r + 0.534 * g + 0.131 * b)
                p.r = UInt8((r + (sr - r) * k).rounded())
                p.g = UInt8((g + (sg - g) * k).rounded())
                p.b = UInt8((b + (sb - b) * k).rounded())
                frame.setPixel(x: x, y: y, p)
            }
        }
    }
}
