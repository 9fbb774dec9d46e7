import FilterCore
import Synchronization

/// The detector for the current cascade path, loaded once per path (parsing the stock
/// cascade takes tens of milliseconds, so never per frame). A path that failed is not
/// retried until `reset()` (the element starting again) or another path is set, and
/// its failure is reported once through `onError`; so is the first error while detecting.
final class FaceDetectorCache: Sendable {
    private struct Entry {
        var path: String
        var detector: FaceDetector?
    }

    private let entry = Locked<Entry?>(nil)
    private let detectionFailed = Locked(false)
    private let onError: @Sendable (String) -> Void

    /// `onError` gets a message for the user (a cascade error names the path).
    init(onError: @escaping @Sendable (String) -> Void) {
        self.onError = onError
    }

    /// The detector for `path`, loading it if needed (outside the lock: a frame that only
    /// needs the cached detector never waits for a load); nil if the cascade is unusable.
    func detector(for path: String) -> FaceDetector? {
        if let hit = entry.withLock({ e -> Entry? in e?.path == path ? e : nil }) { return hit.detector }
        var loaded: FaceDetector?
        var failure: FaceCascadeError?
        do { loaded = try FaceDetector(cascadePath: path) } catch let e as FaceCascadeError { failure = e } catch {
            failure = FaceCascadeError(path: path, description: "face cascade '\(path)': \(error)")
        }
        let stored = entry.withLock { e -> Bool in
            if e?.path == path { return false }   // another thread got there first
            e = Entry(path: path, detector: loaded)
            return true
        }
        if stored, let failure { onError("\(failure.description); face detection is off") }
        return stored ? loaded : entry.withLock { $0?.path == path ? $0?.detector : loaded }
    }

    /// Candidate faces in `grey` (copied from a `frameWidth`×`frameHeight` frame) in frame
    /// pixels, with the detector for `cascadePath`; [] when there is none or detection fails.
    func faces(in grey: GreyImage, _ search: FaceSearch, cascadePath: String, frameWidth: Int, frameHeight: Int) -> [DetectedFace] {
        guard let detector = detector(for: cascadePath) else { return [] }
        do {
            return try search.run(detector, on: grey, frameWidth: frameWidth, frameHeight: frameHeight)
        } catch {
            let first = detectionFailed.withLock { f -> Bool in defer { f = true }; return !f }
            if first { onError("\(error); face detection skipped") }
            return []
        }
    }

    /// Forgets the loaded detector and any failure (the file may have been fixed).
    func reset() {
        entry.withLock { $0 = nil }
        detectionFailed.withLock { $0 = false }
    }
}
