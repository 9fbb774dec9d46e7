import FilterCore
import Synchronization

/// The detectors for the cascade paths in use (the face cascade and the confirming one),
/// each loaded once (parsing the stock cascade takes tens of milliseconds, so never per
/// frame). A path that failed is not retried until `reset()` (the element starting
/// again), and its failure is reported once through `onError` (the detector's library
/// missing: once for both paths); so is the first error while detecting.
final class FaceDetectorCache: Sendable {
    private let entries = Locked<[String: FaceDetector?]>([:])
    private let detectionFailed = Locked(false)
    private let libraryFailed = Locked(false)
    private let onError: @Sendable (String) -> Void

    /// `onError` gets a message for the user (a cascade error names the path).
    init(onError: @escaping @Sendable (String) -> Void) {
        self.onError = onError
    }

    /// The detector for `path`, loading it if needed (outside the lock: a frame that only
    /// needs the cached detector never waits for a load); nil if the cascade is unusable,
    /// which is reported once, followed by `consequence`.
    func detector(for path: String, consequence: String = "face detection is off") -> FaceDetector? {
        if let hit = entries.withLock({ $0[path] }) { return hit }
        var loaded: FaceDetector?
        var failure: FaceCascadeError?
        do { loaded = try FaceDetector(cascadePath: path) } catch let e as FaceCascadeError { failure = e } catch {
            failure = FaceCascadeError(path: path, description: "face cascade '\(path)': \(error)")
        }
        let kept = entries.withLock { e -> FaceDetector?? in
            if let other = e[path] { return .some(other) }   // another thread got there first
            e[path] = .some(loaded)
            return nil
        }
        if let kept { return kept }
        if let failure, !failure.library || !libraryFailed.withLock({ f in defer { f = true }; return f }) {
            onError("\(failure.description); \(consequence)")
        }
        return loaded
    }

    /// Candidate faces in `grey` (copied from a `frameWidth`×`frameHeight` frame) in frame
    /// pixels, with the detector for `cascadePath` and the confirming one for
    /// `confirmPath` (empty: none); [] when there is no detector or detection fails.
    func faces(in grey: GreyImage, _ search: FaceSearch, cascadePath: String, confirmPath: String,
               frameWidth: Int, frameHeight: Int) -> [DetectedFace] {
        guard let detector = detector(for: cascadePath) else { return [] }
        let confirmer = confirmPath.isEmpty ? nil : self.detector(for: confirmPath, consequence: Self.noConfirmer)
        do {
            return try search.run(detector, confirmer: confirmer, on: grey, frameWidth: frameWidth, frameHeight: frameHeight)
        } catch {
            let first = detectionFailed.setFirst()
            if first { onError("\(error); face detection skipped") }
            return []
        }
    }

    static let noConfirmer = "faces are drawn without the second cascade's look"

    /// Forgets the loaded detectors and any failure (the file may have been fixed).
    func reset() {
        entries.withLock { $0 = [:] }
        detectionFailed.withLock { $0 = false }
        libraryFailed.withLock { $0 = false }
    }
}
