import FilterCore

/// What the user asked of face detection (the `face-*` properties), read once per frame.
struct FaceSettings: Sendable {
    static let defaultDetectionWidth = 640
    /// 0: the cascade's own window (24 px at the detection scale), as OpenCV's default.
    static let defaultMinSize = 0
    /// As detectMultiScale minNeighbors 5, the stricter of OpenCV's two usual settings.
    static let defaultConfirmNeighbors = 5

    var enabled = false
    var overlay = true
    var cascadePath = FaceDetector.defaultCascadePath
    var search = FaceSearch()
    /// Width the grey copy is brought down to (at least; integer steps). 0: full size.
    var detectionWidth = FaceSettings.defaultDetectionWidth
    var orientations = FaceOrientations.auto
    var confirmNeighbors = FaceSettings.defaultConfirmNeighbors
}
