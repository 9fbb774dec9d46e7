import FilterCamTestSupport
import Foundation
import XCTest

/// `quit` right after a command that asks for something of the frames to come: it waits
/// for it. A bracket set takes consecutive frames (EOS after the first still cut the set to
/// one or two); a countdown's still comes seconds later; a recording starts with the next
/// frame (`record` then `quit` left no file and said nothing).
final class QuitFinishesStillsTests: XCTestCase {
    func testQuitAfterABracketedSnapshotWritesTheWholeSet() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        // 5 frames a second: the set's three frames span 0.4 s, far longer than writing one still.
        let r = try runCLI(["launch", "videotestsrc is-live=true ! video/x-raw,format=I420,width=64,height=48,framerate=5/1 ! "
                            + "filtercam snapshot-bracket=-1,0,1 flash=false snapshot-location=\(dir.path)/b-%d.jpg ! fakesink"],
                           stdin: "snapshot\nquit\n", timeout: 30)
        XCTAssertEqual(r.status, 0, r.summary)
        let written = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        XCTAssertEqual(written, ["b-0-ev+0.jpg", "b-0-ev+1.jpg", "b-0-ev-1.jpg"], r.stderr)
        XCTAssertFalse(r.stderr.contains("failed"), r.stderr)
    }

    func testQuitDuringACountdownWaitsForItsStill() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try runCLI(["launch", "videotestsrc is-live=true ! video/x-raw,format=I420,width=64,height=48,framerate=10/1 ! "
                            + "filtercam flash=false snapshot-location=\(dir.path)/c-%d.jpg ! fakesink"],
                           stdin: "countdown\nquit\n", timeout: 30)
        XCTAssertEqual(r.status, 0, r.summary)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), ["c-0.jpg"], r.stderr)
        XCTAssertTrue(r.stderr.contains("saved \(dir.path)/c-0.jpg 64x48"), r.stderr)
    }

    func testQuitRightAfterRecordLeavesAFileThatPlays() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        // 5 frames a second: quit comes long before the frame that starts the recording.
        let r = try runCLI(["launch", "videotestsrc is-live=true ! video/x-raw,format=I420,width=64,height=48,framerate=5/1 ! "
                            + "filtercam record-location=\(dir.path)/r-%d.mp4 ! fakesink"],
                           stdin: "record\nquit\n", timeout: 30)
        XCTAssertEqual(r.status, 0, r.summary)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), ["r-0.mp4"], r.stderr)
        XCTAssertTrue(r.stderr.contains("recordings=1"), r.stderr)
        let frames = try XCTUnwrap(try probeFrameCount(dir.path + "/r-0.mp4"), "ffprobe cannot read the recording")
        XCTAssertGreaterThanOrEqual(frames, 1)
    }
}
