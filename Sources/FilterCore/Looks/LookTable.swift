#if canImport(Glibc)
import Glibc
#endif

/// A look's result for every 8-bit colour: 2²⁴ entries of three bytes (48 MB), indexed by a
/// pixel's three colour bytes as they lie in memory (`pixel & 0xFFFFFF`), each entry the
/// looked colour in the same byte order. One load per pixel instead of the tetrahedral
/// interpolation; built once per look and colour space (`LookTables`).
///
/// Frames read it eight pixels per AVX2 gather (`TableLookKernel.lookUp`). A photo's colours
/// touch megabytes of the table, mostly missing the core's own cache, so its size is its
/// speed. Three-byte entries instead of four: a quarter fewer cache lines for the same
/// colours (a 1080p photo on both cores: 1.15× the frames per second). The memory asks for
/// 2 MB pages (`MADV_HUGEPAGE`), so that those loads do not also miss the TLB (measured on a
/// 1080p photo, one core: 360 frames per CPU second against 255 with 4 KB pages).
final class LookTable: Sendable {
    static let entryCount = 1 << 24

    /// One byte more than the entries: each is read as the four bytes from its first.
    private let memory = PixelMemory(hugePages: LookTable.entryCount * LookEntries.stride + 1)
    var entries: LookEntries { LookEntries(memory.base) }

    /// Fills the entries whose third byte is `slab` (65 536 of them) with `entry(index)`.
    /// Only their own bytes: tests build a few slabs of a table.
    @inline(__always)
    func fill(slab: Int, _ entry: (UInt32) -> UInt32) {
        let first = slab << 16
        for i in first..<first &+ 65536 {
            let looked = entry(UInt32(truncatingIfNeeded: i)), at = i &* LookEntries.stride
            memory.base.storeBytes(of: UInt16(truncatingIfNeeded: looked), toByteOffset: at, as: UInt16.self)
            memory.base.storeBytes(of: UInt8(truncatingIfNeeded: looked &>> 16), toByteOffset: at &+ 2, as: UInt8.self)
        }
    }
}

/// A look table's entries (`LookTable`): three bytes each, at three times the colour. The
/// table outlives it (`withExtendedLifetime` around its use).
struct LookEntries: @unchecked Sendable {   // read-only once built
    static let stride = 3

    let base: UnsafeRawPointer

    init(_ base: UnsafeMutableRawPointer) { self.base = UnsafeRawPointer(base) }

    /// The entry of `colour`'s low three bytes.
    @inline(__always)
    subscript(colour colour: UInt32) -> UInt32 {
        base.loadUnaligned(fromByteOffset: Int(colour & 0xFF_FFFF) &* Self.stride, as: UInt32.self) & 0xFF_FFFF
    }

    /// For the C gathers (`pixel_gather.h`).
    var bytes: UnsafePointer<UInt8> { base.assumingMemoryBound(to: UInt8.self) }
}

/// The colour spaces a look's table is built for: the byte order of RGB pixels, or the
/// matrix and range of YUV samples.
enum LookSpace: Hashable, Sendable {
    /// RGBA/RGBx (`redFirst`) or BGRA/BGRx.
    case rgb(redFirst: Bool)
    case yuv(YUVMatrix)
}
