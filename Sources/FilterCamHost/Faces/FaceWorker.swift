import FilterCore
import Foundation
import CFaceDetect

/// Live face detection off the video path: the video worker hands over a small grey copy
/// of each output frame and goes on at once; this thread detects on the newest copy
/// (a copy still waiting when a newer one arrives is replaced, like dropped late frames)
/// and publishes the result, which the video worker carries onto every frame until the
/// next one arrives. Every roll searched (`face-orientations`) is searched here, never on
/// the video thread, and the confirmation of faces across analysed frames (`FaceTracker`)
/// happens here too, in the order the copies were analysed.
///
/// The thread runs at a lower priority (nice +10), and while any face worker runs OpenCV
/// works single-threaded (its thread count is process-wide): detection then takes at
/// most one core, at low priority, and on a busy machine it slows down instead of the
/// video (the measurement behind this choice is in docs/faces.md, "Speed and rates").
final class FaceWorker: @unchecked Sendable {
    struct Job {
        let grey: GreyImage
        /// With every requested roll; the worker's `FaceRollSchedule` picks this frame's.
        var search: FaceSearch
        let cascadePath: String
        let confirmPath: String
        let geometry: FaceGeometry
        let confirmNeighbors: Int
        var generation = 0
    }

    struct Result {
        let faces: [DetectedFace]
        let geometry: FaceGeometry
    }

    /// Runs one job (on this worker's thread); returns candidates in the job's frame pixels.
    private let detect: (Job) -> [DetectedFace]
    /// Worker-thread state: confirmation and following across analysed copies.
    private var tracker = FaceTracker(confirmNeighbors: FaceSettings.defaultConfirmNeighbors, confirmFrames: 2)
    private var schedule = FaceRollSchedule()
    private var trackerGeneration = 0
    private let name: String

    /// What the video worker and this thread share, behind one lock.
    private struct Shared {
        var pending: Job?
        var result: Result?
        /// Bumped by `clear()` and `stop()`: a job started before does not publish after.
        var generation = 0
        var thread: JoinableThread?
        var stopping = false
        var busy = false
        var replaced: UInt64 = 0
        var completed: UInt64 = 0
    }
    private let shared = Locked(Shared())

    /// Copies replaced by a newer one before they were analysed, and copies analysed.
    var replaced: UInt64 { shared.withLock { $0.replaced } }
    var completed: UInt64 { shared.withLock { $0.completed } }

    init(name: String, detect: @escaping (Job) -> [DetectedFace]) {
        self.name = name
        self.detect = detect
    }

    /// Queues `job`, replacing one still waiting; starts the thread on first use.
    func submit(_ job: Job) {
        shared.withLockAndWake { s in
            if s.stopping { return }
            if s.pending != nil { s.replaced += 1 }
            var job = job
            job.generation = s.generation
            s.pending = job
            if s.thread == nil {
                s.thread = startThread()
            }
        }
    }

    /// The latest result, if any since the last `clear()`.
    var latest: Result? { shared.withLock { $0.result } }

    /// Drops the result and any waiting job (detection switched off, or a new run).
    func clear() {
        shared.withLock { s in
            s.pending = nil
            s.result = nil
            s.generation += 1
        }
    }

    /// Stops and joins the thread, drops the result; a later `submit` starts a new one.
    func stop() {
        let running = shared.withLockAndWake { s -> JoinableThread? in
            s.stopping = s.thread != nil
            s.pending = nil
            s.result = nil
            s.generation += 1
            return s.thread
        }
        guard let running else { return }
        running.join()   // outside the lock: the thread takes it on its way out
        shared.withLock { s in
            s.thread = nil
            s.stopping = false
        }
    }

    /// A new thread, already started (called under the lock, which it does not take
    /// before `submit` has returned).
    private func startThread() -> JoinableThread {
        JoinableThread(name: name) { [self] in
            _ = cfd_set_current_thread_nice(10)
            Self.liveWorkers(+1)
            loop()
            Self.liveWorkers(-1)
        }
    }

    private static let running = Locked(0)

    /// Counts running face workers; OpenCV is single-threaded while there is one.
    private static func liveWorkers(_ change: Int) {
        running.withLock { n in
            let before = n
            n += change
            if before == 0 && n > 0 { FaceDetector.openCVThreads = 1 }
            if before > 0 && n == 0 { FaceDetector.openCVThreads = -1 }   // OpenCV's default
        }
    }

    private func loop() {
        while true {
            let taken = shared.wait(until: { $0.pending != nil || $0.stopping }) { s -> Job? in
                guard !s.stopping else { return nil }
                defer { s.pending = nil; s.busy = true }
                return s.pending
            }
            guard var job = taken ?? nil else { return }

            if job.generation != trackerGeneration {
                tracker.reset()
                schedule.reset()
                trackerGeneration = job.generation
            }
            tracker.confirmNeighbors = job.confirmNeighbors
            job.search.rolls = schedule.rolls(requested: job.search.rolls, drawn: tracker.trackedRolls)
            let faces = tracker.update(detect(job), in: job.geometry, searched: Set(job.search.rolls))

            shared.withLockAndWake { s in
                s.busy = false
                if job.generation == s.generation {
                    s.result = Result(faces: faces, geometry: job.geometry)
                    s.completed += 1
                }
            }
        }
    }

    /// Waits until no job is waiting or running (for tests; non-live code never waits).
    func waitUntilIdle(timeout: Double = 10) -> Bool {
        shared.wait(until: { $0.pending == nil && !$0.busy }, timeout: timeout) { _ in true } ?? false
    }
}
