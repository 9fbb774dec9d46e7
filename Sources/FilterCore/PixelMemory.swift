/// Pixel memory owned by Swift, freed with its last reference: the storage of
/// `PixelBuffer` and `YUVBuffer`.
///
/// A buffer is handed from thread to thread (a still from the frame worker to the
/// snapshot writer, and back to be used again) and written by one thread at a time,
/// which the compiler cannot see through a raw pointer.
public final class PixelMemory: @unchecked Sendable {   // handed over, never written by two threads at once
    public let base: UnsafeMutableRawPointer

    /// `byteCount` bytes aligned for vector loads; `zeroed: false` leaves them undefined.
    public init(byteCount: Int, alignment: Int = 64, zeroed: Bool) {
        base = .allocate(byteCount: max(byteCount, 4), alignment: alignment)
        if zeroed { base.initializeMemory(as: UInt8.self, repeating: 0, count: byteCount) }
    }

    deinit { base.deallocate() }
}
