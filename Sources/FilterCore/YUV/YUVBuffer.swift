/// Memory for one YUV frame, owned by Swift: for tests and scratch space. Rows are
/// padded to `rowAlignment` bytes, so tests see strides larger than the row.
public final class YUVBuffer: Sendable {
    public let format: YUVFormat
    public let width: Int
    public let height: Int
    private let planes: [PixelMemory]
    private let strides: [Int]

    /// `zeroed: false` skips clearing the memory, for scratch about to be overwritten.
    public init(format: YUVFormat, width: Int, height: Int, rowAlignment: Int = 16, zeroed: Bool = true) {
        self.format = format
        self.width = width
        self.height = height
        var planes: [PixelMemory] = [], strides: [Int] = []
        for i in 0..<format.planeCount {
            let (w, h, e) = format.plane(i, width: width, height: height)
            let stride = (w * e + rowAlignment - 1) / rowAlignment * rowAlignment
            planes.append(PixelMemory(byteCount: stride * h, zeroed: zeroed))
            strides.append(stride)
        }
        self.planes = planes
        self.strides = strides
    }

    public var frame: YUVFrame {
        YUVFrame(format: format, width: width, height: height, bases: planes.map(\.base), strides: strides)
    }

    /// Fills each row's padding, up to its stride, with copies of the row's last sample. A
    /// JPEG encoder given the planes as they are (`jpegenc`) reads whole 8×8 blocks, so at
    /// a width that is no multiple of 16 it encodes the padding with the picture, and stray
    /// colours from whatever the padding held came out in the still's last columns.
    public func repeatLastSampleIntoRowPadding() {
        for (i, p) in frame.planes.enumerated() where p.width > 0 {
            let used = p.width * p.elementBytes, stride = strides[i]
            guard used + p.elementBytes <= stride else { continue }
            for y in 0..<p.height {
                let row = p.row(y), last = row + used - p.elementBytes
                var x = used
                while x + p.elementBytes <= stride {
                    (row + x).copyMemory(from: last, byteCount: p.elementBytes)
                    x += p.elementBytes
                }
            }
        }
    }

    /// The planes' bytes without row padding, plane after plane (GStreamer's tightly
    /// packed layout when no row needs padding).
    public var packedBytes: [UInt8] {
        frame.planes.flatMap { p in
            (0..<p.height).flatMap { y in
                Array(UnsafeRawBufferPointer(start: p.row(y), count: p.width * p.elementBytes))
            }
        }
    }

    /// Fills the planes from packed bytes (the layout of `packedBytes`).
    public func load(packed bytes: [UInt8]) {
        let planes = frame.planes
        let total = planes.reduce(0) { $0 + $1.width * $1.elementBytes * $1.height }
        precondition(bytes.count == total, "expected \(total) bytes, got \(bytes.count)")
        var offset = 0
        bytes.withUnsafeBytes { src in
            for p in planes {
                let rowBytes = p.width * p.elementBytes
                for y in 0..<p.height {
                    p.row(y).copyMemory(from: src.baseAddress! + offset, byteCount: rowBytes)
                    offset += rowBytes
                }
            }
        }
    }
}
