import CGStreamer
@testable import FilterCamHost
import FilterCamTestSupport
import FilterCore
import Foundation
import XCTest

/// `filtercam filters --preview DIR`: one PNG per filter, made from the shipped photo (a
/// face and colours, docs/filters/photo.jpg), the previews the README shows.
final class FilterPreviewTests: XCTestCase {
    /// A PNG's pixels as BGRx bytes.
    private func pixels(_ png: String) throws -> CapturedFrame {
        try XCTUnwrap(try collectFrames("filesrc location=\(png) ! pngdec ! videoconvert ! video/x-raw,format=BGRx").first)
    }

    func testPreviewsAreTheFiltersOnTheShippedPhoto() throws {
        let folder = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: folder) }
        let r = try runCLI(["filters", "--preview", folder.path], timeout: 60)
        XCTAssertEqual(r.status, 0, r.stderr)
        // The catalog as the CLI has it (this process may have registered example filters
        // too): the built-in filters and, by default, the shipped looks.
        let looks = try FileManager.default.contentsOfDirectory(atPath: Build.packageRoot + "/looks")
            .filter { $0.hasSuffix(".cube") }.map { "look:" + $0.dropLast(".cube".count) }
        XCTAssertTrue(looks.contains("look:teal-orange"), "\(looks)")
        let ids = FilterRegistry(registeringBuiltIns: true).ids + looks
        XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: folder.path)),
                       Set(ids.map { "\($0.replacingOccurrences(of: ":", with: "-")).png" }))
        // none: the photo scaled to 160×120 by stock elements.
        let photo = Build.packageRoot + "/docs/filters/photo.jpg"
        let reference = try XCTUnwrap(try collectFrames(
            "filesrc location=\(photo) ! jpegdec ! videoconvert ! video/x-raw,format=BGRx ! videoscale ! video/x-raw,width=160,height=120").first)
        let none = try pixels(folder.path + "/none.png"), mono = try pixels(folder.path + "/mono.png")
        let invert = try pixels(folder.path + "/invert.png")
        XCTAssertEqual([none.width, none.height], [160, 120])
        var colours = Set<[UInt8]>()
        for y in stride(from: 0, to: 120, by: 7) {
            for x in stride(from: 0, to: 160, by: 7) {
                let p = none.pixel(x, y), q = reference.pixel(x, y)
                for c in 0..<3 { XCTAssertEqual(Int(p[c]), Int(q[c]), accuracy: 2, "none at (\(x), \(y))") }
                colours.insert(Array(p[0..<3]).map { $0 / 32 })
                // mono: R = G = B = Rec.601 luma (±1); invert: 255 − each channel.
                let m = mono.pixel(x, y), i = invert.pixel(x, y)
                XCTAssertTrue(m[0] == m[1] && m[1] == m[2], "mono at (\(x), \(y)): \(m)")
                XCTAssertEqual(Double(m[0]), 0.299 * Double(p[2]) + 0.587 * Double(p[1]) + 0.114 * Double(p[0]), accuracy: 1.5)
                for c in 0..<3 { XCTAssertEqual(Int(i[c]), 255 - Int(p[c]), accuracy: 1, "invert at (\(x), \(y))") }
            }
        }
        XCTAssertGreaterThan(colours.count, 40, "a photo, not a test pattern of a few colours")
    }

    /// `filters ID --preview DIR` writes that filter's alone (it was refused: "one filter at
    /// a time, not 3"); lut's shows the shipped look teal-orange, from any folder (run
    /// elsewhere than the repository it was the photo untouched).
    func testOneFiltersPreviewAndLutsFromAnyFolder() throws {
        let folder = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Build.requireCLI()
        let r = try runProcess("/bin/sh", ["-c", "cd \"$0\" && exec \"$1\" filters lut --preview .",
                                           folder.path, Build.cli], timeout: 60)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: folder.path)), ["lut.png"])
        let both = try runProcess("/bin/sh", ["-c", "cd \"$0\" && \"$1\" filters look:teal-orange --preview . && exec \"$1\" filters none --preview .",
                                              folder.path, Build.cli], timeout: 60)
        XCTAssertEqual(both.status, 0, both.stderr)
        let lut = try pixels(folder.path + "/lut.png"), look = try pixels(folder.path + "/look-teal-orange.png")
        let none = try pixels(folder.path + "/none.png")
        XCTAssertEqual(lut.bytes, look.bytes)
        XCTAssertNotEqual(lut.bytes, none.bytes)
        let sepia = try runCLI(["filters", "sepia", "--preview", folder.path], timeout: 60)
        XCTAssertEqual(sepia.status, 0, sepia.stderr)
        XCTAssertEqual(sepia.stdoutText.split(separator: "\n").map(String.init), [folder.path + "/sepia.png"])
    }

    func testPreviewNeedsAFolderAndAReadablePicture() throws {
        let noFolder = try runCLI(["filters", "--preview"])
        XCTAssertEqual(noFolder.status, 2)
        XCTAssertTrue(noFolder.stderr.contains("--preview DIR [--picture FILE]"), noFolder.stderr)
        let missing = try runCLI(["filters", "--preview", NSTemporaryDirectory(), "--picture", "/no/such.jpg"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.contains("'/no/such.jpg'"), missing.stderr)
        // A folder, or a file that is no picture, is named as such (the message was the
        // internal pipeline's), and no output folder is left behind.
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let text = dir.appendingPathComponent("notes.cube")
        try "not a picture\n".write(to: text, atomically: true, encoding: .utf8)
        for (picture, said) in [(dir.path, "is a folder, not a picture"), (text.path, "is not a picture FilterCam can read")] {
            let out = dir.appendingPathComponent("previews").path
            let r = try runCLI(["filters", "--preview", out, "--picture", picture], timeout: 60)
            XCTAssertEqual(r.status, 1, r.summary)
            XCTAssertTrue(r.stderr.contains(said) && !r.stderr.contains("uridecodebin"), r.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: out), "an empty folder was left")
        }
    }
}
