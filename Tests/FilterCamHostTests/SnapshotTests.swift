import CFilterCamShim
import CGStreamer
@testable import FilterCamHost
@testable import FilterCamTool
import FilterCore
import FilterCamTestSupport
import Foundation
import XCTest

/// Reading stills back, for the snapshot tests and the gallery's.
extension XCTestCase {
    /// A still decoded by GStreamer's jpegdec, as RGBA.
    func decode(_ path: String) throws -> PixelBuffer {
        try FrameIO.captureFrame("filesrc location=\"\(path)\" ! jpegdec ! videoconvert", format: .rgba)
    }

    /// Mean absolute difference of RGB channels between a decoded still (RGBA) and a
    /// captured BGRA frame region.
    func meanDifference(_ still: PixelBuffer, _ frame: CapturedFrame, region: PixelRect? = nil) -> Double {
        let r = region ?? PixelRect(x: 0, y: 0, width: frame.width, height: frame.height)
        XCTAssertEqual(still.width, r.width)
        XCTAssertEqual(still.height, r.height)
        guard still.width == r.width, still.height == r.height else { return .infinity }
        var total = 0, count = 0
        for y in 0..<r.height {
            for x in 0..<r.width {
                let s = still.view.pixel(x: x, y: y)
                let f = frame.pixel(r.x + x, r.y + y)   // BGRA
                total += abs(Int(s.r) - Int(f[2])) + abs(Int(s.g) - Int(f[1])) + abs(Int(s.b) - Int(f[0]))
                count += 3
            }
        }
        return Double(total) / Double(count)
    }

    fileprivate func files(_ dir: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).sorted()
    }
}

/// The snapshot branch: stills decode (jpegdec) to the processed frame, region and
/// orientation are right, EXIF and quality are as set, names never overwrite, failures
/// are reported while the stream runs on, and EOS waits for pending stills.
final class SnapshotTests: XCTestCase {
    override func setUp() {
        GStreamer.initialize()
    }

    private let source = "videotestsrc num-buffers=6 pattern=smpte ! video/x-raw,format=BGRA,width=64,height=48,framerate=30/1"

    // JPEG tolerance: smpte bars at 64x48 have sharp edges; quality 95 keeps the mean error
    // a few levels, while a wrong frame (unfiltered, unrotated) differs by tens.
    private let jpegTolerance = 6.0

