#if canImport(Glibc)
import Glibc
#endif

/// `white-balance`: the colour of the light, like Core Image's CITemperatureAndTint.
///
///     white-balance temperature=4000 tint=10
///
/// `temperature` is the colour temperature (kelvin) the picture is made to look lit by,
/// starting from daylight at 6500 K: **lower is warmer** (3000 K: tungsten orange), higher
/// is cooler (10000 K: blue shade). 6500 K with tint 0 is exactly the original picture.
/// (A camera's white-balance setting works the other way round, because it corrects for
/// the light instead of simulating it.) `tint` moves along green–magenta: positive is
/// more magenta, negative more green.
///
/// The approximation (a von Kries scaling of R, G, B):
/// 1. the white of a black body at T and at 6500 K: the Planckian locus in CIE xy after
///    Kim et al. (2002), turned into linear sRGB at luminance 1;
/// 2. linear gains `white(T) / white(6500)`, green times `2^(−tint/300)`
///    (tint ±150: green ×0.71 or ×1.41), scaled so grey keeps its luminance (Rec.709 Y);
/// 3. the gains are applied to the sRGB-encoded channels as `gain^(1/2.2)` (exact for
///    a pure 2.2 power curve), as a diagonal colour matrix (fixed point, clamped at 255).
final class WhiteBalanceFilter: PassFilter {
    static let descriptor = FilterDescriptor(
        id: "white-balance", title: "Temperature and Tint",
        summary: "Warms or cools the picture like light of another colour temperature",
        parameters: [
            FilterParameter("temperature", .double(range: 2000...25000, defaultValue: 6500),
                            "kelvin of the simulated light: lower is warmer, 6500 unchanged"),
            FilterParameter("tint", .double(range: -150...150, defaultValue: 0),
                            "positive more magenta, negative more green, 0 unchanged"),
        ],
        make: { WhiteBalanceFilter(temperature: $0.double("temperature"), tint: $0.double("tint")) })

    let matrix: ColorMatrix

    init(temperature: Double, tint: Double) {
        if temperature == 6500 && tint == 0 {
            matrix = .identity
            return
        }
        let gains = WhiteBalanceFilter.encodedGains(temperature: temperature, tint: tint)
        matrix = ColorMatrix([gains.r, 0, 0, 0, 0, gains.g, 0, 0, 0, 0, gains.b, 0])
    }

    func run(_ pass: FramePass) { matrix.run(pass) }

    /// Gains for sRGB-encoded channels (steps 1–3 above).
    static func encodedGains(temperature: Double, tint: Double) -> (r: Double, g: Double, b: Double) {
        let target = blackBodyWhite(kelvin: temperature)
        let daylight = blackBodyWhite(kelvin: 6500)
        var r = target.r / daylight.r
        var g = target.g / daylight.g * pow(2, -tint / 300)
        var b = target.b / daylight.b
        let luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b
        r /= luminance; g /= luminance; b /= luminance
        let encode = { (v: Double) in pow(max(v, 0), 1 / 2.2) }
        return (encode(r), encode(g), encode(b))
    }

    /// Linear sRGB of a black body's light at luminance 1 (valid 1667…25000 K).
    static func blackBodyWhite(kelvin t: Double) -> (r: Double, g: Double, b: Double) {
        let t2 = t * t, t3 = t2 * t
        let x = t <= 4000
            ? -0.2661239e9 / t3 - 0.2343589e6 / t2 + 0.8776956e3 / t + 0.179910
            : -3.0258469e9 / t3 + 2.1070379e6 / t2 + 0.2226347e3 / t + 0.240390
        let x2 = x * x, x3 = x2 * x
        let y: Double
        if t <= 2222 {
            y = -1.1063814 * x3 - 1.34811020 * x2 + 2.18555832 * x - 0.20219683
        } else if t <= 4000 {
            y = -0.9549476 * x3 - 1.37418593 * x2 + 2.09137015 * x - 0.16748867
        } else {
            y = 3.0817580 * x3 - 5.87338670 * x2 + 3.75112997 * x - 0.37001483
        }
        let cx = x / y, cz = (1 - x - y) / y   // XYZ with Y = 1
        return (3.2404542 * cx - 1.5371385 - 0.4985314 * cz,
                -0.9692660 * cx + 1.8760108 + 0.0415560 * cz,
                0.0556434 * cx - 0.2040259 + 1.0572252 * cz)
    }
}
