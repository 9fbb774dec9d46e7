import FilterCore
import Foundation
import Synchronization
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
/// video (the measurement behind this choice is in the README, "Face detection").
final class FaceWorker: @unchecked Sendable {
    struct Job {
        let grey: GreyImage
        /// With every requested roll; the worker's `FaceRollSchedule` picks this frame's.
        var search: FaceSearch
        let cascadePath: String
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
    private let condition = NSCondition()
    private var pending: Job?
    private var result: Result?
    /// Bumped by `clear()`: a job started before it does not publish after it.
    private var generation = 0
    private var thread: Thread?
    private var stopping = false
    private var busy = false
    private var finished = DispatchSemaphore(value: 0)
    private(set) var replaced: UInt64 = 0
    private(set) var completed: UInt64 = 0

    init(name: String, detect: @escaping (Job) -> [DetectedFace]) {
        self.name = name
        self.detect = detect
    }

    /// Queues `job`, replacing one still waiting; starts the thread on first use.
    func submit(_ job: Job) {
        condition.lock()
        defer { condition.unlock() }
        if stopping { return }
        if pending != nil { replaced += 1 }
        var job = job
        job.generation = generation
        pending = job
        if thread == nil { startThread() }
        condition.signal()
    }

    /// The latest result, if any since the last `clear()`.
    var latest: Result? {
        condition.lock()
        defer { condition.unlock() }
        return result
    }

    /// Drops the result and any waiting job (detection switched off, or a new run).
    func clear() {
        condition.lock()
        pending = nil
        result = nil
        generation += 1
        condition.unlock()
    }

    /// Stops and joins the thread, drops the result; a later `submit` starts a new one.
    func stop() {
        condition.lock()
        let running = thread != nil
        stopping = running
        pending = nil
        result = nil
        generation += 1
        condition.broadcast()
        condition.unlock()
        guard running else { return }
        finished.wait()
        condition.lock()
        thread = nil
        stopping = false
        condition.unlock()
    }

    private func startThread() {
        finished = DispatchSemaphore(value: 0)
        let done = finished
        let t = Thread { [self] in
            _ = cfd_set_current_thread_nice(10)
            Self.liveWorkers(+1)
            loop()
            Self.liveWorkers(-1)
            done.signal()
        }
        t.name = name
        thread = t
        t.start()
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
            condition.lock()
            while pending == nil && !stopping { condition.wait() }
            if stopping {
                condition.unlock()
                return
            }
            var job = pending!
            pending = nil
            busy = true
            condition.unlock()

            if job.generation != trackerGeneration {
                tracker.reset()
                schedule.reset()
                trackerGeneration = job.generation
            }
            tracker.confirmNeighbors = job.confirmNeighbors
            job.search.rolls = schedule.rolls(requested: job.search.rolls, drawn: tracker.trackedRolls)
            let faces = tracker.update(detect(job), in: job.geometry, searched: Set(job.search.rolls))

            condition.lock()
            busy = false
            if job.generation == generation {
                result = Result(faces: faces, geometry: job.geometry)
                completed += 1
            }
            condition.broadcast()
            condition.unlock()
        }
    }

    /// Waits until no job is waiting or running (for tests; non-live code never waits).
    func waitUntilIdle(timeout: Double = 10) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while pending != nil || busy {
            if !condition.wait(until: deadline) { return false }
        }
        return true
    }
}
