/// One of the eight ways to turn or mirror a picture: GStreamer's `GstVideoOrientationMethod`,
/// with the same raw values and nicks as `videoflip video-direction=<nick>`.
///
/// Pixel semantics are exactly videoflip's (gst-plugins-good `gstvideoflip.c`,
/// `gst_video_flip_packed_simple`). For an input of W×H pixels, output pixel (x, y) is
/// input pixel:
///
///     identity  (x, y)                    W×H
///     90r       (y, H-1-x)                H×W   turn clockwise
///     180       (W-1-x, H-1-y)            W×H
///     90l       (W-1-y, x)                H×W   turn counter-clockwise
///     horiz     (W-1-x, y)                W×H   mirror left/right
///     vert      (x, H-1-y)                W×H   mirror top/bottom
///     ul-lr     (y, x)                    H×W   transpose (upper-left/lower-right diagonal)
///     ur-ll     (W-1-y, H-1-x)            H×W   anti-transpose (upper-right/lower-left diagonal)
///
/// EXIF orientations and `image-orientation` tags follow the verified table in
/// `shared/fixtures/orientation` (gst-plugins-base `gst_video_orientation_from_tag`):
/// a tag "flip-rotate-N" mirrors horizontally first, then turns N degrees clockwise.
public enum OrientationMethod: Int, CaseIterable, Sendable, CustomStringConvertible {
    case identity = 0
    case rotate90R = 1
    case rotate180 = 2
    case rotate90L = 3
    case horizontal = 4
    case vertical = 5
    case upperLeftDiagonal = 6
    case upperRightDiagonal = 7

    /// The `video-direction` nick.
    public var nick: String {
        switch self {
        case .identity: "identity"
        case .rotate90R: "90r"
        case .rotate180: "180"
        case .rotate90L: "90l"
        case .horizontal: "horiz"
        case .vertical: "vert"
        case .upperLeftDiagonal: "ul-lr"
        case .upperRightDiagonal: "ur-ll"
        }
    }

    public init?(nick: String) {
        guard let m = Self.allCases.first(where: { $0.nick == nick }) else { return nil }
        self = m
    }

    public var description: String { nick }

    /// True for the four methods whose output is H×W.
    public var swapsAxes: Bool {
        switch self {
        case .rotate90R, .rotate90L, .upperLeftDiagonal, .upperRightDiagonal: true
        default: false
        }
    }

    public func outputSize(width: Int, height: Int) -> (Int, Int) {
        swapsAxes ? (height, width) : (width, height)
    }

    // MARK: Tags and EXIF

    /// The `image-orientation` tag value (GST_TAG_IMAGE_ORIENTATION) naming this transform.
    public var imageOrientationTag: String {
        switch self {
        case .identity: "rotate-0"
        case .rotate90R: "rotate-90"
        case .rotate180: "rotate-180"
        case .rotate90L: "rotate-270"
        case .horizontal: "flip-rotate-0"
        case .upperRightDiagonal: "flip-rotate-90"
        case .vertical: "flip-rotate-180"
        case .upperLeftDiagonal: "flip-rotate-270"
        }
    }

    /// The method an `image-orientation` tag asks for; nil for anything else.
    public init?(imageOrientationTag tag: String) {
        guard let m = Self.allCases.first(where: { $0.imageOrientationTag == tag }) else { return nil }
        self = m
    }

    /// The EXIF Orientation value (1…8) whose display transform is this method.
    public var exifOrientation: Int {
        switch self {
        case .identity: 1
        case .horizontal: 2
        case .rotate180: 3
        case .vertical: 4
        case .upperLeftDiagonal: 5
        case .rotate90R: 6
        case .upperRightDiagonal: 7
        case .rotate90L: 8
        }
    }

    public init?(exifOrientation: Int) {
        guard let m = Self.allCases.first(where: { $0.exifOrientation == exifOrientation }) else { return nil }
        self = m
    }

    // MARK: Group structure

    /// The transform as a 2×2 matrix (a b; c d) on coordinates centred on the picture,
    /// y pointing down: output = M · input. Every method is a signed permutation.
    var matrix: (a: Int, b: Int, c: Int, d: Int) {
        switch self {
        case .identity: (1, 0, 0, 1)
        case .rotate90R: (0, -1, 1, 0)
        case .rotate180: (-1, 0, 0, -1)
        case .rotate90L: (0, 1, -1, 0)
        case .horizontal: (-1, 0, 0, 1)
        case .vertical: (1, 0, 0, -1)
        case .upperLeftDiagonal: (0, 1, 1, 0)
        case .upperRightDiagonal: (0, -1, -1, 0)
        }
    }

