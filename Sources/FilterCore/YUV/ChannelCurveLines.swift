/// The rows `YUVChannelCurve` works through: a line's R′G′B′ from its planes, and back.

/// Where a planar frame's chroma row keeps a site's U and V, read and written as whole
/// words (constants once specialised, so the loops vectorize).
protocol PlanarChroma {
    static func load(u: UnsafeMutablePointer<UInt8>, v: UnsafeMutablePointer<UInt8>, _ s: Int) -> (u: Int32, v: Int32)
    static func store(u: UnsafeMutablePointer<UInt8>, v: UnsafeMutablePointer<UInt8>, _ s: Int, _ cu: UInt8, _ cv: UInt8)
}

/// I420: a U plane and a V plane.
enum SeparateChroma: PlanarChroma {
    @inline(__always)
    static func load(u: UnsafeMutablePointer<UInt8>, v: UnsafeMutablePointer<UInt8>, _ s: Int) -> (u: Int32, v: Int32) {
        (Int32(u[s]), Int32(v[s]))
    }
    @inline(__always)
    static func store(u: UnsafeMutablePointer<UInt8>, v: UnsafeMutablePointer<UInt8>, _ s: Int, _ cu: UInt8, _ cv: UInt8) {
        u[s] = cu; v[s] = cv
    }
}

/// NV12: one plane of U,V pairs (`u` is the row, `v` unused), one 16-bit word a site.
enum PairedChroma: PlanarChroma {
    @inline(__always)
    static func load(u: UnsafeMutablePointer<UInt8>, v: UnsafeMutablePointer<UInt8>, _ s: Int) -> (u: Int32, v: Int32) {
        let pair = UInt16(littleEndian: UnsafeRawPointer(u).loadUnaligned(fromByteOffset: s &* 2, as: UInt16.self))
        return (Int32(pair & 0xFF), Int32(pair &>> 8))
    }
    @inline(__always)
    static func store(u: UnsafeMutablePointer<UInt8>, v: UnsafeMutablePointer<UInt8>, _ s: Int, _ cu: UInt8, _ cv: UInt8) {
        UnsafeMutableRawPointer(u).storeBytes(of: (UInt16(cu) | UInt16(cv) &<< 8).littleEndian, toByteOffset: s &* 2, as: UInt16.self)
    }
}

/// The bytes of a packed macropixel (first luma, second luma, U, V), read and written as
/// one 32-bit word.
protocol PackedOrder { static var first: Int { get }; static var second: Int { get }; static var u: Int { get }; static var v: Int { get } }
enum YUY2Order: PackedOrder { static var first: Int { 0 }; static var second: Int { 2 }; static var u: Int { 1 }; static var v: Int { 3 } }
enum UYVYOrder: PackedOrder { static var first: Int { 1 }; static var second: Int { 3 }; static var u: Int { 0 }; static var v: Int { 2 } }

extension PackedOrder {
    @inline(__always) static func byte(_ word: UInt32, _ at: Int) -> Int32 { Int32(word &>> UInt32(8 &* at) & 0xFF) }
}

/// The frame's matrix in fixed point (16 fractional bits).
struct Coefficients {
    /// R′, G′, B′ from luma and centred chroma: `[Y, U − 128, V − 128, offset]` per channel.
    let iry, iru, irv, iro, igy, igu, igv, igo, iby, ibu, ibv, ibo: Int32
    /// Y, U − 128, V − 128 from R′G′B′.
    let fyr, fyg, fyb, fyo, fur, fug, fub, fvr, fvg, fvb: Int32

    init(_ m: YUVMatrix) {
        let f = YUVAffine.forward(m), i = YUVAffine.invert(f)
        func fixed(_ x: Double) -> Int32 { Int32((x * 65536).rounded()) }
        let inverse = i.flatMap { r in [fixed(r[0]), fixed(r[1]), fixed(r[2]), fixed(r[3] + 128 * (r[1] + r[2])) + 32768] }
        let forward = f.enumerated().flatMap { n, r in [fixed(r[0]), fixed(r[1]), fixed(r[2]), n == 0 ? fixed(r[3]) + 32768 : 0] }
        (iry, iru, irv, iro) = (inverse[0], inverse[1], inverse[2], inverse[3])
        (igy, igu, igv, igo) = (inverse[4], inverse[5], inverse[6], inverse[7])
        (iby, ibu, ibv, ibo) = (inverse[8], inverse[9], inverse[10], inverse[11])
        (fyr, fyg, fyb, fyo) = (forward[0], forward[1], forward[2], forward[3])
        (fur, fug, fub) = (forward[4], forward[5], forward[6])
        (fvr, fvg, fvb) = (forward[8], forward[9], forward[10])
    }

