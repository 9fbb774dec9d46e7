/// `posterize`: `levels` values per channel, as ImageMagick's `+dither -posterize levels`:
///
///     posterize levels=6
///
/// each channel becomes `round(round(c (L − 1) / 255) · 255 / (L − 1))` (round half up).
/// Computed exactly into a 256-entry table when the filter is made.
final class PosterizeFilter: PassFilter {
    static let descriptor = FilterDescriptor(
        id: "posterize", title: "Posterize",
        summary: "Reduces each channel to a few evenly spaced levels",
        parameters: [FilterParameter("levels", .int(range: 2...64, defaultValue: 6),
                                     "values per channel, black and full included")],
        make: { PosterizeFilter(levels: $0.int("levels")) })

    let levels: Int
    private let table: ChannelTable

    init(levels: Int) {
        self.levels = levels
        let steps = levels - 1
        table = ChannelTable { c in
            // Integer forms of the two roundings: q = ⌊(2 c s + 255) / 510⌋, out = ⌊(2 q 255 + s) / 2s⌋.
            let q = (2 * c * steps + 255) / 510
            return UInt8((2 * q * 255 + steps) / (2 * steps))
        }
    }

    func run(_ pass: FramePass) { table.run(pass) }
}
