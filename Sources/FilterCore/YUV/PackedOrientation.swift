/// An `OrientationMethod` applied to YUY2/UYVY (4:2:2, two pixels per macropixel), with
/// videoflip's rules (`gst_video_flip_y422`), evaluated over a window of the turned picture:
/// - each output pixel's luma is its source pixel's;
/// - an output macropixel at even x takes its chroma from the source macropixel holding
///   the source pixel of x; for the four methods that swap axes, averaged (rounding down)
///   with that of x + 1 when x + 1 is inside the picture, since those two source pixels
///   lie in different rows.
/// The window's left edge must be even (the lens snaps to the chroma grid) for the output
/// macropixels to be the turned picture's.
enum PackedOrientation {
    /// Writes the `window` of `method` applied to `src` (`width`×`height` pixels) into
    /// `dst`, a frame of the window's size.
    static func transform(_ method: OrientationMethod, from src: Plane, width sw: Int, height sh: Int,
                          window: PixelRect, format: YUVFormat, to dst: Plane) {
        precondition(dst.width == (window.width + 1) / 2 && dst.height == window.height,
                     "destination plane does not fit the window \(window)")
        precondition(!src.overlaps(dst), "source and destination planes overlap")
        let (ow, _) = method.outputSize(width: sw, height: sh)
        let k = format.packedOffsets
        let averages = method.swapsAxes
        @inline(__always) func luma(_ p: (x: Int, y: Int)) -> UInt8 {
            src.row(p.y).load(fromByteOffset: (p.x >> 1) &* 4 &+ (p.x & 1 == 0 ? k.y0 : k.y1), as: UInt8.self)
        }
        @inline(__always) func chroma(_ p: (x: Int, y: Int), _ offset: Int) -> Int {
            Int(src.row(p.y).load(fromByteOffset: (p.x >> 1) &* 4 &+ offset, as: UInt8.self))
        }
        RowSplitter.shared.run(rows: window.height, columns: window.width) { rows in
            for j in rows {
                let y = window.y + j
                let d = dst.row(j)
                for i in 0..<dst.width {
                    let x = window.x + 2 * i
                    let a = method.sourcePixel(x: x, y: y, inputWidth: sw, inputHeight: sh)
                    var u = chroma(a, k.u), v = chroma(a, k.v)
                    let hasSecond = x + 1 < ow
                    let b = hasSecond ? method.sourcePixel(x: x + 1, y: y, inputWidth: sw, inputHeight: sh) : a
                    if averages && hasSecond {
                        u = (u + chroma(b, k.u)) >> 1
                        v = (v + chroma(b, k.v)) >> 1
                    }
                    let m = d + 4 * i
                    m.storeBytes(of: luma(a), toByteOffset: k.y0, as: UInt8.self)
                    m.storeBytes(of: luma(b), toByteOffset: k.y1, as: UInt8.self)
                    m.storeBytes(of: UInt8(u), toByteOffset: k.u, as: UInt8.self)
                    m.storeBytes(of: UInt8(v), toByteOffset: k.v, as: UInt8.self)
                }
            }
        }
    }
}