    private init(matrix m: (a: Int, b: Int, c: Int, d: Int)) {
        self = Self.allCases.first { $0.matrix == m }!
    }

    /// The transform that undoes this one: `m.then(m.inverse) == .identity`.
    public var inverse: OrientationMethod {
        let m = matrix
        return OrientationMethod(matrix: (m.a, m.c, m.b, m.d))   // orthogonal: inverse = transpose
    }

    /// This transform followed by `other` (e.g. a device rotation then the front camera's
    /// mirror: `.rotate90R.then(.horizontal)`).
    /// The `rotate` command's cycle: identity → 90r → 180 → 90l → identity; a mirrored
    /// method turns on through its mirrored cycle.
    public var nextQuarterTurn: OrientationMethod { then(.rotate90R) }

    /// The `rotate` command (terminal and window alike) on an `orientation` value: a fixed
    /// method turns on; `auto` or anything else starts again from identity.
    public static func afterRotate(_ nick: String) -> OrientationMethod {
        (OrientationMethod(nick: nick) ?? .identity).nextQuarterTurn
    }

    public func then(_ other: OrientationMethod) -> OrientationMethod {
        let p = other.matrix, q = matrix
        return OrientationMethod(matrix: (p.a * q.a + p.b * q.c, p.a * q.b + p.b * q.d,
                                          p.c * q.a + p.d * q.c, p.c * q.b + p.d * q.d))
    }

    // MARK: Coordinates

    /// The input pixel that output pixel (x, y) comes from, for an input of
    /// `inputWidth`×`inputHeight` (see the table above). Affine in x and y.
    @inline(__always)
    public func sourcePixel(x: Int, y: Int, inputWidth w: Int, inputHeight h: Int) -> (x: Int, y: Int) {
        switch self {
        case .identity: (x, y)
        case .rotate90R: (y, h - 1 - x)
        case .rotate180: (w - 1 - x, h - 1 - y)
        case .rotate90L: (w - 1 - y, x)
        case .horizontal: (w - 1 - x, y)
        case .vertical: (x, h - 1 - y)
        case .upperLeftDiagonal: (y, x)
        case .upperRightDiagonal: (w - 1 - y, h - 1 - x)
        }
    }

    /// The input rectangle whose transform is the rectangle `rect` of the output: transforming
    /// `source.subview(r)` gives exactly the pixels of `rect` in the full output. This is how
    /// a crop in display coordinates stays one pass.
    public func sourceRect(forOutputRect rect: PixelRect, inputWidth: Int, inputHeight: Int) -> PixelRect {
        let a = sourcePixel(x: rect.x, y: rect.y, inputWidth: inputWidth, inputHeight: inputHeight)
        let b = sourcePixel(x: rect.x + rect.width - 1, y: rect.y + rect.height - 1,
                            inputWidth: inputWidth, inputHeight: inputHeight)
        return PixelRect(x: min(a.x, b.x), y: min(a.y, b.y),
                         width: abs(a.x - b.x) + 1, height: abs(a.y - b.y) + 1)
    }

    /// A pointer position on the output picture mapped back to the input picture, as
    /// videoflip maps navigation events (`gst_video_flip_src_event`): positions are
    /// continuous, pixel (i, j) covering [i, i+1) × [j, j+1), so the point (x, y) inside
    /// output pixel (⌊x⌋, ⌊y⌋) lands inside the input pixel that pixel came from.
    public func mapPointToSource(x: Double, y: Double, outputWidth: Int, outputHeight: Int) -> (Double, Double) {
        let w = Double(outputWidth), h = Double(outputHeight)
        switch self {
        case .identity: return (x, y)
        case .rotate90R: return (y, w - x)
        case .rotate180: return (w - x, h - y)
        case .rotate90L: return (h - y, x)
        case .horizontal: return (w - x, y)
        case .vertical: return (x, h - y)
        case .upperLeftDiagonal: return (y, x)
        case .upperRightDiagonal: return (h - y, w - x)
        }
    }

    /// The inverse of `mapPointToSource`: an input position to where it shows on the output
    /// (the inverse transform turns the output back into the input).
    public func mapPointToOutput(x: Double, y: Double, inputWidth: Int, inputHeight: Int) -> (Double, Double) {
        inverse.mapPointToSource(x: x, y: y, outputWidth: inputWidth, outputHeight: inputHeight)
    }
}