    /// The integer parts (`v >> 16`) the R′, G′ and B′ values can take, over every Y, U
    /// and V byte.
    var integerParts: ClosedRange<Int32> {
        func span(_ y: Int32, _ u: Int32, _ v: Int32, _ offset: Int32) -> (lo: Int32, hi: Int32) {
            var lo = Int64(offset), hi = Int64(offset)
            for (c, a, b) in [(Int64(y), Int64(0), Int64(255)), (Int64(u), -128, 127), (Int64(v), -128, 127)] {
                lo += min(c * a, c * b)
                hi += max(c * a, c * b)
            }
            return (Int32(clamping: lo >> 16), Int32(clamping: hi >> 16))
        }
        let spans = [span(iry, iru, irv, iro), span(igy, igu, igv, igo), span(iby, ibu, ibv, ibo)]
        return spans.map(\.lo).min()!...spans.map(\.hi).max()!
    }
}

/// One thread's rows of 32-bit values for a line of `width` pixels: the sites' chroma
/// terms and R′G′B′ sums, and the pixels' R′G′B′, each channel in two rows (the first and
/// the second pixel of each site), so every loop walks its rows one element at a time and
/// vectorizes (one row of pixels, stored two apart, did not).
struct LineBuffers {
    let width: Int, sites: Int, pairs: Int
    /// Chroma terms of R′, G′, B′ per site, then the sums of the site's new R′, G′, B′.
    let rc, gc, bc, sr, sg, sb: UnsafeMutablePointer<Int32>
    /// R′, G′, B′ of each site's first (`r0`…) and second (`r1`…) pixel, one row after the
    /// other (one map runs the curve over all six).
    let rgb: UnsafeMutablePointer<Int32>
    let r0, r1, g0, g1, b0, b1: UnsafeMutablePointer<Int32>

    init(width: Int) {
        self.width = width
        sites = (width + 1) / 2
        pairs = width / 2
        let site = UnsafeMutablePointer<Int32>.allocate(capacity: 12 * sites)
        site.initialize(repeating: 0, count: 12 * sites)
        (rc, gc, bc) = (site, site + sites, site + 2 * sites)
        (sr, sg, sb) = (site + 3 * sites, site + 4 * sites, site + 5 * sites)
        rgb = site + 6 * sites
        (r0, r1, g0, g1, b0, b1) = (rgb, rgb + sites, rgb + 2 * sites, rgb + 3 * sites, rgb + 4 * sites, rgb + 5 * sites)
    }

    func free() { rc.deallocate() }

    /// The chroma terms of a site with chroma `u`, `v`.
    @inline(__always)
    private func terms(_ u: Int32, _ v: Int32, _ k: Coefficients) -> (r: Int32, g: Int32, b: Int32) {
        let cu = u &- 128, cv = v &- 128
        return (k.iru &* cu &+ k.irv &* cv &+ k.iro, k.igu &* cu &+ k.igv &* cv &+ k.igo, k.ibu &* cu &+ k.ibv &* cv &+ k.ibo)
    }

    @inline(__always)
    private func luma(_ r: Int32, _ g: Int32, _ b: Int32, _ k: Coefficients) -> UInt8 {
        clampedByte((k.fyr &* r &+ k.fyg &* g &+ k.fyb &* b &+ k.fyo) &>> 16)
    }

    /// The chroma of R′G′B′ sums over 2^`shift` / 2^16 pixels, rounded.
    @inline(__always)
    private func chroma(_ r: Int32, _ g: Int32, _ b: Int32, shift: Int32, _ k: Coefficients) -> (u: UInt8, v: UInt8) {
        let half = Int32(1) &<< (shift &- 1)
        return (clampedByte(128 &+ ((k.fur &* r &+ k.fug &* g &+ k.fub &* b &+ half) &>> shift)),
                clampedByte(128 &+ ((k.fvr &* r &+ k.fvg &* g &+ k.fvb &* b &+ half) &>> shift)))
    }

    /// Each site's chroma terms; its sums start at zero.
    @inline(__always)
    func readChroma<Chroma: PlanarChroma>(u: UnsafeMutablePointer<UInt8>, v: UnsafeMutablePointer<UInt8>, _: Chroma.Type,
                                          _ k: Coefficients) {
        for s in 0..<sites {
            let c = Chroma.load(u: u, v: v, s)
            (rc[s], gc[s], bc[s]) = terms(c.u, c.v, k)
            sr[s] = 0; sg[s] = 0; sb[s] = 0
        }
    }

