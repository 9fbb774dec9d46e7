import CFilterCamShim
import CGStreamer
@testable import FilterCamHost
@testable import FilterCamTool
import FilterCamTestSupport
import Foundation
import XCTest

/// Pixels through the `filtercam` element, compared with references that do not go
/// through it: the same pipeline without filtercam, or values computed here by hand.
final class FramePixelTests: XCTestCase {
    override func setUp() {
        GStreamer.initialize()
    }

    private func source(_ format: String, width: Int, height: Int, frames: Int, pattern: String, extra: String = "") -> String {
        "videotestsrc num-buffers=\(frames) pattern=\(pattern) \(extra) ! video/x-raw,format=\(format),width=\(width),height=\(height),framerate=30/1"
    }

    // 2. filter=none: byte-identical frames, PTS and durations preserved.
    func testFilterNoneIsByteIdenticalWithTimestamps() throws {
        for format in ["BGRA", "RGBA", "RGBx"] {
            let src = source(format, width: 64, height: 48, frames: 10, pattern: "ball")
            let reference = try collectFrames(src)
            let filtered = try collectFrames(src + " ! filtercam filter=none")
            XCTAssertEqual(reference.count, 10, format)
            XCTAssertEqual(filtered.count, reference.count, format)
            // The reference is meaningful: the ball moves, every frame has a timestamp.
            XCTAssertNotEqual(reference.first?.bytes, reference.last?.bytes, "\(format): ball frames should differ")
            for (i, (r, f)) in zip(reference, filtered).enumerated() {
                XCTAssertEqual(f.format, format)
                XCTAssertEqual(f.width, 64); XCTAssertEqual(f.height, 48)
                XCTAssertNotNil(r.pts); XCTAssertNotNil(r.duration)
                XCTAssertEqual(f.pts, r.pts, "\(format) frame \(i) PTS")
                XCTAssertEqual(f.duration, r.duration, "\(format) frame \(i) duration")
                XCTAssertEqual(r.pts, frameTime(i), "\(format) frame \(i): reference PTS")
                XCTAssertTrue(f.bytes == r.bytes, "\(format) frame \(i): bytes differ from the input")
            }
        }
    }

    // 3. Odd size, every format: invert = 255 − c on colour, alpha untouched.
    func testInvertOddSizeAllFormats() throws {
        for format in ["BGRA", "BGRx", "RGBA", "RGBx"] {
            // Ball: a foreground disc blended over a background, both with partial alpha.
            let src = source(format, width: 33, height: 17, frames: 3, pattern: "ball",
                             extra: "background-color=0x80204060 foreground-color=0xC0F0A010")
            let reference = try collectFrames(src)
            let filtered = try collectFrames(src + " ! filtercam filter=invert intensity=1")
            XCTAssertEqual(reference.count, 3, format)
            XCTAssertEqual(filtered.count, 3, format)
            if format.hasSuffix("A") {
                XCTAssertNotEqual(reference[0].pixel(0, 0)[3], 255, "\(format): reference alpha should be partial")
            }
            XCTAssertGreaterThan(Set(stride(from: 0, to: reference[0].bytes.count, by: 4).map { reference[0].bytes[$0] }).count, 2,
                                 "\(format): reference should hold several colours")
            for (i, (r, f)) in zip(reference, filtered).enumerated() {
                XCTAssertEqual(f.width, 33); XCTAssertEqual(f.height, 17); XCTAssertEqual(f.format, format)
                var mismatches = 0
                var firstMismatch = ""
                for p in 0..<(33 * 17) {
                    for c in 0..<4 {
                        let expected = c == 3 ? r.bytes[p * 4 + c] : 255 - r.bytes[p * 4 + c]
                        if f.bytes[p * 4 + c] != expected {
                            if mismatches == 0 { firstMismatch = "pixel \(p % 33),\(p / 33) byte \(c): \(f.bytes[p * 4 + c]) != \(expected)" }
                            mismatches += 1
                        }
                    }
                }
                XCTAssertEqual(mismatches, 0, "\(format) frame \(i): \(firstMismatch)")
                XCTAssertEqual(f.pts, r.pts, "\(format) frame \(i) PTS")
            }
        }
    }

    // 4. Buffers whose GstVideoMeta gives a padded stride.
    func testInvertHonoursPaddedStrideFromVideoMeta() throws {
        let width = 33, height = 17, stride = 33 * 4 + 12, count = 3
        func input(_ x: Int, _ y: Int, _ f: Int) -> [UInt8] {
            [UInt8((x * 7 + y * 3 + f) & 255), UInt8((x * 13 + y) & 255), UInt8((y * 17 + f * 5) & 255), UInt8((x + y * 2 + 9) & 255)]
        }
        let frames = try runPaddedFrames(through: "filtercam filter=invert intensity=1", width: width, height: height,
                                         stride: stride, count: count, pixel: input)
        XCTAssertEqual(frames.count, count)
        for (f, frame) in frames.enumerated() {
            XCTAssertEqual(frame.pts, frameTime(f))
            var mismatches = 0
            var firstMismatch = ""
            for y in 0..<height { for x in 0..<width {
                let p = input(x, y, f)
                let expected = [255 - p[0], 255 - p[1], 255 - p[2], p[3]]
                if frame.pixel(x, y) != expected {
                    if mismatches == 0 { firstMismatch = "(\(x),\(y)): \(frame.pixel(x, y)) != \(expected)" }
                    mismatches += 1
                }
            } }
            XCTAssertEqual(mismatches, 0, "frame \(f): \(firstMismatch)")
        }
    }

    // 5. A property set while PLAYING applies to later frames.
    func testFilterChangedWhilePlayingTakesEffect() throws {
        let switchAt = 3
        var switchError: Error?
        let frames = try collectFrames(
            "videotestsrc is-live=true pattern=white num-buffers=24 ! video/x-raw,format=BGRA,width=64,height=48,framerate=30/1 ! filtercam name=fc filter=none intensity=1",
            onFrame: { i, _, pipeline in
                guard i == switchAt - 1 else { return }
                do { try Pipeline.setProperty(try pipeline.requireElement("fc"), "filter", "invert") } catch { switchError = error }
            })
        XCTAssertNil(switchError)
        XCTAssertGreaterThanOrEqual(frames.count, 12, "a live source with a fast sink should lose few frames")
        guard frames.count >= 12 else { return }
        for i in 0..<switchAt {
            XCTAssertEqual(frames[i].pixel(10, 10), [255, 255, 255, 255], "frame \(i) before the change is white")
        }
        // Allow a few frames already in flight; the last ones must all be inverted.
        for i in (frames.count - 8)..<frames.count {
            let f = frames[i]
            let allBlack = stride(from: 0, to: f.bytes.count, by: 4).allSatisfy {
                f.bytes[$0] == 0 && f.bytes[$0 + 1] == 0 && f.bytes[$0 + 2] == 0 && f.bytes[$0 + 3] == 255
            }
            XCTAssertTrue(allBlack, "frame \(i) after filter=invert should be black with alpha 255, got \(f.pixel(10, 10))")
        }
    }
}
