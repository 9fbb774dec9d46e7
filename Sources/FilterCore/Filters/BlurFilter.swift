/// `blur`: box blur over a (2·radius + 1)² square, edge pixels repeated outside the frame.
///
///     blur radius=4
///
/// Separable: a horizontal pass from the frame into scratch memory, then a vertical pass
/// from there back into the frame; both keep running sums, so the cost does not grow
/// with the radius. Each pass rounds its mean to nearest (`(Σ · ⌊65536/n⌉ + 32768) >> 16`,
/// n = 2·radius + 1), so the result is within ±1 of the exact 2-D mean rounded.
/// Bytes 0 and 2 are summed together in 16-bit lanes (65 × 255 fits), so the same code
/// serves every channel order. Alpha is kept.
final class BlurFilter: PassFilter {
    static let descriptor = FilterDescriptor(
        id: "blur", title: "Box Blur",
        summary: "Box blur: the mean of a square around each pixel",
        parameters: [FilterParameter("radius", .int(range: 0...32, defaultValue: 2),
                                     "pixels on each side of the centre; 0 = original picture")],
        make: { BlurFilter(radius: $0.int("radius")) })

    let radius: Int
    /// The horizontal pass's result, `width × height`.
    private let horizontal = Scratch<UInt32>()
    /// Running column sums of each band (bytes 0 and 2 in lanes; byte 1), 2 × width per band.
    private let columnSums = [Scratch<UInt32>(), Scratch<UInt32>()]
    /// The YUV path's first pass and running column sums (`YUVNeighbourhood.blur`).
    let yuvRows = Scratch<UInt8>()
    let yuvSums = Scratch<Int32>()

    init(radius: Int) { self.radius = radius }

    func run(_ pass: FramePass) {
        if radius == 0 { return pass.leaveUnchanged() }
        let source = pass.source, destination = pass.destination
        let width = pass.width, height = pass.height, r = radius
        let n = UInt32(2 * r + 1)
        let reciprocal = (65536 + n / 2) / n
        let tmp = horizontal.reserve(width * height)

        // Along each row: running sums of the lanes from r + 1 pixels before the row to r
        // after it (edge pixels repeated), so that each window's sum is one difference and
        // the loop making the means vectorizes (a sum carried from pixel to pixel did not).
        // The sums wrap, but a difference of two is the window's own sum, which fits its
        // lanes (at most 65 × 255 per lane).
        RowSplitter.shared.run(rows: height, columns: width) { rows in
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 2 * (width + 2 * r + 2)) { sums in
                let count = width &+ 2 &* r &+ 2
                let outerSums = sums.baseAddress! + (r &+ 1), middleSums = outerSums + count
                for y in rows {
                    let input = source.row(y)
                    let target = tmp + y * width
                    var outer: UInt32 = 0, middle: UInt32 = 0
                    for i in -(r &+ 1)...(width &+ r) {   // outerSums[i]: the pixels before i
                        outerSums[i] = outer
                        middleSums[i] = middle
                        let p = input[min(max(i, 0), width &- 1)]
                        outer &+= p & outerLanesMask
                        middle &+= (p &>> 8) & 0xFF
                    }
                    for x in 0..<width {
                        let o = outerSums[x &+ r &+ 1] &- outerSums[x &- r], m = middleSums[x &+ r &+ 1] &- middleSums[x &- r]
                        target[x] = (input[x] & alphaMask) | mean(o, m, reciprocal)
                    }
                }
            }
        }

        let bandSums = columnSums.map { $0.reserve(2 * width) }
        destination.splitIntoBands { band, rows in
            let outer = bandSums[band], middle = bandSums[band] + width
            for x in 0..<width {
                outer[x] = 0
                middle[x] = 0
            }
            for i in (rows.lowerBound - r)...(rows.lowerBound + r) {
                let above = tmp + min(max(i, 0), height - 1) * width
                for x in 0..<width {
                    outer[x] &+= above[x] & outerLanesMask
                    middle[x] &+= (above[x] &>> 8) & 0xFF
                }
            }
            for y in rows {
                let row = destination.row(y)
                let centre = tmp + y * width   // its alpha is the source's
                let entering = tmp + min(y + r + 1, height - 1) * width
                let leaving = tmp + max(y - r, 0) * width
                for x in 0..<width {
                    row[x] = (centre[x] & alphaMask) | mean(outer[x], middle[x], reciprocal)
                    outer[x] = outer[x] &+ (entering[x] & outerLanesMask) &- (leaving[x] & outerLanesMask)
                    middle[x] = middle[x] &+ ((entering[x] &>> 8) & 0xFF) &- ((leaving[x] &>> 8) & 0xFF)
                }
            }
        }
    }
}

/// The rounded means of lane sums, packed as a pixel without alpha.
@inline(__always)
private func mean(_ outer: UInt32, _ middle: UInt32, _ reciprocal: UInt32) -> UInt32 {
    let low = ((outer & 0xFFFF) &* reciprocal &+ 32768) &>> 16
    let high = ((outer &>> 16) &* reciprocal &+ 32768) &>> 16
    let mid = (middle &* reciprocal &+ 32768) &>> 16
    return low | mid &<< 8 | high &<< 16
}
