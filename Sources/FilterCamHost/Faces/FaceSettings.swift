/// What the user asked of face detection (the `face-*` properties), read once per frame.
struct FaceSettings: Sendable {
    static let defaultDetectionWidth = 640

    var enabled = false
    var overlay = true
    var cascadePath = FaceDetector.defaultCascadePath
    var search = FaceSearch()
    /// Width the grey copy is brought down to (at most; integer steps). 0: full size.
    var detectionWidth = FaceSettings.defaultDetectionWidth
}
