/// A curve applied to R′, G′ and B′ alike (exposure's sRGB curve, posterize's levels) on
/// YUV planes, in place and without an RGB frame: per chroma site, each pixel's R′G′B′ is
/// computed from its luma and the site's chroma (fixed point, 16 fractional bits, the
/// frame's matrix and range), taken through the curve, and turned back into its luma; the
/// site's chroma becomes that of the mean of its pixels' new R′G′B′ (what videoconvert's
/// chroma of the RGB result is: the mean of the pixels' chroma).
///
/// No closed form: the curve is not linear, and the pixels of a site share one chroma, so
/// where chroma changes inside a site each pixel's R′G′B′ is only approximated; a luma
/// sample (220 steps in video range) also stands for more than one R′G′B′ grey. The curve
/// magnifies both by its slope; where a pixel's approximated R′G′B′ falls below 0 (a dark
/// pixel sharing a site with a saturated colour) the clamp and the curve brighten it.
///
/// Each line of pixels goes through in stages over short rows of 32-bit values: the
/// sites' chroma terms, every pixel's R′G′B′, the curve, the new luma and the sites' sums,
/// the new chroma. All but a table's lookups vectorize; done per site in one pass (each
/// pixel: three products, three clamps, three lookups, the way back), the same work took
/// longer than converting to RGB and back with `videoconvert`. Interleaved chroma (NV12's
/// U,V pairs, YUY2's macropixels) is read and written a pair or a macropixel at a time, as
/// one 16- or 32-bit word: byte by byte, four bytes apart, those loops stayed scalar.
/// NV12 goes through exactly the arithmetic of I420 (the same sites), so its planes are
/// the same bytes.
struct YUVChannelCurve<Curve: ChannelCurve> {
    private let k: Coefficients
    private let curve: Curve.Covered

    init(_ m: YUVMatrix, curve: Curve) {
        k = Coefficients(m)
        self.curve = curve.covering(k.integerParts)
    }

    func apply(to frame: YUVFrame) {
        switch frame.format {
        case .i420: planar(frame, SeparateChroma.self)
        case .nv12: planar(frame, PairedChroma.self)
        case .yuy2: packed(frame, YUY2Order.self)
        case .uyvy: packed(frame, UYVYOrder.self)
        }
    }

    /// I420 and NV12: one chroma row and its two luma rows at a time.
    private func planar<Chroma: PlanarChroma>(_ frame: YUVFrame, _: Chroma.Type) {
        let lp = frame.planes[0], c = frame.planes[1]
        let planeV = frame.format == .nv12 ? c : frame.planes[2]
        RowSplitter.shared.run(rows: c.height, columns: c.width) { rows in
            let rowsBuffer = LineBuffers(width: lp.width)
            defer { rowsBuffer.free() }
            for cy in rows {
                let u = c.row(cy).assumingMemoryBound(to: UInt8.self)
                let v = planeV.row(cy).assumingMemoryBound(to: UInt8.self)
                rowsBuffer.readChroma(u: u, v: v, Chroma.self, k)
                let lines = 2 &* cy &+ 1 < lp.height ? 2 : 1
                for line in 0..<lines {
                    let luma = lp.row(2 &* cy &+ line).assumingMemoryBound(to: UInt8.self)
                    rowsBuffer.run(luma, k, curve)
                }
                rowsBuffer.writeChroma(u: u, v: v, Chroma.self, lines: lines, k)
            }
        }
    }

    /// YUY2 and UYVY: one row of macropixels (its own chroma) at a time.
    private func packed<Order: PackedOrder>(_ frame: YUVFrame, _: Order.Type) {
        let p = frame.planes[0]
        RowSplitter.shared.run(rows: p.height, columns: p.width) { rows in
            let rowsBuffer = LineBuffers(width: frame.width)
            defer { rowsBuffer.free() }
            for row in rows {
                let r = p.row(row).assumingMemoryBound(to: UInt8.self)
                rowsBuffer.readPacked(r, Order.self, k)
                rowsBuffer.curve(curve)
                rowsBuffer.writePacked(r, Order.self, k)
            }
        }
    }
}

/// A curve for R′, G′ and B′, made ready once a frame for the values the frame's matrix
/// can give (a table widens itself to them so its lookups need no clamp).
protocol ChannelCurve {
    associatedtype Covered: CoveredCurve
    /// The curve for values whose integer parts (`v >> 16`) lie in `range`.
    func covering(_ range: ClosedRange<Int32>) -> Covered
}

/// What a channel curve does to one R′G′B′ value, given with 16 fractional bits and any
/// sign within the range it was made for (taken as clamped to 0…255).
protocol CoveredCurve {
    func callAsFunction(_ v: Int32) -> Int32
}

/// A 256-entry table (exposure): lookups, which do not vectorize.
struct TableCurve: ChannelCurve {
    let table: UnsafePointer<UInt8>
    func covering(_ range: ClosedRange<Int32>) -> WideTable { WideTable(table, range: range) }
}

/// A table's entries at every integer part of a range, those beyond 0…255 repeating the
/// ends: a lookup is one load (the clamp before it took as long again).
struct WideTable: CoveredCurve {
    private let memory: OwnedEntries
    /// The entry of 0 (a copy of the pointer, so a loop keeps it in a register).
    private let zero: UnsafePointer<Int32>

    init(_ table: UnsafePointer<UInt8>, range: ClosedRange<Int32>) {
        let lo = min(range.lowerBound, 0), hi = max(range.upperBound, 255)
        memory = OwnedEntries(count: Int(hi - lo) + 1)
        for v in lo...hi { memory.base[Int(v - lo)] = Int32(table[Int(min(max(v, 0), 255))]) }
        zero = UnsafePointer(memory.base + Int(-lo))
    }

    @inline(__always) func callAsFunction(_ v: Int32) -> Int32 { zero[Int(v &>> 16)] }
}

private final class OwnedEntries {
    let base: UnsafeMutablePointer<Int32>
    init(count: Int) { base = .allocate(capacity: count) }
    deinit { base.deallocate() }
}

/// Posterize's levels by arithmetic (`PosterizeKernel.level`, the same values as its
/// table), which vectorizes.
struct PosterizeCurve: ChannelCurve, CoveredCurve {
    let kernel: PosterizeKernel
    func covering(_ range: ClosedRange<Int32>) -> PosterizeCurve { self }
    @inline(__always) func callAsFunction(_ v: Int32) -> Int32 {
        Int32(bitPattern: kernel.level(UInt32(bitPattern: min(max(v &>> 16, 0), 255))))
    }
}
