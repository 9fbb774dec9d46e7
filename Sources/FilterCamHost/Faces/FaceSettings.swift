import FilterCore

/// What the user asked of face detection (the `face-*` properties), read once per frame.
struct FaceSettings: Sendable {
    static let defaultDetectionWidth = 640
    /// 0: the cascade's own window (24 px at the detection scale), as OpenCV's default.
    static let defaultMinSize = 0
    /// 1.2 rather than OpenCV's usual 1.1: about 1.7× less detection work, with as many
    /// faces and fewer false ones on the fixtures (docs/faces.md).
    static let defaultScaleFactor = 1.2
    /// At scale factor 1.2 a face gathers about half the candidate windows it gets at 1.1:
    /// more than 4 here is about as strict as OpenCV's minNeighbors 5 at 1.1 (more than 3
    /// drew a false box with 4 on the half-size astronaut that minNeighbors 5 does not).
    static let defaultConfirmNeighbors = 4

    var enabled = false
    /// Counts the times detection was turned on: each time starts with no faces.
    var enabledCount = 0
    var overlay = true
    var cascadePath = FaceDetector.defaultCascadePath
    /// The second cascade that must also see a face before it is drawn ("": none).
    var confirmCascadePath = FaceDetector.defaultConfirmCascadePath
    var search = FaceSearch()
    /// Width the grey copy is brought down to (at least; integer steps). 0: full size.
    var detectionWidth = FaceSettings.defaultDetectionWidth
    var orientations = FaceOrientations.auto
    var confirmNeighbors = FaceSettings.defaultConfirmNeighbors
}
