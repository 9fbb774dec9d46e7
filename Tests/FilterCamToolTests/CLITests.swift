import CFilterCamShim
import CGStreamer
@testable import FilterCamHost
@testable import FilterCamTool
import FilterCamTestSupport
import Foundation
import XCTest

final class CLIErrorTests: XCTestCase {
    private func launchFails(_ description: String, file: StaticString = #filePath, line: UInt = #line) throws -> ProcessResult {
        let r = try runCLI(["launch", description], timeout: 20)
        XCTAssertFalse(r.timedOut, "timed out", file: file, line: line)
        XCTAssertNotEqual(r.status, 0, "'\(description)' should fail\n\(r.stderr)", file: file, line: line)
        return r
    }

    // 8. Bad property value.
    func testBadPropertyValue() throws {
        let r = try runCLI(["launch", "videotestsrc num-buffers=3 ! filtercam intensity=5 ! fakesink"], timeout: 20)
        XCTAssertNotEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("intensity"), r.stderr)
        XCTAssertTrue(r.stderr.contains("5"), r.stderr)
    }

    func testUnknownFilterListsValidFilters() throws {
        let r = try launchFails("videotestsrc num-buffers=3 ! filtercam filter=bogus ! fakesink")
        XCTAssertTrue(r.stderr.contains("bogus"), r.stderr)
        XCTAssertTrue(r.stderr.contains("sepia"), r.stderr)
        XCTAssertTrue(r.stderr.contains("invert"), r.stderr)
    }

    /// A read-only property set in a description was GLib's raw "g_object_new_is_valid_property: … is not writable".
    func testAReadOnlyPropertyIsSaidReadOnlyByItsElement() throws {
        let r = try launchFails("videotestsrc num-buffers=3 ! filtercam frames-processed=3 ! fakesink")
        XCTAssertTrue(r.stderr.contains("filtercam0.frames-processed is read-only"), r.stderr)
        XCTAssertFalse(r.stderr.contains("g_object_new_is_valid_property"), r.stderr)
    }

    func testUnknownProperty() throws {
        let r = try launchFails("videotestsrc num-buffers=3 ! filtercam nosuchprop=1 ! fakesink")
        XCTAssertTrue(r.stderr.contains("nosuchprop"), r.stderr)
        XCTAssertTrue(r.stderr.contains("filtercam"), r.stderr)
    }

    /// `pipelines/demo.pipeline` typed outside the package folder: the shipped pipeline
    /// of that name is named (it only said the file does not exist).
    func testAMissingFileNamedAsAShippedPipelineSaysHowToLaunchIt() throws {
        let r = try launchFails("nowhere/demo.pipeline")
        XCTAssertTrue(r.stderr.contains("pipeline file 'nowhere/demo.pipeline' does not exist; "
                                        + "the shipped pipeline of that name is 'filtercam launch demo'"), r.stderr)
    }

    /// One quoted description of a single element with a slash in it (a player's URI) is
    /// a description: it was taken for a pipeline file that "does not exist".
    func testAQuotedPlayerDescriptionIsNoFile() throws {
        let r = try launchFails("playbin uri=file:///nowhere/clip.mp4 video-sink=fakesink audio-sink=fakesink")
        XCTAssertFalse(r.stderr.contains("pipeline file"), r.stderr)
        XCTAssertTrue(r.stderr.contains("/nowhere/clip.mp4"), r.stderr)
    }

    /// `--messages` to stdout with the stream going there too (`fdsink fd=1`): refused, the
    /// JSON lines went into the raw frames.
    func testMessagesAndTheStreamInOneStdoutAreRefused() throws {
        let r = try runCLI(["launch", "--messages", "videotestsrc num-buffers=2 ! fdsink fd=1"], timeout: 30)
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("--messages writes to stdout, where fdsink0 writes the stream"), r.stderr)
    }

    func testBrokenDescription() throws {
        let r = try launchFails("videotestsrc ! ! fakesink")
        XCTAssertTrue(r.stderr.lowercased().contains("syntax"), r.stderr)
    }

    func testMissingPipelineFile() throws {
        let r = try runCLI(["launch", "/nonexistent.pipeline"], timeout: 20)
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.stderr.contains("/nonexistent.pipeline"), r.stderr)
    }

    func testUnsetVariableInPipelineFile() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("unset.pipeline").path
        try "# test\nvideotestsrc num-buffers=${FC_TEST_UNSET_FRAMES}\n ! filtercam ! fakesink\n".write(toFile: path, atomically: true, encoding: .utf8)
        let r = try runCLI(["launch", path], environment: ["FC_TEST_UNSET_FRAMES": nil], timeout: 20)
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.stderr.contains("FC_TEST_UNSET_FRAMES"), r.stderr)
        XCTAssertTrue(r.stderr.contains("\(path):2"), "the error should name the file and line 2: \(r.stderr)")
    }

    func testUnacceptedFormatHintsVideoconvert() throws {
        for description in ["videotestsrc num-buffers=3 ! video/x-raw,format=Y444 ! filtercam ! fakesink",
                            "videotestsrc num-buffers=3 ! video/x-raw,format=Y444 ! identity ! filtercam ! fakesink"] {
            let r = try launchFails(description)
            XCTAssertTrue(r.stderr.contains("BGRA"), r.stderr)
            XCTAssertTrue(r.stderr.contains("videoconvert"), r.stderr)
        }
    }

    func testUnacceptedFormatInPipelineFileHintsVideoconvert() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("y444.pipeline").path
        try "videotestsrc num-buffers=3\n ! video/x-raw,format=Y444\n ! filtercam\n ! fakesink\n".write(toFile: path, atomically: true, encoding: .utf8)
        let r = try runCLI(["launch", path], timeout: 20)
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.stderr.contains("BGRA") && r.stderr.contains("videoconvert"), r.stderr)
    }

    func testUnknownCommand() throws {
        let r = try runCLI(["frobnicate"], timeout: 10)
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.stderr.contains("frobnicate"), r.stderr)
    }
}

