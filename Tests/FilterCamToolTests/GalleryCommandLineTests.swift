import FilterCamTestSupport
import Foundation
import XCTest

/// The effects gallery through `filtercam launch`'s stdin, one command a line, as the
/// terminal's keys and the window's send them: each says what it changed on its own line.
final class GalleryCommandLineTests: XCTestCase {
    func testGalleryCommandsOnStdin() throws {
        // From none (the catalog's first): the next page's same cell is white-balance (9),
        // right of it channel-mix (10).
        let r = try runCLI(["launch", "videotestsrc is-live=true ! video/x-raw,format=I420,width=64,height=48,framerate=30/1 "
                            + "! filtercam ! fakesink"],
                           stdin: "gallery\nnext-page\nlens-right\nclose-gallery\nclose-gallery\nnext-page\nquit\n", timeout: 30)
        XCTAssertEqual(r.status, 0, r.stderr)
        let lines = r.stderr.split(separator: "\n").map(String.init)
        let expected = ["gallery: open (arrows or a click choose, PgUp/PgDn turn pages, g or Esc closes)",
                        "filter: white-balance temperature=3500", "filter: channel-mix matrix=<0,0.7,0.3,0, 0,1,0,0, 0,0,1,0>",
                        "gallery: closed"]
        XCTAssertEqual(lines.filter { expected.contains($0) }, expected, r.stderr)
        // Closing a closed gallery says nothing; turning its page while closed is refused.
        XCTAssertEqual(lines.filter { $0 == "gallery: closed" }.count, 1, r.stderr)
        XCTAssertTrue(lines.contains("command error: the effects gallery is closed: 'g' opens it"), r.stderr)
    }

    /// Esc and Enter in a terminal send close-gallery: with no filtercam to close it on, it
    /// says nothing (no error at every Enter).
    func testCloseGalleryIsQuietWithoutAFiltercam() throws {
        let r = try runCLI(["launch", "videotestsrc is-live=true ! video/x-raw,width=64,height=48,framerate=30/1 ! fakesink"],
                           stdin: "close-gallery\nquit\n", timeout: 30)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertFalse(r.stderr.contains("command error"), r.stderr)
    }
}
