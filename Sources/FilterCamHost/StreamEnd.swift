import Synchronization

/// Whether EOS went through and no frame has come since: a still or a recording asked for
/// then can get no frame, so it is answered at once instead of waiting for the stop. A
/// flushing seek, a frame, or a new run clears it.
final class StreamEnd: Sendable {
    private let ended = Atomic<Bool>(false)

    var hasEnded: Bool { ended.load(ordering: .sequentiallyConsistent) }

    /// EOS went through.
    func mark() { ended.store(true, ordering: .sequentiallyConsistent) }

    /// Frames may come again (cheap when they already do: called with every frame).
    func resume() {
        if ended.load(ordering: .relaxed) { ended.store(false, ordering: .sequentiallyConsistent) }
    }
}
