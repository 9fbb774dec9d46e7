#if canImport(Glibc)
import Glibc
#endif

/// A look's result for every 8-bit colour: 2²⁴ entries of 32 bits (64 MB), one for each
/// colour as its three bytes lie in memory (`pixel & 0xFFFFFF`), each entry the looked
/// colour in the same byte order. One load per pixel instead of the tetrahedral
/// interpolation; built once per look and colour space (`LookTables`).
///
/// Lookups do not vectorize, and a photo's colours touch megabytes of the table: the
/// memory asks for 2 MB pages (`MADV_HUGEPAGE`), so that those loads do not also miss the
/// TLB (measured on a 1080p photo, one core: 360 frames per CPU second against 255 with
/// 4 KB pages). RGB tables keep nearby colours together (`Layout.inBlocks`).
final class LookTable: Sendable {
    static let entryCount = 1 << 24

    /// Where a colour's entry lies.
    enum Layout: Sendable {
        /// At the colour's own value (YUV: the Y, U, V bytes).
        case byValue
        /// In blocks of 4×4×4 colours (256 bytes, four cache lines): the two low bits of
        /// each byte pick the entry in its block, the six high bits the block (`position`).
        /// Neighbouring pixels of a photo differ mostly in those low bits, so their entries
        /// share lines; by value, a step of one in the second or third byte is another
        /// line (measured: a 1080p photo's lookups ~10 % faster, `LookTableLayoutTests`).
        case inBlocks
    }

    let layout: Layout
    private let memory = PixelMemory(hugePages: LookTable.entryCount * 4)
    var entries: UnsafeMutablePointer<UInt32> { memory.base.assumingMemoryBound(to: UInt32.self) }

    init(layout: Layout) {
        self.layout = layout
        memory.base.bindMemory(to: UInt32.self, capacity: Self.entryCount)
    }

    /// The entry of `colour` (its low three bytes) in the `inBlocks` layout: bits 0–5 the
    /// low two bits of the first, second and third byte, then each byte's high six bits.
    /// Shifts and masks only, so a row's positions are computed in vector registers.
    @inline(__always)
    static func position(_ colour: UInt32) -> UInt32 {
        let low = colour & 0x03_0303
        let inBlock = (low | low &>> 6 | low &>> 12) & 0x3F
        return (colour &<< 4 & 0xFC0) | (colour &<< 2 & 0x3_F000) | (colour & 0xFC_0000) | inBlock
    }

    /// Fills the entries of the colours whose third byte is `slab` (65 536 of them) with
    /// `entry(colour)`.
    @inline(__always)
    func fill(slab: Int, _ entry: (UInt32) -> UInt32) {
        let first = UInt32(slab) << 16
        switch layout {
        case .byValue:
            for i in 0..<UInt32(65536) { entries[Int(first | i)] = entry(first | i) }
        case .inBlocks:
            for i in 0..<UInt32(65536) { entries[Int(Self.position(first | i))] = entry(first | i) }
        }
    }
}

/// The colour spaces a look's table is built for: the byte order of RGB pixels, or the
/// matrix and range of YUV samples.
enum LookSpace: Hashable, Sendable {
    /// RGBA/RGBx (`redFirst`) or BGRA/BGRx.
    case rgb(redFirst: Bool)
    case yuv(YUVMatrix)

    /// How its table is laid out: YUV samples are looked up one at a time, by value.
    var tableLayout: LookTable.Layout {
        if case .yuv = self { .byValue } else { .inBlocks }
    }
}
