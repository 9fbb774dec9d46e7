/// The hand-over between the thread that receives frames (GStreamer's streaming thread)
/// and the frame worker: a `WorkQueue` of frames and serialized events, in stream order.
///
/// With a live upstream frames queue up to `maxWaitingFrames`; one more drops the oldest
/// (counted), so a slow worker never blocks a camera and what waits stays bounded.
/// Frames that arrive together but on time (a `videorate` duplicate right behind its
/// original, a decoder's burst) are all kept; whether a waiting frame is already too late
/// to be worth processing is the worker's call when it takes it (`framesWaiting` says
/// whether a newer one is there to take instead). With a non-live upstream the receiving
/// thread waits while a frame waits, so a file loses nothing. Events are never bounded.
///
/// Generic over what a frame and an event are, so it is tested without GStreamer; the
/// host gives it `release`, which frees an item the mailbox drops (flush, stop, refusal).
public final class FrameMailbox<Frame: Sendable, Event: Sendable>: Sendable {
    public enum Item: Sendable {
        case frame(Frame)          // owned
        case event(Event)          // owned
        case endOfStream
    }

    private let queue: WorkQueue<Item>
    /// Live frames that may wait at once (a camera's buffer pool is small: frames held
    /// here are frames it cannot fill).
    public let maxWaitingFrames: Int
    /// A frame from a non-live upstream waits until no other frame does.
    private static var notLive: WorkQueue<Item>.Policy { .fifo(limit: 1, whenFull: .wait) }

    public init(maxWaitingFrames: Int = 3, release: @escaping @Sendable (Item) -> Void) {
        self.maxWaitingFrames = maxWaitingFrames
        queue = WorkQueue(policy: .fifo(limit: maxWaitingFrames, whenFull: .dropOldest),
                          counts: { if case .frame = $0 { true } else { false } }, release: release)
    }

    /// Frames dropped over the bound since `start` (read from any thread).
    public var droppedCount: UInt64 { queue.droppedCount }

    /// Frames waiting behind the items already taken.
    public var framesWaiting: Int { queue.waiting }

    /// Opens the mailbox for a new run (READY → PAUSED); `worker` runs on a thread named
    /// `thread`, started with the first item.
    /// `threadFailure`: the worker's thread cannot be made (the reason); the mailbox is
    /// closed then, and takes no frame.
    public func start(thread: String = "fc-worker", worker: (@Sendable () -> Void)? = nil,
                      threadFailure: (@Sendable (String) -> Void)? = nil) {
        queue.start(thread: thread, consumer: worker, threadFailure: threadFailure)
    }

    /// Closes it: wakes everyone, drops what waits (PAUSED → READY); the worker's `next()`
    /// returns nil.
    public func close() { queue.close() }

    /// Closes it and waits until the worker's thread has ended.
    public func stop() { queue.stop() }

    /// FLUSH_START (true) and FLUSH_STOP (false).
    public func setFlushing(_ on: Bool) { queue.setFlushing(on) }

    /// Adds a frame (takes ownership). Live: queues it; when more than `maxWaitingFrames`
    /// (or `burst`, when larger) would wait, the oldest waiting frame is dropped and handed
    /// back (owned) so the caller can report it. Non-live: waits until no frame is waiting.
    /// `accepted` is false when the frame was refused (flushing, stopped); it is released.
    /// `waitAtMost` (live, seconds): the frames waiting are on time and wait for downstream,
    /// not the worker; a full mailbox then waits for room that long (while its oldest frame
    /// stays on time) before it drops one.
    @discardableResult
    public func put(frame: Frame, live: Bool, burst: Int = 0, waitAtMost: Double? = nil) -> (accepted: Bool, dropped: Frame?) {
        let limit = max(burst, maxWaitingFrames)
        let policy: WorkQueue<Item>.Policy? = !live ? Self.notLive
            : waitAtMost != nil ? .fifo(limit: limit, whenFull: .wait)
            : burst > maxWaitingFrames ? .fifo(limit: burst, whenFull: .dropOldest) : nil
        let put = queue.put(.frame(frame), policy: policy, waitingAtMost: live ? waitAtMost : nil)
        guard case .frame(let old)? = put.dropped else { return (put.accepted, nil) }
        return (put.accepted, old)
    }

    /// Adds an event or EOS in stream order (never waits).
    public func put(_ item: Item) {
        queue.put(item)
    }

    /// The next item and the flush generation it belongs to; nil once stopped.
    public func next() -> (Item, Int)? {
        guard let (item, generation) = queue.next() else { return nil }
        queue.done()   // nothing waits for the worker to be idle
        return (item, generation)
    }

    /// Whether a frame taken in `generation` may still be pushed.
    public func isCurrent(_ generation: Int) -> Bool {
        queue.isCurrent(generation)
    }
}
