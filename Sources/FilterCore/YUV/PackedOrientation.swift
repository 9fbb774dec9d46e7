import CPixelGather

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
        // Whole macropixels map onto whole macropixels when the rows keep their direction
        // (identity, vert) or are reversed with an even width (horiz, 180): a copy, or a
        // reversal that swaps each macropixel's two luma samples.
        if window.x % 2 == 0 && (method == .identity || method == .vertical) {
            return copyMacropixels(method, src, sh, window, dst)
        }
        if window.x % 2 == 0 && sw % 2 == 0 && (method == .horizontal || method == .rotate180) {
            return reverseMacropixels(method, src, sw, sh, window, format, dst)
        }
        if method.swapsAxes {
            return turn(method, src, sw, sh, window, format, dst)
        }
        let k = format.packedOffsets
        let averages = method.swapsAxes
        // Source pixel of output (x, y) = o + x·ax + y·ay (each a unit step along one axis).
        let o = method.sourcePixel(x: 0, y: 0, inputWidth: sw, inputHeight: sh)
        let px = method.sourcePixel(x: 1, y: 0, inputWidth: sw, inputHeight: sh)
        let py = method.sourcePixel(x: 0, y: 1, inputWidth: sw, inputHeight: sh)
        let ax = (px.x - o.x, px.y - o.y), ay = (py.x - o.x, py.y - o.y)
        RowSplitter.shared.run(rows: window.height, columns: window.width) { rows in
            for j in rows {
                let y = window.y + j
                let d = dst.row(j).assumingMemoryBound(to: UInt8.self)
                for i in 0..<dst.width {
                    let x = window.x &+ 2 &* i
                    let ax0 = o.x &+ x &* ax.0 &+ y &* ay.0, ay0 = o.y &+ x &* ax.1 &+ y &* ay.1
                    let hasSecond = x &+ 1 < ow
                    let bx0 = hasSecond ? ax0 &+ ax.0 : ax0, by0 = hasSecond ? ay0 &+ ax.1 : ay0
                    let a = UnsafePointer(src.row(ay0).assumingMemoryBound(to: UInt8.self)) + (ax0 >> 1) &* 4
                    let b = UnsafePointer(src.row(by0).assumingMemoryBound(to: UInt8.self)) + (bx0 >> 1) &* 4
                    var u = Int(a[k.u]), v = Int(a[k.v])
                    if averages && hasSecond {
                        u = (u &+ Int(b[k.u])) >> 1
                        v = (v &+ Int(b[k.v])) >> 1
                    }
                    let m = d + 4 &* i
                    m[k.y0] = a[ax0 & 1 == 0 ? k.y0 : k.y1]
                    m[k.y1] = b[bx0 & 1 == 0 ? k.y0 : k.y1]
                    m[k.u] = UInt8(truncatingIfNeeded: u)
                    m[k.v] = UInt8(truncatingIfNeeded: v)
                }
            }
        }
    }

    /// The four methods that swap axes: an output row is one source column, so the luma
    /// and chroma offsets inside a source row are fixed for the whole output row, and each
    /// output macropixel reads two successive source rows (chroma: their mean, rounded down).
    private static func turn(_ method: OrientationMethod, _ src: Plane, _ sw: Int, _ sh: Int,
                             _ window: PixelRect, _ format: YUVFormat, _ dst: Plane) {
        let k = format.packedOffsets
        let o = method.sourcePixel(x: 0, y: 0, inputWidth: sw, inputHeight: sh)
        let rowStep = method.sourcePixel(x: 1, y: 0, inputWidth: sw, inputHeight: sh).y - o.y   // ±1 source row per output pixel
        let columnStep = method.sourcePixel(x: 0, y: 1, inputWidth: sw, inputHeight: sh).x - o.x
        let ow = sh
        let stride = src.stride &* rowStep
        let first = UnsafeRawPointer(src.row(o.y &+ window.x &* rowStep))
        // Whole pairs of source rows; an odd picture edge's last pixel is alone.
        let pairs = window.x &+ 2 &* dst.width <= ow ? dst.width : dst.width &- 1
        // Bands of 8 output rows (8 source columns, 4 whole macropixels) go through
        // `fc_turn_packed422` 4 output macropixels at a time; what is left of a band's
        // rows, and rows outside whole bands, go through the word loops below.
        let blocks = pairs / 4
        let lumaShift = Int32(8 &* k.y0)
        let chroma: UInt32 = (0xFF << (8 &* UInt32(k.u))) | (0xFF << (8 &* UInt32(k.v)))
        let toY0 = UInt32(8 &* k.y0), toY1 = UInt32(8 &* k.y1)
        RowSplitter.shared.run(rows: window.height, columns: window.width) { rows in
            var j = rows.lowerBound
            while j < rows.upperBound {
                let sx = o.x &+ (window.y &+ j) &* columnStep
                // The band's leftmost source column; rows reading columns right to left
                // are written bottom up.
                let c0 = columnStep > 0 ? sx : sx &- 7
                if blocks > 0 && j &+ 8 <= rows.upperBound && c0 & 1 == 0 {
                    let top = columnStep > 0 ? dst.row(j) : dst.row(j &+ 7)
                    fc_turn_packed422(first.assumingMemoryBound(to: UInt8.self) + (c0 >> 1) &* 4, stride,
                                      top.assumingMemoryBound(to: UInt8.self), dst.stride &* columnStep, blocks, lumaShift)
                    for r in Swift.stride(from: 0, to: 8, by: 2) { rowPair(j &+ r, sx &+ r &* columnStep, from: 4 &* blocks) }
                    j &+= 8
                    continue
                }
                // Two output rows whose source pixels share a macropixel (neighbouring
                // source columns) are written together: one pair of loads and one mean.
                if j &+ 1 < rows.upperBound && (sx &+ columnStep) >> 1 == sx >> 1 {
                    rowPair(j, sx, from: 0)
                    j &+= 2
                } else {
                    row(j, sx)
                    j &+= 1
                }
            }
        }
        // Whole macropixels as 32-bit words: the two source words' bytes averaged at once
        // (rounding down: (a & b) + ((a ^ b) >> 1) per byte), their chroma kept, the two
        // luma samples put in place.
        /// Output rows `j` (source column `sx`) and `j + 1` (its neighbour in the same
        /// macropixel), from output macropixel `i0` on.
        func rowPair(_ j: Int, _ sx: Int, from i0: Int) {
            let from = UInt32(8 &* (sx & 1 == 0 ? k.y0 : k.y1))
            let from2 = UInt32(8 &* ((sx &+ columnStep) & 1 == 0 ? k.y0 : k.y1))
            let d = dst.row(j), d2 = dst.row(j &+ 1)
            var a = first + (sx >> 1) &* 4 + 2 &* i0 &* stride
            for i in i0..<pairs {
                let wa = a.loadUnaligned(as: UInt32.self), wb = (a + stride).loadUnaligned(as: UInt32.self)
                let kept = ((wa & wb) &+ (((wa ^ wb) & 0xFEFE_FEFE) &>> 1)) & chroma
                d.storeBytes(of: kept | (((wa &>> from) & 0xFF) &<< toY0) | (((wb &>> from) & 0xFF) &<< toY1),
                             toByteOffset: 4 &* i, as: UInt32.self)
                d2.storeBytes(of: kept | (((wa &>> from2) & 0xFF) &<< toY0) | (((wb &>> from2) & 0xFF) &<< toY1),
                              toByteOffset: 4 &* i, as: UInt32.self)
                a += 2 &* stride
            }
            if pairs < dst.width {
                edge(a, from, d)
                edge(a, from2, d2)
            }
        }
        /// Output row `j` alone (source column `sx`).
        func row(_ j: Int, _ sx: Int) {
            let from = UInt32(8 &* (sx & 1 == 0 ? k.y0 : k.y1))
            let d = dst.row(j)
            var a = first + (sx >> 1) &* 4
            for i in 0..<pairs {
                let wa = a.loadUnaligned(as: UInt32.self), wb = (a + stride).loadUnaligned(as: UInt32.self)
                let mean = (wa & wb) &+ (((wa ^ wb) & 0xFEFE_FEFE) &>> 1)
                let word = (mean & chroma) | (((wa &>> from) & 0xFF) &<< toY0) | (((wb &>> from) & 0xFF) &<< toY1)
                d.storeBytes(of: word, toByteOffset: 4 &* i, as: UInt32.self)
                a += 2 &* stride
            }
            if pairs < dst.width { edge(a, from, d) }
        }
        /// An odd edge's last pixel alone: its luma twice, its chroma.
        func edge(_ a: UnsafeRawPointer, _ from: UInt32, _ d: UnsafeMutableRawPointer) {
            let w = a.loadUnaligned(as: UInt32.self)
            let word = (w & chroma) | (((w &>> from) & 0xFF) &<< toY0) | (((w &>> from) & 0xFF) &<< toY1)
            d.storeBytes(of: word, toByteOffset: 4 &* pairs, as: UInt32.self)
        }
    }

    /// identity and vert: rows of macropixels copied.
    private static func copyMacropixels(_ method: OrientationMethod, _ src: Plane, _ sh: Int, _ window: PixelRect, _ dst: Plane) {
        let bytes = dst.width &* 4, x = window.x / 2 &* 4
        RowSplitter.shared.run(rows: window.height, columns: window.width) { rows in
            for j in rows {
                let y = window.y &+ j
                let sy = method == .vertical ? sh &- 1 &- y : y
                dst.row(j).copyMemory(from: src.row(sy) + x, byteCount: bytes)
            }
        }
    }

    /// horiz and 180 with an even width: macropixels in reverse order, each with its two
    /// luma samples swapped (one 32-bit word each).
    private static func reverseMacropixels(_ method: OrientationMethod, _ src: Plane, _ sw: Int, _ sh: Int,
                                           _ window: PixelRect, _ format: YUVFormat, _ dst: Plane) {
        let n = dst.width, last = sw / 2 &- 1 &- window.x / 2
        // Luma bytes 0 and 2 (YUY2) or 1 and 3 (UYVY) trade places.
        let lumaShift: UInt32 = format == .uyvy ? 8 : 0
        let keep: UInt32 = ~((0xFF << lumaShift) | (0xFF << (lumaShift + 16)))
        RowSplitter.shared.run(rows: window.height, columns: window.width) { rows in
            for j in rows {
                let y = window.y &+ j
                let sy = method == .rotate180 ? sh &- 1 &- y : y
                let s = UnsafePointer(src.row(sy).assumingMemoryBound(to: UInt32.self)) + (last &- (n &- 1))
                let d = dst.row(j).assumingMemoryBound(to: UInt32.self)
                for i in 0..<n {
                    let w = s[n &- 1 &- i]
                    d[i] = (w & keep) | ((w >> 16) & (0xFF << lumaShift)) | ((w << 16) & (0xFF << (lumaShift + 16)))
                }
            }
        }
    }
}
