import FilterCore
import Glibc

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
final class FaceWorker: Sendable {
    struct Job: Sendable {
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
    private let detect: @Sendable (Job) -> [DetectedFace]
    private let name: String
    /// The copies waiting for analysis: the newest wins.
    private let jobs = WorkQueue<Job>(policy: .newestWins)

    /// What the video worker reads: the latest result of the current generation.
    private struct Published {
        var result: Result?
        /// Bumped by `clear()` and `stop()`: a job submitted before does not publish after.
        var generation = 0
    }
    private let published = Locked(Published())

    init(name: String, detect: @escaping @Sendable (Job) -> [DetectedFace]) {
        self.name = name
        self.detect = detect
    }

    /// A new run: the thread starts with the first job (any earlier run is stopped).
    func start() {
        stop()
        jobs.start(thread: name) { [self] in
            // On Linux the nice value is the calling thread's (PRIO_PROCESS, 0).
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
            Self.liveWorkers(+1)
            loop()
            Self.liveWorkers(-1)
        }
    }

    /// Queues `job`, replacing one still waiting.
    func submit(_ job: Job) {
        var job = job
        job.generation = published.withLock { $0.generation }
        jobs.put(job)
    }

    /// The latest result, if any since the last `clear()`.
    var latest: Result? { published.withLock { $0.result } }

    /// Drops the result and any waiting job (detection switched off, or a new run).
    func clear() {
        jobs.clear()
        published.withLock { p in
            p.result = nil
            p.generation += 1
        }
    }

    /// Stops and joins the thread, drops the result; `start` begins a new run.
    func stop() {
        clear()
        jobs.stop()
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

    /// The thread's loop; confirmation and following across analysed copies are its own.
    private func loop() {
        var tracker = FaceTracker(confirmNeighbors: FaceSettings.defaultConfirmNeighbors, confirmFrames: 2)
        var schedule = FaceRollSchedule()
        var trackerGeneration = 0
        while let (taken, _) = jobs.next() {
            var job = taken
            if job.generation != trackerGeneration {
                tracker.reset()
                schedule.reset()
                trackerGeneration = job.generation
            }
            tracker.confirmNeighbors = job.confirmNeighbors
            job.search.rolls = schedule.rolls(requested: job.search.rolls, drawn: tracker.trackedRolls)
            let faces = tracker.update(detect(job), in: job.geometry, searched: Set(job.search.rolls))
            published.withLock { p in
                if job.generation == p.generation { p.result = Result(faces: faces, geometry: job.geometry) }
            }
            jobs.done()
        }
    }

    /// Waits until no job is waiting or running (for tests; non-live code never waits).
    func waitUntilIdle(timeout: Double = 10) -> Bool {
        jobs.waitUntilIdle(timeout: timeout)
    }
}
