/// A view over one YUV frame: its format, size in pixels and planes (each with its own
/// stride, as a mapped `GstVideoFrame` gives them). It owns nothing.
public struct YUVFrame {
    public let format: YUVFormat
    public let width: Int
    public let height: Int
    public let planes: [Plane]
    /// Presentation time in nanoseconds, when the frame has one.
    public var timestamp: UInt64?

    /// `bases` and `strides` per plane, in the format's plane order.
    public init(format: YUVFormat, width: Int, height: Int, bases: [UnsafeMutableRawPointer], strides: [Int],
                timestamp: UInt64? = nil) {
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
    }

    /// The luma plane of a planar format (nil for the packed ones).
    public var luma: Plane? { format.isPacked ? nil : planes[0] }

    /// Copies every plane of `source` (same format and size).
    public func copy(from source: YUVFrame) {
        precondition(source.format == format && source.width == width && source.height == height,
                     "copy between different frames")
        for (d, s) in zip(planes, source.planes) { d.copy(from: s) }
    }
}
