/// `edges`: Sobel edge strength as a grey picture (white edges on black).
///
///     edges
///
/// On the Rec.601 grey of the picture (`mono`'s fixed-point luma, an integer 0…255), with
/// edge pixels repeated outside the frame, each pixel becomes grey
/// `min(|gx| + |gy|, 255)`, gx and gy the 3×3 Sobel gradients (see `sobelMagnitude`).
/// `|gx| + |gy|` rather than the Euclidean length: cheaper, and no more than √2 larger.
/// Alpha is kept.
final class EdgesFilter: PassFilter {
    static let descriptor = FilterDescriptor(
        id: "edges", title: "Edges",
        summary: "Sobel edge strength as a grey picture",
        make: { _ in EdgesFilter() })

    /// The grey (RGB) or luma (YUV) plane, padded.
    let grey = Scratch<UInt8>()

    func run(_ pass: FramePass) {
        let plane = pass.format.isRGBOrder
            ? LumaKernel<RedFirst>().plane(of: pass.source, in: grey)
            : LumaKernel<BlueFirst>().plane(of: pass.source, in: grey)
        let source = pass.source, destination = pass.destination, inPlace = pass.inPlace
        let width = pass.width
        RowSplitter.shared.run(rows: pass.height, columns: width) { rows in
            for y in rows {
                let above = plane.row(y - 1), at = plane.row(y), below = plane.row(y + 1)
                // Two loops: one pointer in place (see `PixelKernel.run(from:to:)`).
                if inPlace {
                    let row = destination.row(y)
                    for x in 0..<width { row[x] = edgePixel(row[x], sobelMagnitude(above, at, below, x)) }
                } else {
                    let input = source.row(y), output = destination.row(y)
                    for x in 0..<width { output[x] = edgePixel(input[x], sobelMagnitude(above, at, below, x)) }
                }
            }
        }
    }
}

/// Grey `min(magnitude, 255)` with the alpha of `p`.
@inline(__always)
private func edgePixel(_ p: UInt32, _ magnitude: Int32) -> UInt32 {
    let v = UInt32(bitPattern: min(magnitude, 255))
    return (p & alphaMask) | v | v &<< 8 | v &<< 16
}
