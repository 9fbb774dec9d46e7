/// Work handed from any thread to one consumer thread, in order, with a policy for when
/// too much waits. The project's one hand-over between threads: the frame worker's frames
/// and events (`FrameMailbox`), the face worker's grey copies, the snapshot writer's stills
/// and the camera source's fallback.
///
/// The queue owns its consumer's thread: `start(thread:consumer:)` opens it, the thread
/// starts with the first item accepted and runs `consumer`, which takes items with `next()`
/// (and says `done()` for each) until `next()` returns nil; `stop()` drops what waits and
/// joins the thread, so no thread outlives its owner's run. `close()` is stop's first half,
/// for owners whose consumer must first be unblocked by something else (an appsrc that
/// stops) before it can be joined.
///
/// Every item the queue lets go of without handing it out (dropped by `clear`, a flush or a
/// stop, or refused) goes to `release`, exactly once; an item dropped as the oldest is
/// handed back to the caller of `put` instead, to be reported.
public final class WorkQueue<Item: Sendable>: Sendable {
    public typealias Policy = WorkQueuePolicy

    /// What `put` did: whether the item was queued, and the oldest item it replaced (owned
    /// by the caller now).
    public struct Put {
        public let accepted: Bool
        public let dropped: Item?
    }

    private struct State {
        var items: [Item] = []
        var open = false
        var flushing = false
        /// Bumped by every `clear`, flush and stop: an item taken before one is stale.
        var generation = 0
        var dropped: UInt64 = 0
        /// Items taken by the consumer and not yet `done`.
        var inProgress = 0
        var threadName = ""
        var consumer: (@Sendable () -> Void)?
        var thread: JoinableThread?
        /// Called (once a run, outside the lock) when the consumer's thread cannot be made.
        var threadFailure: (@Sendable (String) -> Void)?

        var accepting: Bool { open && !flushing }
    }

    private let state = Locked(State())
    /// The policy of `put` when it names none.
    public let policy: Policy
    /// Whether an item is bounded by the policy (items that are not never wait, are never
    /// dropped and never refused for room: a frame worker's events).
    private let counts: @Sendable (Item) -> Bool
    private let release: @Sendable (Item) -> Void

    public init(policy: Policy, counts: @escaping @Sendable (Item) -> Bool = { _ in true },
                release: @escaping @Sendable (Item) -> Void = { _ in }) {
        self.policy = policy
        self.counts = counts
        self.release = release
    }

    /// Items dropped as the oldest since `start` (any thread).
    public var droppedCount: UInt64 { state.withLock { $0.dropped } }

    /// Items the policy bounds that wait behind the ones already taken.
    public var waiting: Int { state.withLock { s in waitingCount(s) } }

    private func waitingCount(_ s: State) -> Int {
        s.items.reduce(0) { n, item in counts(item) ? n + 1 : n }
    }

    // MARK: Runs

    /// Opens the queue for a new run (a run not stopped is stopped first). `consumer` runs
    /// on a thread named `thread` (at most 15 bytes show), started with the first item
    /// accepted; without one, the owner takes items itself. When that thread cannot be
    /// made (a thread limit), the queue closes (what waits, and every later item, is
    /// refused: a producer waiting for room never waits for good) and `threadFailure` gets
    /// the reason, once.
    public func start(thread name: String = "fc-queue", consumer: (@Sendable () -> Void)? = nil,
                      threadFailure: (@Sendable (String) -> Void)? = nil) {
        stop()
        state.withLockAndWake { s in
            s.open = true
            s.flushing = false
            s.dropped = 0
            s.inProgress = 0
            s.threadName = name
            s.consumer = consumer
            s.threadFailure = threadFailure
        }
    }

    /// Stops taking items, drops (releases) what waits and wakes everyone: the consumer's
    /// `next()` returns nil, a `put` waiting for room returns refused.
    public func close() {
        let old = state.withLockAndWake { s -> [Item] in
            s.open = false
            s.consumer = nil   // it may hold the owner: no cycle outlives the run
            s.threadFailure = nil
            return dropWaiting(&s)
        }
        old.forEach(release)
    }

    /// `close()`, then waits until the consumer's thread has ended (not from that thread).
    public func stop() {
        close()
        let thread = state.withLock { s -> JoinableThread? in
            defer { s.thread = nil }
            return s.thread
        }
        thread?.join()   // outside the lock: the consumer takes it on its way out
    }

    /// FLUSH_START (true): drops what waits, refuses new items and makes items taken before
    /// stale (`isCurrent`); FLUSH_STOP (false): takes items again.
    public func setFlushing(_ on: Bool) {
        let old = state.withLockAndWake { s -> [Item] in
            s.flushing = on
            return on ? dropWaiting(&s) : []
        }
        old.forEach(release)
    }

    /// Drops what waits and makes items taken before stale, taking new items at once.
    public func clear() {
        let old = state.withLockAndWake { s in dropWaiting(&s) }
        old.forEach(release)
    }