final class CLIRunTests: XCTestCase {
    // 9. Ctrl-C finishes a recording cleanly.
    func testInterruptFinalisesRecording() throws {
        let out = try recordingFile()
        let p = try startedRecording(out, format: "BGRA")
        Thread.sleep(forTimeInterval: 3)
        p.interrupt()
        let r = p.wait(timeout: 10)
        XCTAssertFalse(r.timedOut, "no exit within 10 s of SIGINT")
        XCTAssertFalse(r.signaled, "killed by the signal instead of handling it")
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("processed="), r.stderr)
        let duration = try XCTUnwrap(try probeDuration(out), "ffprobe cannot read \(out)")
        XCTAssertGreaterThanOrEqual(duration, 2.0)
        XCTAssertLessThanOrEqual(duration, 5.0)
    }

    /// One SIGINT delivered twice at once (`timeout -s INT` sends it to the program and again
    /// to its process group) is one Ctrl-C: the recording is finished. It was taken for two,
    /// an abort leaving an MP4 without its index (a tester: 3 of 22 runs).
    func testOneInterruptDeliveredTwiceAtOnceFinishesTheRecording() throws {
        try assertOneStop(signals: [SIGINT, SIGINT], says: ["Interrupt: sending EOS"])
    }

    /// systemd's stop with SendSIGHUP=yes (and a logout's) is SIGTERM and at once SIGHUP:
    /// one stop, the recording finished. It was "interrupted twice", an MP4 without its index.
    func testTerminateAndHangUpAtOnceFinishTheRecording() throws {
        // The kernel may hand the hang-up in first: either names the stop.
        try assertOneStop(signals: [SIGTERM, SIGHUP], says: ["Terminated (SIGTERM): sending EOS", "Hang-up (the terminal closed): sending EOS"])
    }

    /// `signals` sent at once to a recording are one stop (the terminal says one of `says`):
    /// EOS, the file finished.
    private func assertOneStop(signals: [Int32], says: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        let out = try recordingFile()
        let p = try startedRecording(out, format: "I420")
        for s in signals { kill(p.process.processIdentifier, s) }
        let r = p.wait(timeout: 20)
        XCTAssertFalse(r.timedOut, r.stderr, file: file, line: line)
        XCTAssertEqual(r.status, 0, r.stderr, file: file, line: line)
        XCTAssertTrue(says.contains { r.stderr.contains($0) }, r.stderr, file: file, line: line)
        XCTAssertFalse(r.stderr.contains("aborting"), r.stderr, file: file, line: line)
        XCTAssertNotNil(try probeDuration(out), "ffprobe cannot read \(out): \(r.stderr)", file: file, line: line)
    }

    /// `filtercam launch` recording a live sepia picture in FORMAT into `out`, once its first
    /// frame has passed: piped commands wait for it, so the answer says the recording runs
    /// (a start slowed by a busy machine is not counted in a length measured after it).
    private func startedRecording(_ out: String, format: String) throws -> RunningProcess {
        let p = try RunningProcess(Build.cli, ["launch",
            "videotestsrc is-live=true ! video/x-raw,format=\(format),width=64,height=48,framerate=30/1 ! filtercam filter=sepia ! videoconvert "
            + "! x264enc tune=zerolatency speed-preset=ultrafast ! mp4mux ! filesink location=\(out)"])
        p.write("set filter=sepia\n")
        XCTAssertTrue(p.waitForStderr(containing: "set filtercam0.filter = sepia", timeout: 30), p.stderrSoFar)
        return p
    }

    /// `rec.mp4` in a temporary folder removed after the test (the program is built).
    private func recordingFile() throws -> String {
        try Build.requireCLI()
        let dir = try makeTempDir()
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        return dir.appendingPathComponent("rec.mp4").path
    }

    /// A live recording as `filtercam launch` runs it, into `out`.
    private static func recording(_ out: String) -> [String] {
        ["launch", "videotestsrc is-live=true ! video/x-raw,format=I420,width=64,height=48,framerate=30/1 ! filtercam filter=sepia ! "
            + "x264enc tune=zerolatency speed-preset=ultrafast ! mp4mux ! filesink location=\(out)"]
    }

    /// Closing the terminal (SIGHUP) finishes the recording as Ctrl-C does: it was killed,
    /// leaving a file without its index. The terminal is told why.
    func testHangUpFinishesTheRecording() throws {
        let out = try recordingFile()
        let p = try RunningProcess(Build.cli, Self.recording(out))
        p.write("set filter=sepia\n")   // answered once the first frame has passed
        XCTAssertTrue(p.waitForStderr(containing: "set filtercam0.filter = sepia", timeout: 30), p.stderrSoFar)
        kill(p.process.processIdentifier, SIGHUP)
        let r = p.wait(timeout: 15)
        XCTAssertFalse(r.signaled, "killed by SIGHUP instead of handling it")
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("Hang-up (the terminal closed): sending EOS"), r.stderr)
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(try probeFrameCount(out), "ffprobe cannot read \(out)"), 1)
    }

    /// Under `nohup` (SIGHUP ignored from the start) a closed terminal does not end the
    /// recording: it stayed ignored, as nohup's users count on (filtercam took it over).
    func testUnderNohupAHangUpIsIgnored() throws {
        try Build.requireCLI()
        let p = try RunningProcess("/bin/sh", ["-c", "trap '' HUP; exec '\(Build.cli)' launch "
            + "'videotestsrc is-live=true ! video/x-raw,width=64,height=48 ! filtercam ! fakesink'"])
        p.write("set filter=sepia\n")   // answered once the first frame has passed
        XCTAssertTrue(p.waitForStderr(containing: "set filtercam0.filter = sepia", timeout: 30), p.stderrSoFar)
        kill(p.process.processIdentifier, SIGHUP)
        p.write("set filter=mono\nquit\n")   // still taking commands after the hang-up
        let r = p.wait(timeout: 15)
        XCTAssertEqual(r.status, 0, r.summary)
        XCTAssertTrue(r.stderr.contains("set filtercam0.filter = mono"), r.stderr)
        XCTAssertFalse(r.stderr.contains("Hang-up"), r.stderr)
    }

    /// `filtercam launch … 2>&1 | tee log`: Ctrl-C ends `tee` too, so what filtercam then
    /// writes finds no reader. It was killed by SIGPIPE before the recording was finished.
    func testCtrlCWithTheOutputsReaderGoneStillFinishesTheRecording() throws {
        let out = try recordingFile()
        let process = Process(), output = Pipe()
        process.executableURL = URL(fileURLWithPath: Build.cli)
        process.arguments = Self.recording(out)
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = output
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        try output.fileHandleForWriting.close()
        // The reader goes once the first frames are in the file (the few lines before fit
        // in the pipe).
        let started = Date()
        while (try? FileManager.default.attributesOfItem(atPath: out)[.size] as? Int) ?? 0 < 4096 && Date().timeIntervalSince(started) < 30 {
            usleep(20_000)
        }
        try output.fileHandleForReading.close()
        kill(process.processIdentifier, SIGINT)
        XCTAssertEqual(exited.wait(timeout: .now() + 15), .success, "no exit within 15 s of SIGINT")
        XCTAssertEqual(process.terminationReason, .exit, "killed by a signal (SIGPIPE) instead of finishing")
        XCTAssertEqual(process.terminationStatus, 0)
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(try probeFrameCount(out), "ffprobe cannot read \(out)"), 1)
    }

    /// `filtercam launch DESCRIPTION` with files limited to `kilobytes` (dash counts
    /// `ulimit -f` in blocks of 1 KB), set before the program starts; SIGXFSZ is ignored,
    /// so a write past it fails.
    private func launchUnderFileSizeLimit(kilobytes: Int, _ description: String) throws -> ProcessResult {
        try Build.requireCLI()
        return try runProcess("/bin/sh", ["-c", "ulimit -f \(kilobytes); exec '\(Build.cli)' launch '\(description)'"], timeout: 60)
    }

    /// A recording whose writes fail (a file-size limit here; a full disk alike) is not said
    /// to be written as if it played: the line says it is unfinished.
    func testARecordingWhoseWritesFailedIsSaidToBeUnfinished() throws {
        let out = try recordingFile()
        let r = try launchUnderFileSizeLimit(kilobytes: 64, "videotestsrc num-buffers=300 pattern=snow ! video/x-raw,width=320,height=240 ! "
                                             + "filtercam filter=sepia ! x264enc speed-preset=ultrafast ! mp4mux ! filesink location=\(out)")
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("File too large"), r.stderr)
        XCTAssertTrue(r.stderr.contains("wrote \(out) (") && r.stderr.contains("unfinished: writing it failed (above), it may not play"), r.stderr)
    }

    /// A device whose writes fail (/dev/full) is not said written: "wrote /dev/full" came
    /// after "No space left", read as a success.
    func testADeviceWhoseWritesFailedIsNotSaidWritten() throws {
        try Build.requireCLI()
        let r = try runProcess(Build.cli, ["launch", "videotestsrc num-buffers=30 ! video/x-raw,width=64,height=48 ! filtercam ! filesink location=/dev/full"],
                               timeout: 60)
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("writing to /dev/full failed (above)"), r.stderr)
        XCTAssertFalse(r.stderr.contains("wrote /dev/full"), r.stderr)
    }

    /// An encoder that fails at its start (x264enc at an odd size) leaves the file empty:
    /// it was said "wrote … (0 B)", read as a recording.
    func testAFileLeftEmptyByAnErrorIsNotSaidWritten() throws {
        try Build.requireCLI()
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("odd.mp4").path
        let r = try runProcess(Build.cli, ["launch", "videotestsrc num-buffers=30 ! video/x-raw,format=I420,width=65,height=49 ! filtercam "
                                           + "! x264enc ! mp4mux ! filesink location=\(out)"], timeout: 60)
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("nothing was written to \(out): it is empty (the error above)"), r.stderr)
        XCTAssertFalse(r.stderr.contains("wrote \(out)"), r.stderr)
    }

    /// The same for a recording from the element (`record=true`): its failure says the
    /// file is unfinished. The limit is set before GStreamer starts, which then may find
    /// its registry too large to rewrite: that too must not kill the program.
    func testARecordingFromTheElementWhoseWritesFailedIsSaidToBeUnfinished() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let description = "videotestsrc num-buffers=150 pattern=snow ! video/x-raw,width=320,height=240 ! "
            + "filtercam record=true record-location=\(dir.path)/r-%d.mp4 ! fakesink"
        let r = try launchUnderFileSizeLimit(kilobytes: 64, description)
        XCTAssertFalse(r.signaled, r.stderr)
        // A still or recording asked for that failed fails the run (said, the stream ran on).
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("failed (said above): exit status 1"), r.stderr)
        XCTAssertTrue(r.stderr.contains("recording \(dir.path)/r-0.mp4 stopped: ") && r.stderr.contains("File too large"), r.stderr)
        XCTAssertTrue(r.stderr.contains("the file is unfinished: it plays up to the last whole second written, if one was"), r.stderr)
        XCTAssertTrue(r.stderr.contains("processed=150"), "the stream ran on: \(r.stderr)")
    }

    /// What was recorded before the writes failed still plays: the element's recordings and
    /// the shipped record.pipeline write one-second fragments. Written with one index at
    /// the end, such a file had none ("moov atom not found") and nothing played.
    func testARecordingCutShortByAFullDiskKeepsItsWholeSeconds() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let element = "videotestsrc num-buffers=240 pattern=ball ! video/x-raw,width=320,height=240,framerate=30/1 ! "
            + "filtercam record=true record-location=\(dir.path)/r-%d.mp4 ! fakesink"
        let shipped = "OUT=\(dir.path)/p.mp4 SOURCE='videotestsrc num-buffers=240 pattern=ball ! video/x-raw,width=320,height=240,framerate=30/1' "
            + "'\(Build.cli)' launch \(Build.packageRoot)/pipelines/record.pipeline"
        for (command, file) in [("exec '\(Build.cli)' launch '\(element)'", "r-0.mp4"), ("exec env \(shipped)", "p.mp4")] {
            let r = try runProcess("/bin/sh", ["-c", "ulimit -f 100; \(command)"], timeout: 60)
            XCTAssertTrue(r.stderr.contains("File too large"), r.stderr)
            let probe = try runProcess("/usr/bin/ffprobe", ["-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
                                                            "stream=nb_read_frames", "-of", "csv=p=0", dir.appendingPathComponent(file).path])
            let frames = Int(probe.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
            XCTAssertGreaterThanOrEqual(frames, 30, "\(file): \(probe.stdoutText) \(probe.stderr) \(r.stderr.suffix(600))")
        }
    }

    /// The same when the limit is met only as the file is finished (a short recording is
    /// held in the file sink's buffer until then): said unfinished too, not only "did not
    /// finish cleanly".
    func testARecordingThatFailsAsItFinishesIsSaidToBeUnfinished() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let description = "videotestsrc num-buffers=10 ! video/x-raw,width=64,height=48 ! "
            + "filtercam record=true record-location=\(dir.path)/r-%d.mp4 ! fakesink"
        let r = try launchUnderFileSizeLimit(kilobytes: 1, description)
        XCTAssertFalse(r.signaled, r.stderr)
        XCTAssertTrue(r.stderr.contains("recording \(dir.path)/r-0.mp4 did not finish cleanly: "), r.stderr)
        XCTAssertTrue(r.stderr.contains("the file is unfinished: it plays up to the last whole second written") || r.stderr.contains("no file is left"), r.stderr)
    }

    /// A sound branch that fails once the recording runs (10 channels audioconvert cannot
    /// take) is a failed recording, and the program still ends: mp4mux had the picture's
    /// thread waiting for sound that never came, and finishing the file waited on it for good.
    func testARecordingWhoseSoundFailsEndsAndSaysSo() throws {
        try Build.requireCLI()
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let p = try RunningProcess(Build.cli, ["launch", "videotestsrc is-live=true ! video/x-raw,width=320,height=240 ! filtercam record-audio=true "
                                   + "record-audio-source=\"audiotestsrc is-live=true ! audio/x-raw,channels=10\" record-location=\(dir.path)/x-%d.mp4 ! fakesink"])
        p.write("record\n")
        XCTAssertTrue(p.waitForStderr(containing: "recording \(dir.path)/x-0.mp4 stopped: ", timeout: 30), "no failure said: \(p.stderrSoFar)")
        p.write("quit\n")
        let r = p.wait(timeout: 30)
        XCTAssertFalse(r.timedOut, "still running 30 s after quit: \(r.stderr)")
        // A still or recording asked for that failed fails the run (said, the stream ran on).
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("failed (said above): exit status 1"), r.stderr)
        XCTAssertTrue(r.stderr.contains("not-negotiated"), r.stderr)
    }

    /// An element's error that quotes nothing of the file (a missing input) still names the
    /// file's line that makes the element.
    func testAMissingInputFileIsPlacedOnItsLine() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("photo.pipeline").path
        let missing = dir.appendingPathComponent("no-such.png").path
        try "# a photo through sepia\nfilesrc location=\(missing)\n  ! pngdec ! filtercam filter=sepia ! fakesink\n".write(toFile: file, atomically: true, encoding: .utf8)
        let r = try runCLI(["launch", file], timeout: 30)
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("Resource not found"), r.stderr)
        XCTAssertTrue(r.stderr.contains("  in \(file):2: filesrc location=\(missing)"), r.stderr)
    }

    /// A stock element that ignores a value (GLib only warns) keeps the old one: `set`
    /// says so as an error instead of printing the old value as if set.
    func testASetTheElementIgnoresIsAnError() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("out.raw").path
        let r = try runCLI(["launch", "videotestsrc is-live=true ! video/x-raw,width=64,height=48 ! filesink location=\(out)"],
                           stdin: "set filesink0.location=\(dir.path)/other.raw\nset videotestsrc0.pattern=ball\nquit\n", timeout: 30)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("command error: filesink0 did not take location='\(dir.path)/other.raw' and keeps '\(out)'"), r.stderr)
        XCTAssertTrue(r.stderr.contains("set videotestsrc0.pattern = ball"), "a value taken is said as before: \(r.stderr)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path + "/other.raw"))
    }

    /// Ctrl-\\ (SIGQUIT) aborts at once, as a shell's status 131, and says so. The Swift
    /// runtime's handler waited for a key on the terminal and left the process alive.
    func testCtrlBackslashAbortsAtOnce() throws {
        try Build.requireCLI()
        let p = try RunningProcess(Build.cli, ["launch", "videotestsrc is-live=true ! video/x-raw,width=64,height=48 ! filtercam ! fakesink"])
        p.write("set filter=mono\n")
        XCTAssertTrue(p.waitForStderr(containing: "set filtercam0.filter = mono", timeout: 30), p.stderrSoFar)
        kill(p.process.processIdentifier, SIGQUIT)
        let r = p.wait(timeout: 15)
        XCTAssertFalse(r.timedOut, "still running 15 s after SIGQUIT")
        XCTAssertFalse(r.signaled, r.stderr)
        XCTAssertEqual(r.status, 131, r.stderr)
        XCTAssertTrue(r.stderr.contains("Quit (Ctrl-\\): aborting without waiting for EOS."), r.stderr)
    }

    /// Two interrupts at once (Ctrl-C and a SIGTERM a moment apart: two of one kind can
    /// merge into one) abort; the recording running then is finished by the stop and said
    /// (its file, and `recordings=1`), not left out of the summary.
    func testTwoInterruptsAtOnceSayTheRecordingFinishedByTheStop() throws {
        try Build.requireCLI()
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let p = try RunningProcess(Build.cli, ["launch", "videotestsrc is-live=true ! video/x-raw,width=64,height=48 "
                                   + "! filtercam record-location=\(dir.path)/r-%d.mp4 ! fakesink"])
        p.write("record\n")
        XCTAssertTrue(p.waitForStderr(containing: "recording \(dir.path)/r-0.mp4 (", timeout: 30), p.stderrSoFar)
        kill(p.process.processIdentifier, SIGINT)
        kill(p.process.processIdentifier, SIGTERM)
        let r = p.wait(timeout: 30)
        XCTAssertFalse(r.timedOut, r.stderr)
        XCTAssertEqual(r.status, 130, r.stderr)
        XCTAssertTrue(r.stderr.contains("aborting without waiting for EOS."), r.stderr)
        XCTAssertTrue(r.stderr.contains("recorded \(dir.path)/r-0.mp4: "), r.stderr)
        XCTAssertTrue(r.stderr.contains("recordings=1"), r.stderr)
        XCTAssertGreaterThan(try probeFrameCount(dir.path + "/r-0.mp4") ?? 0, 0)
    }

    /// A second Ctrl-C while the stop is held up (an element asleep in its streaming thread,
    /// as x264enc flushing a long look-ahead) ends the process within a second and still
    /// says what the stop would have: the summary, and the file written so far, unfinished.
    func testAnAbortWhoseStopIsStuckStillSaysTheSummaryAndTheUnfinishedFile() throws {
        try Build.requireCLI()
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("frames.raw").path
        let p = try RunningProcess(Build.cli, ["launch", "videotestsrc is-live=true ! video/x-raw,width=64,height=48 ! filtercam name=fc ! tee name=t "
                                   + "! queue max-size-buffers=0 max-size-bytes=0 max-size-time=0 ! identity sleep-time=30000000 ! fakesink async=false "
                                   + "t. ! queue ! filesink buffer-mode=unbuffered location=\(out)"])
        // A frame in the file: the other branch's first one is in identity's 30 s sleep (its
        // queue holds what follows, so the tee never waits).
        let deadline = Date().addingTimeInterval(30)
        while ((try? FileManager.default.attributesOfItem(atPath: out))?[.size] as? Int ?? 0) == 0 && Date() < deadline { usleep(20_000) }
        p.interrupt()
        XCTAssertTrue(p.waitForStderr(containing: "sending EOS", timeout: 30), p.stderrSoFar)
        p.interrupt()
        let r = p.wait(timeout: 20)
        XCTAssertFalse(r.timedOut, r.stderr)
        XCTAssertEqual(r.status, 130, r.stderr)
        XCTAssertLessThan(r.elapsed, 20, "ended by the abort, not by identity waking")
        XCTAssertTrue(r.stderr.contains("Interrupted again: aborting without waiting for EOS."), r.stderr)
        XCTAssertTrue(r.stderr.contains("filtercam fc: processed="), r.stderr)
        XCTAssertTrue(r.stderr.contains("wrote \(out) (") && r.stderr.contains("unfinished: aborted before EOS reached it, it may not play"), r.stderr)
        XCTAssertEqual(r.stderr.components(separatedBy: "filtercam fc: processed=").count, 2, "said once: \(r.stderr)")
    }

    /// The same with the element's own recording running, aborted by Ctrl-\\ (no EOS sent,
    /// which would have finished it): the stop that would finish it never comes, so it is
    /// said unfinished, as a file sink's file.
    func testAnAbortWhoseStopIsStuckSaysTheElementsRecordingIsUnfinished() throws {
        try Build.requireCLI()
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let p = try RunningProcess(Build.cli, ["launch", "videotestsrc is-live=true ! video/x-raw,width=64,height=48 ! filtercam name=fc record=true "
                                   + "record-location=\(dir.path)/r-%d.mp4 ! identity sleep-time=30000000 ! fakesink async=false"])
        XCTAssertTrue(p.waitForStderr(containing: "recording \(dir.path)/r-0.mp4 (", timeout: 30), p.stderrSoFar)
        kill(p.process.processIdentifier, SIGQUIT)
        let r = p.wait(timeout: 20)
        XCTAssertFalse(r.timedOut, r.stderr)
        XCTAssertEqual(r.status, 131, r.stderr)
        XCTAssertTrue(r.stderr.contains("Quit (Ctrl-\\): aborting without waiting for EOS."), r.stderr)
        XCTAssertTrue(r.stderr.contains("recording \(dir.path)/r-0.mp4 unfinished: aborted before it was finished (no index), it may not play"), r.stderr)
    }

    // 11. --messages: element messages as JSON lines.
    func testMessagesAsJSONLines() throws {
        let r = try runCLI(["launch", "--messages", "audiotestsrc num-buffers=5 ! level post-messages=true ! fakesink"], timeout: 20)
        XCTAssertEqual(r.status, 0, r.stderr)
        let lines = r.stdoutText.split(separator: "\n").filter { !$0.isEmpty }
        XCTAssertGreaterThanOrEqual(lines.count, 1, "no message lines")
        for line in lines {
            let object = try XCTUnwrap(try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not JSON: \(line)")
            XCTAssertEqual(object["source"] as? String, "level0")
            XCTAssertEqual(object["name"] as? String, "level")
            let rms = try XCTUnwrap(object["rms"] as? [Any], "rms is not an array: \(line)")
            XCTAssertFalse(rms.isEmpty)
            XCTAssertTrue(rms.allSatisfy { $0 is NSNumber }, "rms values are numbers: \(line)")
            XCTAssertNotNil(object["timestamp"] as? NSNumber)
        }
    }

    // 11b. --messages=FILE opens FILE as a shell's `>` would: a FIFO another program reads
    // stays a FIFO and gets the lines (a temporary file renamed over the path replaced it,
    // and so replaced /dev/null when run as root).
    func testMessagesIntoAFIFOReachItsReader() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fifo = dir.appendingPathComponent("messages").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        // The reader: opens the FIFO (waiting for the writer), reads until the writer closes it.
        final class Received: @unchecked Sendable { var data = Data() }
        let received = Received(), done = DispatchSemaphore(value: 0)
        Thread {
            if let h = FileHandle(forReadingAtPath: fifo) { received.data = h.readDataToEndOfFile() }
            done.signal()
        }.start()
        let r = try runCLI(["launch", "--messages=\(fifo)", "audiotestsrc num-buffers=5 ! level post-messages=true ! fakesink"], timeout: 20)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success, "the reader got to the end of the FIFO")
        let lines = String(decoding: received.data, as: UTF8.self).split(separator: "\n")
        XCTAssertGreaterThanOrEqual(lines.count, 1, "no message lines through the FIFO")
        XCTAssertTrue(lines.allSatisfy { $0.contains("\"name\":\"level\"") }, "\(lines)")
        var info = stat()
        XCTAssertEqual(lstat(fifo, &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFIFO, "the FIFO is still a FIFO")
    }

    // 12. Live commands on stdin.
    func testLiveCommandsOnStdin() throws {
        try Build.requireCLI()
        let p = try RunningProcess(Build.cli, ["launch",
            "videotestsrc is-live=true ! video/x-raw,format=BGRA,width=64,height=48,framerate=30/1 ! filtercam filter=none ! fakesink"])
        defer { if p.process.isRunning { p.interrupt() } }
        Thread.sleep(forTimeInterval: 0.5)
        p.write("set filter=invert\n")
        XCTAssertTrue(p.waitForStderr(containing: "set filtercam0.filter = invert", timeout: 5), p.stderrSoFar)
        p.write("set filtercam0.intensity=0.5\n")
        XCTAssertTrue(p.waitForStderr(containing: "set filtercam0.intensity = 0.5", timeout: 5), p.stderrSoFar)
        p.write("frobnicate now\n")
        XCTAssertTrue(p.waitForStderr(containing: "unknown command", timeout: 5), p.stderrSoFar)
        p.write("set nosuch=1\n")
        XCTAssertTrue(p.waitForStderr(containing: "nosuch", timeout: 5), p.stderrSoFar)
        Thread.sleep(forTimeInterval: 0.3)
        XCTAssertTrue(p.process.isRunning, "the pipeline stopped after a bad command:\n\(p.stderrSoFar)")
        // Still taking commands after the errors.
        p.write("set filter=sepia\n")
        XCTAssertTrue(p.waitForStderr(containing: "set filtercam0.filter = sepia", timeout: 5), p.stderrSoFar)
        p.write("quit\n")
        let r = p.wait(timeout: 10)
        XCTAssertFalse(r.timedOut)
        XCTAssertEqual(r.status, 0, r.stderr)
        let lines = r.stderr.split(separator: "\n")
        XCTAssertTrue(lines.contains { $0.contains("command error") && $0.contains("frobnicate") }, r.stderr)
        XCTAssertTrue(lines.contains { $0.contains("command error") && $0.contains("nosuch") }, r.stderr)
        let summary = try XCTUnwrap(lines.first { $0.hasPrefix("filtercam filtercam0: processed=") }, r.stderr)
        let processed = summary.split(separator: " ").first { $0.hasPrefix("processed=") }.flatMap { Int($0.dropFirst("processed=".count)) }
        XCTAssertGreaterThan(processed ?? 0, 10, String(summary))
    }

    func testEndOfStdinDoesNotStopPipeline() throws {
        let r = try runCLI(["launch", "videotestsrc is-live=true num-buffers=60 ! video/x-raw,format=BGRA,width=64,height=48,framerate=30/1 ! filtercam ! fakesink"],
                           stdin: "", timeout: 20)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertGreaterThan(r.elapsed, 1.5, "ended before the 60 live frames (2 s) were through")
        XCTAssertTrue(r.filtercamSawEvery(60), r.stderr)
        let fromNull = try runProcess(Build.cli, ["launch", "videotestsrc is-live=true num-buffers=45 ! video/x-raw,format=BGRA,width=64,height=48,framerate=30/1 ! filtercam ! fakesink"],
                                      stdin: nil, timeout: 20)
        XCTAssertEqual(fromNull.status, 0, fromNull.stderr)
        XCTAssertGreaterThan(fromNull.elapsed, 1.0)
        XCTAssertTrue(fromNull.filtercamSawEvery(45), fromNull.stderr)
    }

    // 17. filtercam inspect.
    func testInspectShowsEveryProperty() throws {
        let r = try runCLI(["inspect"], timeout: 20)
        XCTAssertEqual(r.status, 0, r.stderr)
        let text = r.stdoutText
        // Every property the element really has (read from GObject here), with type and flags.
        GStreamer.initialize()
        let element = try XCTUnwrap(gst_element_factory_make("filtercam", nil))
        gst_object_ref_sink(element)
        defer { gst_object_unref(element) }
        let klass = UnsafeMutableRawPointer(element.pointee.object.object.g_type_instance.g_class).assumingMemoryBound(to: GObjectClass.self)
        var count: guint = 0
        let specs = try XCTUnwrap(g_object_class_list_properties(klass, &count))
        defer { g_free(specs) }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var ownProperties = 0
        for i in 0..<Int(count) {
            guard let spec = specs[i] else { continue }
            let name = String(cString: spec.pointee.name)
            guard let at = lines.firstIndex(where: { $0.hasPrefix("  \(name) ") && $0.contains(":") }) else {
                XCTFail("inspect does not show \(name)"); continue
            }
            let block = lines[at..<min(at + 3, lines.count)].joined(separator: "\n")
            guard spec.pointee.owner_type == gst_element_factory_get_element_type(gst_element_get_factory(element)) else { continue }
            ownProperties += 1
            let writable = spec.pointee.flags.rawValue & G_PARAM_WRITABLE.rawValue != 0
            if writable {
                XCTAssertTrue(block.contains("changeable in NULL, READY, PAUSED or PLAYING state"), block)
            } else {
                XCTAssertFalse(block.contains("writable"), block)
            }
            XCTAssertTrue(block.contains("Default:"), block)
        }
        XCTAssertGreaterThanOrEqual(ownProperties, 4)
        func block(_ name: String) -> String {
            guard let at = lines.firstIndex(where: { $0.hasPrefix("  \(name) ") }) else { return "" }
            return lines[at..<min(at + 3, lines.count)].joined(separator: "\n")
        }
        XCTAssertTrue(block("filter").contains("String. Default: \"none\""), block("filter"))
        XCTAssertTrue(block("intensity").contains("Double. Range: 0.0 - 1.0 Default: 0.8"), block("intensity"))
        XCTAssertTrue(block("frames-processed").contains("Unsigned Integer64"), block("frames-processed"))
        XCTAssertTrue(block("frames-dropped").contains("flags: readable\n"), block("frames-dropped"))
    }

    /// Each property's flags line says what gst-inspect-1.0's says (controllable, the state
    /// it can change in, deprecated), for FilterCam's elements and a stock one.
    // Only action signals were listed (fakesink's handoff was missing), a sample or
    // structure property printed GStreamer-CRITICALs and "Default: None:None:None:None",
    // and float and 64-bit integer properties had no range.
    func testInspectShowsSignalsAndEveryKindOfPropertyAsGstInspect() throws {
        func signalNames(_ text: String) -> [String] {
            text.split(separator: "\n").compactMap { line in
                line.hasPrefix("  \"") ? line.split(separator: "\"")[1].description : nil
            }
        }
        for element in ["fakesink", "appsink", "identity", "filtercam"] {
            let ours = try runCLI(["inspect", element], timeout: 20)
            let stock = try runGstTool("gst-inspect-1.0", [element])
            XCTAssertEqual(ours.status, 0, ours.stderr)
            XCTAssertFalse(ours.stderr.contains("CRITICAL"), ours.stderr)
            XCTAssertEqual(signalNames(ours.stdoutText), signalNames(stock.stdoutText), element)
            XCTAssertEqual(ours.stdoutText.contains("Element Signals:"), stock.stdoutText.contains("Element Signals:"), element)
        }
        let fakesink = try runCLI(["inspect", "fakesink"], timeout: 20).stdoutText
        XCTAssertTrue(fakesink.contains("\"handoff\" :  void user_function (GstElement* object,"), fakesink)
        XCTAssertTrue(fakesink.contains("Boxed pointer of type \"GstSample\""), fakesink)
        let x264 = try runCLI(["inspect", "x264enc"], timeout: 20).stdoutText
        XCTAssertTrue(x264.contains("Float. Range: 0.0 - 2.0 Default: 1.4"), x264)
        let testSource = try runCLI(["inspect", "videotestsrc"], timeout: 20).stdoutText
        XCTAssertTrue(testSource.contains("Integer64. Range: 0 - 9223372036854775807 Default: 0"), testSource)
    }

    /// The default shown is what a new element has, as gst-inspect-1.0 shows it: videobalance's
    /// `qos` read false (the declared default; GstBaseTransform makes it true). A near miss
    /// of any installed element's name gets a "did you mean".
    func testInspectDefaultsAreANewElementsAsGstInspect() throws {
        func defaults(_ text: String) -> [String: String] {
            let lines = text.split(separator: "\n").map(String.init)
            var found: [String: String] = [:]
            var property = ""
            for line in lines {
                if line.hasPrefix("  "), !line.hasPrefix("   "), let colon = line.firstIndex(of: ":") {
                    property = line[..<colon].trimmingCharacters(in: .whitespaces)
                }
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.hasPrefix("Boolean. Default:") || trimmed.hasPrefix("Enum ") { found[property] = trimmed }
            }
            return found
        }
        for element in ["videobalance", "videoflip", "filtercam"] {
            let ours = try runCLI(["inspect", element], timeout: 20)
            let stock = try runGstTool("gst-inspect-1.0", [element])
            let expected = defaults(stock.stdoutText)
            XCTAssertFalse(expected.isEmpty, stock.stdoutText)
            XCTAssertEqual(defaults(ours.stdoutText), expected, element)
        }
        XCTAssertTrue(try runCLI(["inspect", "videobalance"], timeout: 20).stdoutText.contains("Boolean. Default: true"))
        let miss = try runCLI(["inspect", "x264en"], timeout: 20)
        XCTAssertNotEqual(miss.status, 0)
        XCTAssertTrue(miss.stderr.contains("did you mean \"x264enc\""), miss.stderr)
    }

    func testInspectFlagsAreGstInspects() throws {
        func flagsByProperty(_ text: String) -> [String: String] {
            let lines = text.split(separator: "\n").map(String.init)
            var flags: [String: String] = [:]
            for (i, line) in lines.enumerated().dropFirst() where line.trimmingCharacters(in: .whitespaces).hasPrefix("flags:") {
                let name = lines[i - 1].split(separator: ":")[0].trimmingCharacters(in: .whitespaces)
                flags[name] = line.trimmingCharacters(in: .whitespaces)
            }
            return flags
        }
        for element in ["filtercam", "fcsepia", "filtercamsrc", "videotestsrc"] {
            let ours = try runCLI(["inspect", element], timeout: 20)
            let stock = try runGstTool("gst-inspect-1.0", [element])
            XCTAssertEqual(ours.status, 0, ours.stderr)
            let expected = flagsByProperty(stock.stdoutText)
            XCTAssertGreaterThan(expected.count, 3, stock.stdoutText)
            XCTAssertEqual(flagsByProperty(ours.stdoutText), expected, element)
            if element == "filtercam" {
                // The kept-for-old-pipelines boolean says so; a string without default reads
                // `null` as gst-inspect-1.0 prints it (it read "NULL", like a folder's name).
                XCTAssertEqual(expected["face-orientation-search"]?.contains("deprecated"), true, stock.stdoutText)
                for text in [ours.stdoutText, stock.stdoutText] {
                    let looks = text.components(separatedBy: "\n  looks").dropFirst().first ?? ""
                    XCTAssertTrue(looks.contains("Default: null"), looks)
                }
            }
        }
        let peaking = try runCLI(["inspect", "fcfocus-peaking"], timeout: 20)
        XCTAssertEqual(peaking.stdoutText.components(separatedBy: "0xAARRGGBB").count - 1, 1, "said once: \(peaking.stdoutText)")
    }

    /// A flags property reads as gst-inspect-1.0 shows it: the default in hex and by name,
    /// then each flag (it read "GstX264EncTune. Default: 0").
    func testInspectShowsFlagsAsGstInspect() throws {
        func tuneBlock(_ text: String) -> [String] {
            let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let start = lines.firstIndex(where: { $0.hasPrefix("tune ") }) else { return [] }
            return Array(lines[(start + 2)...].prefix { $0.hasPrefix("Flags") || $0.hasPrefix("(0x") })
        }
        let ours = try runCLI(["inspect", "x264enc"], timeout: 20)
        let stock = try runGstTool("gst-inspect-1.0", ["x264enc"])
        let expected = tuneBlock(stock.stdoutText)
        XCTAssertEqual(expected.count, 4, stock.stdoutText)
        XCTAssertEqual(tuneBlock(ours.stdoutText), expected)
    }

    func testInspectUnknownElementFails() throws {
        let r = try runCLI(["inspect", "nosuchelement"], timeout: 20)
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.stderr.contains("nosuchelement"), r.stderr)
        XCTAssertTrue(r.stderr.contains("filtercam"), "the error lists FilterCam's elements: \(r.stderr)")
    }
}

