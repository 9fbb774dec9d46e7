/// Walking a YUV frame's luma or chroma samples wherever the format keeps them, for
/// filters that map each sample on its own: through a line (`SampleLine`, arithmetic that
/// vectorizes) or a table (one byte load, lookup and store).
extension YUVFrame {
    /// Every luma sample through `luma` (nil: left as it is) and every chroma sample through
    /// `chroma`. A packed frame takes one pass over its macropixels, a planar frame a pass
    /// per plane (NV12's U and V in one); a chroma line of slope 0 is a fill.
    func map(luma: SampleLine?, chroma: SampleLine) {
        if chroma.slope == 0, luma == nil { return fillChroma(u: chroma.map(0), v: chroma.map(0)) }
        if format.isPacked {
            if let luma { return forEachMacropixel(MappedMacropixel(luma: luma, chroma: chroma)) }
            return forEachMacropixel(MappedMacropixel(luma: KeptSample(), chroma: chroma))
        }
        if let luma { map(lumaGrid, luma) }
        if format == .nv12 { return map(interleavedChromaGrid, chroma) }
        map(chromaGrid(v: false), chroma)
        map(chromaGrid(v: true), chroma)
    }

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
        if let cu = u.first, let cv = v.first, u.allSatisfy({ $0 == cu }), v.allSatisfy({ $0 == cv }) {
            return fillChroma(u: cu, v: cv)
        }
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

    /// Every U sample becomes `u`, every V sample `v` (full mono, a flash's grey): stores
    /// only, no lookup per sample (a row `memset` on planes, one masked 32-bit word per
    /// macropixel on YUY2/UYVY).
    public func fillChroma(u: UInt8, v: UInt8) {
        switch format {
        case .i420:
            for (p, value) in [(planes[1], u), (planes[2], v)] {
                for y in 0..<p.height { p.row(y).initializeMemory(as: UInt8.self, repeating: value, count: p.width) }
            }
        case .nv12:
            let p = planes[1], pair = UInt16(u) | UInt16(v) << 8
            for y in 0..<p.height { p.row(y).initializeMemory(as: UInt16.self, repeating: pair, count: p.width) }
        case .yuy2, .uyvy:
            let k = format.packedOffsets, p = planes[0]
            let chroma = UInt32(u) << (8 &* UInt32(k.u)) | UInt32(v) << (8 &* UInt32(k.v))
            let luma = UInt32(0xFF) << (8 &* UInt32(k.y0)) | UInt32(0xFF) << (8 &* UInt32(k.y1))
            let n = p.width
            RowSplitter.shared.run(rows: p.height, columns: n) { rows in
                for y in rows {
                    let m = p.row(y).assumingMemoryBound(to: UInt32.self)
                    for i in 0..<n { m[i] = m[i] & luma | chroma }
                }
            }
        }
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

    /// Every sample of `grid` through arithmetic (`SampleArithmetic`), which vectorizes
    /// where a lookup per byte does not (invert on YUY2 at 720p, one thread: 1.1–1.3 ms a
    /// frame through tables, a pass each for luma, U and V).
    func map<Arithmetic: SampleArithmetic>(_ grid: SampleGrid, _ arithmetic: Arithmetic) {
        RowSplitter.shared.run(rows: grid.height, columns: grid.width) { rows in
            for y in rows {
                let row = grid.row(y)
                grid.fill(row: y) { out in
                    grid.withConstantStep { s in
                        for x in 0..<grid.width { out[x] = arithmetic.map(row[x &* s]) }
                    }
                }
            }
        }
    }
}

/// One sample to one sample by arithmetic, for `YUVFrame.map(_:_:)`.
protocol SampleArithmetic {
    func map(_ c: UInt8) -> UInt8
}

/// A map of one sample to one sample that is a line, `clamp(round(offset + slope · c))`
/// (invert and mono at any intensity), in fixed point with 20 fractional bits, halves
/// rounded up. Offset and slope are rounded to 2⁻²¹, so the sum can miss by 256 · 2⁻²¹; a
/// bias of that much keeps exact halves (an intensity of 0.3 gives many) rounding up. Against
/// the same line in exact arithmetic: the same byte but where the value lies less than
/// 2⁻¹² below a half (`YUVSampleMapTests`).
struct SampleLine: SampleArithmetic, Equatable {
    static let fractionBits: Int32 = 20
    /// The offset in fixed point with a half and the bias added, and the slope.
    let base: Int32
    let slope: Int32

    init(offset: Double, slope: Double) {
        precondition(abs(slope) <= 2 && abs(offset) <= 512, "a sample line stays within 32-bit fixed point")
        let one = Double(1 << Self.fractionBits)
        base = Int32((offset * one).rounded()) &+ 1 &<< (Self.fractionBits &- 1) &+ 256 / 2
        self.slope = Int32((slope * one).rounded())
    }

    @inline(__always)
    func map(_ c: UInt8) -> UInt8 { clampedByte((base &+ slope &* Int32(c)) &>> Self.fractionBits) }

    /// Chroma `128 + (c − 128)·keep` (mono, noir).
    static func towardsNeutral(keep: Double) -> SampleLine { SampleLine(offset: 128 * (1 - keep), slope: keep) }
}

/// The sample as it is, for a `MappedMacropixel` whose luma stays.
struct KeptSample: SampleArithmetic {
    @inline(__always)
    func map(_ c: UInt8) -> UInt8 { c }
}

/// Each sample of a YUY2/UYVY macropixel on its own: luma through `luma`, chroma through `chroma`.
struct MappedMacropixel<Luma: SampleArithmetic, Chroma: SampleArithmetic>: MacropixelVisitor {
    let luma: Luma
    let chroma: Chroma

    @inline(__always)
    func visit(_ y0: inout UInt8, _ y1: inout UInt8, _ u: inout UInt8, _ v: inout UInt8, column: Int, row: Void) {
        y0 = luma.map(y0)
        y1 = luma.map(y1)
        u = chroma.map(u)
        v = chroma.map(v)
    }
}
