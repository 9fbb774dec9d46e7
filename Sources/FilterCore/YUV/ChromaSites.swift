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
        let rows = ChromaSiteRows(self)
        RowSplitter.shared.run(rows: rows.count, columns: rows.sitesPerRow) { range in
            for row in range { rows.visit(row: row, from: 0, visitor) }
        }
    }
}

/// Where each row of a frame's chroma sites lies: a chroma row and its two luma rows
/// (I420, NV12), or a row of macropixels (YUY2, UYVY).
struct ChromaSiteRows {
    /// The luma plane (the macropixels for the packed formats), and the U and V samples'.
    let luma: Plane
    let planeU: Plane
    let planeV: Plane
    let isPacked: Bool
    /// Bytes from one site's chroma sample to the next (1 I420, 2 NV12, 4 packed), and from
    /// a site's U to its V in the packed formats and NV12.
    let chromaStep: Int
    let packedOffsets: (y0: Int, y1: Int, u: Int, v: Int)
    /// Rows of sites, and sites per row (the last one with a single pixel column when the
    /// frame's width is odd).
    let count: Int
    let sitesPerRow: Int
    let width: Int

    init(_ frame: YUVFrame) {
        luma = frame.planes[0]
        isPacked = frame.format.isPacked
        packedOffsets = frame.format.packedOffsets
        switch frame.format {
        case .i420: (planeU, planeV, chromaStep) = (frame.planes[1], frame.planes[2], 1)
        case .nv12: (planeU, planeV, chromaStep) = (frame.planes[1], frame.planes[1], 2)
        case .yuy2, .uyvy: (planeU, planeV, chromaStep) = (luma, luma, 4)
        }
        count = planeU.height
        sitesPerRow = planeU.width
        width = frame.width
    }

    /// The first luma row of site row `row`, and the second (nil for a packed frame, or the
    /// last row of a 4:2:0 frame of odd height).
    @inline(__always)
    func lumaRows(_ row: Int) -> (top: UnsafeMutablePointer<UInt8>, bottom: UnsafeMutablePointer<UInt8>?) {
        if isPacked { return (luma.row(row).assumingMemoryBound(to: UInt8.self), nil) }
        let top = luma.row(2 &* row).assumingMemoryBound(to: UInt8.self)
        return (top, 2 &* row &+ 1 < luma.height ? top + luma.stride : nil)
    }

    /// The U sample of site row `row`'s first site (and V's, for I420: NV12's is the next byte).
    @inline(__always)
    func chroma(_ row: Int) -> (u: UnsafeMutablePointer<UInt8>, v: UnsafeMutablePointer<UInt8>) {
        if isPacked {
            let m = luma.row(row).assumingMemoryBound(to: UInt8.self)
            return (m + packedOffsets.u, m + packedOffsets.v)
        }
        let u = planeU.row(row).assumingMemoryBound(to: UInt8.self)
        return (u, chromaStep == 2 ? u + 1 : planeV.row(row).assumingMemoryBound(to: UInt8.self))
    }

    /// Calls `visitor` for the sites of row `row` from site `first` on.
    @inline(__always)
    func visit<Visitor: ChromaSiteVisitor>(row: Int, from first: Int, _ visitor: Visitor) {
        let (top, bottom) = lumaRows(row), (u, v) = chroma(row)
        if isPacked {
            let o = packedOffsets, lastOdd = width % 2 == 1
            for i in first..<sitesPerRow {
                let m = top + 4 &* i
                let single = lastOdd && i == sitesPerRow &- 1
                visitor.visit(ChromaSite(y0: m + o.y0, y1: single ? nil : m + o.y1, y2: nil, y3: nil,
                                         u: m + o.u, v: m + o.v))
            }
            return
        }
        // The sites with all four luma samples first, in a loop of their own: the site's
        // optionals are then known to be there, and the visitor's checks fold away (I420
        // sepia at 720p on one core: 2.0 ms a frame with every site checked).
        var rest = first
        if let bottom {
            let whole = width / 2
            while rest < whole {
                let x0 = 2 &* rest
                visitor.visit(ChromaSite(y0: top + x0, y1: top + (x0 &+ 1), y2: bottom + x0, y3: bottom + (x0 &+ 1),
                                         u: u + rest &* chromaStep, v: v + rest &* chromaStep))
                rest &+= 1
            }
        }
        for cx in rest..<sitesPerRow {
            let x0 = 2 &* cx, pair = x0 &+ 1 < width
            visitor.visit(ChromaSite(y0: top + x0, y1: pair ? top + (x0 + 1) : nil,
                                     y2: bottom.map { $0 + x0 }, y3: pair ? bottom.map { $0 + (x0 + 1) } : nil,
                                     u: u + cx &* chromaStep, v: v + cx &* chromaStep))
        }
    }
}
