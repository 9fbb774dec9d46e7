/// Tetrahedral interpolation of a 3D lattice (the Truelight method FFmpeg's
/// `lut3d interp=tetrahedral` uses) in integers.
///
/// For each channel value v (0…255) an axis table gives the lattice cell below it, as an
/// offset into the lattice, and the position inside the cell in 255ths. The cell's cube
/// splits into six tetrahedra along its diagonal; the position's three fractions, sorted
/// (f₁ ≥ f₂ ≥ f₃), pick one and weigh its corners `255 − f₁`, `f₁ − f₂`, `f₂ − f₃`, `f₃`
/// (they sum to 255). Each lattice vertex holds R, G, B in 16ths of an output level
/// (0…4080) in 21-bit lanes of a `UInt64`, so the weighted sum is four 64-bit multiply-adds
/// for all three channels; a lane's sum stays within 255 · 4080 < 2²¹, so lanes never carry
/// into each other. Each channel is then `(sum + 2040) / 4080`, rounded half up.
///
/// On the default domain (0…1) the position of v is exactly v·(N − 1)/255, which splits
/// into a cell and 255ths without rounding: the only rounding is the lattice's, to 1/32 of
/// a level at most, so an identity lattice gives back every input. Other domains round the
/// position to 1/255 of a cell.
struct CubeKernel: RGBLook {
    /// Red, green and blue tables of 256 entries: `offset << 8 | weight`.
    let axes: UnsafePointer<Int32>
    let lattice: UnsafePointer<UInt64>
    /// Lattice strides: 1, N and N² vertices.
    let red: Int32, green: Int32, blue: Int32

    init(axes: UnsafePointer<Int32>, lattice: UnsafePointer<UInt64>, size n: Int) {
        self.axes = axes
        self.lattice = lattice
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
        let o0 = ((sum & lane) &+ 2040) / 4080
        let o1 = (((sum &>> 21) & lane) &+ 2040) / 4080
        let o2 = (((sum &>> 42) & lane) &+ 2040) / 4080
        return UInt32(truncatingIfNeeded: o0 | o1 &<< 8 | o2 &<< 16)
    }

    /// Puts the larger fraction (and its step) first.
    @inline(__always)
    private static func order(_ a: inout Int32, _ stepA: inout Int32, _ b: inout Int32, _ stepB: inout Int32) {
        let swap = a < b
        (a, b, stepA, stepB) = swap ? (b, a, stepB, stepA) : (a, b, stepA, stepB)
    }

    /// A lattice vertex: each channel clamped to 0…1, in 16ths of a level, in its lane.
    static func vertex(_ r: Float, _ g: Float, _ b: Float) -> UInt64 {
        sixteenths(r) | sixteenths(g) << 21 | sixteenths(b) << 42
    }

    private static func sixteenths(_ x: Float) -> UInt64 { UInt64((Double(min(max(x, 0), 1)) * 4080).rounded()) }

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
