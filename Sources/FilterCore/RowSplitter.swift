import FoundationEssentials
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Splits a frame's rows between the calling thread and persistent helper threads, one
/// part per processor of the machine (the caller does the first).
///
/// Starting a thread, or waking one through a condition variable, costs 70–110 µs per
/// frame on these machines: more than a 640×480 filter pass. The helpers therefore spin
/// briefly after each job (a new frame usually follows within microseconds at high
/// rates) and only then park. When the helpers are busy with another caller's job, the
/// caller simply does all rows itself, so callers never wait on each other.
///
/// A helper's part is claimed by whoever gets to it first: when no helper has started it
/// within as long as the caller's own part took (it was parked, or the other cores were
/// busy, e.g. with the video source), the caller does it itself instead of waiting.
/// Waiting for a descheduled helper cost 3 ms on every third 640×480 frame of a live
/// pipeline (0.3 ms otherwise), and the element's latency follows the worst frame.
public final class RowSplitter: Sendable {
    /// One set of helpers for the whole process, as wide as the machine.
    public static let shared = RowSplitter(width: RowSplitter.processors)

    /// Frames with fewer rows × columns than this run on one thread.
    public static let minimumPixelsToSplit = 160 * 120

    /// The processors this process may use (CPU affinity and quota included).
    static var processors: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

    /// Parts a frame is split into: the caller and `width - 1` helpers.
    public let width: Int

    /// The caller's rows and closure, which helpers run while the caller waits in `run`.
    private struct Job: @unchecked Sendable {   // the closure never outlives the `run` that waits for it
        let body: (Range<Int>) -> Void
        let rows: Int, parts: Int

        /// Part `i` of `parts` equal runs of rows.
        static func rows(_ i: Int, of parts: Int, in rows: Int) -> Range<Int> { rows * i / parts..<rows * (i + 1) / parts }
    }

    private let busy = Atomic<Bool>(false)          // a caller owns the helpers
    private let generation = Atomic<Int>(0)         // bumped for each job
    /// The current job's generation and the next part to claim, packed (`claimWord`):
    /// claiming is one compare-and-swap, and a helper late for an earlier job cannot
    /// claim a part of this one.
    private let claims = Atomic<Int>(0)
    private let finished = Atomic<Int>(0)           // parts helpers completed in this job
    private let job = Locked<Job?>(nil)             // set while `busy`
    /// The latest generation, where parked helpers wait for the next one (the generation
    /// itself, not an empty value: ThreadSanitizer reported waits on an empty `Locked` as
    /// unlocked reads).
    private let parking = Locked(0)

    /// FILTERCAM_THREADS=1 keeps every frame on one thread (for measurements).
    private let enabled: Bool = {
        guard let v = getenv("FILTERCAM_THREADS") else { return true }
        return String(cString: v) != "1"
    }()

    init(width: Int) {
        self.width = width
        for _ in 1..<max(width, 1) {
            // Process-lifetime helpers: never joined.
            _ = JoinableThread(name: "fc-row-helper") { [self] in helperLoop() }
        }
    }

    private static let partBits = 16
    private static func claimWord(generation: Int, part: Int) -> Int { generation << partBits | part }

    /// Set on a thread while its work should not be split (`withOneThread`).
    private static let oneThreadKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// Runs `body` with every `run` on this thread kept on this thread when `oneThread`
    /// (a live stream's short frames: splitting would only cost CPU).
    public static func withOneThread<R>(_ oneThread: Bool, _ body: () throws -> R) rethrows -> R {
        guard oneThread else { return try body() }
        let before = pthread_getspecific(oneThreadKey)
        pthread_setspecific(oneThreadKey, UnsafeRawPointer(bitPattern: 1))
        defer { pthread_setspecific(oneThreadKey, before) }
        return try body()
    }

    /// Runs `body` over `0..<rows`, split in up to `width` parts when the frame is large
    /// enough. `body` must be safe to run on several threads over disjoint row ranges.
    public func run(rows: Int, columns: Int, _ body: (Range<Int>) -> Void) {
        run(rows: rows, columns: columns, parts: width, body)
    }

    /// Like `run`, but the rows go in bands of about `bandRows`, each claimed by whichever
    /// thread is free, so the threads finish together when the work varies down the frame
    /// (a photo's colours through a look's table: its bottom half took 1.3× the top half's
    /// time, and the core with the lighter half waited), and a helper the system has not
    /// run yet holds up one band at most. `body` gets one band at a time when the frame is
    /// split, all rows at once otherwise.
    public func run(rows: Int, columns: Int, bandsOf bandRows: Int, _ body: (Range<Int>) -> Void) {
        run(rows: rows, columns: columns, parts: max(1, rows / max(bandRows, 1)), body)
    }

