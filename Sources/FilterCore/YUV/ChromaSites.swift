/// The pixels that share one chroma sample (a 2×2 block in I420/NV12, fewer at odd edges;
/// a macropixel in YUY2/UYVY): filters whose chroma depends on luma walk the frame by site.
struct ChromaSite {
    /// The site's luma samples (2 or 4; nil where an odd edge leaves fewer).
    let y0: UnsafeMutablePointer<UInt8>
    let y1: UnsafeMutablePointer<UInt8>?
    let y2: UnsafeMutablePointer<UInt8>?
    let y3: UnsafeMutablePointer<UInt8>?
    let u: UnsafeMutablePointer<UInt8>
    let v: UnsafeMutablePointer<UInt8>

    /// Mean of the site's luma samples, rounded.
    @inline(__always)
    var meanLuma: Int32 {
        var sum = Int32(y0.pointee), n: Int32 = 1
        if let y1 { sum &+= Int32(y1.pointee); n &+= 1 }
        if let y2 { sum &+= Int32(y2.pointee); n &+= 1 }
        if let y3 { sum &+= Int32(y3.pointee); n &+= 1 }
        return n == 4 ? (sum &+ 2) >> 2 : (sum &+ n / 2) / n
    }

    /// Every luma sample of the site through `f`.
    @inline(__always)
    func mapLuma(_ f: (UInt8) -> UInt8) {
        y0.pointee = f(y0.pointee)
        if let y1 { y1.pointee = f(y1.pointee) }
        if let y2 { y2.pointee = f(y2.pointee) }
        if let y3 { y3.pointee = f(y3.pointee) }
    }
}

/// What a filter does at each chroma site. A struct, not a closure: the closure the row
/// splitter runs on each core captured the site closure as a function value and called
/// it through a thunk per site (exposure on I420 took 4× the CPU of converting to RGB and
/// back); a visitor's `visit` is specialised and inlined into the row loop.
protocol ChromaSiteVisitor {
    func visit(_ site: ChromaSite)
}

extension YUVFrame {
    /// Calls `visitor` for every chroma site, rows split across both cores.
    @inline(__always)
    func forEachChromaSite<Visitor: ChromaSiteVisitor>(_ visitor: Visitor) {
        if format.isPacked {
            let o = format.packedOffsets, p = planes[0], lastOdd = width % 2 == 1
            RowSplitter.shared.run(rows: p.height, columns: p.width) { rows in
                for row in rows {
                    let r = p.row(row).assumingMemoryBound(to: UInt8.self)
                    for i in 0..<p.width {
                        let m = r + 4 &* i
                        let single = lastOdd && i == p.width &- 1
                        visitor.visit(ChromaSite(y0: m + o.y0, y1: single ? nil : m + o.y1, y2: nil, y3: nil, u: m + o.u, v: m + o.v))
                    }
                }
            }
            return
        }
        let lp = planes[0], c = planes[1]
        let step = format == .i420 ? 1 : 2
        let planeV = format == .i420 ? planes[2] : c
        RowSplitter.shared.run(rows: c.height, columns: c.width) { rows in
            for cy in rows {
                let top = lp.row(2 &* cy).assumingMemoryBound(to: UInt8.self)
                let bottom: UnsafeMutablePointer<UInt8>? = 2 &* cy &+ 1 < lp.height
                    ? lp.row(2 &* cy &+ 1).assumingMemoryBound(to: UInt8.self) : nil
                let pu = c.row(cy).assumingMemoryBound(to: UInt8.self)
                let pv = planeV.row(cy).assumingMemoryBound(to: UInt8.self) + (step == 2 ? 1 : 0)
                for cx in 0..<c.width {
                    let x0 = 2 &* cx, pair = x0 &+ 1 < lp.width
                    visitor.visit(ChromaSite(y0: top + x0, y1: pair ? top + (x0 + 1) : nil,
                                    y2: bottom.map { $0 + x0 }, y3: pair ? bottom.map { $0 + (x0 + 1) } : nil,
                                    u: pu + cx &* step, v: pv + cx &* step))
                }
            }
        }
    }
}
