import FilterCore

/// `pixelate`: a worked example of a FilterCam filter written only against the public
/// filter API (FilterCore's `FrameFilter`, `FilterDescriptor`, `FilterParameter`,
/// `FrameView`). The picture is divided into `block`×`block` squares (from the top-left;
/// the last row and column may be smaller), each filled with the rounded mean of its
/// pixels, alpha included: mean = (sum + count/2) / count.
///
///     videotestsrc ! fcpixelate block=16 ! videoconvert ! autovideosink
///     videotestsrc ! filtercam filter="pixelate block=8" ! videoconvert ! autovideosink
public final class PixelateFilter: FrameFilter {
    /// Step 1: declare the filter once. The id, title, summary and parameters drive the
    /// chain syntax, `filtercam filters`, and the `fcpixelate` element's properties.
    public static let descriptor = FilterDescriptor(
        id: "pixelate", title: "Pixelate",
        summary: "Mosaic of square blocks, each the mean colour of its pixels",
        parameters: [FilterParameter("block", .int(range: 1...256, defaultValue: 8), "block size in pixels")],
        make: { PixelateFilter(block: $0.int("block")) })

    let block: Int

    /// Step 2: a configured instance, made from validated parameter values.
    public init(block: Int) {
        self.block = block
    }

    /// Step 3: the per-frame work, in place. Rows are `frame.row(y)` (never assume
    /// stride == width × 4); channels are bytes of a little-endian UInt32, so the sum
    /// is the same for every pixel format.
    public func apply(to frame: FrameView) {
        guard block > 1 else { return }
        var by = 0
        while by < frame.height {
            let bh = min(block, frame.height - by)
            var bx = 0
            while bx < frame.width {
                let bw = min(block, frame.width - bx)
                var sums = (UInt32(0), UInt32(0), UInt32(0), UInt32(0))
                for y in by..<by + bh {
                    let row = frame.row(y)
                    for x in bx..<bx + bw {
                        let p = row[x]
                        sums.0 &+= p & 0xFF
                        sums.1 &+= (p >> 8) & 0xFF
                        sums.2 &+= (p >> 16) & 0xFF
                        sums.3 &+= p >> 24
                    }
                }
                let n = UInt32(bw * bh)
                let mean = ((sums.0 + n / 2) / n) | (((sums.1 + n / 2) / n) << 8)
                    | (((sums.2 + n / 2) / n) << 16) | (((sums.3 + n / 2) / n) << 24)
                for y in by..<by + bh {
                    let row = frame.row(y)
                    for x in bx..<bx + bw { row[x] = mean }
                }
                bx += block
            }
            by += block
        }
    }
}
