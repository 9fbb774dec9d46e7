/// The per-pixel kernels of the `lut` filter on RGB frames.

/// The look computed per pixel (`CubeKernel`, `CurvesKernel`), alpha kept.
struct DirectLookKernel<Order: ChannelOrder, Look: RGBLook>: PixelKernel {
    let look: Look

    @inline(__always)
    func map(_ p: UInt32) -> UInt32 {
        let o = look.look(Order.red(p), Order.green(p), Order.blue(p))
        return Order.pack(Int32(o & 0xFF), Int32((o &>> 8) & 0xFF), Int32(o &>> 16), keeping: p)
    }
}

/// The look read from its table (`LookTable`, built for the frame's byte order, in blocks).
struct TableLookKernel: PixelKernel {
    let entries: UnsafePointer<UInt32>

    @inline(__always)
    func map(_ p: UInt32) -> UInt32 {
        (p & alphaMask) | entries[Int(LookTable.position(p))]
    }

    /// The whole pass, each row in two loops: the row's table positions first (shifts and
    /// masks, vectorized), then one load per pixel. In one loop the position's arithmetic
    /// sits between the loads and fewer of them are in flight at once; a photo's lookups
    /// mostly miss the cache, so how many wait together sets the speed.
    func runTwoLoops(_ pass: FramePass) {
        let source = pass.source, destination = pass.destination, width = pass.width
        RowSplitter.shared.run(rows: pass.height, columns: width) { rows in
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: width) { scratch in
                let positions = scratch.baseAddress!
                for y in rows {
                    let input = source.row(y), output = destination.row(y)
                    for x in 0..<width { positions[x] = LookTable.position(input[x]) }
                    for x in 0..<width { output[x] = (input[x] & alphaMask) | entries[Int(positions[x])] }
                }
            }
        }
    }
}

/// A kernel's result mixed with the original by `LookMix`.
struct MixedLookKernel<Inner: PixelKernel>: PixelKernel {
    let inner: Inner
    let mix: LookMix

    @inline(__always)
    func map(_ p: UInt32) -> UInt32 {
        let t = inner.map(p)
        @inline(__always) func channel(_ shift: UInt32) -> UInt32 {
            let c = Int32(bitPattern: (p &>> shift) & 0xFF), l = Int32(bitPattern: (t &>> shift) & 0xFF)
            return UInt32(bitPattern: mix.mix(c, l)) &<< shift
        }
        return (p & alphaMask) | channel(0) | channel(8) | channel(16)
    }
}

/// `intensity` in 1024ths: each channel becomes `(c (1024 − K) + t K + 512) >> 10`.
struct LookMix {
    let take: Int32
    let keep: Int32

    init(_ intensity: Double) {
        take = Int32((min(max(intensity, 0), 1) * 1024).rounded())
        keep = 1024 - take
    }

    @inline(__always)
    func mix(_ original: Int32, _ looked: Int32) -> Int32 {
        (original &* keep &+ looked &* take &+ 512) &>> 10
    }

    /// Runs `kernel` over the pass, mixed unless the look is taken whole.
    func run<K: PixelKernel>(_ kernel: K, _ pass: FramePass) {
        if take == 1024 {
            kernel.run(pass)
        } else {
            MixedLookKernel(inner: kernel, mix: self).run(pass)
        }
    }

    /// The table's kernel over the pass: taken whole, in its own two loops per row.
    func run(_ kernel: TableLookKernel, _ pass: FramePass) {
        if take == 1024 {
            kernel.runTwoLoops(pass)
        } else {
            MixedLookKernel(inner: kernel, mix: self).run(pass)
        }
    }
}
