/// Applying an `OrientationMethod` to pixels: one pass from a source frame into a
/// destination frame of the output size (other memory; each with its own stride).
///
/// Output pixel (x, y) is read at `origin + x·dx + y·dy` (in 32-bit pixels), with dx, dy
/// each ±1 or ±(source pixel stride), taken from `OrientationMethod.sourcePixel`, so the
/// kernels cannot disagree with the documented mapping. Three kernels:
/// - dx = +1 (identity, vert): row copies;
/// - dx = −1 (horiz, 180): rows read backwards;
/// - |dx| = stride (90r, 90l, ul-lr, ur-ll): square tiles, so that the rows read across
///   one tile stay in L1 cache while the tile's columns are written, each tile done as
///   4×4 blocks transposed in SIMD registers.
/// Output rows are split between two cores by `RowSplitter`.
public enum Orientation {
    /// Tile side in pixels for the transposing methods (at 1080p, 32 beat 16 and 64 by 10–20 %).
    static let tile = 32

    /// Writes `method` applied to `src` into `dst`, which must be the output size.
    public static func transform(_ method: OrientationMethod, from src: FrameView, to dst: FrameView) {
        let (w, h) = method.outputSize(width: src.width, height: src.height)
        precondition(dst.width == w && dst.height == h,
                     "\(method.nick) of \(src.width)x\(src.height) is \(w)x\(h), not \(dst.width)x\(dst.height)")
        precondition(!overlaps(src, dst), "source and destination of an orientation transform overlap")

        let sw = src.width, sh = src.height
        let o = method.sourcePixel(x: 0, y: 0, inputWidth: sw, inputHeight: sh)
        let ox = method.sourcePixel(x: 1, y: 0, inputWidth: sw, inputHeight: sh)
        let oy = method.sourcePixel(x: 0, y: 1, inputWidth: sw, inputHeight: sh)
        let ps = src.pixelStride
        let dx = (ox.x - o.x) + (ox.y - o.y) * ps
        let dy = (oy.x - o.x) + (oy.y - o.y) * ps
        let origin = src.row(o.y) + o.x

        switch dx {
        case 1:
            RowSplitter.shared.run(rows: h, columns: w) { rows in
                copyRows(origin: origin, dy: dy, dst: dst, rows: rows)
            }
        case -1:
            RowSplitter.shared.run(rows: h, columns: w) { rows in
                reverseRows(origin: origin, dy: dy, dst: dst, rows: rows)
            }
        default:
            RowSplitter.shared.run(rows: h, columns: w) { rows in
                tiled(origin: origin, dx: dx, dy: dy, dst: dst, rows: rows)
            }
        }
    }

    /// Transforms only the rectangle `sourceRect` of `src` (as if it were the whole input)
    /// into `dst`: with `method.sourceRect(forOutputRect:…)`, a crop of the oriented picture.
    public static func transform(_ method: OrientationMethod, from src: FrameView, sourceRect: PixelRect,
                                 to dst: FrameView) {
        transform(method, from: src.subview(sourceRect), to: dst)
    }

    // MARK: Kernels

    private static func copyRows(origin: UnsafeMutablePointer<UInt32>, dy: Int, dst: FrameView, rows: Range<Int>) {
        let bytes = dst.width &* 4
        for y in rows {
            UnsafeMutableRawPointer(dst.row(y)).copyMemory(from: origin + y &* dy, byteCount: bytes)
        }
    }

    private static func reverseRows(origin: UnsafeMutablePointer<UInt32>, dy: Int, dst: FrameView, rows: Range<Int>) {
        let w = dst.width
        for y in rows {
            // `origin + y·dy` is the last pixel of the source row.
            let s = UnsafePointer(origin + y &* dy - (w &- 1))
            let d = dst.row(y)
            for x in 0..<w {
                d[x] = s[w &- 1 &- x]
            }
        }
    }

    private static func tiled(origin: UnsafeMutablePointer<UInt32>, dx: Int, dy: Int, dst: FrameView, rows: Range<Int>) {
        // Specialized for the direction along source rows, so each copy has constant lanes.
        if dy == 1 {
            tiled(origin: origin, dx: dx, descending: false, dst: dst, rows: rows)
        } else {
            tiled(origin: origin, dx: dx, descending: true, dst: dst, rows: rows)
        }
    }

