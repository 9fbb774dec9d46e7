/// A face found in a picture: its box in the picture's pixels, how the face is turned in
/// the picture (its roll) and how sure the detector was.
public struct DetectedFace: Equatable, Sendable, CustomStringConvertible {
    public var rect: PixelRect
    /// Roll in degrees **clockwise**, a multiple of 90: 0 upright, 90 the top of the head
    /// points right, 180 upside down, 270 the top of the head points left.
    public var angle: Int
    /// Candidate windows the detector merged into this box (OpenCV's `numDetections`):
    /// more is surer. 0 for a box not straight from the detector.
    public var neighbors: Int
    /// False when a second, stricter cascade looked at this box and found no face there
    /// (`FaceVerification`): such a box may keep a drawn square but never starts one.
    public var verified: Bool

    public init(rect: PixelRect, angle: Int = 0, neighbors: Int = 0, verified: Bool = true) {
        self.rect = rect
        self.angle = angle
        self.neighbors = neighbors
        self.verified = verified
    }

    public var description: String { "\(rect)@\(angle)°(\(neighbors)\(verified ? "" : ", unverified"))" }

    /// Intersection over union of two boxes (0 when apart), the scorer's and tracker's overlap.
    public static func iou(_ a: PixelRect, _ b: PixelRect) -> Double {
        let i = intersection(a, b)
        return i == 0 ? 0 : Double(i) / Double(a.width * a.height + b.width * b.height - i)
    }

    public static func intersection(_ a: PixelRect, _ b: PixelRect) -> Int {
        let w = min(a.x + a.width, b.x + b.width) - max(a.x, b.x)
        let h = min(a.y + a.height, b.y + b.height) - max(a.y, b.y)
        return w > 0 && h > 0 ? w * h : 0
    }
}
