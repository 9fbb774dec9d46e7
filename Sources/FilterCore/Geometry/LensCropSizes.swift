/// The sizes a lens crop gives and the sizes it takes, one axis at a time, for caps
/// negotiation as videocrop does it: a fixed size after the element asks upstream for the
/// sizes whose crop is that size (`videotestsrc ! filtercam lens=… lens-crop=true !
/// video/x-raw,width=320,height=240` gets 640×480 from the source for a half-width lens).
///
/// The length of a crop of a picture `size` long is `pixelRect`'s: both lens edges rounded
/// to the grid, so it is within a grid step of `fraction × size` either way, and not
/// monotonic (one more pixel of picture can round the left edge up and the right edge
/// not). The ranges below are worked out from that bound and then checked size by size.
extension LensRect {
    public enum Axis: Sendable {
        case horizontal, vertical
    }

    /// The most sizes a search looks at; beyond it (a lens a few millionths wide) the
    /// answer is the bound, not checked size by size.
    static let searchLimit = 1 << 16

    /// The length along `axis` of a picture `size` long cropped to the lens, its edges on
    /// `grid` (2 for YUV frames).
    public func croppedLength(of size: Int, along axis: Axis, grid: Int) -> Int {
        let (start, end) = axis == .horizontal ? (x, x + w) : (y, y + h)
        let (a, b) = Self.span(start, end, size, grid: grid)
        return b - a
    }

    /// The shortest and longest crop of the sizes in `sizes`.
    public func croppedLengths(of sizes: ClosedRange<Int>, along axis: Axis, grid: Int) -> ClosedRange<Int> {
        let length = { croppedLength(of: $0, along: axis, grid: grid) }
        // Beyond `reach` sizes from one end the bound alone puts every crop past that end's.
        let reach = min(Int(min((Double(4 * grid + 4) / fraction(axis)).rounded(.up), Double(Self.searchLimit))) + 4, Self.searchLimit)
        if sizes.count <= 2 * reach {
            let all = sizes.lazy.map(length)
            return all.min()!...all.max()!
        }
        let low = sizes.lowerBound...sizes.lowerBound + reach, high = sizes.upperBound - reach...sizes.upperBound
        return low.lazy.map(length).min()!...high.lazy.map(length).max()!
    }

    /// The smallest and largest size in `1...limit` whose crop is in `lengths` (not every
    /// size between need be one); nil when there is none.
    public func sizes(cropping lengths: ClosedRange<Int>, along axis: Axis, grid: Int, limit: Int = Int(Int32.max)) -> ClosedRange<Int>? {
        let f = fraction(axis), g = Double(grid)
        let fits = { lengths.contains(croppedLength(of: $0, along: axis, grid: grid)) }
        // A crop is within a grid step (and a pixel of clamping) of f × size: no size below
        // `first` reaches the shortest length, none above `last` stays within the longest.
        // Clamped before it becomes an Int: a lens of 1e-20 puts the bound beyond any Int.
        let below = ((Double(lengths.lowerBound) - g - 1) / f).rounded(.down)
        let first = max(1, Int(min(max(below, 0), Double(limit))) - 1)
        let last = min(limit, Int(min(((Double(lengths.upperBound) + g + 1) / f).rounded(.up) + 1, Double(limit))))
        guard first <= last else { return nil }
        var low = first, high = last, looked = 0
        while low <= last && !fits(low) && looked < Self.searchLimit { low += 1; looked += 1 }
        guard low <= last else { return nil }
        looked = 0
        while high > low && !fits(high) && looked < Self.searchLimit { high -= 1; looked += 1 }
        return low...high
    }

    private func fraction(_ axis: Axis) -> Double { axis == .horizontal ? w : h }
}
