#if canImport(Glibc)
import Glibc
#endif

/// `exposure`: Core Image's CIExposureAdjust, a gain of `2^ev` in linear light.
///
///     exposure ev=1
///
/// Each channel is decoded from sRGB to linear light, multiplied by `2^ev`, clamped to 1
/// and encoded back to sRGB, rounded to nearest. The 256 results are computed once, when
/// the filter is made, into a table shared by R, G and B.
final class ExposureFilter: PassFilter {
    static let descriptor = FilterDescriptor(
        id: "exposure", title: "Exposure",
        summary: "Brightens or darkens by photographic stops, in linear light",
        parameters: [FilterParameter("ev", .double(range: -10...10, defaultValue: 0),
                                     "stops: +1 doubles the light, −1 halves it")],
        make: { ExposureFilter(ev: $0.double("ev")) })

    let ev: Double
    let table: ChannelTable

    init(ev: Double) {
        self.ev = ev
        let gain = pow(2, ev)
        table = ChannelTable { c in
            let linear = min(sRGBToLinear(Double(c) / 255) * gain, 1)
            return UInt8((linearToSRGB(linear) * 255).rounded())
        }
    }

    func run(_ pass: FramePass) {
        if ev == 0 { return pass.leaveUnchanged() }
        table.run(pass)
    }
}

/// The sRGB transfer function (IEC 61966-2-1), 0…1 both sides.
func sRGBToLinear(_ v: Double) -> Double {
    v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
}

func linearToSRGB(_ v: Double) -> Double {
    v <= 0.0031308 ? v * 12.92 : 1.055 * pow(v, 1 / 2.4) - 0.055
}
