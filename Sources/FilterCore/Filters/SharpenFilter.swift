/// `sharpen`: unsharp mask with a 3×3 box blur.
///
///     sharpen amount=0.5
///
/// Each channel becomes `c + amount · (c − m)`, `m` the mean of the 3×3 neighbourhood
/// (edge pixels repeated outside the frame), clamped to 0…255; alpha is kept.
/// Fixed point: `K = round(amount · 65536 / 9)`, `c + ((9c − Σ) K + 32768) >> 16`
/// (round half up), within ±1 of the formula rounded.
final class SharpenFilter: PassFilter {
    static let descriptor = FilterDescriptor(
        id: "sharpen", title: "Sharpen",
        summary: "Unsharp mask: adds the difference from a 3×3 blur",
        parameters: [FilterParameter("amount", .double(range: 0...4, defaultValue: 0.5),
                                     "0 = original picture; 1 adds the full difference")],
        strengthParameter: "amount",
        make: { SharpenFilter(amount: $0.double("amount")) })

    let amount: Double
    private let copy = Scratch<UInt32>()
    /// The YUV path's padded copy of one plane (`YUVNeighbourhood.sharpen`).
    let yuvCopy = Scratch<UInt8>()

    init(amount: Double) { self.amount = amount }

    func run(_ pass: FramePass) {
        let k = Int32((amount * 65536 / 9).rounded())
        if k == 0 { return pass.leaveUnchanged() }
        // Everything is read from the copy (alpha too), so one loop serves both passes.
        let plane = CopyKernel().plane(of: pass.source, in: copy)
        let destination = pass.destination, width = pass.width
        RowSplitter.shared.run(rows: pass.height, columns: width) { rows in
            for y in rows {
                let above = plane.row(y - 1), at = plane.row(y), below = plane.row(y + 1)
                let row = destination.row(y)
                for x in 0..<width {
                    // Bytes 0 and 2 summed in 16-bit lanes (9 × 255 fits), byte 1 alone.
                    let outer = lanes(above, x) &+ lanes(at, x) &+ lanes(below, x)
                    let middle = middles(above, x) &+ middles(at, x) &+ middles(below, x)
                    let p = at[x]
                    let c0 = Int32(bitPattern: p & 0xFF), c1 = Int32(bitPattern: (p &>> 8) & 0xFF)
                    let c2 = Int32(bitPattern: (p &>> 16) & 0xFF)
                    let n0 = sharpened(c0, Int32(bitPattern: outer & 0xFFFF), k)
                    let n1 = sharpened(c1, Int32(bitPattern: middle), k)
                    let n2 = sharpened(c2, Int32(bitPattern: outer &>> 16), k)
                    row[x] = (p & alphaMask) | UInt32(bitPattern: n0) | UInt32(bitPattern: n1) &<< 8
                        | UInt32(bitPattern: n2) &<< 16
                }
            }
        }
    }
}

@inline(__always)
private func sharpened(_ c: Int32, _ sum: Int32, _ k: Int32) -> Int32 {
    clampChannel(c &+ (((9 &* c &- sum) &* k &+ 32768) &>> 16))
}

/// Bytes 0 and 2 of pixels x − 1…x + 1 summed in 16-bit lanes.
@inline(__always)
private func lanes(_ row: UnsafeMutablePointer<UInt32>, _ x: Int) -> UInt32 {
    (row[x &- 1] & outerLanesMask) &+ (row[x] & outerLanesMask) &+ (row[x &+ 1] & outerLanesMask)
}

/// Byte 1 of pixels x − 1…x + 1 summed.
@inline(__always)
private func middles(_ row: UnsafeMutablePointer<UInt32>, _ x: Int) -> UInt32 {
    ((row[x &- 1] &>> 8) & 0xFF) &+ ((row[x] &>> 8) & 0xFF) &+ ((row[x &+ 1] &>> 8) & 0xFF)
}
