import Synchronization

/// The detector for the current cascade path, loaded once per path (parsing the stock
/// cascade takes tens of milliseconds, so never per frame). A path that failed is not
/// retried until `reset()` (the element starting again) or another path is set, and
/// its failure is reported once through `onError`.
final class FaceDetectorCache: @unchecked Sendable {
    private struct Entry {
        var path: String
        var detector: FaceDetector?
    }

    private let entry = Mutex<Entry?>(nil)
    private let onError: @Sendable (FaceCascadeError) -> Void

    init(onError: @escaping @Sendable (FaceCascadeError) -> Void) {
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
        if stored, let failure { onError(failure) }
        return stored ? loaded : entry.withLock { $0?.path == path ? $0?.detector : loaded }
    }

    /// Forgets the loaded detector and any failure (the file may have been fixed).
    func reset() {
        entry.withLock { $0 = nil }
    }
}
