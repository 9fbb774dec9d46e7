import CPixelGather

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

/// The look read from its table (`LookTable`, built for the frame's byte order).
struct TableLookKernel: PixelKernel {
    let entries: LookEntries

    @inline(__always)
    func map(_ p: UInt32) -> UInt32 {
        (p & alphaMask) | entries[colour: p]
    }

    /// The whole pass through the table, mixed by `mix`: eight pixels per gather
    /// (`fc_table_lookup8`), rows in bands shared out between the cores as they come free.
    /// A photo's lookups mostly miss the core's caches, so what counts is how many are in
    /// flight at once: a mixed look gathers a run of pixels first and mixes the run after
    /// (mixing each eight right after their gather left the gathers waiting one at a time:
    /// 24 ms a 1080p photo frame, against 7 ms taken whole).
    func lookUp(_ pass: FramePass, mix: LookMix = LookMix(1)) {
        let source = pass.source, destination = pass.destination, width = pass.width
        let inPlace = pass.inPlace
        RowSplitter.shared.run(rows: pass.height, columns: width, bandsOf: 16) { rows in
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: Self.run) { scratch in
                let looked = scratch.baseAddress!
                for y in rows {
                    let input = source.row(y), output = destination.row(y)
                    guard mix.take != 1024 else {
                        lookUp(input, output, count: width)
                        continue
                    }
                    for start in stride(from: 0, to: width, by: Self.run) {
                        let count = min(Self.run, width - start), from = input + start, to = output + start
                        lookUp(from, looked, count: count)
                        if inPlace {   // one pointer into the frame, so that the loop vectorizes
                            for x in 0..<count { to[x] = mix.blend(to[x], looked[x]) }
                        } else {
                            for x in 0..<count { to[x] = mix.blend(from[x], looked[x]) }
                        }
                    }
                }
            }
        }
    }

    /// Pixels gathered and mixed at a time by a mixed look.
    private static let run = 256

    /// `count` pixels through the table, eight per gather.
    @inline(__always)
    private func lookUp(_ input: UnsafeMutablePointer<UInt32>, _ output: UnsafeMutablePointer<UInt32>, count: Int) {
        let eights = count & ~7
        for x in stride(from: 0, to: eights, by: 8) {
            fc_table_lookup8(input + x, output + x, entries.bytes)
        }
        for x in eights..<count {
            output[x] = map(input[x])
        }
    }
}

/// A kernel's result mixed with the original by `LookMix`.
struct MixedLookKernel<Inner: PixelKernel>: PixelKernel {
    let inner: Inner
    let mix: LookMix

    @inline(__always)
    func map(_ p: UInt32) -> UInt32 {
        mix.blend(p, inner.map(p))
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

    /// Pixel `p` mixed with its looked colour `t`, channel by channel; `p`'s alpha kept.
    @inline(__always)
    func blend(_ p: UInt32, _ t: UInt32) -> UInt32 {
        @inline(__always) func channel(_ shift: UInt32) -> UInt32 {
            let c = Int32(bitPattern: (p &>> shift) & 0xFF), l = Int32(bitPattern: (t &>> shift) & 0xFF)
            return UInt32(bitPattern: mix(c, l)) &<< shift
        }
        return (p & alphaMask) | channel(0) | channel(8) | channel(16)
    }

    /// Runs `kernel` over the pass, mixed unless the look is taken whole.
    func run<K: PixelKernel>(_ kernel: K, _ pass: FramePass) {
        if take == 1024 {
            kernel.run(pass)
        } else {
            MixedLookKernel(inner: kernel, mix: self).run(pass)
        }
    }

    /// The table's lookups, eight at a time.
    func run(_ kernel: TableLookKernel, _ pass: FramePass) {
        kernel.lookUp(pass, mix: self)
    }
}
