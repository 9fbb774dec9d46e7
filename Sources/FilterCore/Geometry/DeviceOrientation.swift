/// How the device is held, as a phone reports it (UIDeviceOrientation in Apple's SquareCam),
/// with the nicks of the `device-orientation` property.
public enum DeviceOrientation: String, CaseIterable, Sendable {
    case unknown = "unknown"
    case portrait = "portrait"
    case portraitUpsideDown = "portrait-upside-down"
    case landscapeLeft = "landscape-left"
    case landscapeRight = "landscape-right"
    case faceUp = "face-up"
    case faceDown = "face-down"

    public var nick: String { rawValue }

    public init?(nick: String) { self.init(rawValue: nick) }

    /// False for unknown, face-up and face-down: they say nothing about which way is up.
    public var tellsUp: Bool {
        switch self {
        case .portrait, .portraitUpsideDown, .landscapeLeft, .landscapeRight: true
        case .unknown, .faceUp, .faceDown: false
        }
    }
}

/// Which camera takes the picture; the front camera's picture is shown mirrored.
public enum CameraFacing: String, CaseIterable, Sendable {
    case back = "back"
    case front = "front"

    public var nick: String { rawValue }

    public init?(nick: String) { self.init(rawValue: nick) }
}
