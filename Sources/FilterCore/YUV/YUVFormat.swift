/// The YUV layouts FilterCam works on natively, named as GStreamer names them.
///
/// - I420: three planes, Y (W×H), U and V (⌈W/2⌉×⌈H/2⌉), one byte per sample;
/// - NV12: Y, then one plane of interleaved U,V pairs (⌈W/2⌉×⌈H/2⌉ pairs);
/// - YUY2 / UYVY: one plane of 4-byte macropixels, each two pixels side by side sharing
///   one U and one V (⌈W/2⌉ macropixels per row, H rows).
///
/// Odd sizes round the chroma up, as `GstVideoInfo` does.
public enum YUVFormat: String, CaseIterable, Sendable {
    case i420 = "I420"
    case nv12 = "NV12"
    case yuy2 = "YUY2"
    case uyvy = "UYVY"

    /// Chroma subsampling: one chroma sample covers `chromaWidthFactor`×`chromaHeightFactor` pixels.
    public var chromaHeightFactor: Int { isPacked ? 1 : 2 }
    public var chromaWidthFactor: Int { 2 }

    /// YUY2 and UYVY keep everything in one plane of macropixels.
    public var isPacked: Bool { self == .yuy2 || self == .uyvy }

    public var planeCount: Int {
        switch self {
        case .i420: 3
        case .nv12: 2
        case .yuy2, .uyvy: 1
        }
    }

    /// Byte offsets inside a packed macropixel (first luma, second luma, U, V).
    public var packedOffsets: (y0: Int, y1: Int, u: Int, v: Int) {
        self == .uyvy ? (1, 3, 0, 2) : (0, 2, 1, 3)
    }

    /// Size of plane `index` in elements (samples; U,V pairs for NV12's second plane;
    /// macropixels for the packed formats) and the bytes of one element.
    public func plane(_ index: Int, width: Int, height: Int) -> (width: Int, height: Int, elementBytes: Int) {
        let cw = (width + 1) / 2, ch = (height + 1) / 2
        switch (self, index) {
        case (.yuy2, _), (.uyvy, _): return (cw, height, 4)
        case (_, 0): return (width, height, 1)
        case (.nv12, _): return (cw, ch, 2)
        default: return (cw, ch, 1)
        }
    }

    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
}
