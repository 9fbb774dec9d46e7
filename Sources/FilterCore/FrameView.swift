/// A view over one frame of 4-byte pixels somewhere in memory: it owns nothing.
///
/// Rows may be padded: `stride` is the distance in bytes from one row to the next and is
/// at least `width * 4` (and a multiple of 4, so a row is a run of `UInt32`).
/// The memory belongs to whoever made the view (a mapped GStreamer buffer, a
/// `PixelBuffer`), and the view is only valid while they keep it.
public struct FrameView {
    public let base: UnsafeMutableRawPointer
    public let width: Int
    public let height: Int
    public let stride: Int
    public let format: PixelFormat
    /// Presentation time in nanoseconds, when the frame has one.
    public var timestamp: UInt64?

    public init(base: UnsafeMutableRawPointer, width: Int, height: Int, stride: Int,
                format: PixelFormat, timestamp: UInt64? = nil) {
        precondition(width > 0 && height > 0, "a frame needs a positive size")
        precondition(stride >= width * 4 && stride % 4 == 0, "stride \(stride) does not fit width \(width)")
        self.base = base
        self.width = width
        self.height = height
        self.stride = stride
        self.format = format
        self.timestamp = timestamp
    }

    /// The pixels of row `y` as 32-bit words.
    @inline(__always)
    public func row(_ y: Int) -> UnsafeMutablePointer<UInt32> {
        (base + y &* stride).assumingMemoryBound(to: UInt32.self)
    }

    /// Stride in pixels (`UInt32` words).
    @inline(__always)
    public var pixelStride: Int { stride >> 2 }

    /// A view of the rectangle `rect` of this frame (same memory, same stride).
    public func subview(_ rect: PixelRect) -> FrameView {
        precondition(rect.x >= 0 && rect.y >= 0 && rect.width > 0 && rect.height > 0
                     && rect.x + rect.width <= width && rect.y + rect.height <= height,
                     "rectangle \(rect) is outside the \(width)x\(height) frame")
        return FrameView(base: base + rect.y * stride + rect.x * 4, width: rect.width,
                         height: rect.height, stride: stride, format: format, timestamp: timestamp)
    }

    /// Reads one pixel's channels (slow; for tests and overlays, not for kernels).
    public func pixel(x: Int, y: Int) -> RGBA {
        let p = base + y * stride + x * 4
        return RGBA(r: p.load(fromByteOffset: format.redByte, as: UInt8.self),
                    g: p.load(fromByteOffset: format.greenByte, as: UInt8.self),
                    b: p.load(fromByteOffset: format.blueByte, as: UInt8.self),
                    a: p.load(fromByteOffset: format.alphaByte, as: UInt8.self))
    }

    /// Writes one pixel's channels (slow; for tests and overlays, not for kernels).
    public func setPixel(x: Int, y: Int, _ c: RGBA) {
        let p = base + y * stride + x * 4
        p.storeBytes(of: c.r, toByteOffset: format.redByte, as: UInt8.self)
        p.storeBytes(of: c.g, toByteOffset: format.greenByte, as: UInt8.self)
        p.storeBytes(of: c.b, toByteOffset: format.blueByte, as: UInt8.self)
        p.storeBytes(of: c.a, toByteOffset: format.alphaByte, as: UInt8.self)
    }

    /// Copies the pixels of `source` (same size) into this view, row by row.
    public func copyPixels(from source: FrameView) {
        precondition(source.width == width && source.height == height, "copy between different sizes")
        let rowBytes = width * 4
        for y in 0..<height {
            (base + y * stride).copyMemory(from: source.base + y * source.stride, byteCount: rowBytes)
        }
    }
}

/// One pixel's channels, independent of the memory layout.
public struct RGBA: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var r: UInt8, g: UInt8, b: UInt8, a: UInt8
    public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8 = 255) {
        self.r = r; self.g = g; self.b = b; self.a = a
    }
    public var description: String { "(\(r),\(g),\(b),\(a))" }
}

/// A rectangle in whole pixels, top-left origin.
public struct PixelRect: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var x: Int, y: Int, width: Int, height: Int
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
    public var description: String { "\(width)x\(height)+\(x)+\(y)" }
}
