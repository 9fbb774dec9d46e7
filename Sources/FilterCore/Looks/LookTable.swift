#if canImport(Glibc)
import Glibc
#endif

/// A look's result for every 8-bit colour: 2²⁴ entries of 32 bits (64 MB), indexed by a
/// pixel's three colour bytes as they lie in memory (`pixel & 0xFFFFFF`), each entry the
/// looked colour in the same byte order. One load per pixel instead of the tetrahedral
/// interpolation; built once per look and colour space (`LookTables`).
///
/// Frames read it eight pixels per AVX2 gather (`TableLookKernel.lookUp`). A photo's colours
/// touch megabytes of the table: the memory asks for 2 MB pages (`MADV_HUGEPAGE`), so that
/// those loads do not also miss the TLB (measured on a 1080p photo, one core: 360 frames per
/// CPU second against 255 with 4 KB pages).
final class LookTable: Sendable {
    static let entryCount = 1 << 24

    private let memory = PixelMemory(hugePages: LookTable.entryCount * 4)
    var entries: UnsafeMutablePointer<UInt32> { memory.base.assumingMemoryBound(to: UInt32.self) }

    init() {
        memory.base.bindMemory(to: UInt32.self, capacity: Self.entryCount)
    }

    /// Fills the entries whose third byte is `slab` (65 536 of them) with `entry(index)`.
    @inline(__always)
    func fill(slab: Int, _ entry: (UInt32) -> UInt32) {
        let first = slab << 16
        for i in 0..<65536 {
            entries[first &+ i] = entry(UInt32(truncatingIfNeeded: first &+ i))
        }
    }
}

/// The colour spaces a look's table is built for: the byte order of RGB pixels, or the
/// matrix and range of YUV samples.
enum LookSpace: Hashable, Sendable {
    /// RGBA/RGBx (`redFirst`) or BGRA/BGRx.
    case rgb(redFirst: Bool)
    case yuv(YUVMatrix)
}
