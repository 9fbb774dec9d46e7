/// Zoom's bilinear scaling (`Zoom`: pixel centres, 8-bit weights, each pass rounding half
/// up) for YUV planes. A row is described as a byte map, so one loop serves every layout:
/// output byte t blends source bytes `first[t]` and `second[t]` of a row by `weight[t]`/256
/// (interleaved U,V pairs of NV12 and the luma and chroma of packed 4:2:2 each on their
/// own grid). As in `Zoom`, each source row is scaled horizontally once into one of two
/// cached rows, and output rows are vertical blends of those (a loop that vectorizes).
enum PlaneScaler {
    struct ByteMap {
        var first: [Int32] = [], second: [Int32] = [], weight: [UInt32] = []
        mutating func append(_ a: Int32, _ b: Int32, _ f: UInt32) { first.append(a); second.append(b); weight.append(f) }
    }

    /// Writes the `window` part of `src` scaled to `fullWidth`×`fullHeight` elements into `dst`.
    static func scale(from src: Plane, fullWidth: Int, fullHeight: Int, window: PixelRect, to dst: Plane) {
        let cols = Zoom.samples(count: window.width, offset: window.x, full: fullWidth, source: src.width)
        let c = src.elementBytes
        var map = ByteMap()
        for i in 0..<window.width {
            for k in 0..<c { map.append(cols.first[i] * Int32(c) + Int32(k), cols.second[i] * Int32(c) + Int32(k), cols.weight[i]) }
        }
        let rows = Zoom.samples(count: window.height, offset: window.y, full: fullHeight, source: src.height)
        run(map, rows: rows, from: src, to: dst)
    }

    /// Packed 4:2:2: luma scaled per pixel, chroma per macropixel, each on its own grid.
    static func scalePacked(from src: Plane, sourceWidth: Int, fullWidth: Int, fullHeight: Int, window: PixelRect,
                            format: YUVFormat, to dst: Plane) {
        let k = format.packedOffsets
        let luma = Zoom.samples(count: window.width, offset: window.x, full: fullWidth, source: sourceWidth)
        let chroma = Zoom.samples(count: dst.width, offset: window.x / 2, full: (fullWidth + 1) / 2, source: src.width)
        @inline(__always) func lumaByte(_ x: Int32) -> Int32 { (x >> 1) * 4 + Int32(x & 1 == 0 ? k.y0 : k.y1) }
        var map = ByteMap()
        for i in 0..<dst.width {
            for o in 0..<4 {
                if o == k.u || o == k.v {
                    map.append(chroma.first[i] * 4 + Int32(o), chroma.second[i] * 4 + Int32(o), chroma.weight[i])
                } else {
                    // The last macropixel's second luma of an odd width is padding: a copy of the first.
                    let p = min(2 * i + (o == k.y1 ? 1 : 0), window.width - 1)
                    map.append(lumaByte(luma.first[p]), lumaByte(luma.second[p]), luma.weight[p])
                }
            }
        }
        let rows = Zoom.samples(count: window.height, offset: window.y, full: fullHeight, source: src.height)
        run(map, rows: rows, from: src, to: dst)
    }

    private static func run(_ map: ByteMap, rows: (first: [Int32], second: [Int32], weight: [UInt32]),
                            from src: Plane, to dst: Plane) {
        let n = map.first.count
        map.first.withUnsafeBufferPointer { x0 in
        map.second.withUnsafeBufferPointer { x1 in
        map.weight.withUnsafeBufferPointer { fx in
            RowSplitter.shared.run(rows: dst.height, columns: n) { range in
                withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 2 * n) { buffer in
                    var rowA = buffer.baseAddress!, rowB = rowA + n
                    var cachedA = -1, cachedB = -1
                    func horizontal(_ sourceRow: Int, into out: UnsafeMutablePointer<UInt8>) {
                        let s = UnsafePointer(src.row(sourceRow).assumingMemoryBound(to: UInt8.self))
                        for t in 0..<n {
                            let f = fx[t]
                            out[t] = UInt8(truncatingIfNeeded: (UInt32(s[Int(x0[t])]) &* (256 &- f) &+ UInt32(s[Int(x1[t])]) &* f &+ 128) >> 8)
                        }
                    }
                    for j in range {
                        let ya = Int(rows.first[j]), yb = Int(rows.second[j]), fy = rows.weight[j]
                        if cachedA != ya {
                            if cachedB == ya {
                                swap(&rowA, &rowB); swap(&cachedA, &cachedB)
                            } else {
                                horizontal(ya, into: rowA); cachedA = ya
                            }
                        }
                        let d = dst.row(j).assumingMemoryBound(to: UInt8.self)
                        if fy == 0 {
                            d.update(from: rowA, count: n)
                            continue
                        }
                        if cachedB != yb { horizontal(yb, into: rowB); cachedB = yb }
                        let a = UnsafePointer(rowA), b = UnsafePointer(rowB)
                        for t in 0..<n {
                            d[t] = UInt8(truncatingIfNeeded: (UInt32(a[t]) &* (256 &- fy) &+ UInt32(b[t]) &* fy &+ 128) >> 8)
                        }
                    }
                }
            }
        }}}
    }
}
