import CGStreamer
import Foundation

/// The hand-over between GStreamer's streaming thread and the Swift worker.
///
/// It holds serialized events in stream order and at most one waiting frame. With a
/// live upstream a new frame replaces a waiting one, which counts as dropped (the
/// newest frame wins, as AVFoundation's `alwaysDiscardsLateVideoFrames`); with a
/// non-live upstream the streaming thread waits instead, so a file loses nothing.
final class FrameMailbox: @unchecked Sendable {
    enum Item {
        case sample(OpaquePointer)                           // GstSample, owned
        case event(UnsafeMutablePointer<GstEvent>)           // owned
        case endOfStream
    }

    private let condition = NSCondition()
    private var items: [Item] = []
    private var flushing = false
    private var stopped = true
    /// Bumped by every flush: a frame taken before a flush is not pushed after it.
    private(set) var generation = 0
    private var dropped: UInt64 = 0

    /// Frames replaced by a newer one since `start` (read from any thread).
    var droppedCount: UInt64 {
        condition.lock()
        defer { condition.unlock() }
        return dropped
    }

    /// Opens the mailbox for a new run (READY → PAUSED).
    func start() {
        condition.lock()
        stopped = false
        flushing = false
        dropped = 0
        condition.unlock()
    }

    /// Closes it: wakes everyone, drops what waits (PAUSED → READY).
    func stop() {
        condition.lock()
        stopped = true
        let old = items
        items.removeAll()
        generation += 1
        condition.broadcast()
        condition.unlock()
        Self.release(old)
    }

    /// FLUSH_START (true) and FLUSH_STOP (false).
    func setFlushing(_ on: Bool) {
        condition.lock()
        flushing = on
        var old: [Item] = []
        if on {
            old = items
            items.removeAll()
            generation += 1
        }
        condition.broadcast()
        condition.unlock()
        Self.release(old)
    }

    /// Adds a frame (takes ownership). Live: replaces a waiting frame, which is handed
    /// back (owned) so the caller can report it. Non-live: waits until no frame is waiting.
    /// `accepted` is false when the frame was refused (flushing).
    @discardableResult
    func put(sample: OpaquePointer, live: Bool) -> (accepted: Bool, replaced: OpaquePointer?) {
        condition.lock()
        // A flush while this frame waited makes it stale, even if the flush is already over.
        let entryGeneration = generation
        var replaced: [Item] = []
        if live {
            items.removeAll { item in
                if case .sample = item { replaced.append(item); return true }
                return false
            }
            dropped += UInt64(replaced.count)
        } else {
            while !flushing && !stopped && items.contains(where: { if case .sample = $0 { return true }; return false }) {
                condition.wait()
            }
        }
        let accepted = !flushing && !stopped && generation == entryGeneration
        if accepted {
            items.append(.sample(sample))
            condition.broadcast()
        }
        condition.unlock()
        if !accepted { gst_sample_unref(sample) }
        // Live puts replace at most the one waiting frame.
        var handedBack: OpaquePointer?
        for item in replaced {
            if case .sample(let old) = item, handedBack == nil { handedBack = old } else { Self.release([item]) }
        }
        return (accepted, handedBack)
    }

    /// Adds an event or EOS in stream order (never waits).
    func put(_ item: Item) {
        condition.lock()
        let accepted = !flushing && !stopped
        if accepted {
            items.append(item)
            condition.broadcast()
        }
        condition.unlock()
        if !accepted { Self.release([item]) }
    }

    /// The next item and the flush generation it belongs to; nil once stopped.
    func next() -> (Item, Int)? {
        condition.lock()
        defer { condition.unlock() }
        while items.isEmpty && !stopped {
            condition.wait()
        }
        if stopped { return nil }
        let item = items.removeFirst()
        condition.broadcast()   // a waiting non-live producer may go on
        return (item, generation)
    }

    /// Whether a frame taken in `generation` may still be pushed.
    func isCurrent(_ generation: Int) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        return generation == self.generation && !stopped
    }

    static func release(_ items: [Item]) {
        for item in items {
            switch item {
            case .sample(let s): gst_sample_unref(s)
            case .event(let e): gst_event_unref(e)
            case .endOfStream: break
            }
        }
    }
}
