/// `focus-peaking`: paints the sharp edges, as a camera's focus assist does.
///
///     focus-peaking threshold=100 color=0xFF00FF00
///
/// Pixels whose edge strength (exactly what `edges` shows: `min(|gx| + |gy|, 255)` of the
/// Sobel gradients of Rec.601 grey) is greater than `threshold` get the red, green and blue
/// of `color`; every other pixel, and every alpha byte, stays as it was. The colour's
/// alpha byte is ignored. `threshold` 255 paints nothing, 0 every pixel not in a flat area.
final class FocusPeakingFilter: PassFilter {
    static let descriptor = FilterDescriptor(
        id: "focus-peaking", title: "Focus Peaking",
        summary: "Paints sharp edges in a colour to show what is in focus",
        parameters: [
            FilterParameter("threshold", .int(range: 0...255, defaultValue: 100),
                            "edge strength (as `edges` shows it, 0…255) above which a pixel is painted"),
            FilterParameter("color", .color(defaultValue: 0xFFFF_0000), "paint colour (alpha ignored)"),
        ],
        make: { FocusPeakingFilter(threshold: $0.int("threshold"), color: $0.color("color")) })

    let threshold: Int
    let color: UInt32
    /// The grey (RGB) or luma (YUV) plane, padded.
    let grey = Scratch<UInt8>()
    /// The YUV path's painted pixels (1) of the frame, for the chroma of their sites.
    let painted = Scratch<UInt8>()

    init(threshold: Int, color: UInt32) {
        self.threshold = threshold
        self.color = color
    }

    func run(_ pass: FramePass) {
        if threshold >= 255 { return pass.leaveUnchanged() }
        let plane = pass.format.isRGBOrder
            ? LumaKernel<RedFirst>().plane(of: pass.source, in: grey)
            : LumaKernel<BlueFirst>().plane(of: pass.source, in: grey)
        let r = (color >> 16) & 0xFF, g = (color >> 8) & 0xFF, b = color & 0xFF
        let paint = r << pass.format.redShift | g << 8 | b << pass.format.blueShift
        let limit = Int32(threshold)
        let source = pass.source, destination = pass.destination, inPlace = pass.inPlace
        let width = pass.width
        RowSplitter.shared.run(rows: pass.height, columns: width) { rows in
            for y in rows {
                let above = plane.row(y - 1), at = plane.row(y), below = plane.row(y + 1)
                // Two loops: one pointer in place (see `PixelKernel.run(from:to:)`).
                if inPlace {
                    let row = destination.row(y)
                    for x in 0..<width {
                        let p = row[x]
                        row[x] = sobelMagnitude(above, at, below, x) > limit ? (p & alphaMask) | paint : p
                    }
                } else {
                    let input = source.row(y), output = destination.row(y)
                    for x in 0..<width {
                        let p = input[x]
                        output[x] = sobelMagnitude(above, at, below, x) > limit ? (p & alphaMask) | paint : p
                    }
                }
            }
        }
    }
}
