/// What the user asked of face detection (the `face-*` properties), read once per frame.
struct FaceSettings: Sendable {
    static let defaultDetectionWidth = 640
    /// As GStreamer's facedetect (min-size-width/height 30): OpenCV's own minimum is the
    /// cascade window (24 px), where the fixtures showed only false faces.
    static let defaultMinSize = 30

    var enabled = false
    var overlay = true
    var cascadePath = FaceDetector.defaultCascadePath
    var search = FaceSearch()
    /// Width the grey copy is brought down to (at most; integer steps). 0: full size.
    var detectionWidth = FaceSettings.defaultDetectionWidth
}
