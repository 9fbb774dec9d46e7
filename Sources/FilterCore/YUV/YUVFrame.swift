/// A view over one YUV frame: its format, size in pixels and planes (each with its own
/// stride, as a mapped `GstVideoFrame` gives them). It owns nothing.
public struct YUVFrame {
    public let format: YUVFormat
    public let width: Int
    public let height: Int
    public let planes: [Plane]
    /// Presentation time in nanoseconds, when the frame has one.
    public var timestamp: UInt64?
    /// The colour matrix and range of the samples (from the caps' colorimetry).
    public var matrix: YUVMatrix

    /// `bases` and `strides` per plane, in the format's plane order.
    public init(format: YUVFormat, width: Int, height: Int, bases: [UnsafeMutableRawPointer], strides: [Int],
                timestamp: UInt64? = nil, matrix: YUVMatrix = .bt601) {
        precondition(bases.count == format.planeCount && strides.count == format.planeCount,
                     "\(format.rawValue) has \(format.planeCount) planes")
        self.format = format
        self.width = width
        self.height = height
        planes = (0..<format.planeCount).map { i in
            let (w, h, e) = format.plane(i, width: width, height: height)
            return Plane(base: bases[i], width: w, height: h, stride: strides[i], elementBytes: e)
        }
        self.timestamp = timestamp
        self.matrix = matrix
    }

    /// The luma plane of a planar format (nil for the packed ones).
    public var luma: Plane? { format.isPacked ? nil : planes[0] }

    /// A view of the rectangle `rect` (same memory), whose left and top edges lie on the
    /// chroma grid (even), as the lens's do on YUV frames.
    public func subframe(_ rect: PixelRect) -> YUVFrame {
        precondition(rect.x % 2 == 0 && (rect.y % 2 == 0 || format.isPacked),
                     "rectangle \(rect) splits chroma samples of a \(format.rawValue) frame")
        precondition(rect.x >= 0 && rect.y >= 0 && rect.width > 0 && rect.height > 0
                     && rect.x + rect.width <= width && rect.y + rect.height <= height,
                     "rectangle \(rect) is outside the \(width)x\(height) frame")
        let bases = planes.enumerated().map { i, p in
            let sy = i == 0 ? 1 : format.chromaHeightFactor
            let x = format.isPacked || i > 0 ? rect.x / 2 : rect.x
            return p.base + rect.y / sy * p.stride + x * p.elementBytes
        }
        return YUVFrame(format: format, width: rect.width, height: rect.height, bases: bases,
                        strides: planes.map(\.stride), timestamp: timestamp, matrix: matrix)
    }

    /// Copies every plane of `source` (same format and size).
    public func copy(from source: YUVFrame) {
        precondition(source.format == format && source.width == width && source.height == height,
                     "copy between different frames")
        for (d, s) in zip(planes, source.planes) { d.copy(from: s) }
    }
}
