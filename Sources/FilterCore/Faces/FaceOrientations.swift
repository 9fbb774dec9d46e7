/// Which rolls of face the detector looks for (the element's `face-orientations`).
///
/// The cascade finds upright faces only, so each roll searched is one more detection on
/// the picture turned (`FaceRoll.uprighting`). A webcam or a file has no orientation
/// sensor: there a face may be turned in the picture any way, and `auto` searches all four.
/// When the device reports how it is held, the faces of people standing up have the roll
/// that holding implies in the output picture, and `auto` searches that one only.
public enum FaceOrientations: String, CaseIterable, Sendable {
    /// `all` while the device orientation is unknown, `device` once it is known.
    case auto
    /// Upright in the output picture only (one search).
    case upright
    /// The roll implied by how the device is held and the orientation applied (one search).
    case device
    /// 0°, 90°, 180° and 270° (four searches).
    case all

    public var nick: String { rawValue }

    /// The rolls to search, the likeliest first (see `FaceOrientationMerge`).
    /// - Parameters:
    ///   - applied: the orientation method that made the output picture from the input.
    ///   - deviceUpright: the method that would show the input upright given how the device
    ///     is held (`DeviceOrientationTracker.method`), nil when the device never said.
    public func rolls(applied: OrientationMethod, deviceUpright: OrientationMethod?) -> [Int] {
        switch self {
        case .upright: return [0]
        case .device: return [Self.deviceRoll(applied: applied, deviceUpright: deviceUpright)]
        case .all: return Self.allRolls(first: Self.deviceRoll(applied: applied, deviceUpright: deviceUpright))
        case .auto:
            guard deviceUpright != nil else { return Self.allRolls(first: Self.deviceRoll(applied: applied, deviceUpright: nil)) }
            return [Self.deviceRoll(applied: applied, deviceUpright: deviceUpright)]
        }
    }

    /// The roll in the output picture of a face that is upright in the world: the world-
    /// upright picture is `deviceUpright(input)`, the output `applied(input)`, so the
    /// output is the upright picture through `deviceUpright⁻¹` then `applied`. A device
    /// that never said how it is held (a webcam on a screen, a file) is taken as upright:
    /// its faces get the roll of the orientation applied (a picture turned with
    /// `orientation=90r` shows them at 90), which is searched first and trusted most
    /// (`FaceOrientationMerge`): a turned and zoomed webcam picture whose faces are cut by
    /// the crop keeps them, and the upright search's patterns on a turned cheek or eye
    /// need more to count.
    public static func deviceRoll(applied: OrientationMethod, deviceUpright: OrientationMethod?) -> Int {
        FaceRoll.of((deviceUpright ?? .identity).inverse.then(applied))
    }

    /// All four rolls, `first` first, then the quarter turns, then the half turn.
    static func allRolls(first: Int) -> [Int] {
        [first, first + 90, first + 270, first + 180].map(FaceRoll.normalized)
    }
}