    private func dropWaiting(_ s: inout State) -> [Item] {
        s.generation += 1
        defer { s.items.removeAll() }
        return s.items
    }

    // MARK: Producers

    /// Adds `item` (taking ownership) under `policy` (the queue's own by default); see
    /// `Policy.WhenFull`. A refused item (closed, flushing, no room, or a flush or stop
    /// while it waited for room) is released.
    /// `waitingAtMost` (seconds, with `.wait`): past it with still no room, the oldest
    /// waiting item makes room, as with `.dropOldest`.
    @discardableResult
    public func put(_ item: Item, policy: Policy? = nil, waitingAtMost timeout: Double? = nil) -> Put {
        let policy = policy ?? self.policy
        let bounded = counts(item)
        let waitsForRoom = bounded && policy.whenFull == .wait
        // A flush while this item waited for room makes it stale, even when it is over.
        let entry = state.withLock { $0.generation }
        var failure: (@Sendable (String) -> Void, String)?
        let add = { (s: inout State, dropsOldest: Bool) -> (Bool, Item?) in
            guard s.accepting, s.generation == entry else { return (false, nil) }
            var dropped: Item?
            if bounded && self.waitingCount(s) >= policy.limit {
                guard dropsOldest, let oldest = s.items.firstIndex(where: self.counts) else {
                    return (false, nil)
                }
                dropped = s.items.remove(at: oldest)
                s.dropped += 1
            }
            if s.thread == nil, let consumer = s.consumer {
                // Started under the lock, which the consumer takes only once this returns.
                s.thread = JoinableThread(name: s.threadName, consumer)
                if s.thread == nil {
                    failure = s.threadFailure.map { said in (said, JoinableThread.whyNotStarted) }
                    s.open = false
                    s.consumer = nil
                    s.threadFailure = nil
                    return (false, dropped)
                }
            }
            s.items.append(item)
            return (true, dropped)
        }
        let (accepted, dropped) = state.wait(until: { s in
            !waitsForRoom || !s.accepting || s.generation != entry || self.waitingCount(s) < policy.limit
        }, timeout: waitsForRoom ? timeout : nil) { s in add(&s, policy.whenFull == .dropOldest) }
            ?? state.withLock { s in add(&s, true) }   // waited long enough: the oldest goes
        if accepted { wake() } else { release(item) }
        if let (say, why) = failure { say(why) }
        return Put(accepted: accepted, dropped: dropped)
    }

    // MARK: The consumer

    /// The next item and the generation it belongs to, waiting for one when `waiting`;
    /// nil once the queue is closed (or, not waiting, when none waits). The item is in
    /// progress until `done()`.
    public func next(waiting: Bool = true) -> (item: Item, generation: Int)? {
        let taken = state.wait(until: { s in !s.items.isEmpty || !s.open || !waiting }) { s -> (Item, Int)? in
            guard s.open, !s.items.isEmpty else { return nil }
            s.inProgress += 1
            return (s.items.removeFirst(), s.generation)
        }!
        if taken != nil { wake() }   // a producer waiting for room may go on
        return taken
    }

    /// The consumer has finished with an item `next()` gave it.
    public func done() {
        state.withLockAndWake { $0.inProgress -= 1 }
    }

    /// Whether an item taken in `generation` is still wanted (no flush, clear or stop since).
    public func isCurrent(_ generation: Int) -> Bool {
        state.withLock { generation == $0.generation && $0.open }
    }

    /// Waits until nothing waits and the consumer is done with what it took, at most
    /// `timeout` seconds; false when the time ran out.
    public func waitUntilIdle(timeout: Double) -> Bool {
        state.wait(until: { $0.items.isEmpty && $0.inProgress == 0 }, timeout: timeout) { _ in true } ?? false
    }

    private func wake() {
        state.withLockAndWake { _ in }
    }
}

/// What happens when `limit` items wait and another one comes.
public struct WorkQueuePolicy: Sendable, Equatable {
    public enum WhenFull: Sendable, Equatable {
        /// The oldest waiting item makes room (counted in `droppedCount`).
        case dropOldest
        /// The new item is refused.
        case refuse
        /// The caller waits for room (or for a flush or stop, which refuses it).
        case wait
    }
    public let limit: Int
    public let whenFull: WhenFull

    public init(limit: Int, whenFull: WhenFull) {
        precondition(limit > 0, "a queue holds at least one item")
        self.limit = limit
        self.whenFull = whenFull
    }

    /// One item waits; a newer one replaces it (a mailbox).
    public static let newestWins = WorkQueuePolicy(limit: 1, whenFull: .dropOldest)

    /// Up to `limit` items wait in order.
    public static func fifo(limit: Int, whenFull: WhenFull) -> WorkQueuePolicy {
        WorkQueuePolicy(limit: limit, whenFull: whenFull)
    }
}
