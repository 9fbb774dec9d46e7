import CGStreamer

/// A pointer to a GStreamer object or mini object that may cross threads: an element, a
/// pad, an event or a sample handed from a streaming thread to a worker.
///
/// Only for GStreamer's own types: they are built to be shared between threads (atomic
/// reference counts, an object lock of their own), and a mini object handed over with its
/// reference is not touched by the sender again.
struct GstPointer<Pointee>: @unchecked Sendable {   // GStreamer objects are MT-safe; see above
    let pointer: UnsafeMutablePointer<Pointee>

    init(_ pointer: UnsafeMutablePointer<Pointee>) {
        self.pointer = pointer
    }
}
