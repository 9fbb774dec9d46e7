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

/// A visitor that also takes a whole 4:2:0 site by value: its four luma samples (top left,
/// top right, bottom left, bottom right) and its chroma, changed in place. The walker then
/// reads and writes each row's pairs of luma samples as one 16-bit word: with a pointer
/// per sample, the samples one byte apart made the vectorizer's overlap check fail at run
/// time and the scalar loop ran (colour controls on I420 at 720p: 2.0–2.3 ms a frame, one
/// thread). The sites at odd edges still go through `visit(_: ChromaSite)`.
protocol WholeSiteVisitor: ChromaSiteVisitor {
    func visit(_ y0: inout UInt8, _ y1: inout UInt8, _ y2: inout UInt8, _ y3: inout UInt8,
               _ u: inout UInt8, _ v: inout UInt8)
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

    /// The same for a visitor that takes whole sites by value (`WholeSiteVisitor`).
    @inline(__always)
    func forEachChromaSite<Visitor: WholeSiteVisitor>(_ visitor: Visitor) {
        let rows = ChromaSiteRows(self)
        RowSplitter.shared.run(rows: rows.count, columns: rows.sitesPerRow) { range in
            for row in range { rows.visitWords(row: row, visitor) }
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
    ///
    /// The whole sites (two luma samples, or four in 4:2:0) go through loops of their own,
    /// one per layout with its offsets as constants: the site's optionals are then known
    /// to be there, so the visitor's checks fold away (I420 sepia at 720p, one thread: 2.0
    /// → 1.2 ms a frame with its luma pass folded in). Packed sites, one pointer with
    /// constant offsets, vectorize where the visitor's arithmetic does; 4:2:0 sites through
    /// per-sample pointers do not (see `WholeSiteVisitor`).
    @inline(__always)
    func visit<Visitor: ChromaSiteVisitor>(row: Int, from first: Int, _ visitor: Visitor) {
        let (top, bottom) = lumaRows(row), (u, v) = chroma(row)
        let whole = width / 2
        if isPacked {
            let o = packedOffsets
            if first < whole {
                if o == YUVFormat.yuy2.packedOffsets {
                    Self.wholePackedSites(top, first, whole, YUVFormat.yuy2.packedOffsets, visitor)
                } else {
                    Self.wholePackedSites(top, first, whole, YUVFormat.uyvy.packedOffsets, visitor)
                }
            }
            if width % 2 == 1, first <= whole {   // the last macropixel's second luma is padding
                let m = top + 4 &* whole
                visitor.visit(ChromaSite(y0: m + o.y0, y1: nil, y2: nil, y3: nil, u: m + o.u, v: m + o.v))
            }
            return
        }
        var rest = first
        if let bottom, first < whole {
            let below = bottom - top   // the luma stride, so that both rows are one pointer apart
            if chromaStep == 1 {
                Self.wholePlanarSites(top, below, u, v, first, whole, step: 1, visitor)
            } else {
                Self.wholePlanarSites(top, below, u, v, first, whole, step: 2, visitor)
            }
            rest = whole
        }
        for cx in rest..<sitesPerRow {
            let x0 = 2 &* cx, pair = x0 &+ 1 < width
            visitor.visit(ChromaSite(y0: top + x0, y1: pair ? top + (x0 + 1) : nil,
                                     y2: bottom.map { $0 + x0 }, y3: pair ? bottom.map { $0 + (x0 + 1) } : nil,
                                     u: u + cx &* chromaStep, v: v + cx &* chromaStep))
        }
    }

    /// Calls `visitor` for the sites of row `row`, the whole 4:2:0 sites by value.
    @inline(__always)
    func visitWords<Visitor: WholeSiteVisitor>(row: Int, _ visitor: Visitor) {
        let (top, bottom) = lumaRows(row), whole = width / 2
        guard !isPacked, let bottom, whole > 0 else { return visit(row: row, from: 0, visitor) }
        let (u, v) = chroma(row)
        if chromaStep == 1 {
            Self.wholePlanarWords(top, bottom - top, u, v, whole, interleavedChroma: false, visitor)
        } else {
            Self.wholePlanarWords(top, bottom - top, u, v, whole, interleavedChroma: true, visitor)
        }
        visit(row: row, from: whole, visitor)
    }

    /// Sites `0..<end` of a 4:2:0 row pair by value, each row's luma pairs (and NV12's
    /// chroma pairs) read and written as 16-bit words; `interleavedChroma` is a constant
    /// once inlined.
    @inline(__always)
    private static func wholePlanarWords<Visitor: WholeSiteVisitor>(
        _ top: UnsafeMutablePointer<UInt8>, _ below: Int,
        _ u: UnsafeMutablePointer<UInt8>, _ v: UnsafeMutablePointer<UInt8>,
        _ end: Int, interleavedChroma: Bool, _ visitor: Visitor
    ) {
        let t = UnsafeMutableRawPointer(top), b = t + below, uv = UnsafeMutableRawPointer(u)
        @inline(__always) func low(_ w: UInt16) -> UInt8 { UInt8(truncatingIfNeeded: w) }
        @inline(__always) func high(_ w: UInt16) -> UInt8 { UInt8(truncatingIfNeeded: w &>> 8) }
        @inline(__always) func word(_ l: UInt8, _ h: UInt8) -> UInt16 { UInt16(l) | UInt16(h) &<< 8 }
        for cx in 0..<end {
            let o = 2 &* cx
            let tw = t.loadUnaligned(fromByteOffset: o, as: UInt16.self)
            let bw = b.loadUnaligned(fromByteOffset: o, as: UInt16.self)
            var y0 = low(tw), y1 = high(tw), y2 = low(bw), y3 = high(bw)
            var cu: UInt8, cv: UInt8
            if interleavedChroma {
                let cw = uv.loadUnaligned(fromByteOffset: o, as: UInt16.self)
                (cu, cv) = (low(cw), high(cw))
            } else {
                (cu, cv) = (u[cx], v[cx])
            }
            visitor.visit(&y0, &y1, &y2, &y3, &cu, &cv)
            t.storeBytes(of: word(y0, y1), toByteOffset: o, as: UInt16.self)
            b.storeBytes(of: word(y2, y3), toByteOffset: o, as: UInt16.self)
            if interleavedChroma {
                uv.storeBytes(of: word(cu, cv), toByteOffset: o, as: UInt16.self)
            } else {
                u[cx] = cu
                v[cx] = cv
            }
        }
    }

    /// Sites `first..<end` of a 4:2:0 row pair, 2×2 luma samples each; `step` is 1 (I420's
    /// U and V planes) or 2 (NV12's pairs), a constant once inlined.
    @inline(__always)
    private static func wholePlanarSites<Visitor: ChromaSiteVisitor>(
        _ top: UnsafeMutablePointer<UInt8>, _ below: Int,
        _ u: UnsafeMutablePointer<UInt8>, _ v: UnsafeMutablePointer<UInt8>,
        _ first: Int, _ end: Int, step: Int, _ visitor: Visitor
    ) {
        for cx in first..<end {
            let x0 = 2 &* cx, y2 = x0 &+ below
            visitor.visit(ChromaSite(y0: top + x0, y1: top + (x0 &+ 1), y2: top + y2, y3: top + (y2 &+ 1),
                                     u: u + cx &* step, v: v + cx &* step))
        }
    }

    /// Macropixels `first..<end` of a packed 4:2:2 row, the byte offsets constants once inlined.
    @inline(__always)
    private static func wholePackedSites<Visitor: ChromaSiteVisitor>(
        _ row: UnsafeMutablePointer<UInt8>, _ first: Int, _ end: Int,
        _ o: (y0: Int, y1: Int, u: Int, v: Int), _ visitor: Visitor
    ) {
        for i in first..<end {
            let m = row + 4 &* i
            visitor.visit(ChromaSite(y0: m + o.y0, y1: m + o.y1, y2: nil, y3: nil, u: m + o.u, v: m + o.v))
        }
    }
}
