/// An affine colour transform on 0…255 channels, in real arithmetic:
///
///     r' = m[0] r + m[1] g + m[2]  b + m[3]  · 255
///     g' = m[4] r + m[5] g + m[6]  b + m[7]  · 255
///     b' = m[8] r + m[9] g + m[10] b + m[11] · 255
///
/// then clamped to 0…255. The filters that are affine (mono at partial intensity,
/// invert, color-controls, white-balance, channel-mix) build one of these and run it
/// through `MatrixKernel`, so any combination of their settings costs one multiply.
struct ColorMatrix: Equatable {
    var m: [Double]

    init(_ m: [Double]) {
        precondition(m.count == 12, "a colour matrix has 3 rows of 4")
        self.m = m
    }

    static let identity = ColorMatrix([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0])

    /// Rec.601 luma in every channel.
    static let luma = ColorMatrix([0.299, 0.587, 0.114, 0, 0.299, 0.587, 0.114, 0, 0.299, 0.587, 0.114, 0])

    /// `self` applied after `first`.
    func after(_ first: ColorMatrix) -> ColorMatrix {
        var out = [Double](repeating: 0, count: 12)
        for row in 0..<3 {
            for col in 0..<4 {
                var v = 0.0
                for k in 0..<3 { v += m[row * 4 + k] * first.m[k * 4 + col] }
                if col == 3 { v += m[row * 4 + 3] }
                out[row * 4 + col] = v
            }
        }
        return ColorMatrix(out)
    }

    /// `(1 - k)·identity + k·self`: the same as mixing the result with the original by `k`.
    func mixed(_ k: Double) -> ColorMatrix {
        ColorMatrix((0..<12).map { i in k * m[i] + (1 - k) * ColorMatrix.identity.m[i] })
    }

    /// The matrix in the 10-bit fixed point of `MatrixKernel`.
    var fixedPoint: [Int] {
        (0..<12).map { i in
            let scale = i % 4 == 3 ? 1024.0 * 255 : 1024.0
            return Int((m[i] * scale).rounded())
        }
    }

    /// True when the fixed-point kernel would leave every pixel as it is.
    var isIdentity: Bool { fixedPoint == ColorMatrix.identity.fixedPoint }

    /// Runs the matrix over the pass (a copy at most, for the identity).
    func run(_ pass: FramePass) {
        if isIdentity { return pass.leaveUnchanged() }
        if pass.format.isRGBOrder {
            MatrixKernel<RedFirst>(self).run(pass)
        } else {
            MatrixKernel<BlueFirst>(self).run(pass)
        }
    }
}

/// A `ColorMatrix` in fixed point: coefficients × 1024 rounded to the nearest integer,
/// offsets × 1024·255; each channel is `(Σ + 512) >> 10` (round half up), then clamped.
/// Coefficients up to ±16 times 255 stay far inside 32 bits.
struct MatrixKernel<Order: ChannelOrder>: PixelKernel {
    /// Coefficients in 16 bits (±31.9 × 1024), so the compiler knows each product fits
    /// the 16 × 16 → 32-bit multiply-add (`vpmaddwd`) instead of a slow 32-bit multiply.
    let rr, rg, rb, gr, gg, gb, br, bg, bb: Int16
    let ro, go, bo: Int32

    init(_ matrix: ColorMatrix) {
        let f = matrix.fixedPoint.map { Int32(clamping: $0) }
        func c(_ i: Int) -> Int16 { Int16(clamping: f[i]) }
        rr = c(0); rg = c(1); rb = c(2); ro = f[3] &+ 512
        gr = c(4); gg = c(5); gb = c(6); go = f[7] &+ 512
        br = c(8); bg = c(9); bb = c(10); bo = f[11] &+ 512
    }

    @inline(__always)
    func map(_ p: UInt32) -> UInt32 {
        let r = Order.red(p), g = Order.green(p), b = Order.blue(p)
        let rr = Int32(self.rr), rg = Int32(self.rg), rb = Int32(self.rb)
        let gr = Int32(self.gr), gg = Int32(self.gg), gb = Int32(self.gb)
        let br = Int32(self.br), bg = Int32(self.bg), bb = Int32(self.bb)
        let nr = (rr &* r &+ rg &* g &+ rb &* b &+ ro) &>> 10
        let ng = (gr &* r &+ gg &* g &+ gb &* b &+ go) &>> 10
        let nb = (br &* r &+ bg &* g &+ bb &* b &+ bo) &>> 10
        return Order.pack(clampChannel(nr), clampChannel(ng), clampChannel(nb), keeping: p)
    }
}
