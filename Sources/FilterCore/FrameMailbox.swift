/// The hand-over between the thread that receives frames (GStreamer's streaming thread)
/// and the worker that processes them.
///
/// It holds serialized events in stream order and at most one waiting frame. With a
/// live upstream a new frame replaces a waiting one, which counts as dropped (the
/// newest frame wins, as AVFoundation's `alwaysDiscardsLateVideoFrames`); with a
/// non-live upstream the receiving thread waits instead, so a file loses nothing.
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

        var holdsFrame: Bool { items.contains { if case .frame = $0 { return true }; return false } }
    }

    private let state = Locked(State())
    private let release: (Item) -> Void

    public init(release: @escaping (Item) -> Void) {
        self.release = release
    }

    /// Frames replaced by a newer one since `start` (read from any thread).
    public var droppedCount: UInt64 { state.withLock { $0.dropped } }

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

    /// Adds a frame (takes ownership). Live: replaces a waiting frame, which is handed
    /// back (owned) so the caller can report it. Non-live: waits until no frame is waiting.
    /// `accepted` is false when the frame was refused (flushing, stopped); it is released.
    @discardableResult
    public func put(frame: Frame, live: Bool) -> (accepted: Bool, replaced: Frame?) {
        // A flush while this frame waited makes it stale, even if the flush is already over.
        let entryGeneration = state.withLock { $0.generation }
        let (accepted, replaced) = state.wait(until: { s in live || s.flushing || s.stopped || !s.holdsFrame }) { s -> (Bool, [Item]) in
            var replaced: [Item] = []
            if live {
                s.items.removeAll { item in
                    if case .frame = item { replaced.append(item); return true }
                    return false
                }
                s.dropped += UInt64(replaced.count)
            }
            let accepted = !s.flushing && !s.stopped && s.generation == entryGeneration
            if accepted { s.items.append(.frame(frame)) }
            return (accepted, replaced)
        }!
        if accepted { wake() } else { release(.frame(frame)) }
        // Live puts replace at most the one waiting frame.
        var handedBack: Frame?
        for item in replaced {
            if case .frame(let old) = item, handedBack == nil { handedBack = old } else { release(item) }
        }
        return (accepted, handedBack)
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
