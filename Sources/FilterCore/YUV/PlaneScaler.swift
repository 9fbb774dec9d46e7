/// Zoom's bilinear scaling (`Zoom`: pixel centres, 8-bit weights, round half up) for
/// planes of samples: `channels` interleaved bytes per element (1 for Y, U, V; 2 for
/// NV12's U,V pairs), and for the luma and chroma of packed 4:2:2 frames.
enum PlaneScaler {
    /// Writes the `window` part of `src` scaled to `fullWidth`×`fullHeight` elements into `dst`.
    static func scale(from src: Plane, fullWidth: Int, fullHeight: Int, window: PixelRect, to dst: Plane) {
        let cols = Zoom.samples(count: window.width, offset: window.x, full: fullWidth, source: src.width)
        let rows = Zoom.samples(count: window.height, offset: window.y, full: fullHeight, source: src.height)
        let c = src.elementBytes
        RowSplitter.shared.run(rows: dst.height, columns: dst.width) { range in
            for j in range {
                let a = src.row(Int(rows.first[j])), b = src.row(Int(rows.second[j])), fy = rows.weight[j]
                let d = dst.row(j)
                for i in 0..<dst.width {
                    let x0 = Int(cols.first[i]) * c, x1 = Int(cols.second[i]) * c, fx = cols.weight[i]
                    for k in 0..<c {
                        let v = blend(sample(a, x0 + k), sample(a, x1 + k), sample(b, x0 + k), sample(b, x1 + k), fx, fy)
                        d.storeBytes(of: v, toByteOffset: i * c + k, as: UInt8.self)
                    }
                }
            }
        }
    }

    /// Packed 4:2:2: luma scaled per pixel, chroma per macropixel, each on its own grid.
    static func scalePacked(from src: Plane, sourceWidth: Int, fullWidth: Int, fullHeight: Int, window: PixelRect,
                            format: YUVFormat, to dst: Plane) {
        let k = format.packedOffsets
        let lumaCols = Zoom.samples(count: window.width, offset: window.x, full: fullWidth, source: sourceWidth)
        let chromaCols = Zoom.samples(count: dst.width, offset: window.x / 2, full: (fullWidth + 1) / 2, source: src.width)
        let rows = Zoom.samples(count: window.height, offset: window.y, full: fullHeight, source: src.height)
        @inline(__always) func lumaOffset(_ x: Int32) -> Int { Int(x >> 1) * 4 + (x & 1 == 0 ? k.y0 : k.y1) }
        RowSplitter.shared.run(rows: dst.height, columns: dst.width) { range in
            for j in range {
                let a = src.row(Int(rows.first[j])), b = src.row(Int(rows.second[j])), fy = rows.weight[j]
                let d = dst.row(j)
                for i in 0..<window.width {
                    let x0 = lumaOffset(lumaCols.first[i]), x1 = lumaOffset(lumaCols.second[i])
                    let v = blend(sample(a, x0), sample(a, x1), sample(b, x0), sample(b, x1), lumaCols.weight[i], fy)
                    d.storeBytes(of: v, toByteOffset: (i >> 1) * 4 + (i & 1 == 0 ? k.y0 : k.y1), as: UInt8.self)
                }
                if window.width & 1 == 1 {   // the last macropixel's second luma is padding
                    let last = (window.width >> 1) * 4
                    d.storeBytes(of: d.load(fromByteOffset: last + k.y0, as: UInt8.self), toByteOffset: last + k.y1, as: UInt8.self)
                }
                for i in 0..<dst.width {
                    let x0 = Int(chromaCols.first[i]) * 4, x1 = Int(chromaCols.second[i]) * 4, fx = chromaCols.weight[i]
                    for o in [k.u, k.v] {
                        let v = blend(sample(a, x0 + o), sample(a, x1 + o), sample(b, x0 + o), sample(b, x1 + o), fx, fy)
                        d.storeBytes(of: v, toByteOffset: i * 4 + o, as: UInt8.self)
                    }
                }
            }
        }
    }

    @inline(__always)
    private static func sample(_ row: UnsafeMutableRawPointer, _ offset: Int) -> UInt32 {
        UInt32(row.load(fromByteOffset: offset, as: UInt8.self))
    }

    /// Horizontal then vertical blend, each rounding half up (as `Zoom.lerp`).
    @inline(__always)
    private static func blend(_ p00: UInt32, _ p10: UInt32, _ p01: UInt32, _ p11: UInt32, _ fx: UInt32, _ fy: UInt32) -> UInt8 {
        let top = (p00 * (256 - fx) + p10 * fx + 128) >> 8
        let bottom = (p01 * (256 - fx) + p11 * fx + 128) >> 8
        return UInt8((top * (256 - fy) + bottom * fy + 128) >> 8)
    }
}
