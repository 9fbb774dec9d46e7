/// Memory for one frame, owned by Swift: for tests, previews and scratch space.
public final class PixelBuffer: Sendable {
    public let width: Int
    public let height: Int
    public let stride: Int
    public let format: PixelFormat
    private let memory: PixelMemory
    private var storage: UnsafeMutableRawPointer { memory.base }

    /// `stride` defaults to `width * 4`; pass a larger one to test padded rows.
    /// `zeroed: false` skips clearing the memory, for a buffer about to be overwritten.
    public init(width: Int, height: Int, format: PixelFormat = .bgra, stride: Int? = nil, zeroed: Bool = true) {
        self.width = width
        self.height = height
        self.format = format
        self.stride = stride ?? width * 4
        precondition(self.stride >= width * 4 && self.stride % 4 == 0)
        memory = PixelMemory(byteCount: self.stride * height, zeroed: zeroed)
    }

    public var view: FrameView {
        FrameView(base: storage, width: width, height: height, stride: stride, format: format)
    }

    /// The pixel bytes without row padding, top row first.
    public var packedBytes: [UInt8] {
        var out = [UInt8](repeating: 0, count: width * height * 4)
        out.withUnsafeMutableBytes { dst in
            for y in 0..<height {
                dst.baseAddress!.advanced(by: y * width * 4)
                    .copyMemory(from: storage + y * stride, byteCount: width * 4)
            }
        }
        return out
    }

    /// Fills the frame from packed bytes (`width * height * 4`, no padding).
    public func load(packed bytes: [UInt8]) {
        precondition(bytes.count == width * height * 4, "expected \(width * height * 4) bytes, got \(bytes.count)")
        bytes.withUnsafeBytes { src in
            for y in 0..<height {
                (storage + y * stride).copyMemory(from: src.baseAddress! + y * width * 4, byteCount: width * 4)
            }
        }
    }
}
