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
        if frame.format.isPacked {
            SepiaChroma.applyPacked(frame, y: y, u: u, v: v, k: k)
        } else {
            SepiaChroma.apply(frame, y: y, u: u, v: v, k: k)
        }
    }
    var yuvTolerance: String { "±16 per sample (a luma curve plus chroma fixed per luma; greys ±2)" }
}

/// Chroma samples mixed towards the sepia chroma of the mean luma they cover.
enum SepiaChroma {
    @inline(__always)
    private static func mix(_ c: UInt8, _ target: Int32, _ k: Int32) -> UInt8 {
        UInt8(truncatingIfNeeded: (Int32(c) &* (1024 &- k) &+ target &* k &+ 512) >> 10)
    }

    /// YUY2/UYVY in one pass over the macropixels (luma curve and chroma together, the
    /// chroma from the luma as it was): half the memory traffic of a chroma pass and a
    /// luma pass, which took YUY2 sepia at 720p from 1.2× to 3.4× the stock pipeline's frame rate.
    static func applyPacked(_ frame: YUVFrame, y: [UInt8], u: [Int32], v: [Int32], k: Int32) {
        let o = frame.format.packedOffsets, p = frame.planes[0], lastOdd = frame.width % 2 == 1
        let whole = lastOdd ? p.width &- 1 : p.width
        y.withUnsafeBufferPointer { ty in
        u.withUnsafeBufferPointer { tu in
        v.withUnsafeBufferPointer { tv in
            RowSplitter.shared.run(rows: p.height, columns: p.width) { rows in
                for row in rows {
                    let r = p.row(row).assumingMemoryBound(to: UInt8.self)
                    for i in 0..<whole {
                        let m = r + 4 &* i
                        let y0 = m[o.y0], y1 = m[o.y1]
                        let l = (Int(y0) &+ Int(y1) &+ 1) &>> 1
                        m[o.y0] = ty[Int(y0)]
                        m[o.y1] = ty[Int(y1)]
                        m[o.u] = mix(m[o.u], tu[l], k)
                        m[o.v] = mix(m[o.v], tv[l], k)
                    }
                    if lastOdd {   // the last macropixel's second luma is padding
                        let m = r + 4 &* whole, l = Int(m[o.y0])
                        m[o.y0] = ty[l]
                        m[o.u] = mix(m[o.u], tu[l], k)
                        m[o.v] = mix(m[o.v], tv[l], k)
                    }
                }
            }
        }
        }
        }
    }

    /// I420/NV12 site by site, luma curve and chroma in one pass (as the packed formats):
    /// a chroma pass and a luma pass read the luma plane twice.
    static func apply(_ frame: YUVFrame, y: [UInt8], u: [Int32], v: [Int32], k: Int32) {
        y.withUnsafeBufferPointer { y in
        u.withUnsafeBufferPointer { u in
        v.withUnsafeBufferPointer { v in
            frame.forEachChromaSite(SiteTowardsTone(y: y.baseAddress!, u: u.baseAddress!, v: v.baseAddress!, k: k))
        }
        }
        }
    }

    /// One site: its chroma mixed towards the tone's chroma at its mean luma (the luma as
    /// it was), then each luma sample through the curve.
    private struct SiteTowardsTone: ChromaSiteVisitor {
        let y: UnsafePointer<UInt8>
        let u, v: UnsafePointer<Int32>
        let k: Int32
        @inline(__always)
        func visit(_ site: ChromaSite) {
            let l = Int(site.meanLuma)
            site.u.pointee = SepiaChroma.mix(site.u.pointee, u[l], k)
            site.v.pointee = SepiaChroma.mix(site.v.pointee, v[l], k)
            site.mapLuma { y[Int($0)] }
        }
    }
}
