/// A view over one plane of a frame: `height` rows of `width` elements of `elementBytes`
/// bytes each, rows `stride` bytes apart. It owns nothing (see `FrameView`).
public struct Plane {
    public let base: UnsafeMutableRawPointer
    public let width: Int
    public let height: Int
    public let stride: Int
    public let elementBytes: Int

    public init(base: UnsafeMutableRawPointer, width: Int, height: Int, stride: Int, elementBytes: Int) {
        precondition(width > 0 && height > 0, "a plane needs a positive size")
        precondition(stride >= width * elementBytes, "stride \(stride) does not fit \(width) elements of \(elementBytes) bytes")
        self.base = base
        self.width = width
        self.height = height
        self.stride = stride
        self.elementBytes = elementBytes
    }

    /// The first byte of row `y`.
    @inline(__always)
    public func row(_ y: Int) -> UnsafeMutableRawPointer { base + y &* stride }

    /// The elements of `rect` (same memory, same stride).
    public func subplane(_ rect: PixelRect) -> Plane {
        precondition(rect.x >= 0 && rect.y >= 0 && rect.width > 0 && rect.height > 0
                     && rect.x + rect.width <= width && rect.y + rect.height <= height,
                     "rectangle \(rect) is outside the \(width)x\(height) plane")
        return Plane(base: base + rect.y * stride + rect.x * elementBytes, width: rect.width, height: rect.height,
                     stride: stride, elementBytes: elementBytes)
    }

    /// Copies `source` (same size and element) row by row.
    public func copy(from source: Plane) {
        precondition(source.width == width && source.height == height && source.elementBytes == elementBytes,
                     "copy between different planes")
        let bytes = width * elementBytes
        for y in 0..<height { row(y).copyMemory(from: source.row(y), byteCount: bytes) }
    }

    /// Whether the bytes the two planes cover intersect.
    func overlaps(_ other: Plane) -> Bool {
        let aStart = UInt(bitPattern: base), aEnd = aStart + UInt((height - 1) * stride + width * elementBytes)
        let bStart = UInt(bitPattern: other.base), bEnd = bStart + UInt((other.height - 1) * other.stride + other.width * other.elementBytes)
        return aStart < bEnd && bStart < aEnd
    }
}
