/// Sepia on YUV planes: the sepia of a grey of the pixel's luma L, i.e. the R′G′B′ colour
/// `(min(255, 1.351 L), min(255, 1.203 L), min(255, 0.937 L))` (the sepia matrix's row sums)
/// turned into samples with the frame's matrix, then mixed with the original by `intensity`.
/// Luma is a curve (one table); chroma is fixed per luma, taken from the mean luma of the
/// pixels that share the chroma sample.
///
/// Against the RGB filter's result converted by videoconvert: within ±16 per sample (15
/// measured on colour bars and noise; greys within ±2): the RGB matrix does not weigh the
/// channels as luma does (sepia's luma takes 0.170 of blue, a grey's 0.133), so
/// saturated colours of equal luma come out slightly different.
extension SepiaFilter: YUVFilter {
    func apply(to frame: YUVFrame) {
        guard intensity > 0 else { return }
        let m = frame.matrix
        var y = [UInt8](), u = [Int32](), v = [Int32]()
        for sample in 0..<256 {
            let l = min(max(m.luma(sample), 0), 255)
            let s = m.samples(r: min(255, 1.351 * l), g: min(255, 1.203 * l), b: min(255, 0.937 * l))
            y.append(UInt8(min(max((Double(sample) + intensity * (Double(s.y) - Double(sample))).rounded(), 0), 255)))
            u.append(Int32(s.u)); v.append(Int32(s.v))
        }
        let k = Int32((intensity * 1024).rounded())
        SepiaChroma.apply(frame, u: u, v: v, k: k)
        frame.mapLuma(y)
    }
}

/// Chroma samples mixed towards the sepia chroma of the mean luma they cover.
enum SepiaChroma {
    static func apply(_ frame: YUVFrame, u: [Int32], v: [Int32], k: Int32) {
        @inline(__always) func mix(_ c: UInt8, _ target: Int32) -> UInt8 {
            UInt8(truncatingIfNeeded: (Int32(c) &* (1024 &- k) &+ target &* k &+ 512) >> 10)
        }
        let fmt = frame.format
        if fmt.isPacked {
            let o = fmt.packedOffsets, p = frame.planes[0]
            RowSplitter.shared.run(rows: p.height, columns: p.width) { rows in
                for row in rows {
                    let r = p.row(row).assumingMemoryBound(to: UInt8.self)
                    for i in 0..<p.width {
                        let m = r + 4 &* i
                        let l = (Int(m[o.y0]) &+ Int(m[o.y1]) &+ 1) >> 1
                        m[o.u] = mix(m[o.u], u[l]); m[o.v] = mix(m[o.v], v[l])
                    }
                }
            }
            return
        }
        let luma = frame.planes[0], c = frame.planes[1]
        RowSplitter.shared.run(rows: c.height, columns: c.width) { rows in
            for cy in rows {
                let y0 = luma.row(2 &* cy).assumingMemoryBound(to: UInt8.self)
                let y1 = luma.row(min(2 &* cy &+ 1, luma.height &- 1)).assumingMemoryBound(to: UInt8.self)
                let cu = c.row(cy).assumingMemoryBound(to: UInt8.self)
                let cv = fmt == .i420 ? frame.planes[2].row(cy).assumingMemoryBound(to: UInt8.self) : cu + 1
                let step = fmt == .i420 ? 1 : 2
                for cx in 0..<c.width {
                    let x0 = 2 &* cx, x1 = min(2 &* cx &+ 1, luma.width &- 1)
                    let l = (Int(y0[x0]) &+ Int(y0[x1]) &+ Int(y1[x0]) &+ Int(y1[x1]) &+ 2) >> 2
                    cu[cx &* step] = mix(cu[cx &* step], u[l])
                    cv[cx &* step] = mix(cv[cx &* step], v[l])
                }
            }
        }
    }
}
