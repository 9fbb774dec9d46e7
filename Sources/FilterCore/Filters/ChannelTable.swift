/// A 256-entry table applied to R, G and B alike, the same for every channel order: for
/// curves that arithmetic cannot follow cheaply (exposure's sRGB decode and encode).
/// Lookups do not vectorize (no gathers): ~200–300 fps at 1080p on one core, a third of
/// a colour matrix.
final class ChannelTable {
    let table: UnsafeMutablePointer<UInt8>

    init(_ f: (Int) -> UInt8) {
        table = .allocate(capacity: 256)
        for v in 0..<256 { table[v] = f(v) }
    }

    deinit { table.deallocate() }

    func run(_ pass: FramePass) {
        TableKernel(table: table).run(pass)
    }
}

struct TableKernel: PixelKernel {
    let table: UnsafeMutablePointer<UInt8>

    @inline(__always)
    func map(_ p: UInt32) -> UInt32 {
        let c0 = UInt32(table[Int(p & 0xFF)])
        let c1 = UInt32(table[Int((p &>> 8) & 0xFF)])
        let c2 = UInt32(table[Int((p &>> 16) & 0xFF)])
        return (p & alphaMask) | c0 | c1 &<< 8 | c2 &<< 16
    }
}