    /// Output (x, y) = origin[x·dx ± y]. Tiles of `tile`² pixels, each done in 4×4 blocks:
    /// four 4-pixel loads along source rows, transposed in registers, four 4-pixel stores
    /// along output rows. Edges that do not fill a block are copied pixel by pixel.
    @inline(__always)
    private static func tiled(origin: UnsafeMutablePointer<UInt32>, dx: Int, descending: Bool,
                              dst: FrameView, rows: Range<Int>) {
        let w = dst.width, t = tile
        let ds = dst.pixelStride
        let dy = descending ? -1 : 1
        var y0 = rows.lowerBound
        while y0 < rows.upperBound {
            let y1 = min(y0 &+ t, rows.upperBound)
            var x0 = 0
            while x0 < w {
                let x1 = min(x0 &+ t, w)
                // Whole 4-row blocks; descending methods take them bottom-up, so the
                // source is still read towards higher addresses (prefetch-friendly).
                let blocks = (y1 &- y0) / 4
                for b in 0..<blocks {
                    let y = y0 &+ 4 &* (descending ? blocks &- 1 &- b : b)
                    let d = dst.row(y)
                    var x = x0
                    while x &+ 4 <= x1 {
                        // Source pixels of output column x+i, rows y…y+3 (lane k = row y+k).
                        let p = UnsafeRawPointer(origin + (x &* dx &+ (descending ? -y &- 3 : y)))
                        let step = dx &* 4
                        let r0 = p.loadUnaligned(as: SIMD4<UInt32>.self)
                        let r1 = p.loadUnaligned(fromByteOffset: step, as: SIMD4<UInt32>.self)
                        let r2 = p.loadUnaligned(fromByteOffset: step &* 2, as: SIMD4<UInt32>.self)
                        let r3 = p.loadUnaligned(fromByteOffset: step &* 3, as: SIMD4<UInt32>.self)
                        let q = UnsafeMutableRawPointer(d + x)
                        let rowBytes = ds &* 4
                        if descending {
                            q.storeBytes(of: SIMD4(r0[3], r1[3], r2[3], r3[3]), as: SIMD4<UInt32>.self)
                            (q + rowBytes).storeBytes(of: SIMD4(r0[2], r1[2], r2[2], r3[2]), as: SIMD4<UInt32>.self)
                            (q + rowBytes &* 2).storeBytes(of: SIMD4(r0[1], r1[1], r2[1], r3[1]), as: SIMD4<UInt32>.self)
                            (q + rowBytes &* 3).storeBytes(of: SIMD4(r0[0], r1[0], r2[0], r3[0]), as: SIMD4<UInt32>.self)
                        } else {
                            q.storeBytes(of: SIMD4(r0[0], r1[0], r2[0], r3[0]), as: SIMD4<UInt32>.self)
                            (q + rowBytes).storeBytes(of: SIMD4(r0[1], r1[1], r2[1], r3[1]), as: SIMD4<UInt32>.self)
                            (q + rowBytes &* 2).storeBytes(of: SIMD4(r0[2], r1[2], r2[2], r3[2]), as: SIMD4<UInt32>.self)
                            (q + rowBytes &* 3).storeBytes(of: SIMD4(r0[3], r1[3], r2[3], r3[3]), as: SIMD4<UInt32>.self)
                        }
                        x &+= 4
                    }
                    // Columns left over at the tile's right edge (only at the frame's edge).
                    for yy in y..<(y &+ 4) {
                        let s = UnsafePointer(origin + yy &* dy)
                        let dd = dst.row(yy)
                        for xx in x..<x1 { dd[xx] = s[xx &* dx] }
                    }
                }
                let y = y0 &+ 4 &* blocks
                // Rows left over at the band's bottom.
                for yy in y..<y1 {
                    let s = UnsafePointer(origin + yy &* dy)
                    let dd = dst.row(yy)
                    for xx in x0..<x1 { dd[xx] = s[xx &* dx] }
                }
                x0 = x1
            }
            y0 = y1
        }
    }

    /// Whether the bytes the two views cover intersect.
    static func overlaps(_ a: FrameView, _ b: FrameView) -> Bool {
        let aStart = UInt(bitPattern: a.base), aEnd = aStart + UInt((a.height - 1) * a.stride + a.width * 4)
        let bStart = UInt(bitPattern: b.base), bEnd = bStart + UInt((b.height - 1) * b.stride + b.width * 4)
        return aStart < bEnd && bStart < aEnd
    }
}
