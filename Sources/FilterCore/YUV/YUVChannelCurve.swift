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
/// longer than converting to RGB and back with `videoconvert`.
struct YUVChannelCurve<Curve: ChannelCurve> {
    private let k: Coefficients
    private let curve: Curve

    init(_ m: YUVMatrix, curve: Curve) {
        k = Coefficients(m)
        self.curve = curve
    }

    func apply(to frame: YUVFrame) {
        switch frame.format {
        case .i420, .nv12: planar(frame)
        case .yuy2: packed(frame, PackedLuma<YUY2Order>.self)
        case .uyvy: packed(frame, PackedLuma<UYVYOrder>.self)
        }
    }

    /// I420 and NV12: one chroma row and its two luma rows at a time.
    private func planar(_ frame: YUVFrame) {
        let lp = frame.planes[0], c = frame.planes[1]
        let nv12 = frame.format == .nv12
        let planeV = nv12 ? c : frame.planes[2]
        let step = nv12 ? 2 : 1
        RowSplitter.shared.run(rows: c.height, columns: c.width) { rows in
            let rowsBuffer = LineBuffers(width: lp.width)
            defer { rowsBuffer.free() }
            for cy in rows {
                let u = c.row(cy).assumingMemoryBound(to: UInt8.self)
                let v = planeV.row(cy).assumingMemoryBound(to: UInt8.self) + (nv12 ? 1 : 0)
                rowsBuffer.readChroma(u: u, v: v, step: step, k)
                let lines = 2 &* cy &+ 1 < lp.height ? 2 : 1
                for line in 0..<lines {
                    let luma = lp.row(2 &* cy &+ line).assumingMemoryBound(to: UInt8.self)
                    rowsBuffer.run(luma, PlanarLuma.self, k, curve)
                }
                rowsBuffer.writeChroma(u: u, v: v, step: step, lines: lines, k)
            }
        }
    }

    /// YUY2 and UYVY: one row of macropixels (its own chroma) at a time.
    private func packed<Luma: LumaLayout>(_ frame: YUVFrame, _ layout: Luma.Type) {
        let p = frame.planes[0], o = frame.format.packedOffsets
        RowSplitter.shared.run(rows: p.height, columns: p.width) { rows in
            let rowsBuffer = LineBuffers(width: frame.width)
            defer { rowsBuffer.free() }
            for row in rows {
                let r = p.row(row).assumingMemoryBound(to: UInt8.self)
                rowsBuffer.readChroma(u: r + o.u, v: r + o.v, step: 4, k)
                rowsBuffer.run(r, Luma.self, k, curve)
                rowsBuffer.writeChroma(u: r + o.u, v: r + o.v, step: 4, lines: 1, k)
            }
        }
    }
}

/// What a channel curve does to one R′G′B′ value, given with 16 fractional bits and any
/// sign (clamped to 0…255 first).
protocol ChannelCurve {
    func callAsFunction(_ v: Int32) -> Int32
}

/// A 256-entry table (exposure): lookups, which do not vectorize.
struct TableCurve: ChannelCurve {
    let table: UnsafePointer<UInt8>
    @inline(__always) func callAsFunction(_ v: Int32) -> Int32 { Int32(table[Int(min(max(v &>> 16, 0), 255))]) }
}

/// Posterize's levels by arithmetic (`PosterizeKernel.level`, the same values as its
/// table), which vectorizes.
struct PosterizeCurve: ChannelCurve {
    let kernel: PosterizeKernel
    @inline(__always) func callAsFunction(_ v: Int32) -> Int32 {
        Int32(bitPattern: kernel.level(UInt32(bitPattern: min(max(v &>> 16, 0), 255))))
    }
}

/// Where a line's two luma samples of each chroma site lie: `siteBytes` apart per site,
/// at `first` and `second` (constants once specialised, so the loops vectorize).
protocol LumaLayout {
    static var siteBytes: Int { get }
    static var first: Int { get }
    static var second: Int { get }
}

enum PlanarLuma: LumaLayout {
    static var siteBytes: Int { 2 }
    static var first: Int { 0 }
    static var second: Int { 1 }
}

protocol PackedOrder { static var first: Int { get }; static var second: Int { get } }
enum YUY2Order: PackedOrder { static var first: Int { 0 }; static var second: Int { 2 } }
enum UYVYOrder: PackedOrder { static var first: Int { 1 }; static var second: Int { 3 } }

enum PackedLuma<Order: PackedOrder>: LumaLayout {
    static var siteBytes: Int { 4 }
    static var first: Int { Order.first }
    static var second: Int { Order.second }
}

/// The frame's matrix in fixed point (16 fractional bits).
private struct Coefficients {
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
}

