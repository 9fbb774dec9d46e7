import FilterCamTestSupport
import Foundation
import XCTest

/// The loadable plugin under the stock GStreamer tools.
final class PluginTests: XCTestCase {
    // 1. The loadable plugin under stock gst-launch-1.0 / gst-inspect-1.0.
    func testStockGstLaunchRunsPlugin() throws {
        XCTAssertTrue(FileManager.default.fileExists(atPath: Build.plugin), "no plugin at \(Build.plugin)")
        let r = try runGstTool("gst-launch-1.0", ["videotestsrc", "num-buffers=5", "!", "filtercam", "filter=sepia", "!", "fakesink"])
        XCTAssertEqual(r.status, 0, r.summary + r.stdoutText)
        XCTAssertFalse(r.timedOut)
        XCTAssertFalse(r.stderr.contains("no element"), r.stderr)
    }

    func testStockGstLaunchProducesInvertedPixels() throws {
        // 4×2 white BGRA frame, inverted at full intensity: eight (0,0,0,255) pixels on stdout.
        let r = try runGstTool("gst-launch-1.0", ["-q", "videotestsrc", "num-buffers=1", "pattern=white", "!",
                                                  "video/x-raw,format=BGRA,width=4,height=2", "!",
                                                  "filtercam", "filter=invert", "intensity=1", "!", "fdsink", "fd=1"])
        XCTAssertEqual(r.status, 0, r.summary)
        XCTAssertEqual(Array(r.stdout), Array(repeating: [0, 0, 0, 255] as [UInt8], count: 8).flatMap { $0 })
    }

    func testStockGstInspectListsProperties() throws {
        let r = try runGstTool("gst-inspect-1.0", ["filtercam"])
        XCTAssertEqual(r.status, 0, r.summary)
        let text = r.stdoutText
        XCTAssertTrue(text.contains(Build.plugin) || text.contains("libgstfiltercam.so"), "inspect should show the plugin file")
        for p in ["filter", "intensity", "frames-processed", "frames-dropped"] {
            let found = text.split(separator: "\n").contains { line in
                line.hasPrefix("  \(p) ") && line.contains(":")
            }
            XCTAssertTrue(found, "gst-inspect-1.0 filtercam does not list \(p)")
        }
    }
}
