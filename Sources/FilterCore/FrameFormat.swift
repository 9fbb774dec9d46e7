/// The layout of a negotiated frame: 4-byte RGB pixels (`FrameView`) or YUV planes
/// (`YUVFrame`, with the matrix the caps' colorimetry names).
public enum FrameFormat: Equatable, Sendable {
    case rgb(PixelFormat)
    case yuv(YUVFormat, YUVMatrix)

    /// The format GStreamer calls `name`; nil for one FilterCam does not take.
    public init?(name: String, matrix: YUVMatrix = .bt601) {
        if let f = PixelFormat(rawValue: name) {
            self = .rgb(f)
        } else if let f = YUVFormat(rawValue: name) {
            self = .yuv(f, matrix)
        } else {
            return nil
        }
    }

    public var name: String {
        switch self {
        case .rgb(let f): f.rawValue
        case .yuv(let f, _): f.rawValue
        }
    }

    public var isYUV: Bool {
        if case .yuv = self { return true }
        return false
    }

    /// Every format's name, RGB first (what negotiation prefers when upstream offers both).
    public static var allNames: [String] { PixelFormat.allCases.map(\.rawValue) + YUVFormat.allCases.map(\.rawValue) }
}
