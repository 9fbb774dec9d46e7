/// YUY2 and UYVY keep two pixels and their shared chroma in one 32-bit macropixel. Filters
/// whose samples depend on each other (chroma on luma, or both on the pixel's position)
/// walk the frame one macropixel at a time: one pass over the frame, where mapping luma,
/// U and V separately takes three strided passes (vignette on YUY2 at 720p, one thread:
/// 0.85–0.89 ms a frame in three passes, 0.47–0.48 in one).
protocol MacropixelVisitor {
    /// What the visitor looks up once per row (a row's gains, say); `Void` when nothing.
    associatedtype RowState = Void
    func rowState(_ row: Int) -> RowState

    /// Macropixel `column` of a row: its two luma samples (left, right) and its chroma,
    /// changed in place.
    func visit(_ y0: inout UInt8, _ y1: inout UInt8, _ u: inout UInt8, _ v: inout UInt8,
               column: Int, row: RowState)

    /// The last macropixel of a row of odd width, whose second luma is padding (the walker
    /// leaves that byte as it was). By default visited as a macropixel whose two pixels are
    /// the same.
    func visitPadded(_ y0: inout UInt8, _ u: inout UInt8, _ v: inout UInt8, column: Int, row: RowState)
}

extension MacropixelVisitor where RowState == Void {
    @inline(__always)
    func rowState(_ row: Int) {}
}

extension MacropixelVisitor {
    @inline(__always)
    func visitPadded(_ y0: inout UInt8, _ u: inout UInt8, _ v: inout UInt8, column: Int, row: RowState) {
        var y1 = y0
        visit(&y0, &y1, &u, &v, column: column, row: row)
    }
}

extension YUVFrame {
    /// Calls `visitor` for every macropixel of a YUY2 or UYVY frame, rows split across both cores.
    @inline(__always)
    func forEachMacropixel<Visitor: MacropixelVisitor>(_ visitor: Visitor) {
        switch format {
        // One loop per layout, so that the sample offsets are constants in it.
        case .yuy2: walkMacropixels(visitor, YUVFormat.yuy2.packedOffsets)
        case .uyvy: walkMacropixels(visitor, YUVFormat.uyvy.packedOffsets)
        case .i420, .nv12: preconditionFailure("\(format.rawValue) frames have no macropixels")
        }
    }

    /// The macropixels read and written as 32-bit words, the samples at `offsets` (bytes).
    @inline(__always)
    private func walkMacropixels<Visitor: MacropixelVisitor>(_ visitor: Visitor,
                                                             _ offsets: (y0: Int, y1: Int, u: Int, v: Int)) {
        let p = planes[0], whole = width / 2
        let (s0, s1, su, sv) = (UInt32(8 &* offsets.y0), UInt32(8 &* offsets.y1), UInt32(8 &* offsets.u), UInt32(8 &* offsets.v))
        @inline(__always) func byte(_ word: UInt32, _ at: UInt32) -> UInt8 { UInt8(truncatingIfNeeded: word &>> at) }
        @inline(__always) func at(_ sample: UInt8, _ shift: UInt32) -> UInt32 { UInt32(sample) &<< shift }
        RowSplitter.shared.run(rows: p.height, columns: p.width) { rows in
            for y in rows {
                let m = p.row(y).assumingMemoryBound(to: UInt32.self), state = visitor.rowState(y)
                for i in 0..<whole {
                    let word = m[i]
                    var y0 = byte(word, s0), y1 = byte(word, s1), u = byte(word, su), v = byte(word, sv)
                    visitor.visit(&y0, &y1, &u, &v, column: i, row: state)
                    m[i] = at(y0, s0) | at(y1, s1) | at(u, su) | at(v, sv)
                }
                if whole < p.width {
                    let word = m[whole]
                    var y0 = byte(word, s0), u = byte(word, su), v = byte(word, sv)
                    visitor.visitPadded(&y0, &u, &v, column: whole, row: state)
                    m[whole] = at(y0, s0) | (word & (0xFF &<< s1)) | at(u, su) | at(v, sv)
                }
            }
        }
    }
}
