#if canImport(Glibc)
import Glibc
#endif

/// Memory for pixels or colour tables, owned by Swift and freed with its last reference:
/// the storage of `PixelBuffer`, `YUVBuffer`, look tables and look kernels.
///
/// It is filled by one thread and then handed over (a still from the frame worker to the
/// snapshot writer, and back to be used again) or only read (a look's table, read by
/// every frame), which the compiler cannot see through a raw pointer.
public final class PixelMemory: @unchecked Sendable {   // filled by one thread, then handed over or only read
    public let base: UnsafeMutableRawPointer
    /// The whole mapping, for memory from `init(hugePages:)`.
    private let mapping: (start: UnsafeMutableRawPointer, length: Int)?

    /// `byteCount` bytes aligned for vector loads; `zeroed: false` leaves them undefined.
    public init(byteCount: Int, alignment: Int = 64, zeroed: Bool) {
        base = .allocate(byteCount: max(byteCount, 4), alignment: alignment)
        if zeroed { base.initializeMemory(as: UInt8.self, repeating: 0, count: byteCount) }
        mapping = nil
    }

    /// `byteCount` bytes mapped in 2 MB pages where the kernel gives them (`MADV_HUGEPAGE`),
    /// for a table whose loads land all over it: they then miss the TLB far less.
    public init(hugePages byteCount: Int) {
        let hugePage = 1 << 21
        let length = byteCount + hugePage   // room to start on a 2 MB boundary
        guard let m = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), m != MAP_FAILED else {
            fatalError("cannot map \(length >> 20) MB")
        }
        mapping = (m, length)
        base = UnsafeMutableRawPointer(bitPattern: (Int(bitPattern: m) + hugePage - 1) & ~(hugePage - 1))!
        _ = madvise(base, byteCount, MADV_HUGEPAGE)
    }

    deinit {
        if let mapping { munmap(mapping.start, mapping.length) } else { base.deallocate() }
    }
}
