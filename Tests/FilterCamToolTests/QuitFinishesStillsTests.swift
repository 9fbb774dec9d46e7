import FilterCamTestSupport
import Foundation
import XCTest

/// `quit` right after a command that asks for something of the frames to come: it waits
/// for it. A bracket set takes consecutive frames (EOS after the first still cut the set to
/// one or two); a countdown's still comes seconds later; a recording starts with the next
/// frame (`record` then `quit` left no file and said nothing).
final class QuitFinishesStillsTests: XCTestCase {
    private var dir: URL!

    override func setUpWithError() throws { dir = try makeTempDir() }
    override func tearDown() { try? FileManager.default.removeItem(at: dir) }

    /// `filtercam launch` of a live 64×48 I420 source at `fps` into `filtercam` (its
    /// properties), `stdin` piped in.
    private func launch(fps: Int, pattern: String = "", _ filtercam: String, stdin: String) throws -> ProcessResult {
        try runCLI(["launch", "videotestsrc is-live=true \(pattern) ! video/x-raw,format=I420,width=64,height=48,framerate=\(fps)/1 ! "
                    + "filtercam \(filtercam) ! fakesink"], stdin: stdin, timeout: 30)
    }
    func testQuitAfterABracketedSnapshotWritesTheWholeSet() throws {
        // 5 frames a second: the set's three frames span 0.4 s, far longer than writing one still.
        // A command after `snapshot` waits for the whole set: `rotate` turned its last two.
        let r = try launch(fps: 5, "snapshot-bracket=-1,0,1 flash=false snapshot-location=\(dir.path)/b-%d.jpg", stdin: "snapshot\nrotate\nquit\n")
        XCTAssertEqual(r.status, 0, r.summary)
        let written = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        XCTAssertEqual(written, ["b-0-ev+0.jpg", "b-0-ev+1.jpg", "b-0-ev-1.jpg"], r.stderr)
        XCTAssertFalse(r.stderr.contains("failed"), r.stderr)
        for bias in ["-1", "+0", "+1"] { XCTAssertTrue(r.stderr.contains("saved \(dir.path)/b-0-ev\(bias).jpg 64x48"), r.stderr) }
        XCTAssertTrue(r.stderr.contains("rotate: 90° clockwise"), r.stderr)
    }

