/// Walking a YUV frame's luma or chroma samples wherever the format keeps them, for
/// filters that map each sample through a table (one byte load, lookup and store).
extension YUVFrame {
    /// Every luma sample `y` becomes `table[y]`.
    public func mapLuma(_ table: [UInt8]) {
        precondition(table.count == 256)
        let k = format.packedOffsets
        table.withUnsafeBufferPointer { t in
            if let luma {
                mapBytes(of: luma, start: 0, step: 1, perElement: 1, t)
            } else {
                mapBytes(of: planes[0], start: k.y0, step: 2, perElement: 2, t)
            }
        }
    }

    /// Every U sample becomes `u[U]`, every V sample `v[V]`.
    public func mapChroma(u: [UInt8], v: [UInt8]) {
        precondition(u.count == 256 && v.count == 256)
        let k = format.packedOffsets
        u.withUnsafeBufferPointer { tu in
        v.withUnsafeBufferPointer { tv in
            switch format {
            case .i420:
                mapBytes(of: planes[1], start: 0, step: 1, perElement: 1, tu)
                mapBytes(of: planes[2], start: 0, step: 1, perElement: 1, tv)
            case .nv12:
                mapBytes(of: planes[1], start: 0, step: 2, perElement: 1, tu)
                mapBytes(of: planes[1], start: 1, step: 2, perElement: 1, tv)
            case .yuy2, .uyvy:
                mapBytes(of: planes[0], start: k.u, step: 4, perElement: 1, tu)
                mapBytes(of: planes[0], start: k.v, step: 4, perElement: 1, tv)
            }
        }}
    }

    /// Maps `perElement` bytes of each element, `step` bytes apart from `start`, through `table`.
    private func mapBytes(of plane: Plane, start: Int, step: Int, perElement: Int, _ table: UnsafeBufferPointer<UInt8>) {
        let count = plane.width * perElement
        let t = table.baseAddress!
        RowSplitter.shared.run(rows: plane.height, columns: count) { rows in
            for y in rows {
                let p = (plane.row(y) + start).assumingMemoryBound(to: UInt8.self)
                for i in 0..<count { p[i &* step] = t[Int(p[i &* step])] }
            }
        }
    }
}