    private func run(rows: Int, columns: Int, parts: Int, _ body: (Range<Int>) -> Void) {
        let count = min(parts, rows, 1 << Self.partBits - 1)
        guard enabled, width >= 2, count >= 2, rows * columns >= RowSplitter.minimumPixelsToSplit,
              pthread_getspecific(Self.oneThreadKey) == nil,
              busy.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged
        else {
            body(0..<rows)
            return
        }
        withoutActuallyEscaping(body) { escapable in
            job.withLock { $0 = Job(body: escapable, rows: rows, parts: count) }
            finished.store(0, ordering: .relaxed)
            let myGeneration = generation.load(ordering: .relaxed) + 1
            claims.store(Self.claimWord(generation: myGeneration, part: 1), ordering: .releasing)
            generation.store(myGeneration, ordering: .releasing)
            parking.withLockAndWake { $0 = myGeneration }   // parked helpers go on
            let started = MonotonicClock.nanoseconds
            escapable(Job.rows(0, of: count, in: rows))
            // Give the helpers as long as our part took to start theirs (a parked helper
            // takes ~0.1 ms to wake); after that, do the rest here. The frame then never
            // takes longer than on one thread, however late the helpers are.
            let deadline = MonotonicClock.nanoseconds &+ (MonotonicClock.nanoseconds &- started)
            while claims.load(ordering: .acquiring) != Self.claimWord(generation: myGeneration, part: count)
                    && MonotonicClock.nanoseconds < deadline {
                spinPause()
            }
            var mine = 0
            while let part = claim(myGeneration, of: count) {
                escapable(Job.rows(part, of: count, in: rows))
                mine += 1
            }
            // The helpers' parts still running: spin as long as one of ours took, then sleep
            // in short steps, so that a helper the system paused mid-part (a loaded machine)
            // can have this core. Spinning there was 17 % of the element's CPU on a 1080p
            // photo through a look at load 6.
            let now = MonotonicClock.nanoseconds
            let spinUntil = now &+ (now &- started) / UInt64(mine + 1)
            while finished.load(ordering: .acquiring) != count - 1 - mine {
                if MonotonicClock.nanoseconds < spinUntil { spinPause() } else { usleep(20) }
            }
            job.withLock { $0 = nil }
        }
        busy.store(false, ordering: .releasing)
    }

    /// Claims the next unclaimed part of the job of `generation`; nil when none is left.
    private func claim(_ generation: Int, of count: Int) -> Int? {
        var word = claims.load(ordering: .acquiring)
        while word >> Self.partBits == generation {
            let part = word & (1 << Self.partBits - 1)
            guard part < count else { return nil }
            let (exchanged, original) = claims.compareExchange(expected: word, desired: word + 1, ordering: .acquiringAndReleasing)
            if exchanged { return part }
            word = original
        }
        return nil
    }

    /// How long a helper spins for the next job before it parks. The planes of one
    /// frame follow each other within microseconds, and so do frames at benchmark rates;
    /// a live camera's next frame comes 33 ms later, and spinning for it cost 1.5 ms of CPU
    /// per frame (20,000 spins of a contended load; sepia at 720p30 took 1.5× the CPU of
    /// one thread).
    static let spinNanoseconds: UInt64 = 50_000

    private func helperLoop() {
        var seen = 0
        while true {
            var spins = 0
            var parkAt: UInt64 = 0
            while generation.load(ordering: .acquiring) == seen {
                spins &+= 1
                if spins & 255 != 0 {
                    spinPause()
                    continue
                }
                if parkAt == 0 { parkAt = MonotonicClock.nanoseconds &+ Self.spinNanoseconds }
                if MonotonicClock.nanoseconds < parkAt { continue }
                parking.wait(until: { $0 != seen }) { _ in }
            }
            seen = generation.load(ordering: .acquiring)
            guard let width = job.withLock({ $0?.parts }) else { continue }
            while let part = claim(seen, of: width) {
                runPart(part)
                finished.add(1, ordering: .releasing)
            }
        }
    }

    /// Runs a claimed part of the current job (the caller waits for it, so the job is still
    /// set). A function of its own: its copy of the caller's closure is gone when it returns,
    /// before the part is reported finished and the caller's `withoutActuallyEscaping` ends.
    @inline(never)
    private func runPart(_ part: Int) {
        let current = job.withLock { $0 }!
        current.body(Job.rows(part, of: current.parts, in: current.rows))
    }

    /// A busy-wait step; kept as a function so a CPU pause hint can go here.
    @inline(__always)
    private func spinPause() {}
}
