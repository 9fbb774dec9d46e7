/// `edges`: Sobel edge strength as a grey picture (white edges on black).
///
///     edges
///
/// On the Rec.601 grey of the picture (`mono`'s fixed-point luma, an integer 0…255), with
/// edge pixels repeated outside the frame, each pixel becomes grey
/// `min(|gx| + |gy|, 255)`, gx and gy the 3×3 Sobel gradients (see `sobelMagnitude`).
/// `|gx| + |gy|` rather than the Euclidean length: cheaper, and no more than √2 larger.
/// Alpha is kept.
final class EdgesFilter: FrameFilter {
    static let descriptor = FilterDescriptor(
        id: "edges", title: "Edges",
        summary: "Sobel edge strength as a grey picture",
        make: { _ in EdgesFilter() })

    private let grey = Scratch<UInt8>()

    func apply(to frame: FrameView) {
        let plane = frame.format.isRGBOrder
            ? LumaKernel<RedFirst>().plane(of: frame, in: grey)
            : LumaKernel<BlueFirst>().plane(of: frame, in: grey)
        let width = frame.width
        RowSplitter.shared.run(rows: frame.height, columns: width) { rows in
            for y in rows {
                let above = plane.row(y - 1), at = plane.row(y), below = plane.row(y + 1)
                let row = frame.row(y)
                for x in 0..<width {
                    let v = UInt32(bitPattern: min(sobelMagnitude(above, at, below, x), 255))
                    row[x] = (row[x] & alphaMask) | v | v &<< 8 | v &<< 16
                }
            }
        }
    }
}
