import CPixelGather

/// An `OrientationMethod` applied to one plane of samples (1 or 2 bytes each), with the
/// plane's own size: exactly what `videoflip` does to each plane of I420 and NV12
/// (`gst_video_flip_planar_yuv`, `gst_video_flip_semi_planar_yuv`), odd sizes included.
enum PlaneOrientation {
    /// Writes `method` applied to `src` into `dst` (the turned size, other memory).
    static func transform(_ method: OrientationMethod, from src: Plane, to dst: Plane) {
        let (w, h) = method.outputSize(width: src.width, height: src.height)
        precondition(dst.width == w && dst.height == h && dst.elementBytes == src.elementBytes,
                     "\(method.nick) of a \(src.width)x\(src.height) plane is \(w)x\(h), not \(dst.width)x\(dst.height)")
        precondition(!src.overlaps(dst), "source and destination planes overlap")
        let e = src.elementBytes
        let o = method.sourcePixel(x: 0, y: 0, inputWidth: src.width, inputHeight: src.height)
        let ox = method.sourcePixel(x: 1, y: 0, inputWidth: src.width, inputHeight: src.height)
        let oy = method.sourcePixel(x: 0, y: 1, inputWidth: src.width, inputHeight: src.height)
        // Byte steps in the source for one output column and one output row.
        let dx = (ox.x - o.x) * e + (ox.y - o.y) * src.stride
        let dy = (oy.x - o.x) * e + (oy.y - o.y) * src.stride
        let origin = UnsafeRawPointer(src.row(o.y) + o.x * e)
        RowSplitter.shared.run(rows: h, columns: w) { rows in
            if dx == e {
                for y in rows { dst.row(y).copyMemory(from: origin + y &* dy, byteCount: w &* e) }
            } else if dx == -e {
                reverse(origin: origin, dy: dy, dst: dst, rows: rows)
            } else if e == 1 && abs(dy) == 1 {
                transposeBytes(origin: origin, dx: dx, dy: dy, dst: dst, rows: rows)
            } else if e == 2 && abs(dy) == 2 {
                transposePairs(origin: origin, dx: dx, dy: dy, dst: dst, rows: rows)
            } else if e == 1 {
                gather(UInt8.self, origin: origin, dx: dx, dy: dy, dst: dst, rows: rows)
            } else {
                gather(UInt16.self, origin: origin, dx: dx, dy: dy, dst: dst, rows: rows)
            }
        }
    }

    /// Rows read backwards (horiz, 180): `origin + y·dy` is the source row's last element.
    /// Shuffled in registers (`fc_reverse_row`): Swift's element loop went a byte at a time.
    @inline(__always)
    private static func reverse(origin: UnsafeRawPointer, dy: Int, dst: Plane, rows: Range<Int>) {
        let w = dst.width, e = dst.elementBytes
        for y in rows {
            let first = (origin + y &* dy - (w &- 1) &* e).assumingMemoryBound(to: UInt8.self)
            fc_reverse_row(first, dst.row(y).assumingMemoryBound(to: UInt8.self), w, Int32(e))
        }
    }

    /// The turns of 1-byte planes (|dy| one byte: an output column runs along a source
    /// row): blocks of 16×16 bytes transposed in SSE2 registers (`fc_transpose_bytes16`).
    @inline(__always)
    private static func transposeBytes(origin: UnsafeRawPointer, dx: Int, dy: Int, dst: Plane, rows: Range<Int>) {
        transposeBlocks(side: 16, elementBytes: 1, origin: origin, dx: dx, dy: dy, dst: dst, rows: rows) {
            fc_transpose_bytes16($0, dx, $1, $2, $3)
        }
    }

    /// The turns of 2-byte planes (NV12's interleaved chroma): blocks of 8×8 pairs, as
    /// `transposeBytes` (`fc_transpose_pairs8`).
    @inline(__always)
    private static func transposePairs(origin: UnsafeRawPointer, dx: Int, dy: Int, dst: Plane, rows: Range<Int>) {
        transposeBlocks(side: 8, elementBytes: 2, origin: origin, dx: dx, dy: dy, dst: dst, rows: rows) {
            fc_transpose_pairs8($0, dx, $1, $2, $3)
        }
    }

    /// Output rows in bands of `side`, each a row of `side`×`side` blocks written by
    /// `blocks(source, first row, row step, count)`. A band's load of one source row holds
    /// its output rows top down (dy > 0) or bottom up (dy < 0: the rows are then written
    /// from the band's last one up). Widths and heights that are not whole blocks end
    /// with one block overlapping the one before (the same bytes written twice), inside
    /// `rows` so that threads never share a row; planes smaller than a block are gathered.
    @inline(__always)
    private static func transposeBlocks(side: Int, elementBytes e: Int, origin: UnsafeRawPointer, dx: Int, dy: Int,
                                        dst: Plane, rows: Range<Int>,
                                        _ blocks: (UnsafePointer<UInt8>, UnsafeMutablePointer<UInt8>, Int, Int) -> Void) {
        let w = dst.width, whole = w / side
        guard whole > 0 && rows.count >= side else {
            if e == 1 { gather(UInt8.self, origin: origin, dx: dx, dy: dy, dst: dst, rows: rows) }
            else { gather(UInt16.self, origin: origin, dx: dx, dy: dy, dst: dst, rows: rows) }
            return
        }
        let rowStep = dy < 0 ? -dst.stride : dst.stride
        func band(_ y0: Int) {
            let first = (origin + y0 &* dy - (dy < 0 ? (side &- 1) &* e : 0)).assumingMemoryBound(to: UInt8.self)
            let top = dst.row(dy < 0 ? y0 &+ side &- 1 : y0).assumingMemoryBound(to: UInt8.self)
            blocks(first, top, rowStep, whole)
            if whole &* side < w {
                let x = w &- side
                blocks(first + x &* dx, top + x &* e, rowStep, 1)
            }
        }
        var y0 = rows.lowerBound
        while y0 &+ side <= rows.upperBound {
            band(y0)
            y0 &+= side
        }
        if y0 < rows.upperBound { band(rows.upperBound &- side) }
    }

    /// Output element (x, y) = the element at `origin + x·dx + y·dy` (bytes). Done in
    /// square tiles, so that for the turns (|dx| a row) the source rows one tile reads
    /// stay in cache while its columns are written.
    @inline(__always)
    private static func gather<T: FixedWidthInteger>(_: T.Type, origin: UnsafeRawPointer, dx: Int, dy: Int,
                                                     dst: Plane, rows: Range<Int>) {
        let w = dst.width, t = 32
        var y0 = rows.lowerBound
        while y0 < rows.upperBound {
            let y1 = min(y0 &+ t, rows.upperBound)
            var x0 = 0
            while x0 < w {
                let x1 = min(x0 &+ t, w)
                for y in y0..<y1 {
                    let s = origin + y &* dy
                    let d = dst.row(y).assumingMemoryBound(to: T.self)
                    for x in x0..<x1 { d[x] = s.loadUnaligned(fromByteOffset: x &* dx, as: T.self) }
                }
                x0 = x1
            }
            y0 = y1
        }
    }
}