    /// One line of a luma plane: R′G′B′ of every pixel, the curve, the new luma, the
    /// sites' sums.
    @inline(__always)
    func run<Curve: CoveredCurve>(_ line: UnsafeMutablePointer<UInt8>, _ k: Coefficients, _ curve: Curve) {
        let (r0, r1, g0, g1, b0, b1) = (self.r0, self.r1, self.g0, self.g1, self.b0, self.b1)
        for s in 0..<pairs {
            let y0 = Int32(line[2 &* s]), y1 = Int32(line[2 &* s &+ 1])
            r0[s] = k.iry &* y0 &+ rc[s]; g0[s] = k.igy &* y0 &+ gc[s]; b0[s] = k.iby &* y0 &+ bc[s]
            r1[s] = k.iry &* y1 &+ rc[s]; g1[s] = k.igy &* y1 &+ gc[s]; b1[s] = k.iby &* y1 &+ bc[s]
        }
        if pairs < sites {
            // An odd width's last site holds one pixel.
            let s = pairs, y0 = Int32(line[2 &* s])
            r0[s] = k.iry &* y0 &+ rc[s]; g0[s] = k.igy &* y0 &+ gc[s]; b0[s] = k.iby &* y0 &+ bc[s]
        }
        self.curve(curve)
        for s in 0..<pairs {
            line[2 &* s] = luma(r0[s], g0[s], b0[s], k)
            line[2 &* s &+ 1] = luma(r1[s], g1[s], b1[s], k)
            sr[s] &+= r0[s] &+ r1[s]; sg[s] &+= g0[s] &+ g1[s]; sb[s] &+= b0[s] &+ b1[s]
        }
        if pairs < sites {
            let s = pairs
            line[2 &* s] = luma(r0[s], g0[s], b0[s], k)
            sr[s] &+= r0[s]; sg[s] &+= g0[s]; sb[s] &+= b0[s]
        }
    }

    /// The curve over every pixel's R′, G′ and B′.
    @inline(__always)
    func curve<Curve: CoveredCurve>(_ curve: Curve) {
        for i in 0..<6 &* sites { rgb[i] = curve(rgb[i]) }
    }

    /// Each site's chroma from the mean of its pixels' new R′G′B′ (`lines` × 2 pixels, one
    /// column at an odd right edge: a mean of 1, 2 or 4, a shift).
    @inline(__always)
    func writeChroma<Chroma: PlanarChroma>(u: UnsafeMutablePointer<UInt8>, v: UnsafeMutablePointer<UInt8>, _: Chroma.Type,
                                           lines: Int, _ k: Coefficients) {
        let shift: Int32 = lines == 2 ? 18 : 17
        for s in 0..<pairs {
            let c = chroma(sr[s], sg[s], sb[s], shift: shift, k)
            Chroma.store(u: u, v: v, s, c.u, c.v)
        }
        if pairs < sites {
            let c = chroma(sr[pairs], sg[pairs], sb[pairs], shift: shift &- 1, k)
            Chroma.store(u: u, v: v, pairs, c.u, c.v)
        }
    }

    /// A row of macropixels: every pixel's R′G′B′ (an odd width's last macropixel has one
    /// pixel; the second luma of its padding is left alone).
    @inline(__always)
    func readPacked<Order: PackedOrder>(_ row: UnsafeMutablePointer<UInt8>, _: Order.Type, _ k: Coefficients) {
        let (r0, r1, g0, g1, b0, b1) = (self.r0, self.r1, self.g0, self.g1, self.b0, self.b1)
        let words = UnsafeRawPointer(row)
        for s in 0..<pairs {
            let m = UInt32(littleEndian: words.loadUnaligned(fromByteOffset: s &* 4, as: UInt32.self))
            let c = terms(Order.byte(m, Order.u), Order.byte(m, Order.v), k)
            let y0 = Order.byte(m, Order.first), y1 = Order.byte(m, Order.second)
            r0[s] = k.iry &* y0 &+ c.r; g0[s] = k.igy &* y0 &+ c.g; b0[s] = k.iby &* y0 &+ c.b
            r1[s] = k.iry &* y1 &+ c.r; g1[s] = k.igy &* y1 &+ c.g; b1[s] = k.iby &* y1 &+ c.b
        }
        if pairs < sites {
            let m = row + 4 &* pairs, s = pairs
            let c = terms(Int32(m[Order.u]), Int32(m[Order.v]), k), y0 = Int32(m[Order.first])
            r0[s] = k.iry &* y0 &+ c.r; g0[s] = k.igy &* y0 &+ c.g; b0[s] = k.iby &* y0 &+ c.b
        }
    }

    /// The new luma of every pixel and each macropixel's chroma from the mean of its two
    /// (or, at an odd right edge, one) pixels.
    @inline(__always)
    func writePacked<Order: PackedOrder>(_ row: UnsafeMutablePointer<UInt8>, _: Order.Type, _ k: Coefficients) {
        let words = UnsafeMutableRawPointer(row)
        for s in 0..<pairs {
            let y0 = luma(r0[s], g0[s], b0[s], k), y1 = luma(r1[s], g1[s], b1[s], k)
            let c = chroma(r0[s] &+ r1[s], g0[s] &+ g1[s], b0[s] &+ b1[s], shift: 17, k)
            let m = UInt32(y0) &<< UInt32(8 &* Order.first) | UInt32(y1) &<< UInt32(8 &* Order.second)
                | UInt32(c.u) &<< UInt32(8 &* Order.u) | UInt32(c.v) &<< UInt32(8 &* Order.v)
            words.storeBytes(of: m.littleEndian, toByteOffset: s &* 4, as: UInt32.self)
        }
        if pairs < sites {
            let m = row + 4 &* pairs, s = pairs
            let c = chroma(r0[s], g0[s], b0[s], shift: 16, k)
            m[Order.first] = luma(r0[s], g0[s], b0[s], k)
            m[Order.u] = c.u; m[Order.v] = c.v
        }
    }
}
