import Foundation
import XCTest
import FilterCore

/// Look files for the tests: written into a temporary folder, removed with it.
final class LookFiles {
    let folder: String

    init() {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("filtercam-looks-\(UUID().uuidString)").path
        try! FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: folder) }

    /// Writes `text` to `name` in the folder and returns its path.
    @discardableResult
    func write(_ name: String, _ text: String) -> String {
        let path = (folder as NSString).appendingPathComponent(name)
        FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        return path
    }

    func write(_ name: String, bytes: [UInt8]) -> String {
        let path = (folder as NSString).appendingPathComponent(name)
        FileManager.default.createFile(atPath: path, contents: Data(bytes))
        return path
    }

    /// A `.cube` text: `header` lines, then one line per entry.
    static func cube(_ header: [String], _ entries: [[Double]]) -> String {
        (header + entries.map { $0.map { String($0) }.joined(separator: " ") }).joined(separator: "\n") + "\n"
    }

    /// The identity lattice of size 2: its corners, red fastest.
    static let identity2: [[Double]] = (0..<8).map { (i: Int) -> [Double] in
        let r = Double(i & 1), g = Double((i >> 1) & 1), b = Double(i >> 2)
        return [r, g, b]
    }

    /// The identity lattice of `size`, as a tool writes it (six decimals).
    static func identityCube(size n: Int) -> String {
        // "0.031250": six decimals, rounded (String(format:) is slow in a debug build).
        let steps = (0..<n).map { i -> String in
            let millionths = String(Int((Double(i) / Double(n - 1) * 1e6).rounded()))
            return millionths == "1000000" ? "1.000000" : "0." + String(repeating: "0", count: 6 - millionths.count) + millionths
        }
        var text = "# identity\nLUT_3D_SIZE \(n)\n"
        for b in steps { for g in steps { for r in steps { text += "\(r) \(g) \(b)\n" } } }
        return text
    }
}

/// The repository's folder (for the shipped looks and the fixtures).
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path

/// The shipped looks (`looks/*.cube`, written by scripts/make-looks.py).
var shippedLooks: [String] {
    let folder = repositoryRoot + "/looks"
    return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".cube") }.sorted()
        .map { folder + "/" + $0 }
}

/// The message of the error `body` throws, or a failure.
func lookError(_ body: () throws -> Void, file: StaticString = #filePath, line: UInt = #line) -> String {
    do {
        try body()
        XCTFail("no error", file: file, line: line)
        return ""
    } catch {
        return "\(error)"
    }
}

/// FFmpeg on raw RGBA frames: `input` (packed RGBA, `width`×`height`), or a source's first
/// frame (`-f lavfi -i …`, `-i file.png`) when `input` is nil, through each filter graph of
/// `filters` in one run (an FFmpeg start costs more than these frames); the raw RGBA of each.
func ffmpegRGBA(_ input: [UInt8]?, width: Int, height: Int, filters: [String], source: String? = nil) throws -> [[UInt8]] {
    let tool = "/usr/bin/ffmpeg"
    guard FileManager.default.isExecutableFile(atPath: tool) else {
        throw XCTSkip("FFmpeg is not installed at \(tool); this comparison needs it")
    }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("filtercam-ffmpeg-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let inputPath = folder.appendingPathComponent("in.raw").path
    var arguments = ["-v", "error", "-y"]
    if let input {
        FileManager.default.createFile(atPath: inputPath, contents: Data(input))
        arguments += ["-f", "rawvideo", "-pix_fmt", "rgba", "-s", "\(width)x\(height)", "-i", inputPath]
    } else if let source {
        arguments += source.split(separator: " ").map(String.init)
    }
    let outputs = filters.indices.map { folder.appendingPathComponent("out\($0).raw").path }
    let labels = filters.indices.map { "[s\($0)]" }.joined()
    let graph = "[0:v]split=\(filters.count)\(labels);"
        + filters.enumerated().map { "[s\($0.offset)]\($0.element)[o\($0.offset)]" }.joined(separator: ";")
    arguments += ["-filter_complex", graph]
    for (i, path) in outputs.enumerated() {
        arguments += ["-map", "[o\(i)]", "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgba", path]
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tool)
    process.arguments = arguments
    let errors = Pipe()
    process.standardError = errors
    try process.run()
    let message = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let data = outputs.compactMap { FileManager.default.contents(atPath: $0) }
    guard process.terminationStatus == 0, data.count == outputs.count else {
        throw XCTSkip("ffmpeg \(arguments.joined(separator: " ")) failed: \(String(decoding: message, as: UTF8.self))")
    }
    return data.map { [UInt8]($0) }
}

extension Picture {
    /// Packed RGBA bytes.
    var rgbaBytes: [UInt8] { pixels.flatMap { [$0.r, $0.g, $0.b, $0.a] } }

    init(width: Int, height: Int, rgba: [UInt8]) {
        self.init(width: width, height: height, pixels: (0..<(width * height)).map {
            RGBA(r: rgba[4 * $0], g: rgba[4 * $0 + 1], b: rgba[4 * $0 + 2], a: rgba[4 * $0 + 3])
        })
    }
}
