/// Tetrahedral interpolation of a 3D lattice (the Truelight method FFmpeg's
/// `lut3d interp=tetrahedral` uses) in integers.
///
/// For each channel value v (0…255) an axis table gives the lattice cell below it, as an
/// offset into the lattice, and the position inside the cell in 255ths. The cell's cube
/// splits into six tetrahedra along its diagonal; the position's three fractions, sorted
/// (f₁ ≥ f₂ ≥ f₃), pick one and weigh its corners `255 − f₁`, `f₁ − f₂`, `f₂ − f₃`, `f₃`
/// (they sum to 255). Each lattice vertex holds R, G, B in 21-bit lanes of a `UInt64`, each
/// channel counted in `scale.unit`ths of an output level from the look's lowest value, so
/// the weighted sum is four 64-bit multiply-adds for all three channels; `LatticeScale`
/// keeps a lane's sum below 2²¹, so lanes never carry into each other. Each channel is then
/// the sum less the weighted offset, divided by the unit (rounded half up) and clamped to
/// 0…255. The result is clamped, not the vertices, as FFmpeg's `lut3d` does: a vertex a
/// grading tool left a little above 1 still pulls the colours around it (a 2-point cube
/// whose white is 1.08 takes mid-grey 128 to 138, as FFmpeg; clamping the vertex gave
/// 128), and a look for a wider domain keeps its values (an identity on 0…2 keeps 200).
///
/// On the default domain (0…1) the position of v is exactly v·(N − 1)/255, which splits
/// into a cell and 255ths without rounding: the only rounding is the lattice's, to 1/32 of
/// a level at most (a look within 0…1 or a little beyond counts in 16ths of a level), so an
/// identity lattice gives back every input. Other domains round the
/// position to 1/255 of a cell.
struct CubeKernel: RGBLook {
    /// Red, green and blue tables of 256 entries: `offset << 8 | weight`.
    let axes: UnsafePointer<Int32>
    let lattice: UnsafePointer<UInt64>
    /// Lattice strides: 1, N and N² vertices.
    let red: Int32, green: Int32, blue: Int32
    let scale: LatticeScale

    init(axes: UnsafePointer<Int32>, lattice: UnsafePointer<UInt64>, size n: Int, scale: LatticeScale) {
        self.axes = axes
        self.lattice = lattice
        self.scale = scale
        red = 1
        green = Int32(n)
        blue = Int32(n * n)
    }

    @inline(__always)
    func look(_ r: Int32, _ g: Int32, _ b: Int32) -> UInt32 {
        let ar = axes[Int(r)], ag = axes[256 &+ Int(g)], ab = axes[512 &+ Int(b)]
        let fr = ar & 0xFF, fg = ag & 0xFF, fb = ab & 0xFF
        let base = lattice + Int((ar &>> 8) &+ (ag &>> 8) &+ (ab &>> 8))
        // The fractions sorted, largest first, each with the step along its axis: three
        // compare-exchanges without branches (the tetrahedron changes from pixel to pixel
        // in a photo; branching on it ran 40 % slower there).
        var f1 = fr, f2 = fg, f3 = fb, s1 = red, s2 = green, s3 = blue
        Self.order(&f1, &s1, &f2, &s2)
        Self.order(&f2, &s2, &f3, &s3)
        Self.order(&f1, &s1, &f2, &s2)
        let c0 = base[0], c1 = base[Int(s1)], c2 = base[Int(s1 &+ s2)], c3 = base[Int(red &+ green &+ blue)]
        let sum = c0 &* UInt64(truncatingIfNeeded: 255 &- f1) &+ c1 &* UInt64(truncatingIfNeeded: f1 &- f2)
            &+ c2 &* UInt64(truncatingIfNeeded: f2 &- f3) &+ c3 &* UInt64(truncatingIfNeeded: f3)
        let lane: UInt64 = 0x1F_FFFF
        let o0 = scale.level(sum & lane), o1 = scale.level((sum &>> 21) & lane), o2 = scale.level((sum &>> 42) & lane)
        return UInt32(truncatingIfNeeded: o0 | o1 &<< 8 | o2 &<< 16)
    }

    /// Puts the larger fraction (and its step) first.
    @inline(__always)
    private static func order(_ a: inout Int32, _ stepA: inout Int32, _ b: inout Int32, _ stepB: inout Int32) {
        let swap = a < b
        (a, b, stepA, stepB) = swap ? (b, a, stepB, stepA) : (a, b, stepA, stepB)
    }


    /// The cell below channel value `v` on an axis of `size` vertices spanning `min…max`,
    /// and the position inside it in 255ths (255 only at the top of the last cell).
    static func cellAndWeight(_ v: Int, size n: Int, min: Double, max: Double) -> (cell: Int, weight: Int) {
        if min == 0 && max == 1 {
            let position = v * (n - 1)   // in 255ths of a cell: exact
            return position / 255 == n - 1 ? (n - 2, 255) : (position / 255, position % 255)
        }
        let t = Swift.min(Swift.max((Double(v) / 255 - min) / (max - min), 0), 1) * Double(n - 1)
        let cell = Swift.min(Int(t), n - 2)
        return (cell, Int(((t - Double(cell)) * 255).rounded()))
    }
}

/// How a look's lattice values are counted in a vertex's lanes: in `unit`ths of an output
/// level, from `offset` of them below 0 (the look's lowest value, or 0). 16ths of a level
/// (4080 a unit of the range) for values spanning up to 2, fewer for a wider look (one for a
/// wider domain, an HDR look), so that 255 times the largest stored value stays below 2²¹.
struct LatticeScale: Sendable {
    let unit: Int64
    let offset: Int64

    /// The scale for a lattice holding `values`.
    init(values: [Float]) {
        // Values past ±4110 (levels no 8-bit picture shows; a wide-domain file may hold up
        // to ±3.4e38) count as ±4110, so the offset stays in range and below 8220.
        let low = max(Double(min(values.min() ?? 0, 0)), -4110), high = min(Double(max(values.max() ?? 1, 1)), 4110)
        // At least 1 (a look spanning more than 8220, a domain no 8-bit picture needs, has
        // its vertices capped below instead): 255 · 8221 < 2²¹.
        unit = max(1, min(4080, Int64(8220 / (high - low))))
        offset = Int64((-low * Double(unit)).rounded(.up))
    }

    /// A lattice vertex, R G B in their lanes.
    func vertex(_ r: Float, _ g: Float, _ b: Float) -> UInt64 {
        stored(r) | stored(g) << 21 | stored(b) << 42
    }

    private func stored(_ x: Float) -> UInt64 { UInt64(min(max((Double(x) * Double(unit)).rounded() + Double(offset), 0), 8220)) }

    /// An output level from a lane's weighted sum (weights summing to 255): rounded half up,
    /// clamped to 0…255.
    @inline(__always)
    func level(_ weighted: UInt64) -> UInt64 {
        let units = Swift.max(Int64(truncatingIfNeeded: weighted) &- 255 &* offset &+ unit / 2, 0)
        // The usual unit divides as a constant (a multiply): a division by a variable cost
        // the per-pixel path ~10 % more CPU (150 1080p frames before the table: 0.63-0.91
        // against 0.57-0.79 s).
        let level = unit == 4080 ? units / 4080 : units / unit
        return UInt64(truncatingIfNeeded: Swift.min(level, 255))
    }
}
