/// Turns device orientation reports into the transform that shows the camera picture
/// upright, as SquareCam does.
///
/// Face-up, face-down and unknown reports keep the last orientation that told which way is
/// up (a phone laid on a table keeps its picture); before any such report the picture is
/// shown as the sensor gives it (identity; mirrored for the front camera).
///
/// The front camera's transform is the back camera's followed by a horizontal mirror of the
/// displayed picture: `back.then(.horizontal)`.
public struct DeviceOrientationTracker: Equatable, Sendable {
    public struct Row: Equatable, Sendable {
        public let orientation: DeviceOrientation
        public let facing: CameraFacing
        public let method: OrientationMethod
    }

    /// Every orientation that tells which way is up, for both cameras.
    public static let table: [Row] = [
        Row(orientation: .landscapeLeft, facing: .back, method: .identity),
        Row(orientation: .landscapeRight, facing: .back, method: .rotate180),
        Row(orientation: .portrait, facing: .back, method: .rotate90R),
        Row(orientation: .portraitUpsideDown, facing: .back, method: .rotate90L),
        Row(orientation: .landscapeLeft, facing: .front, method: .horizontal),          // identity, mirrored
        Row(orientation: .landscapeRight, facing: .front, method: .vertical),           // 180, mirrored
        Row(orientation: .portrait, facing: .front, method: .upperLeftDiagonal),        // 90r, mirrored
        Row(orientation: .portraitUpsideDown, facing: .front, method: .upperRightDiagonal), // 90l, mirrored
    ]

    /// The table's transform, or nil for an orientation that does not tell which way is up.
    public static func method(for orientation: DeviceOrientation, facing: CameraFacing) -> OrientationMethod? {
        table.first { $0.orientation == orientation && $0.facing == facing }?.method
    }

    /// The orientation last reported (what the `device-orientation` property reads back).
    public private(set) var current: DeviceOrientation = .unknown
    /// The last reported orientation that told which way is up.
    public private(set) var lastKnown: DeviceOrientation?

    public init() {}

    public mutating func update(_ orientation: DeviceOrientation) {
        current = orientation
        if orientation.tellsUp { lastKnown = orientation }
    }

    /// The transform for the last known orientation and `facing`.
    public func method(facing: CameraFacing) -> OrientationMethod {
        if let lastKnown, let m = Self.method(for: lastKnown, facing: facing) { return m }
        return facing == .front ? OrientationMethod.identity.then(.horizontal) : .identity
    }
}