    /// A command after `record` waits for the recording to start: a location set after it
    /// named the file, and a filter set after it was on its first frame.
    func testCommandsAfterRecordWaitForItsStart() throws {
        let r = try launch(fps: 10, "record-location=\(dir.path)/A-%d.mp4",
                           stdin: "record\nset record-location=\(dir.path)/B-%d.mp4\nquit\n")
        XCTAssertEqual(r.status, 0, r.summary)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), ["A-0.mp4"], r.stderr)
    }

    /// Piped at once, commands still change the picture in order: each still shows what the
    /// commands before it set and nothing after (every still once showed the last state).
    func testCommandsPipedAtOnceChangeTheStillsInOrder() throws {
        let r = try launch(fps: 10, pattern: "pattern=smpte", "flash=false snapshot-location=\(dir.path)/s-%d.jpg",
                           stdin: "filter mono\nsnapshot\nfilter invert\nsnapshot\nrotate\nsnapshot\nquit\n")
        XCTAssertEqual(r.status, 0, r.summary)
        func still(_ i: Int) throws -> CapturedFrame {
            try XCTUnwrap(try collectFrames("filesrc location=\(dir.path)/s-\(i).jpg ! jpegdec ! videoconvert ! video/x-raw,format=RGBx").first)
        }
        let mono = try still(0), inverted = try still(1), turned = try still(2)
        XCTAssertEqual([mono.width, mono.height, inverted.width, inverted.height, turned.width, turned.height], [64, 48, 64, 48, 48, 64], r.stderr)
        // The bars' left half: white, yellow, cyan, green at the top (full strength here). Mono
        // greys them (R = G = B, JPEG's chroma aside); invert makes white black and yellow blue.
        let yellow = mono.pixel(13, 10)
        XCTAssertEqual(Int(yellow[0]), Int(yellow[2]), accuracy: 8, "mono still: yellow bar \(yellow)")
        XCTAssertEqual(Int(inverted.pixel(3, 10)[0]), 0, accuracy: 8, "inverted still: the white bar")
        XCTAssertGreaterThan(Int(inverted.pixel(13, 10)[2]), 150, "inverted still: yellow's blue")
        // Turned clockwise: the bars run across, white at the top, their top edge on the right.
        XCTAssertEqual(Int(turned.pixel(37, 3)[0]), 0, accuracy: 8, "turned, still inverted: the white bar")
        XCTAssertGreaterThan(Int(turned.pixel(37, 13)[2]), 150, "turned, still inverted: yellow's blue")
    }

    /// A source that never gives a frame (a camera slow to start, a network stream not sent
    /// yet): `quit` stops as Ctrl-C does (it waited for the first frame for good); behind a
    /// command that needs a frame it waits for one at most 5 s, and says what it left.
    func testQuitBeforeAnyFrameStops() throws {
        let silent = "udpsrc port=0 caps=video/x-raw,format=I420,width=64,height=48,framerate=30/1 ! filtercam ! fakesink"
        let alone = try runCLI(["launch", silent], stdin: "quit\n", timeout: 30)
        XCTAssertEqual(alone.status, 0, alone.summary)
        XCTAssertTrue(alone.stderr.contains("Quit: sending EOS…"), alone.stderr)
        // Nothing records here (no muxer, file sink or recording): not said as if it did.
        XCTAssertFalse(alone.stderr.contains("recordings are finalised"), alone.stderr)
        let writing = try runCLI(["launch", "videotestsrc is-live=true ! matroskamux ! filesink location=/dev/null"], stdin: "quit\n", timeout: 30)
        XCTAssertTrue(writing.stderr.contains("Quit: sending EOS so recordings are finalised…"), writing.stderr)
        // Said as typed (`set zoom=abc`, not Swift's `set(element: nil, …)`), after the
        // refusal of the line before them.
        let behind = try runCLI(["launch", silent], stdin: "bogus\nrotate\nset zoom=abc\nquit\n", timeout: 30)
        XCTAssertEqual(behind.status, 0, behind.summary)
        let lines = behind.stderr.split(separator: "\n").map(String.init)
        let refusal = try XCTUnwrap(lines.firstIndex { $0.hasPrefix("command error: unknown command 'bogus'") }, behind.stderr)
        let notRun = try XCTUnwrap(lines.firstIndex(of: "not run (no frame came within 5 s of quit): rotate, set zoom=abc"), behind.stderr)
        XCTAssertLessThan(refusal, notRun, behind.stderr)
    }

    func testQuitDuringACountdownWaitsForItsStill() throws {
        let r = try launch(fps: 10, "flash=false snapshot-location=\(dir.path)/c-%d.jpg", stdin: "countdown\nquit\n")
        XCTAssertEqual(r.status, 0, r.summary)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), ["c-0.jpg"], r.stderr)
        XCTAssertTrue(r.stderr.contains("saved \(dir.path)/c-0.jpg 64x48"), r.stderr)
    }

    /// Sets begun without a request (here snapshot-every's; a countdown's did the same) were
    /// counted as a later `snapshot`'s: `snapshot` then `quit` sent EOS before its frame and
    /// the still was lost ("1 snapshot request not served").
    func testASnapshotAfterStillsNobodyAskedForIsWaitedFor() throws {
        try Build.requireCLI()
        let p = try RunningProcess(Build.cli, ["launch", "videotestsrc is-live=true ! video/x-raw,format=I420,width=64,height=48,framerate=10/1 ! "
                                                + "filtercam flash=false snapshot-every=5 snapshot-location=\(dir.path)/e-%d.jpg ! fakesink"])
        defer { if p.process.isRunning { p.interrupt() } }
        XCTAssertTrue(p.waitForStderr(containing: "saved \(dir.path)/e-0.jpg", timeout: 20), p.stderrSoFar)
        p.write("snapshot\nquit\n")
        let r = p.wait(timeout: 20)
        XCTAssertEqual(r.status, 0, r.summary)
        XCTAssertFalse(r.stderr.contains("not served"), r.stderr)
    }

    /// A still asked for while a countdown runs was taken as the countdown's: quit then
    /// sent EOS before the countdown's end, and its still was lost ("countdown called off").
    func testASnapshotDuringACountdownThenQuitGivesBothStills() throws {
        let r = try launch(fps: 10, "flash=false snapshot-location=\(dir.path)/c-%d.jpg", stdin: "countdown\nsnapshot\nquit\n")
        XCTAssertEqual(r.status, 0, r.summary)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted(), ["c-0.jpg", "c-1.jpg"], r.stderr)
        XCTAssertFalse(r.stderr.contains("called off"), r.stderr)
    }

    func testQuitRightAfterRecordLeavesAFileThatPlays() throws {
        // 5 frames a second: quit comes long before the frame that starts the recording.
        let r = try launch(fps: 5, "record-location=\(dir.path)/r-%d.mp4", stdin: "record\nquit\n")
        XCTAssertEqual(r.status, 0, r.summary)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), ["r-0.mp4"], r.stderr)
        XCTAssertTrue(r.stderr.contains("recordings=1"), r.stderr)
        let frames = try XCTUnwrap(try probeFrameCount(dir.path + "/r-0.mp4"), "ffprobe cannot read the recording")
        XCTAssertGreaterThanOrEqual(frames, 1)
    }
}
