import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Splits a frame's rows between the calling thread and one persistent helper thread.
///
/// Starting a thread, or waking one through a condition variable, costs 70–110 µs per
/// frame on these machines: more than a 640×480 filter pass. The helper therefore spins
/// briefly after each job (a new frame usually follows within microseconds at high
/// rates) and only then parks. When the helper is busy with another caller's job, the
/// caller simply does all rows itself, so callers never wait on each other.
///
/// The helper's half is claimed by whoever gets to it first: when the helper has not
/// started it within as long as the caller's own half took (it was parked, or the other
/// core was busy, e.g. with the video source), the caller does it itself instead of
/// waiting. Waiting for a descheduled helper cost 3 ms on every third 640×480 frame of a
/// live pipeline (0.3 ms otherwise), and the element's latency follows the worst frame.
public final class RowSplitter: @unchecked Sendable {
    /// One helper for the whole process: the machines have two cores.
    public static let shared = RowSplitter()

    /// Frames with fewer rows × columns than this run on one thread.
    public static let minimumPixelsToSplit = 160 * 120

    private typealias Job = (Range<Int>) -> Void

    private let busy = Atomic<Bool>(false)          // a caller owns the helper
    private let generation = Atomic<Int>(0)         // bumped for each job
    private let finished = Atomic<Int>(0)           // generation the helper has completed
    private let claimed = Atomic<Int>(0)            // generation whose second half someone took
    private var job: Job?                           // valid while `busy`
    private var jobRows: Range<Int> = 0..<0
    private var mutex = pthread_mutex_t()
    private var wake = pthread_cond_t()
    private var parked = false
    private var thread = pthread_t()

    /// FILTERCAM_THREADS=1 keeps every frame on one thread (for measurements).
    private let enabled: Bool = {
        guard let v = getenv("FILTERCAM_THREADS") else { return true }
        return String(cString: v) != "1"
    }()

    private init() {
        pthread_mutex_init(&mutex, nil)
        pthread_cond_init(&wake, nil)
        let me = Unmanaged.passRetained(self).toOpaque()
        pthread_create(&thread, nil, { arg in
            let splitter = Unmanaged<RowSplitter>.fromOpaque(arg!).takeUnretainedValue()
            _ = setThreadName(pthread_self(), "fc-row-helper")   // not its creator's name
            splitter.helperLoop()
            return nil
        }, me)
    }

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

    /// Runs `body` over `0..<rows`, split in two parts when the frame is large enough.
    /// `body` must be safe to run on two threads over disjoint row ranges.
    public func run(rows: Int, columns: Int, _ body: (Range<Int>) -> Void) {
        guard enabled, rows >= 2, rows * columns >= RowSplitter.minimumPixelsToSplit,
              pthread_getspecific(Self.oneThreadKey) == nil,
              busy.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged
        else {
            body(0..<rows)
            return
        }
        let middle = rows / 2
        withoutActuallyEscaping(body) { escapable in
            job = escapable
            jobRows = middle..<rows
            let myGeneration = generation.add(1, ordering: .releasing).newValue
            pthread_mutex_lock(&mutex)
            if parked { pthread_cond_signal(&wake) }
            pthread_mutex_unlock(&mutex)
            let started = Self.nanoseconds()
            escapable(0..<middle)
            // Give the helper as long as our half took to start its half (a parked helper
            // takes ~0.1 ms to wake); after that, do it here. The frame then never takes
            // longer than on one thread, however late the helper is.
            let halfTook = Self.nanoseconds() &- started
            let deadline = Self.nanoseconds() &+ halfTook
            var mine = false
            while claimed.load(ordering: .acquiring) != myGeneration {
                if Self.nanoseconds() >= deadline {
                    mine = claimed.compareExchange(expected: myGeneration - 1, desired: myGeneration,
                                                   ordering: .acquiringAndReleasing).exchanged
                    break
                }
                spinPause()
            }
            if mine {
                escapable(middle..<rows)
            } else {
                while finished.load(ordering: .acquiring) != myGeneration {
                    spinPause()
                }
            }
            job = nil
        }
        busy.store(false, ordering: .releasing)
    }

    /// How long the helper spins for the next job before it parks. The planes of one
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
                if parkAt == 0 { parkAt = Self.nanoseconds() &+ Self.spinNanoseconds }
                if Self.nanoseconds() < parkAt { continue }
                pthread_mutex_lock(&mutex)
                parked = true
                while generation.load(ordering: .acquiring) == seen {
                    pthread_cond_wait(&wake, &mutex)
                }
                parked = false
                pthread_mutex_unlock(&mutex)
            }
            seen = generation.load(ordering: .acquiring)
            if claimed.compareExchange(expected: seen - 1, desired: seen, ordering: .acquiringAndReleasing).exchanged {
                if let job { job(jobRows) }
                finished.store(seen, ordering: .releasing)
            }
        }
    }

    /// A monotonic clock in nanoseconds.
    @inline(__always)
    private static func nanoseconds() -> UInt64 {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return UInt64(t.tv_sec) &* 1_000_000_000 &+ UInt64(t.tv_nsec)
    }

    /// A busy-wait step; kept as a function so a CPU pause hint can go here.
    @inline(__always)
    private func spinPause() {}
}