/// One thread's rows of 32-bit values for a line of `width` pixels: the sites' chroma
/// terms and R′G′B′ sums, and the pixels' R′G′B′, each channel in two rows (the first and
/// the second pixel of each site), so every loop walks its rows one element at a time and
/// vectorizes (one row of pixels, stored two apart, did not).
private struct LineBuffers {
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

    /// Each site's chroma terms; its sums start at zero.
    @inline(__always)
    func readChroma(u: UnsafeMutablePointer<UInt8>, v: UnsafeMutablePointer<UInt8>, step: Int, _ k: Coefficients) {
        for s in 0..<sites {
            let cu = Int32(u[s &* step]) &- 128, cv = Int32(v[s &* step]) &- 128
            rc[s] = k.iru &* cu &+ k.irv &* cv &+ k.iro
            gc[s] = k.igu &* cu &+ k.igv &* cv &+ k.igo
            bc[s] = k.ibu &* cu &+ k.ibv &* cv &+ k.ibo
            sr[s] = 0; sg[s] = 0; sb[s] = 0
        }
    }

    /// One line of luma: R′G′B′ of every pixel, the curve, the new luma, the sites' sums.
    @inline(__always)
    func run<Luma: LumaLayout, Curve: ChannelCurve>(_ line: UnsafeMutablePointer<UInt8>, _: Luma.Type,
                                                     _ k: Coefficients, _ curve: Curve) {
        let (r0, r1, g0, g1, b0, b1) = (self.r0, self.r1, self.g0, self.g1, self.b0, self.b1)
        for s in 0..<pairs {
            let m = line + s &* Luma.siteBytes
            let y0 = Int32(m[Luma.first]), y1 = Int32(m[Luma.second])
            r0[s] = k.iry &* y0 &+ rc[s]; g0[s] = k.igy &* y0 &+ gc[s]; b0[s] = k.iby &* y0 &+ bc[s]
            r1[s] = k.iry &* y1 &+ rc[s]; g1[s] = k.igy &* y1 &+ gc[s]; b1[s] = k.iby &* y1 &+ bc[s]
        }
        if pairs < sites {
            // An odd width's last site holds one pixel.
            let s = pairs, y0 = Int32(line[s &* Luma.siteBytes &+ Luma.first])
            r0[s] = k.iry &* y0 &+ rc[s]; g0[s] = k.igy &* y0 &+ gc[s]; b0[s] = k.iby &* y0 &+ bc[s]
        }
        for i in 0..<6 &* sites { rgb[i] = curve(rgb[i]) }
        @inline(__always) func luma(_ r: Int32, _ g: Int32, _ b: Int32) -> UInt8 {
            UInt8(clamping: (k.fyr &* r &+ k.fyg &* g &+ k.fyb &* b &+ k.fyo) &>> 16)
        }
        for s in 0..<pairs {
            let m = line + s &* Luma.siteBytes
            m[Luma.first] = luma(r0[s], g0[s], b0[s])
            m[Luma.second] = luma(r1[s], g1[s], b1[s])
            sr[s] &+= r0[s] &+ r1[s]; sg[s] &+= g0[s] &+ g1[s]; sb[s] &+= b0[s] &+ b1[s]
        }
        if pairs < sites {
            let s = pairs
            line[s &* Luma.siteBytes &+ Luma.first] = luma(r0[s], g0[s], b0[s])
            sr[s] &+= r0[s]; sg[s] &+= g0[s]; sb[s] &+= b0[s]
        }
    }

    /// Each site's chroma from the mean of its pixels' new R′G′B′ (`lines` × 2 pixels, one
    /// column at an odd right edge: a mean of 1, 2 or 4, a shift).
    @inline(__always)
    func writeChroma(u: UnsafeMutablePointer<UInt8>, v: UnsafeMutablePointer<UInt8>, step: Int, lines: Int, _ k: Coefficients) {
        @inline(__always) func site(_ s: Int, shift: Int32) {
            let half = Int32(1) &<< (shift &- 1)
            u[s &* step] = UInt8(clamping: 128 &+ ((k.fur &* sr[s] &+ k.fug &* sg[s] &+ k.fub &* sb[s] &+ half) &>> shift))
            v[s &* step] = UInt8(clamping: 128 &+ ((k.fvr &* sr[s] &+ k.fvg &* sg[s] &+ k.fvb &* sb[s] &+ half) &>> shift))
        }
        let shift: Int32 = lines == 2 ? 18 : 17
        for s in 0..<pairs { site(s, shift: shift) }
        if pairs < sites { site(pairs, shift: shift &- 1) }
    }
}
