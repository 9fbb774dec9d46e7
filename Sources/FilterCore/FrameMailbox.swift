/// The hand-over between the thread that receives frames (GStreamer's streaming thread)
/// and the worker that processes them.
///
/// It holds serialized events in stream order and the frames waiting for the worker.
/// With a live upstream frames queue up to `maxWaitingFrames`; one more drops the oldest
/// (counted), so a slow worker never blocks a camera and what waits stays bounded.
/// Frames that arrive together but on time (a `videorate` duplicate right behind its
/// original, a decoder's burst) are all kept; whether a waiting frame is already too late
/// to be worth processing is the worker's call when it takes it (`framesWaiting` says
/// whether a newer one is there to take instead). With a non-live upstream the receiving
/// thread waits while a frame waits, so a file loses nothing.
///
/// Generic over what a frame and an event are, so it is tested without GStreamer; the
/// host gives it `release`, which frees an item the mailbox drops (flush, stop, refusal).
public final class FrameMailbox<Frame, Event>: @unchecked Sendable {
    public enum Item {
        case frame(Frame)          // owned
        case event(Event)          // owned
        case endOfStream
    }

    private struct State {
        var items: [Item] = []
        var flushing = false
        var stopped = true
        /// Bumped by every flush and stop: a frame taken before one is not pushed after it.
        var generation = 0
        var dropped: UInt64 = 0

        var frameCount: Int { items.reduce(0) { n, item in if case .frame = item { return n + 1 }; return n } }
        var holdsFrame: Bool { items.contains { if case .frame = $0 { return true }; return false } }
    }

    private let state = Locked(State())
    private let release: (Item) -> Void
    /// Live frames that may wait at once (a camera's buffer pool is small: frames held
    /// here are frames it cannot fill).
    public let maxWaitingFrames: Int

    public init(maxWaitingFrames: Int = 3, release: @escaping (Item) -> Void) {
        precondition(maxWaitingFrames > 0, "a mailbox holds at least one frame")
        self.maxWaitingFrames = maxWaitingFrames
        self.release = release
    }

    /// Frames dropped over the bound since `start` (read from any thread).
    public var droppedCount: UInt64 { state.withLock { $0.dropped } }

    /// Frames waiting behind the items already taken.
    public var framesWaiting: Int { state.withLock { $0.frameCount } }

    /// Opens the mailbox for a new run (READY → PAUSED).
    public func start() {
        state.withLockAndWake { s in
            s.stopped = false
            s.flushing = false
            s.dropped = 0
        }
    }

    /// Closes it: wakes everyone, drops what waits (PAUSED → READY).
    public func stop() {
        let old = state.withLockAndWake { s -> [Item] in
            s.stopped = true
            s.generation += 1
            defer { s.items.removeAll() }
            return s.items
        }
        old.forEach(release)
    }

    /// FLUSH_START (true) and FLUSH_STOP (false).
    public func setFlushing(_ on: Bool) {
        let old = state.withLockAndWake { s -> [Item] in
            s.flushing = on
            guard on else { return [] }
            s.generation += 1
            defer { s.items.removeAll() }
            return s.items
        }
        old.forEach(release)
    }

    /// Adds a frame (takes ownership). Live: queues it; when more than `maxWaitingFrames`
    /// would wait, the oldest waiting frame is dropped and handed back (owned) so the caller
    /// can report it. Non-live: waits until no frame is waiting. `accepted` is false when
    /// the frame was refused (flushing, stopped); it is released.
    @discardableResult
    public func put(frame: Frame, live: Bool) -> (accepted: Bool, dropped: Frame?) {
        // A flush while this frame waited makes it stale, even if the flush is already over.
        let entryGeneration = state.withLock { $0.generation }
        let limit = maxWaitingFrames
        let (accepted, dropped) = state.wait(until: { s in live || s.flushing || s.stopped || !s.holdsFrame }) { s -> (Bool, Item?) in
            let accepted = !s.flushing && !s.stopped && s.generation == entryGeneration
            guard accepted else { return (false, nil) }
            var dropped: Item?
            if live && s.frameCount >= limit, let oldest = s.items.firstIndex(where: { if case .frame = $0 { return true }; return false }) {
                dropped = s.items.remove(at: oldest)
                s.dropped += 1
            }
            s.items.append(.frame(frame))
            return (true, dropped)
        }!
        if accepted { wake() } else { release(.frame(frame)) }
        guard case .frame(let old)? = dropped else { return (accepted, nil) }
        return (accepted, old)
    }

    /// Adds an event or EOS in stream order (never waits).
    public func put(_ item: Item) {
        let accepted = state.withLockAndWake { s -> Bool in
            guard !s.flushing && !s.stopped else { return false }
            s.items.append(item)
            return true
        }
        if !accepted { release(item) }
    }

    /// The next item and the flush generation it belongs to; nil once stopped.
    public func next() -> (Item, Int)? {
        let taken = state.wait(until: { !$0.items.isEmpty || $0.stopped }) { s -> (Item, Int)? in
            s.stopped ? nil : (s.items.removeFirst(), s.generation)
        }!
        wake()   // a waiting non-live producer may go on
        return taken
    }

    /// Whether a frame taken in `generation` may still be pushed.
    public func isCurrent(_ generation: Int) -> Bool {
        state.withLock { generation == $0.generation && !$0.stopped }
    }

    private func wake() {
        state.withLockAndWake { _ in }
    }
}