    func testStillDecodesToTheProcessedFrame() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let frames = try collectFrames("\(source) ! filtercam filter=invert snapshot-every=3 snapshot-quality=95 flash=false snapshot-location=\(dir.path)/s-%05d.jpg")
        XCTAssertEqual(files(dir), ["s-00000.jpg", "s-00001.jpg"])
        // snapshot-every=3: the 3rd and 6th processed frames.
        let still = try decode(dir.appendingPathComponent("s-00000.jpg").path)
        XCTAssertLessThan(meanDifference(still, frames[2]), jpegTolerance)
        // The unfiltered input is far from it: the still really is the processed frame.
        let input = try collectFrames(source)
        XCTAssertGreaterThan(meanDifference(still, input[2]), 40)
    }

    func testLensRegionAndBakedOrientation() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let frames = try collectFrames("\(source) ! filtercam filter=sepia intensity=1 lens=0.25,0.25,0.5,0.5 orientation=90r snapshot-every=1 snapshot-region=lens snapshot-quality=95 flash=false snapshot-location=\(dir.path)/s-%05d.jpg")
        XCTAssertEqual(frames[0].width, 48)
        XCTAssertEqual(frames[0].height, 64)
        XCTAssertEqual(files(dir).count, 6)
        let still = try decode(dir.appendingPathComponent("s-00000.jpg").path)
        // The lens in output (rotated) coordinates: 48x64 → x 12..36, y 16..48.
        XCTAssertLessThan(meanDifference(still, frames[0], region: PixelRect(x: 12, y: 16, width: 24, height: 32)), jpegTolerance)
    }

    func testExifModeKeepsCapturedPixelsAndTagsOrientation() throws {
        guard let exiftool = Build.which("exiftool") else { throw XCTSkip("exiftool is not installed") }
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try collectFrames("\(source) ! filtercam orientation=90r snapshot-every=1 snapshot-orientation=exif snapshot-quality=95 flash=false snapshot-location=\(dir.path)/s-%05d.jpg")
        let path = dir.appendingPathComponent("s-00000.jpg").path
        let still = try decode(path)
        // Pixels as captured: the input size and picture, not the rotated one.
        XCTAssertEqual(still.width, 64)
        XCTAssertEqual(still.height, 48)
        let input = try collectFrames(source)
        XCTAssertLessThan(meanDifference(still, input[0]), jpegTolerance)
        let r = try runProcess(exiftool, ["-Orientation", "-n", "-s3", path])
        XCTAssertEqual(r.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines), "6", "EXIF 6 = rotate 90 clockwise = videoflip 90r")
    }

    /// EXIF's DateTimeOriginal is the local time where the still was taken (it was UTC:
    /// a still taken in the evening in New York said the next day). Run under a time zone
    /// 5:30 ahead of UTC, given as a POSIX rule (no time zone files needed).
    func testTheStillsDateIsTheLocalTime() throws {
        guard let exiftool = Build.which("exiftool") else { throw XCTSkip("exiftool is not installed") }
        try Build.requireCLI()
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try runCLI(["launch", "videotestsrc num-buffers=1 ! video/x-raw,width=64,height=48 ! filtercam snapshot-every=1 flash=false "
                            + "snapshot-location=\(dir.path)/s-%d.jpg ! fakesink"], environment: ["TZ": "IST-5:30"])
        XCTAssertEqual(r.status, 0, r.summary)
        let taken = try runProcess(exiftool, ["-DateTimeOriginal", "-s3", dir.appendingPathComponent("s-0.jpg").path]).stdoutText
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let format = DateFormatter()
        format.dateFormat = "yyyy:MM:dd HH:mm:ss"
        format.timeZone = TimeZone(secondsFromGMT: 0)
        let written = try XCTUnwrap(format.date(from: taken), taken)
        // The fields as written, read as if UTC: the local time, 5.5 h ahead of now in UTC.
        XCTAssertEqual(written.timeIntervalSinceNow, 5.5 * 3600, accuracy: 120, taken)
    }

    /// Stills in quick succession share one running encoder: each must still be its own
    /// frame with its own EXIF orientation (jifmux reads the tags for every image).
    func testStillsInARowEachCarryTheirOwnOrientationTag() throws {
        guard let exiftool = Build.which("exiftool") else { throw XCTSkip("exiftool is not installed") }
        try Build.requireCLI()
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let p = try RunningProcess(Build.cli, ["launch", "videotestsrc is-live=true pattern=ball ! video/x-raw,format=BGRA,width=64,height=48,framerate=30/1 ! filtercam orientation=90r snapshot-orientation=exif flash=false snapshot-location=\(dir.path)/s-%03d.jpg ! fakesink"])
        // Each command once the previous one is acknowledged (no sleeps: a busy machine
        // may take longer than any fixed pause to start the pipeline or write a still).
        let steps = [("snapshot", "saved \(dir.path)/s-000.jpg"), ("set orientation=90l", "orientation = 90l"),
                     ("snapshot", "saved \(dir.path)/s-001.jpg"), ("set orientation=180", "orientation = 180"),
                     ("snapshot", "saved \(dir.path)/s-002.jpg")]
        for (command, acknowledgement) in steps {
            p.write(command + "\n")
            XCTAssertTrue(p.waitForStderr(containing: acknowledgement, timeout: 30), "no '\(acknowledgement)': \(p.stderrSoFar)")
        }
        p.write("quit\n")
        let r = p.wait(timeout: 20)
        XCTAssertEqual(r.status, 0, r.summary)
        XCTAssertEqual(files(dir), ["s-000.jpg", "s-001.jpg", "s-002.jpg"], r.stderr)
        let tags = try files(dir).map { name in
            try runProcess(exiftool, ["-Orientation", "-n", "-s3", dir.appendingPathComponent(name).path]).stdoutText
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
        XCTAssertEqual(tags, ["6", "8", "3"], "EXIF of 90r, 90l, 180")
    }

    /// `countdown=N` at run time: one still, written no sooner than N seconds later, and
    /// the property reads the seconds left meanwhile.
    func testCountdownTakesOneStillAfterItsSeconds() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        var started: Date?, leftAtStart: Int?
        _ = try collectFrames("videotestsrc is-live=true num-buffers=75 pattern=smpte ! video/x-raw,format=I420,width=64,height=48,framerate=30/1 "
                              + "! filtercam name=fc flash=false snapshot-location=\(dir.path)/c-%02d.jpg", onFrame: { i, _, pipeline in
            guard i == 5, let fc = pipeline.element(named: "fc") else { return }
            started = Date()
            try? Pipeline.setProperty(fc, "countdown", "1")
            leftAtStart = Int(Pipeline.property(fc, "countdown") ?? "")
        })
        XCTAssertEqual(leftAtStart, 1, "the seconds left, read at once")
        XCTAssertEqual(files(dir), ["c-00.jpg"], "one still")
        let written = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: dir.appendingPathComponent("c-00.jpg").path)[.modificationDate] as? Date)
        // A file's modification time is the kernel's coarse clock, which moves once a tick
        // (CLOCK_REALTIME_COARSE's resolution, 4 ms here): it reads up to a tick behind
        // `Date()` at the same moment. A still one frame early (33 ms) still fails.
        var tick = timespec()
        clock_getres(CLOCK_REALTIME_COARSE, &tick)
        let tickSeconds = Double(tick.tv_sec) + Double(tick.tv_nsec) / 1e9
        XCTAssertGreaterThanOrEqual(written.timeIntervalSince(try XCTUnwrap(started)), 1.0 - tickSeconds, "not before the count ends")
    }

    /// Stopping the pipeline calls a running countdown off, as `record` goes back to false:
    /// `countdown` reads 0, and playing again takes no still nobody asked for (it was taken
    /// at the first frame of the next run, however much later).
    func testStoppingCallsTheCountdownOff() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let pipeline = try Pipeline(description: "videotestsrc is-live=true num-buffers=45 ! video/x-raw,format=I420,width=64,height=48,framerate=30/1 "
                                    + "! filtercam name=fc flash=false snapshot-location=\(dir.path)/c-%02d.jpg ! fakesink")
        let fc = try pipeline.requireElement("fc")
        pipeline.setState(GST_STATE_PLAYING)
        defer { pipeline.setState(GST_STATE_NULL) }
        XCTAssertTrue(waitForBuffers(leaving: fc, count: 2))
        try Pipeline.setProperty(fc, "countdown", "1")
        pipeline.setState(GST_STATE_NULL)
        XCTAssertEqual(Pipeline.property(fc, "countdown"), "0", "called off by the stop")
        pipeline.setState(GST_STATE_PLAYING)
        let end = GstOwned(gst_bus_timed_pop_filtered(pipeline.bus, 30_000_000_000,
                                                      GstMessageType(rawValue: GST_MESSAGE_EOS.rawValue | GST_MESSAGE_ERROR.rawValue)))
        XCTAssertEqual(end?.pointer.pointee.type, GST_MESSAGE_EOS, "1.5 s of frames in the second run")
        XCTAssertEqual(files(dir), [], "no still from a countdown of the run before")
    }

    func testQualityIsWhatWasSet() throws {
        guard let identify = Build.which("identify") else { throw XCTSkip("ImageMagick is not installed") }
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try collectFrames("videotestsrc num-buffers=2 pattern=ball ! video/x-raw,format=BGRA,width=160,height=120 ! filtercam snapshot-every=1 snapshot-quality=60 flash=false snapshot-location=\(dir.path)/q-%d.jpg")
        let r = try runProcess(identify, ["-format", "%Q", dir.appendingPathComponent("q-0.jpg").path])
        XCTAssertEqual(r.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines), "60")
    }

    /// On a YUV stream too: the exposure works in RGB, so those stills are converted (by
    /// videoconvert) first, and grey comes out as on an RGB stream.
    func testBracketWritesOneStillPerBiasFromConsecutiveFrames() throws {
        for format in ["BGRA", "NV12"] {
            let dir = try makeTempDir()
            defer { try? FileManager.default.removeItem(at: dir) }
            // One `snapshot` action (g_signal_emit_by_name) before the frames flow.
            try playToEnd("videotestsrc num-buffers=15 pattern=solid-color foreground-color=0xff808080 ! video/x-raw,format=\(format),width=32,height=24 ! filtercam name=fc snapshot-bracket=-1,0,1 flash=false snapshot-location=\(dir.path)/b-%03d.jpg ! fakesink") { pipeline in
                fc_emit_action(try pipeline.requireElement("fc"), "snapshot")
            }
            XCTAssertEqual(files(dir), ["b-000-ev+0.jpg", "b-000-ev+1.jpg", "b-000-ev-1.jpg"], format)
            let greys = try ["-1", "+0", "+1"].map { ev -> Double in
                Double(try decode(dir.appendingPathComponent("b-000-ev\(ev).jpg").path).view.pixel(x: 16, y: 12).g)
            }
            // Grey 128 (sRGB) at -1, 0, +1 EV in linear light: 92, 128, 176 (computed by hand).
            XCTAssertEqual(greys[0], 92, accuracy: 4, format)
            XCTAssertEqual(greys[1], 128, accuracy: 4, format)
            XCTAssertEqual(greys[2], 176, accuracy: 4, format)
        }
    }

    /// A burst of requests near the end outruns the stream (one still a frame): each one
    /// no frame came for is reported at EOS, so every request ends in a message.
    func testRequestsNoFrameCameForAreReportedAtTheEnd() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let pipeline = try Pipeline(description: "videotestsrc num-buffers=3 ! video/x-raw,format=I420,width=32,height=24 ! "
                                    + "filtercam name=fc flash=false snapshot-location=\(dir.path)/s-%d.jpg ! fakesink")
        let fc = try pipeline.requireElement("fc")
        for _ in 0..<8 { fc_emit_action(fc, "snapshot") }
        pipeline.setState(GST_STATE_PLAYING)
        defer { pipeline.setState(GST_STATE_NULL) }
        var saved = 0, failed: [String] = [], warnings: [String] = []
        let wanted = GstMessageType(rawValue: GST_MESSAGE_EOS.rawValue | GST_MESSAGE_ERROR.rawValue | GST_MESSAGE_ELEMENT.rawValue | GST_MESSAGE_WARNING.rawValue)
        while let m = GstOwned(gst_bus_timed_pop_filtered(pipeline.bus, 20_000_000_000, wanted)) {
            let type = m.pointer.pointee.type
            if type == GST_MESSAGE_EOS || type == GST_MESSAGE_ERROR { XCTAssertEqual(type, GST_MESSAGE_EOS); break }
            if type == GST_MESSAGE_WARNING { warnings.append(BusProblem(m.pointer)?.text(or: "") ?? ""); continue }
            guard let s = gst_message_get_structure(m.pointer) else { continue }
            switch String(cString: gst_structure_get_name(s)) {
            case "snapshot-saved": saved += 1
            case "snapshot-failed":
                XCTAssertNil(gst_structure_get_string(s, "path"), "no still, so no path")
                failed.append(gst_structure_get_string(s, "reason").map { String(cString: $0) } ?? "")
            default: break
            }
        }
        XCTAssertEqual(saved, 3, "one still from each of the 3 frames")
        XCTAssertEqual(files(dir).count, 3)
        XCTAssertEqual(failed.count, 5, "\(failed)")
        XCTAssertTrue(failed.allSatisfy { $0.contains("the stream ended before a frame came for them") }, "\(failed)")
        XCTAssertEqual(warnings.filter { $0.contains("5 snapshot requests not served") }.count, 1, "\(warnings)")
    }

    /// A request no frame came for before the pipeline stopped (no EOS) is reported when it
    /// stops: it was kept, said nothing, and took a still of the next run's first frame.
    func testARequestOpenWhenThePipelineStopsIsReported() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        // A live source: no frame comes while PAUSED.
        let pipeline = try Pipeline(description: "videotestsrc is-live=true ! video/x-raw,format=I420,width=32,height=24 ! "
                                    + "filtercam name=fc flash=false snapshot-location=\(dir.path)/s-%d.jpg ! fakesink")
        defer { pipeline.setState(GST_STATE_NULL) }
        pipeline.setState(GST_STATE_PAUSED)
        XCTAssertEqual(gst_element_get_state(pipeline.element, nil, nil, 10_000_000_000), GST_STATE_CHANGE_NO_PREROLL)
        fc_emit_action(try pipeline.requireElement("fc"), "snapshot")
        pipeline.setState(GST_STATE_READY)
        var failed: [String] = []
        while let m = GstOwned(gst_bus_timed_pop_filtered(pipeline.bus, 0, GST_MESSAGE_ELEMENT)) {
            guard let s = gst_message_get_structure(m.pointer), String(cString: gst_structure_get_name(s)) == "snapshot-failed" else { continue }
            failed.append(gst_structure_get_string(s, "reason").map { String(cString: $0) } ?? "")
        }
        XCTAssertEqual(failed, ["no still: the pipeline stopped before a frame came for it (a still is taken from each frame)"])
        XCTAssertEqual(files(dir), [])
    }

    /// A still that cannot be written (its folder is missing) is said on the picture for a
    /// moment, as a failed recording is: the window showed nothing (a tester's find). The
    /// frames some time after the request differ from the same run's without one only by
    /// that banner (a solid colour, no flash).
    func testAFailedStillIsSaidOnThePicture() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let description = "videotestsrc is-live=true num-buffers=30 pattern=solid-color foreground-color=0xff3060a0 "
            + "! video/x-raw,format=BGRx,width=160,height=120,framerate=30/1 "
            + "! filtercam name=fc osd=true flash=false snapshot-location=\(dir.path)/missing/s-%d.jpg"
        var messages: BusLog!
        let asked = try collectFrames(description, prepare: { messages = BusLog($0) }, onFrame: { i, _, pipeline in
            if i == 2, let fc = pipeline.element(named: "fc") { fc_emit_action(fc, "snapshot") }
        })
        let plain = try collectFrames(description)
        XCTAssertTrue(messages.warnings.contains { $0.contains("cannot write snapshot") }, "\(messages.warnings)")
        XCTAssertEqual(asked.count, 30)
        XCTAssertEqual(plain.count, 30)
        XCTAssertEqual(asked[1].bytes, plain[1].bytes, "the same picture before the request")
        XCTAssertNotEqual(asked[20].bytes, plain[20].bytes, "no banner after the failed still")
    }

    /// A still asked for after EOS, the pipeline left PLAYING: no frame will come, and it
    /// is said at once (it waited, unanswered, until the pipeline stopped; a tester's find).
    /// After a flushing seek frames come again, and a still asked for then is taken.
    func testARequestAfterTheEndOfTheStreamIsAnsweredAtOnce() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let pipeline = try Pipeline(description: "videotestsrc ! video/x-raw,format=I420,width=32,height=24,framerate=30/1 ! "
                                    + "filtercam name=fc flash=false snapshot-location=\(dir.path)/s-%d.jpg ! fakesink sync=false")
        defer { pipeline.setState(GST_STATE_NULL) }
        // Ten frames: a segment that stops at 1/3 s, played from PAUSED (prerolled).
        func playTenFrames(then: () -> Void = {}) {
            pipeline.setState(GST_STATE_PAUSED)
            _ = gst_element_get_state(pipeline.element, nil, nil, 10_000_000_000)
            XCTAssertTrue(gst_element_seek(pipeline.element, 1, GST_FORMAT_TIME, GST_SEEK_FLAG_FLUSH, GST_SEEK_TYPE_SET, 0,
                                           GST_SEEK_TYPE_SET, 333_333_333) != 0)
            _ = gst_element_get_state(pipeline.element, nil, nil, 10_000_000_000)
            then()
            pipeline.setState(GST_STATE_PLAYING)
        }
        playTenFrames()
        XCTAssertNotNil(GstOwned(gst_bus_timed_pop_filtered(pipeline.bus, 10_000_000_000, GST_MESSAGE_EOS)), "EOS")
        let fc = try pipeline.requireElement("fc")
        fc_emit_action(fc, "snapshot")
        func nextStillMessage() -> (name: String, text: String)? {
            while let m = GstOwned(gst_bus_timed_pop_filtered(pipeline.bus, 10_000_000_000, GST_MESSAGE_ELEMENT)) {
                guard let s = gst_message_get_structure(m.pointer) else { continue }
                let name = String(cString: gst_structure_get_name(s))
                guard name.hasPrefix("snapshot-saved") || name.hasPrefix("snapshot-failed") else { continue }
                let text = gst_structure_get_string(s, name == "snapshot-failed" ? "reason" : "path").map { String(cString: $0) } ?? ""
                return (name, text)
            }
            return nil
        }
        let answer = try XCTUnwrap(nextStillMessage(), "no answer within 10 s while PLAYING after EOS")
        XCTAssertEqual(answer.name, "snapshot-failed")
        XCTAssertTrue(answer.text.contains("the stream has ended"), answer.text)
        // Asked for while prerolled after the seek: the frames still to come give it.
        playTenFrames { fc_emit_action(fc, "snapshot") }
        let taken = try XCTUnwrap(nextStillMessage(), "no still after the flushing seek")
        XCTAssertEqual(taken.name, "snapshot-saved", taken.text)
        XCTAssertEqual(files(dir), ["s-0.jpg"])
    }

    func testCounterNeverOverwritesAnExistingFile() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let keep = dir.appendingPathComponent("s-00000.jpg")
        try Data("keep me".utf8).write(to: keep)
        _ = try collectFrames("\(source) ! filtercam snapshot-every=3 flash=false snapshot-location=\(dir.path)/s-%05d.jpg")
        XCTAssertEqual(files(dir), ["s-00000.jpg", "s-00001.jpg", "s-00002.jpg"])
        XCTAssertEqual(try Data(contentsOf: keep), Data("keep me".utf8))
    }

    /// A still's name near the file system's 255-byte limit is written (its temporary
    /// file's name, the still's and ~17 bytes more, failed "File name too long").
    func testAStillWhoseNameIsNearTheLimitIsWritten() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let stem = String(repeating: "a", count: 246)   // + "00000.jpg": 255 bytes
        _ = try collectFrames("\(source) ! filtercam snapshot-every=3 flash=false snapshot-location=\(dir.path)/\(stem)%05d.jpg")
        XCTAssertEqual(files(dir), [stem + "00000.jpg", stem + "00001.jpg"])
    }

    /// The folder is opened when the run starts; replacing it by a symbolic link while
    /// running does not send the next stills through the link.
    func testStillsStayInTheFolderOpenedAtStartWhenItIsReplacedByALink() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = dir.appendingPathComponent("stills"), moved = dir.appendingPathComponent("moved")
        let elsewhere = dir.appendingPathComponent("elsewhere")
        for f in [folder, elsewhere] { try FileManager.default.createDirectory(at: f, withIntermediateDirectories: false) }
        let pipeline = try Pipeline(description: "videotestsrc is-live=true ! video/x-raw,format=BGRA,width=64,height=48,framerate=30/1 ! filtercam snapshot-every=5 flash=false snapshot-location=\(folder.path)/s-%05d.jpg ! fakesink")
        pipeline.setState(GST_STATE_PLAYING)
        defer { pipeline.setState(GST_STATE_NULL) }
        func waitFor(_ count: Int, in f: URL) -> Bool {
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline {
                if files(f).filter({ $0.hasSuffix(".jpg") }).count >= count { return true }
                usleep(20_000)
            }
            return false
        }
        XCTAssertTrue(waitFor(1, in: folder), "a first still")
        try FileManager.default.moveItem(at: folder, to: moved)
        try FileManager.default.createSymbolicLink(at: folder, withDestinationURL: elsewhere)
        let before = files(moved).count
        XCTAssertTrue(waitFor(before + 2, in: moved), "later stills in the folder opened at start: \(files(moved))")
        XCTAssertEqual(files(elsewhere), [], "no still through the link")
    }

    /// A folder removed while running and made again by its name takes the next stills
    /// (stills said it "does not exist any more" beside the new folder; recordings used it).
    func testAFolderRemovedAndMadeAgainTakesTheNextStills() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = dir.appendingPathComponent("stills")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        let pipeline = try Pipeline(description: "videotestsrc is-live=true ! video/x-raw,format=I420,width=32,height=24,framerate=30/1 ! "
                                    + "filtercam name=fc flash=false snapshot-location=\(folder.path)/s-%05d.jpg ! fakesink")
        let fc = try pipeline.requireElement("fc")
        pipeline.setState(GST_STATE_PLAYING)
        defer { pipeline.setState(GST_STATE_NULL) }
        /// Asks for a still and waits for its message: the name of it.
        func still() -> String? {
            fc_emit_action(fc, "snapshot")
            return nextStillMessage(on: pipeline)
        }
        XCTAssertEqual(still(), "snapshot-saved")
        try FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        XCTAssertEqual(still(), "snapshot-saved", "a still in the folder made again")
        XCTAssertEqual(files(folder), ["s-00001.jpg"])
        try FileManager.default.removeItem(at: folder)
        XCTAssertEqual(still(), "snapshot-failed", "no folder at all")
        // The failed still's number is the next one's, as a failed recording's name is
        // (the first still after a failure was s-00003: a gap in the names).
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        XCTAssertEqual(still(), "snapshot-saved")
        XCTAssertEqual(files(folder), ["s-00002.jpg"])
    }

    /// Stills filed in a folder each (per day, per event): each is written, and only the
    /// folders used last stay open (one descriptor per folder ever used ran the process out
    /// of descriptors).
    func testStillsInManyFoldersKeepOnlyTheLastFoldersOpen() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let pipeline = try Pipeline(description: "videotestsrc is-live=true ! video/x-raw,format=I420,width=32,height=24,framerate=30/1 ! "
                                    + "filtercam name=fc flash=false ! fakesink")
        let fc = try pipeline.requireElement("fc")
        pipeline.setState(GST_STATE_PLAYING)
        defer { pipeline.setState(GST_STATE_NULL) }
        func openFolders() -> Int {
            let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
            return fds.filter { ((try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")) ?? "").hasPrefix(dir.path + "/d") }.count
        }
        let wanted = GstMessageType(rawValue: GST_MESSAGE_ERROR.rawValue | GST_MESSAGE_ELEMENT.rawValue)
        for i in 0..<20 {
            let folder = dir.appendingPathComponent("d\(i)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
            try Pipeline.setProperty(fc, "snapshot-location", folder.path + "/s-%d.jpg")
            fc_emit_action(fc, "snapshot")
            var written = false
            while !written, let m = GstOwned(gst_bus_timed_pop_filtered(pipeline.bus, 20_000_000_000, wanted)) {
                XCTAssertNotEqual(m.pointer.pointee.type, GST_MESSAGE_ERROR)
                guard let s = gst_message_get_structure(m.pointer) else { continue }
                let name = String(cString: gst_structure_get_name(s))
                XCTAssertNotEqual(name, "snapshot-failed", "still \(i)")
                written = name == "snapshot-saved"
            }
            XCTAssertEqual(files(folder), ["s-0.jpg"], "still \(i)")
        }
        XCTAssertLessThanOrEqual(openFolders(), SnapshotFolders.kept, "folders kept open")
    }

    func testMissingFolderIsReportedAndTheStreamRunsOn() throws {
        let missing = "/nonexistent-\(UUID().uuidString)/s-%05d.jpg"
        let r = try runCLI(["launch", "--messages", "\(source) ! filtercam snapshot-every=2 snapshot-location=\(missing) ! fakesink"])
        // A still or recording asked for that failed fails the run (said, the stream ran on).
        XCTAssertEqual(r.status, 1, r.summary)
        XCTAssertTrue(r.stderr.contains("failed (said above): exit status 1"), r.stderr)
        XCTAssertTrue(r.stderr.contains("WARNING"), r.stderr)
        XCTAssertTrue(r.stderr.contains("does not exist"), r.stderr)
        XCTAssertTrue(r.stderr.contains("processed=6"), "every frame still went through: \(r.stderr)")
        let failed = r.stdoutText.split(separator: "\n").filter { $0.contains("\"snapshot-failed\"") }
        XCTAssertEqual(failed.count, 3, "every request is reported: \(r.stdoutText)")
        XCTAssertTrue(r.stderr.contains("snapshots=0"), r.stderr)
    }

    /// A file where the folder should be, and a folder that takes no new files (/proc),
    /// are each said as what they are (the first was "does not exist", the second "removed
    /// while running").
    func testAFileForAFolderAndAFolderThatTakesNoFilesAreNamedAsSuch() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("a-file").path
        XCTAssertTrue(FileManager.default.createFile(atPath: file, contents: Data("x".utf8)))
        let notAFolder = try runCLI(["launch", "\(source) ! filtercam snapshot-every=2 snapshot-location=\(file)/s-%05d.jpg ! fakesink"])
        // A still or recording asked for that failed fails the run (said, the stream ran on).
        XCTAssertEqual(notAFolder.status, 1, notAFolder.summary)
        XCTAssertTrue(notAFolder.stderr.contains("failed (said above): exit status 1"), notAFolder.stderr)
        XCTAssertTrue(notAFolder.stderr.contains("'\(file)' is not a folder"), notAFolder.stderr)
        let proc = try runCLI(["launch", "\(source) ! filtercam snapshot-every=2 snapshot-location=/proc/s-%05d.jpg ! fakesink"])
        // A still or recording asked for that failed fails the run (said, the stream ran on).
        XCTAssertEqual(proc.status, 1, proc.summary)
        XCTAssertTrue(proc.stderr.contains("failed (said above): exit status 1"), proc.stderr)
        XCTAssertTrue(proc.stderr.contains("the folder '/proc' takes no new files"), proc.stderr)
        XCTAssertFalse(proc.stderr.contains("removed while running"), proc.stderr)
    }

    func testFullDiskLeavesNoHalfWrittenFile() throws {
        guard let bash = Build.which("bash") else { throw XCTSkip("no bash") }
        try Build.requireCLI()
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        // A file-size limit of 4 KiB: a 320x240 still does not fit.
        let description = "videotestsrc num-buffers=3 pattern=snow ! video/x-raw,format=BGRA,width=320,height=240 ! filtercam snapshot-every=1 snapshot-location=\(dir.path)/s-%05d.jpg ! fakesink"
        let r = try runProcess(bash, ["-c", "ulimit -f 4; exec \"$0\" launch \"$1\"", Build.cli, description])
        // A still or recording asked for that failed fails the run (said, the stream ran on).
        XCTAssertEqual(r.status, 1, r.summary)
        XCTAssertTrue(r.stderr.contains("failed (said above): exit status 1"), r.stderr)
        XCTAssertTrue(r.stderr.contains("cannot write snapshot"), r.stderr)
        XCTAssertEqual(files(dir), [], "no partial or temporary file may remain")
    }

    func testBadTemplateIsRefusedWithItsRule() throws {
        let r = try runCLI(["launch", "\(source) ! filtercam snapshot-location=still.jpg ! fakesink"])
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.stderr.contains("snapshot-location") && r.stderr.contains("%05d"), r.stderr)
    }

    func testEndOfStreamWaitsForPendingStills() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try runCLI(["launch", "--messages", "videotestsrc num-buffers=10 ! video/x-raw,format=BGRA,width=320,height=240 ! filtercam snapshot-every=1 flash=false snapshot-location=\(dir.path)/s-%05d.jpg ! fakesink"])
        XCTAssertEqual(r.status, 0, r.summary)
        // When the program has ended, all ten are there, complete.
        XCTAssertEqual(files(dir).count, 10)
        XCTAssertTrue(r.stderr.contains("snapshots=10"), r.stderr)
        // Saved in the order taken (the files are written on a thread of their own, behind
        // two encoders): one message per still, by counter.
        let saved = r.stdoutText.split(separator: "\n").filter { $0.contains("\"snapshot-saved\"") }
        let names = saved.compactMap { line in line.range(of: #"s-\d{5}\.jpg"#, options: .regularExpression).map { String(line[$0]) } }
        XCTAssertEqual(names, (0..<10).map { String(format: "s-%05d.jpg", $0) }, r.stdoutText)
        for name in files(dir) {
            let data = try Data(contentsOf: dir.appendingPathComponent(name))
            XCTAssertEqual(Array(data.suffix(2)), [0xFF, 0xD9], "\(name) ends with the JPEG end marker")
        }
    }

    func testSnapshotCommandAndFlashOnTheLivePicture() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        // Non-live, 30 fps timestamps: the still at frame 25 (index 24) flashes the next
        // 0.4 s = 12 frames, brightest 0.2 s in.
        let description = "videotestsrc num-buffers=40 pattern=solid-color foreground-color=0xff404040 ! video/x-raw,format=BGRA,width=32,height=24,framerate=30/1 ! filtercam snapshot-every=25 snapshot-location=\(dir.path)/f-%d.jpg"
        let frames = try collectFrames(description)
        let level = frames.map { Int($0.pixel(5, 5)[1]) }
        XCTAssertEqual(level[23], 0x40, "no flash before the still: \(level)")
        XCTAssertEqual(level[24], 0x40, "the frame of the still itself is not flashed")
        // Peak blend 0.8 towards white: 64 + (191 * 0.8) = 217.
        XCTAssertEqual(level[30], 64 + Int((191 * 0.8).rounded()), accuracy: 2, "mid-flash: \(level)")
        XCTAssertEqual(level[37], 0x40, "the flash is over after 0.4 s: \(level)")
        // The still was taken before the flash.
        let still = try decode(dir.appendingPathComponent("f-0.jpg").path)
        XCTAssertEqual(Int(still.view.pixel(x: 16, y: 12).g), 0x40, accuracy: 3)
    }

    func testLiveSnapshotsDoNotCostFrames() throws {
        try Build.requireCLI()
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        func run(snapshots: Bool) throws -> (dropped: Int, written: Int) {
            let p = try RunningProcess(Build.cli, ["launch", "videotestsrc is-live=true num-buffers=90 ! video/x-raw,format=BGRA,width=1280,height=720,framerate=30/1 ! filtercam flash=false snapshot-location=\(dir.path)/\(snapshots ? "l" : "n")-%05d.jpg ! fakesink sync=true"])
            if snapshots {
                // Ten requests a second for the three seconds of the run.
                for _ in 0..<28 {
                    p.write("snapshot\n")
                    Thread.sleep(forTimeInterval: 0.1)
                }
            }
            let r = p.wait(timeout: 60)
            XCTAssertEqual(r.status, 0, r.summary)
            let line = r.stderr.split(separator: "\n").first { $0.hasPrefix("filtercam filtercam0:") } ?? ""
            let dropped = line.split(separator: " ").first { $0.hasPrefix("dropped=") }.flatMap { Int($0.dropFirst(8)) } ?? -1
            let written = line.split(separator: " ").first { $0.hasPrefix("snapshots=") }.flatMap { Int($0.dropFirst(10)) } ?? -1
            return (dropped, written)
        }
        let without = try run(snapshots: false)
        let with = try run(snapshots: true)
        XCTAssertEqual(with.written, 28, "no request is lost")
        XCTAssertLessThanOrEqual(with.dropped, without.dropped + 5, "snapshots cost no live frames (with \(with.dropped), without \(without.dropped))")
    }

    // MARK: Stills of YUV streams

    /// Plays `description` (ending in a sink) to its end; `prepare` runs before it plays.
    private func playToEnd(_ description: String, prepare: (Pipeline) throws -> Void = { _ in }) throws {
        let pipeline = try Pipeline(description: description)
        try prepare(pipeline)
        pipeline.setState(GST_STATE_PLAYING)
        let end = gst_bus_timed_pop_filtered(pipeline.bus, 20_000_000_000, GstMessageType(rawValue: GST_MESSAGE_EOS.rawValue | GST_MESSAGE_ERROR.rawValue))
        XCTAssertEqual(end?.pointee.type, GST_MESSAGE_EOS, description)
        if let end { gst_message_unref(end) }
        pipeline.setState(GST_STATE_NULL)
    }

    /// A JPEG decoded by jpegdec, as the I420 samples it holds.
    private func decodedSamples(_ path: String) throws -> CapturedFrame {
        let frames = try collectFrames("filesrc location=\"\(path)\" ! jpegdec ! video/x-raw,format=I420")
        return try XCTUnwrap(frames.first)
    }

    /// The largest difference between the luma of a still and of a reference JPEG, decoded
    /// by jpegdec (a file made from RGB is 4:4:4, from I420 4:2:0: their luma is compared as
    /// GRAY8), where the reference is flat around the pixel: at the colour bars' edges
    /// videoconvert's RGB clips and moves the luma there (so the pictures are smpte75, whose
    /// colours all fit in RGB).
    private func largestLumaDifference(_ still: String, _ reference: String) throws -> Int {
        let luma = try [still, reference].map { path in
            try XCTUnwrap(try collectFrames("filesrc location=\"\(path)\" ! jpegdec ! videoconvert ! video/x-raw,format=GRAY8").first)
        }
        let (w, h) = (luma[1].width, luma[1].height)
        XCTAssertEqual([luma[0].width, luma[0].height], [w, h])
        func at(_ f: CapturedFrame, _ x: Int, _ y: Int) -> Int { Int(f.bytes[y * w + x]) }
        var largest = 0, compared = 0
        for y in 1..<(h - 1) {
            for x in 1..<(w - 1) {
                let around = (-1...1).flatMap { dy in (-1...1).map { dx in at(luma[1], x + dx, y + dy) } }
                guard around.max()! - around.min()! <= 4 else { continue }
                compared += 1
                largest = max(largest, abs(at(luma[0], x, y) - at(luma[1], x, y)))
            }
        }
        XCTAssertGreaterThan(compared, (w - 2) * (h - 2) / 3, "too few flat pixels to compare")
        return largest
    }

    /// What a JPEG file of the picture holds made without FilterCam: the frame in RGB
    /// (videoconvert), which libjpeg turns into the file's full-range samples itself.
    /// (Stock jpegenc writes a YUV frame's video-range samples as they are, so white
    /// came out 235; and videoconvert leaves the range of I420 → I420 as it is.)
    private static let jpegThroughRGB = "videoconvert ! video/x-raw,format=BGRx ! jpegenc quality=100"

    /// A still of a YUV stream is encoded from the frame's own format without a conversion
    /// to RGB: its luma is what stock `jpegenc` makes of the same processed picture
    /// (`videoflip` then `videocrop` of the lens) through RGB, with the lens on the chroma
    /// grid, within ±6 (two encodings' rounding: 4–5 seen; video range left as it was is 20
    /// off in white; the colours are `testYUVStillsHoldFullRangeSamples`).
    func testYUVStillsMatchStockJpegencOfTheSamePicture() throws {
        for format in ["I420", "NV12", "YUY2", "UYVY"] {
            let dir = try makeTempDir()
            defer { try? FileManager.default.removeItem(at: dir) }
            let source = "videotestsrc num-buffers=1 pattern=smpte75 ! video/x-raw,format=\(format),width=64,height=32"
            _ = try collectFrames("\(source) ! filtercam orientation=90r lens=0.25,0.25,0.5,0.5 snapshot-every=1 snapshot-region=lens snapshot-quality=100 flash=false snapshot-location=\(dir.path)/y-%d.jpg")
            // 90r turns 64x32 into 32x64; the lens is x 8..24, y 16..48 of that (whole
            // 16x16 blocks: at a partial block jpegenc reads past the plane).
            let reference = dir.appendingPathComponent("reference.jpg").path
            try playToEnd("\(source) ! videoflip video-direction=90r ! videocrop left=8 right=8 top=16 bottom=16 ! \(Self.jpegThroughRGB) ! filesink location=\(reference)")
            let ours = dir.appendingPathComponent("y-0.jpg").path
            let decoded = try decodedSamples(ours)
            XCTAssertEqual([decoded.width, decoded.height], [16, 32], format)
            XCTAssertLessThanOrEqual(try largestLumaDifference(ours, reference), 6, "\(format): the still's luma differs from stock jpegenc's")
        }
    }

    /// White, black and blue of a video-range YUV stream are what an image viewer shows
    /// for them in the still (computed by hand: white Y 235 → 255, black Y 16 → 0, blue
    /// Y 41 U 240 V 110 → Y 29 U 255 V 107), in every YUV format.
    func testYUVStillsHoldFullRangeSamples() throws {
        for format in ["I420", "NV12", "YUY2", "UYVY"] {
            let colours: [(String, [Int])] = [("0xffffffff", [255, 128, 128]), ("0xff000000", [0, 128, 128]), ("0xff0000ff", [29, 255, 107])]
            for (colour, expected) in colours {
                let dir = try makeTempDir()
                defer { try? FileManager.default.removeItem(at: dir) }
                _ = try collectFrames("videotestsrc num-buffers=1 pattern=solid-color foreground-color=\(colour) ! video/x-raw,format=\(format),width=32,height=16,colorimetry=bt601 ! filtercam snapshot-every=1 snapshot-quality=100 flash=false snapshot-location=\(dir.path)/c-%d.jpg")
                let decoded = try decodedSamples(dir.appendingPathComponent("c-0.jpg").path)
                // I420 planes: Y at (8, 8), U and V at (4, 4) of theirs.
                let planeU = 32 * 16, planeV = planeU + 16 * 8
                let yuv: [UInt8] = [decoded.bytes[8 * 32 + 8], decoded.bytes[planeU + 4 * 16 + 4], decoded.bytes[planeV + 4 * 16 + 4]]
                for (got, want) in zip(yuv, expected) {
                    XCTAssertEqual(Double(got), Double(want), accuracy: 2, "\(format) \(colour): Y U V \(yuv)")
                }
            }
        }
    }

    /// `snapshot-orientation=exif` on a YUV stream: the still holds the captured picture.
    /// (Sizes in whole 16x16 blocks: at a partial block jpegenc reads past the plane, so
    /// two encodings of the same samples can differ there.)
    func testYUVStillInExifModeHoldsTheCapturedPicture() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = "videotestsrc num-buffers=1 pattern=smpte75 ! video/x-raw,format=I420,width=48,height=32"
        _ = try collectFrames("\(source) ! filtercam orientation=90r snapshot-every=1 snapshot-orientation=exif snapshot-quality=100 flash=false snapshot-location=\(dir.path)/e-%d.jpg")
        let reference = dir.appendingPathComponent("reference.jpg").path
        try playToEnd("\(source) ! \(Self.jpegThroughRGB) ! filesink location=\(reference)")
        let ours = dir.appendingPathComponent("e-0.jpg").path
        let decoded = try decodedSamples(ours)
        XCTAssertEqual([decoded.width, decoded.height], [48, 32])
        XCTAssertLessThanOrEqual(try largestLumaDifference(ours, reference), 6, "the still is not the captured picture")
    }
}
