import Foundation
import XCTest
@testable import FilterCore

/// A picture as 32-bit pixels, row after row: geometry moves whole pixels, so tests
/// compare words.
struct Words: Equatable, CustomStringConvertible {
    let width: Int
    let height: Int
    var pixels: [UInt32]

    init(width: Int, height: Int, pixels: [UInt32]) {
        precondition(pixels.count == width * height)
        self.width = width; self.height = height; self.pixels = pixels
    }

    /// Every pixel distinct: the pixel's index plus a seed-dependent high part.
    static func distinct(width: Int, height: Int, seed: UInt32 = 0) -> Words {
        Words(width: width, height: height,
              pixels: (0..<(width * height)).map { UInt32($0) &+ (seed &* 0x0101_0000) &+ 0x8000_0000 })
    }

    /// Random words (alpha too), for the bilinear tests.
    static func noise(width: Int, height: Int, seed: UInt64 = 1) -> Words {
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        return Words(width: width, height: height, pixels: (0..<(width * height)).map { _ in
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return UInt32(truncatingIfNeeded: state >> 16)
        })
    }

    subscript(x: Int, y: Int) -> UInt32 {
        get { pixels[y * width + x] }
        set { pixels[y * width + x] = newValue }
    }

    /// Rows as nested arrays, for hand-written expectations.
    var rows: [[UInt32]] { (0..<height).map { Array(pixels[($0 * width)..<(($0 + 1) * width)]) } }

    var description: String { "\(width)x\(height) \(rows)" }

    /// The slow, obviously right transform: every output pixel read through `sourcePixel`.
    func reference(_ m: OrientationMethod) -> Words {
        let (w, h) = m.outputSize(width: width, height: height)
        var out = Words(width: w, height: h, pixels: Array(repeating: 0, count: w * h))
        for y in 0..<h {
            for x in 0..<w {
                let s = m.sourcePixel(x: x, y: y, inputWidth: width, inputHeight: height)
                out[x, y] = self[s.x, s.y]
            }
        }
        return out
    }

    func cropped(_ r: PixelRect) -> Words {
        var out = Words(width: r.width, height: r.height, pixels: Array(repeating: 0, count: r.width * r.height))
        for y in 0..<r.height { for x in 0..<r.width { out[x, y] = self[r.x + x, r.y + y] } }
        return out
    }

    var packedBytes: [UInt8] { pixels.flatMap { p in (0..<4).map { UInt8(truncatingIfNeeded: p >> (8 * $0)) } } }

    init(width: Int, height: Int, packedBytes b: [UInt8]) {
        precondition(b.count == width * height * 4, "expected \(width * height * 4) bytes, got \(b.count)")
        self.init(width: width, height: height, pixels: (0..<(width * height)).map { i in
            UInt32(b[4 * i]) | UInt32(b[4 * i + 1]) << 8 | UInt32(b[4 * i + 2]) << 16 | UInt32(b[4 * i + 3]) << 24
        })
    }
}

/// Memory for one frame with `padding` bytes after each row filled with a marker, so tests
/// see both the pixels and any write outside them.
final class PaddedFrame {
    static let marker: UInt8 = 0xA5
    let buffer: PixelBuffer
    let width: Int, height: Int, padding: Int

    init(width: Int, height: Int, padding: Int = 0) {
        self.width = width; self.height = height; self.padding = padding
        buffer = PixelBuffer(width: width, height: height, stride: width * 4 + padding)
        let v = buffer.view
        for y in 0..<height {
            for x in 0..<(width * 4 + padding) { (v.base + y * v.stride + x).storeBytes(of: Self.marker, as: UInt8.self) }
        }
    }

    convenience init(_ words: Words, padding: Int = 0) {
        self.init(width: words.width, height: words.height, padding: padding)
        let v = view
        for y in 0..<height { for x in 0..<width { v.row(y)[x] = words[x, y] } }
    }

    var view: FrameView { buffer.view }

    var words: Words {
        let v = view
        return Words(width: width, height: height,
                     pixels: (0..<height).flatMap { y in (0..<width).map { v.row(y)[$0] } })
    }

    /// True when every padding byte still holds the marker.
    var paddingIntact: Bool {
        let v = view
        for y in 0..<height {
            for i in 0..<padding where (v.base + y * v.stride + width * 4 + i).load(as: UInt8.self) != Self.marker {
                return false
            }
        }
        return true
    }
}

/// `method` applied by `Orientation.transform`, with padded rows on both sides; fails the
/// test if padding changed.
func transformed(_ input: Words, _ method: OrientationMethod, srcPadding: Int = 0, dstPadding: Int = 0,
                 file: StaticString = #filePath, line: UInt = #line) -> Words {
    let src = PaddedFrame(input, padding: srcPadding)
    let (w, h) = method.outputSize(width: input.width, height: input.height)
    let dst = PaddedFrame(width: w, height: h, padding: dstPadding)
    Orientation.transform(method, from: src.view, to: dst.view)
    XCTAssertTrue(dst.paddingIntact, "\(method) wrote into the destination's row padding", file: file, line: line)
    XCTAssertEqual(src.words, input, "\(method) changed its source", file: file, line: line)
    return dst.words
}

/// Runs `gst-launch-1.0` on raw BGRA `input` through `element` and returns the raw output,
/// or skips the test when GStreamer's tools are not installed.
func gstreamer(_ input: Words, element: String, outputWidth: Int, outputHeight: Int) throws -> Words {
    let tool = ["/usr/bin/gst-launch-1.0", "/usr/local/bin/gst-launch-1.0"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }
    guard let tool else { throw XCTSkip("gst-launch-1.0 is not installed; this cross-check needs GStreamer") }
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("geometry-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let inURL = dir.appendingPathComponent("in.raw"), outURL = dir.appendingPathComponent("out.raw")
    try Data(input.packedBytes).write(to: inURL)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tool)
    process.arguments = ["-q", "filesrc", "location=\(inURL.path)", "!", "rawvideoparse", "format=bgra",
                         "width=\(input.width)", "height=\(input.height)", "!"]
        + element.split(separator: " ").map(String.init) + ["!", "filesink", "location=\(outURL.path)"]
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        if message.contains("no element") { throw XCTSkip("GStreamer lacks an element: \(message)") }
        XCTFail("gst-launch-1.0 failed (\(process.terminationStatus)): \(message)")
        return input
    }
    return Words(width: outputWidth, height: outputHeight, packedBytes: [UInt8](try Data(contentsOf: outURL)))
}