/// 10. Every pipeline file in pipelines/ runs with test sources substituted.
final class PipelineFileRunTests: XCTestCase {
    private func pipelineFile(_ name: String) throws -> String {
        let path = Build.packageRoot + "/pipelines/" + name
        guard FileManager.default.fileExists(atPath: path) else {
            XCTFail("missing \(path)")
            throw XCTSkip("missing \(path)")
        }
        return path
    }

    func testEveryPipelineFileIsCovered() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Build.packageRoot + "/pipelines")
            .filter { $0.hasSuffix(".pipeline") }.sorted()
        // rtp and srt are run against receivers in Tests/Conformance/test_serve.py, pipewire-camera
        // against a PipeWire daemon of its own in Tests/Conformance/test_pipewire_camera.py.
        XCTAssertEqual(files, ["demo.pipeline", "faces.pipeline", "pipewire-camera.pipeline", "preview.pipeline", "rawout.pipeline",
                               "record.pipeline", "rtp.pipeline", "snapshot.pipeline", "srt.pipeline", "virtualcam.pipeline"],
                       "a pipeline file was added or removed: give it a test here")
    }

    /// Without a v4l2loopback device (none here) the file parses and stops with the device named.
    func testVirtualCameraPipelineNamesAMissingDevice() throws {
        let r = try runCLI(["launch", try pipelineFile("virtualcam.pipeline")],
                           environment: ["SOURCE": "videotestsrc num-buffers=5 ! video/x-raw,width=64,height=48", "OUTPUT": "/dev/video-missing"],
                           timeout: 30)
        XCTAssertNotEqual(r.status, 0, r.summary)
        XCTAssertTrue(r.stderr.contains("/dev/video-missing"), r.stderr)
        XCTAssertFalse(r.stderr.contains("no element"), r.stderr)
    }

    /// With no PipeWire to connect to (an empty runtime folder) the PipeWire camera stops
    /// with what it needs, not only the sink's "Failed to connect".
    func testPipeWireCameraWithoutPipeWireSaysWhatItNeeds() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try runCLI(["launch", try pipelineFile("pipewire-camera.pipeline")],
                           environment: ["SOURCE": "videotestsrc num-buffers=5 ! video/x-raw,width=64,height=48",
                                         "PIPEWIRE_RUNTIME_DIR": dir.path, "XDG_RUNTIME_DIR": dir.path, "PIPEWIRE_REMOTE": nil],
                           timeout: 30)
        XCTAssertNotEqual(r.status, 0, r.summary)
        XCTAssertTrue(r.stderr.contains("Failed to connect"), r.stderr)
        XCTAssertTrue(r.stderr.contains("hint: a PipeWire camera needs PipeWire running"), r.stderr)
        XCTAssertTrue(r.stderr.contains("wireplumber"), r.stderr)
    }

    /// (OUT has a space, as "My Videos/demo.mp4": the file quotes it.)
    func testDemoPipeline() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("my demo.mp4").path
        let r = try runCLI(["launch", try pipelineFile("demo.pipeline")], environment: ["FRAMES": "10", "OUT": out], timeout: 60)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: out))
        XCTAssertEqual(try probeFrameCount(out), 10)
        try assertPlayableEverywhere(out)
    }

    func testPreviewPipeline() throws {
        let r = try runCLI(["launch", try pipelineFile("preview.pipeline")],
                           environment: ["SOURCE": "videotestsrc num-buffers=10", "SINK": "fakesink"], timeout: 30)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("processed=10"), r.stderr)
    }

    func testRecordPipeline() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("record.mp4").path
        let r = try runCLI(["launch", try pipelineFile("record.pipeline")],
                           environment: ["SOURCE": "videotestsrc num-buffers=15 ! video/x-raw,width=64,height=48,framerate=30/1", "OUT": out], timeout: 30)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("wrote \(out) ("), "the file is named at the end: \(r.stderr)")
        XCTAssertEqual(try probeFrameCount(out), 15)
        let duration = try XCTUnwrap(try probeDuration(out))
        XCTAssertEqual(duration, 0.5, accuracy: 0.1)
        try assertPlayableEverywhere(out)
    }

    /// record.pipeline running, recording a live WIDTHxHEIGHT test picture into `out`.
    private func recordPipeline(width: Int, height: Int, into out: String) throws -> RunningProcess {
        try RunningProcess(Build.cli, ["launch", try pipelineFile("record.pipeline")],
                           environment: ["SOURCE": "videotestsrc is-live=true ! video/x-raw,width=\(width),height=\(height),framerate=30/1", "OUT": out])
    }

    // `rotate` during record.pipeline left 640x480 then 480x640 frames in one MP4 track,
    // played squashed with decode errors, and was answered as if all was well.
    func testACommandThatWouldChangeTheSizeInTheMiddleOfAFileIsRefused() throws {
        try Build.requireCLI()
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("record.mp4").path
        let p = try recordPipeline(width: 64, height: 48, into: out)
        defer { if p.process.isRunning { p.interrupt() } }
        p.write("rotate\n")
        XCTAssertTrue(p.waitForStderr(containing: "refused", timeout: 10), p.stderrSoFar)
        XCTAssertTrue(p.stderrSoFar.contains("mp4mux0"), "the muxer is named: \(p.stderrSoFar)")
        // What keeps the size still works: a 180° turn, the lens crop of the whole picture.
        p.write("set filtercam0.orientation=180\nset lens-crop=true\n")
        XCTAssertTrue(p.waitForStderr(containing: "set filtercam0.lens-crop = true", timeout: 10), p.stderrSoFar)
        p.write("set lens=0.25,0.25,0.5,0.5\n")
        XCTAssertTrue(p.waitForStderr(containing: "this lens would crop the picture to another size", timeout: 10), p.stderrSoFar)
        // Under orientation=auto the device's orientation turns the picture: held upright is
        // refused (it turned the picture mid-file); auto itself, unturned here, is taken.
        p.write("set filtercam0.orientation=auto\nset device-orientation=portrait\n")
        XCTAssertTrue(p.waitForStderr(containing: "device-orientation portrait would turn the picture's width into its height", timeout: 10), p.stderrSoFar)
        XCTAssertTrue(p.stderrSoFar.contains("set filtercam0.orientation = auto"), p.stderrSoFar)
        p.write("quit\n")
        let r = p.wait(timeout: 20)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("set filtercam0.orientation = 180"), r.stderr)
        let ffprobe = try XCTUnwrap(Build.which("ffprobe"))
        let sizes = try runProcess(ffprobe, ["-v", "error", "-select_streams", "v:0", "-show_entries", "frame=width,height", "-of", "csv=p=0", out], timeout: 30)
        let distinct = Set(sizes.stdoutText.split(separator: "\n").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " ,")) }.filter { !$0.isEmpty })
        XCTAssertEqual(distinct, ["64,48"], "one picture size in the file")
        // Found through a tee and inside a bin (splitmuxsink); with no such muxer a turn is taken.
        let split = try RunningProcess(Build.cli, ["launch", "videotestsrc is-live=true ! video/x-raw,width=64,height=48,framerate=30/1 ! filtercam "
            + "! tee name=t ! queue ! fakesink t. ! queue ! x264enc ! h264parse ! splitmuxsink location=\(dir.path)/s%02d.mp4"])
        defer { if split.process.isRunning { split.interrupt() } }
        split.write("rotate\n")
        XCTAssertTrue(split.waitForStderr(containing: "splitmuxsink0 writes", timeout: 10), split.stderrSoFar)
        split.write("quit\n")
        XCTAssertEqual(split.wait(timeout: 20).status, 0, split.stderrSoFar)
        // A square picture keeps its size through a quarter turn: taken (it was refused).
        let square = dir.appendingPathComponent("square.mp4").path
        let turned = try recordPipeline(width: 48, height: 48, into: square)
        defer { if turned.process.isRunning { turned.interrupt() } }
        turned.write("rotate\n")
        XCTAssertTrue(turned.waitForStderr(containing: "rotate: 90° clockwise", timeout: 10), turned.stderrSoFar)
        turned.write("quit\n")
        XCTAssertEqual(turned.wait(timeout: 20).status, 0, turned.stderrSoFar)
        let free = try RunningProcess(Build.cli, ["launch", "videotestsrc is-live=true ! video/x-raw,width=64,height=48,framerate=30/1 ! filtercam ! x264enc ! fakesink"])
        defer { if free.process.isRunning { free.interrupt() } }
        free.write("rotate\n")
        XCTAssertTrue(free.waitForStderr(containing: "rotate: 90° clockwise", timeout: 10), free.stderrSoFar)
        free.write("quit\n")
        XCTAssertEqual(free.wait(timeout: 20).status, 0, free.stderrSoFar)
    }

    func testFacesPipeline() throws {
        // The element tests' face fixture.
        let photo = Build.packageRoot + "/Tests/FilterCamHostTests/Fixtures/faces/astronaut.png"
        let r = try runCLI(["launch", "--messages", try pipelineFile("faces.pipeline")],
                           environment: ["SOURCE": "filesrc location=\(photo) ! pngdec ! videoconvert ! imagefreeze num-buffers=3", "SINK": "fakesink",
                                         "WIDTH": "512", "HEIGHT": "512"], timeout: 60)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("faces=3"), "every frame of the photo shows the face: \(r.stderr)")
        let line = try XCTUnwrap(r.stdoutText.split(separator: "\n").first { $0.contains("\"name\":\"faces\"") })
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let faces = try XCTUnwrap(json["faces"] as? [[String: Any]])
        XCTAssertEqual(faces.count, 1)
    }

    /// The faces preview puts stills where SNAPDIR says, as the camera preview does.
    func testFacesPipelineTakesStillsIntoSnapDir() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try runCLI(["launch", try pipelineFile("faces.pipeline")],
                           environment: ["SOURCE": "videotestsrc is-live=true", "SINK": "fakesink", "WIDTH": "64", "HEIGHT": "48",
                                         "FACES": "false", "SNAPDIR": dir.path],
                           stdin: "snapshot\nquit\n", timeout: 60)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), ["snapshot-00000.jpg"], r.stderr)
    }

    /// (The folder's name has a space, as "My Pictures": the file quotes SNAPDIR.)
    func testSnapshotPipeline() throws {
        let top = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: top) }
        let dir = top.appendingPathComponent("my stills")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let r = try runCLI(["launch", try pipelineFile("snapshot.pipeline")],
                           environment: ["SOURCE": "videotestsrc num-buffers=12", "SINK": "fakesink", "SNAPDIR": dir.path,
                                         "EVERY": "5", "BRACKET": "-1,0,1"], timeout: 60)
        XCTAssertEqual(r.status, 0, r.stderr)
        // Frames 5-7 and 10-12 make two bracketed sets of three.
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        XCTAssertEqual(names, ["snapshot-00000-ev+0.jpg", "snapshot-00000-ev+1.jpg", "snapshot-00000-ev-1.jpg",
                               "snapshot-00001-ev+0.jpg", "snapshot-00001-ev+1.jpg", "snapshot-00001-ev-1.jpg"])
        XCTAssertTrue(r.stderr.contains("snapshots=6"), r.stderr)
    }

    func testRawoutPipeline() throws {
        let r = try runCLI(["launch", try pipelineFile("rawout.pipeline")],
                           environment: ["SOURCE": "videotestsrc num-buffers=3", "WIDTH": "8", "HEIGHT": "4"], timeout: 30)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout.count, 3 * 8 * 4 * 4, "stdout must hold exactly the frames")
        // Reference: the same frames without filtercam.
        GStreamer.initialize()
        let reference = try collectFrames("videotestsrc num-buffers=3 ! video/x-raw,format=BGRA,width=8,height=4,framerate=30/1")
        let unfiltered = reference.flatMap(\.bytes)
        XCTAssertEqual(unfiltered.count, 3 * 8 * 4 * 4)
        XCTAssertNotEqual(Array(r.stdout), unfiltered, "rawout should be filtered (sepia)")
        // Alpha passes unchanged.
        let out = Array(r.stdout)
        guard out.count == unfiltered.count else { return }
        for i in stride(from: 0, to: out.count, by: 4) {
            XCTAssertEqual(out[i + 3], unfiltered[i + 3], "alpha at byte \(i + 3)")
        }
    }
}
