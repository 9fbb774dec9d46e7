import CFilterCamShim
import CGStreamer
@testable import FilterCamHost
@testable import FilterCamTool
import FilterCore
import FilterCamTestSupport
import Foundation
import XCTest

/// Recording from the preview (`record`, key v): the file is H.264 4:2:0 in MP4 with every
/// frame and none of the on-screen display or the flash; stills work meanwhile; sound
/// comes from a source given as a property (a tone here, never a real microphone), and a
/// missing one leaves the picture recorded alone; a folder that cannot be written is a
/// warning while the stream runs on; `v` twice makes numbered files; the terminal prints
/// the file, its length and its size. Small frames: the debug build runs these.
final class RecordingTests: XCTestCase {
    override func setUp() {
        GStreamer.initialize()
    }

    private func files(_ dir: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).sorted()
    }

    /// The streams of a media file as ffprobe names them: codec, and frames counted by decoding.
    private func streams(_ path: String) throws -> [(codec: String, frames: Int, duration: Double)] {
        guard let ffprobe = Build.which("ffprobe") else { throw XCTSkip("ffprobe is not installed") }
        let r = try runProcess(ffprobe, ["-v", "error", "-count_frames", "-show_entries", "stream=codec_name,nb_read_frames,duration",
                                         "-of", "csv=p=0", path], timeout: 30)
        return r.stdoutText.split(separator: "\n").map { line in
            let f = line.split(separator: ",").map(String.init)
            return (f[0], Int(f.count > 2 ? f[2] : "") ?? -1, Double(f.count > 1 ? f[1] : "") ?? -1)
        }
    }

    /// The frames of an MP4 decoded by GStreamer, as BGRx.
    private func decoded(_ path: String) throws -> [CapturedFrame] {
        try collectFrames("filesrc location=\(path) ! qtdemux ! h264parse ! avdec_h264 ! videoconvert ! video/x-raw,format=BGRx")
    }

    // Solid colour R 0x30, G 0x60, B 0xA0: the flash would lighten it, the OSD's box darken
    // it and its dot redden it.
    private let colour = (r: 0x30, g: 0x60, b: 0xA0)
    private func isColour(_ p: [UInt8], tolerance: Int = 12) -> Bool {   // BGRx
        abs(Int(p[2]) - colour.r) <= tolerance && abs(Int(p[1]) - colour.g) <= tolerance && abs(Int(p[0]) - colour.b) <= tolerance
    }

    /// Live I420 frames with the on-screen display on and a still (with its flash) halfway:
    /// the preview shows the red dot and the flash, the file has every frame, H.264 4:2:0,
    /// and not one OSD or flash pixel.
    func testRecordsEveryFrameWithoutTheOnScreenDisplayOrTheFlash() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        var messages: BusLog!
        let preview = try collectFrames(
            "videotestsrc is-live=true num-buffers=45 pattern=solid-color foreground-color=0xff3060a0 "
            + "! video/x-raw,format=I420,width=160,height=120,framerate=30/1 "
            + "! filtercam name=fc osd=true record=true record-location=\(dir.path)/r-%05d.mp4 snapshot-location=\(dir.path)/s-%05d.jpg "
            + "! videoconvert ! video/x-raw,format=BGRx", prepare: { messages = BusLog($0) }, onFrame: { i, _, pipeline in
                if i == 20, let fc = pipeline.element(named: "fc") { try? ElementControl(fc).snapshot() }
            })
        XCTAssertEqual(files(dir), ["r-00000.mp4", "s-00000.jpg"], "one recording and a still taken while recording")
        // The preview: the red dot top left (its centre near (11, 11) at this size), and a flash.
        let dot = preview[40].pixel(11, 11)
        XCTAssertTrue(dot[2] > 160 && dot[1] < 90 && dot[0] < 90, "the red dot on the preview: \(dot)")
        XCTAssertTrue(preview.contains { $0.pixel(80, 60)[1] > colour.g + 60 }, "the flash on the preview")
        // The file: every frame that went through (all 45, unless a loaded machine made the
        // live stream drop a late one), 4:2:0 H.264 that browsers play, 1.5 s long.
        let path = dir.appendingPathComponent("r-00000.mp4").path
        try assertPlayableEverywhere(path)
        XCTAssertGreaterThanOrEqual(preview.count, 40)
        XCTAssertEqual(try probeFrameCount(path), preview.count)
        XCTAssertEqual(try XCTUnwrap(try probeDuration(path)), 1.5, accuracy: 0.1)
        let frames = try decoded(path)
        XCTAssertEqual(frames.count, preview.count)
        for (i, f) in frames.enumerated() {
            for (x, y) in [(11, 11), (4, 4), (30, 10), (80, 60), (150, 110)] where !isColour(f.pixel(x, y)) {
                XCTFail("frame \(i) of the file at (\(x), \(y)) is \(f.pixel(x, y)), not the picture: OSD or flash in the file")
            }
        }
        // What the element said: started, then saved with its length, size and frames.
        XCTAssertTrue(messages.elements.contains { $0.hasPrefix("recording-started") && $0.contains("width=(int)160") }, "\(messages.elements)")
        let saved = try XCTUnwrap(messages.elements.first { $0.hasPrefix("recording-saved") }, "\(messages.elements)")
        XCTAssertTrue(saved.contains("frames=(int)\(preview.count)") && saved.contains("dropped=(int)0") && saved.contains("sound=(boolean)false"), saved)
        let duration = saved.range(of: #"duration=\(double\)[0-9.]+"#, options: .regularExpression).map { saved[$0].split(separator: ")")[1] }
        XCTAssertEqual(Double(duration.map(String.init) ?? "") ?? 0, 1.5, accuracy: 0.1, saved)
        XCTAssertEqual(messages.warnings, [])
    }

    /// With the effects gallery open the window shows thumbnails, and the file still the
    /// picture (as a still taken meanwhile is), in RGB and YUV.
    /// A live recording rides out a load spike: two seconds of frames may wait for the
    /// encoder, within 256 MB (a 1080p RGB frame is 8.3 MB), never fewer than 8.
    func testALiveRecordingMayFallTwoSecondsBehindWithinItsMemory() {
        XCTAssertEqual(MP4Recorder.maxQueuedFrames(fps: 30, frameBytes: 1280 * 720 * 2), 60)
        XCTAssertEqual(MP4Recorder.maxQueuedFrames(fps: 30, frameBytes: 1920 * 1080 * 4), 32)
        XCTAssertEqual(MP4Recorder.maxQueuedFrames(fps: 30, frameBytes: 8192 * 8192 * 4), 8)
    }

    func testTheGalleryIsNotRecordedThePictureIs() throws {
        for format in ["BGRx", "I420"] {
            let dir = try makeTempDir()
            defer { try? FileManager.default.removeItem(at: dir) }
            let preview = try collectFrames("videotestsrc num-buffers=6 pattern=solid-color foreground-color=0xff3060a0 "
                                            + "! video/x-raw,format=\(format),width=320,height=240,framerate=30/1 "
                                            + "! filtercam gallery=true record=true record-location=\(dir.path)/g-%d.mp4 "
                                            + "! videoconvert ! video/x-raw,format=BGRx")
            let spots = [(40, 40), (160, 120), (300, 220), (100, 200)]
            XCTAssertTrue(spots.contains { !isColour(preview[3].pixel($0.0, $0.1)) }, "the window shows the gallery, \(format)")
            let frames = try decoded(dir.appendingPathComponent("g-0.mp4").path)
            XCTAssertEqual(frames.count, 6, format)
            for (i, f) in frames.enumerated() {
                for (x, y) in spots where !isColour(f.pixel(x, y)) {
                    XCTFail("\(format) frame \(i) of the file at (\(x), \(y)) is \(f.pixel(x, y)), not the picture: the gallery in the file")
                }
            }
        }
    }

    /// A stream that is not live (a file) waits for the encoder: every frame is recorded.
    func testAStreamThatIsNotLiveLosesNoFrame() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let frames = try collectFrames("videotestsrc num-buffers=40 ! video/x-raw,format=BGRx,width=96,height=64,framerate=25/1 "
                                       + "! filtercam filter=sepia record=true record-location=\(dir.path)/f-%d.mp4")
        XCTAssertEqual(frames.count, 40)
        let path = dir.appendingPathComponent("f-0.mp4").path
        try assertPlayableEverywhere(path)
        XCTAssertEqual(try probeFrameCount(path), 40)
        XCTAssertEqual(try XCTUnwrap(try probeDuration(path)), 1.6, accuracy: 0.05)
    }

    /// A lens cropped under 16 pixels (the encoder's smallest side) is recorded scaled up
    /// with its shape: it started, then ended "not-negotiated" with an empty file.
    func testAPictureUnderSixteenPixelsIsRecordedScaledUp() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let frames = try collectFrames("videotestsrc num-buffers=20 ! video/x-raw,format=I420,width=320,height=240,framerate=25/1 "
                                       + "! filtercam lens=0,0,0.05,0.05 lens-crop=true record=true record-location=\(dir.path)/t-%d.mp4")
        XCTAssertEqual([frames.first?.width, frames.first?.height], [16, 12], "the lens")
        let path = dir.appendingPathComponent("t-0.mp4").path
        XCTAssertEqual(try probeFrameCount(path), 20)
        let decoded = try self.decoded(path)
        XCTAssertEqual([decoded.first?.width, decoded.first?.height], [22, 16])
    }

    /// `record=true` on a stream that ends before any frame: a WARNING says nothing was
    /// recorded, instead of silence, and no file is left.
    func testARecordingAskedForOnAStreamWithNoFramesSaysSo() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        var messages: BusLog!
        let frames = try collectFrames("videotestsrc num-buffers=0 ! video/x-raw,format=I420,width=96,height=64 "
                                       + "! filtercam record=true record-location=\(dir.path)/e-%05d.mp4", prepare: { messages = BusLog($0) })
        XCTAssertEqual(frames.count, 0)
        XCTAssertTrue(messages.warnings.contains { $0.contains("record=true") && $0.contains("no file") }, "\(messages.warnings)")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), [])
        // As a recording that cannot start: recording-failed, not started, and `record`
        // back to false (it read true, said only by the warning).
        XCTAssertTrue(messages.elements.contains { $0.hasPrefix("recording-failed") && $0.contains("started=(boolean)false") }, "\(messages.elements)")
    }

    /// `record=true` after EOS, the pipeline still PLAYING: no frame will come. Said at once
    /// and `record` stays false (it was taken silently, and a later flushing seek started a
    /// recording nobody saw asked for).
    func testARecordingAskedForAfterTheEndIsRefusedAtOnce() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let pipeline = try Pipeline(description: "videotestsrc num-buffers=3 ! video/x-raw,format=I420,width=96,height=64,framerate=30/1 "
                                    + "! filtercam name=fc record-location=\(dir.path)/a-%05d.mp4 ! fakesink sync=false")
        defer { pipeline.setState(GST_STATE_NULL) }
        let messages = BusLog(pipeline)
        pipeline.setState(GST_STATE_PLAYING)
        XCTAssertNotNil(GstOwned(gst_bus_timed_pop_filtered(pipeline.bus, 10_000_000_000, GST_MESSAGE_EOS)), "EOS")
        let fc = try pipeline.requireElement("fc")
        try Pipeline.setProperty(fc, "record", "true")
        XCTAssertEqual(Pipeline.property(fc, "record"), "false")
        XCTAssertTrue(messages.warnings.contains { $0.contains("the stream has ended") }, "\(messages.warnings)")
        XCTAssertTrue(messages.elements.contains { $0.hasPrefix("recording-failed") }, "\(messages.elements)")
        XCTAssertEqual(files(dir), [])
    }

    /// Sound from a source given as a property (a tone: the test needs no microphone),
    /// beside the picture and as long.
    func testSoundFromTheAudioSourceBesideThePicture() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        var messages: BusLog!
        _ = try collectFrames("videotestsrc is-live=true num-buffers=60 ! video/x-raw,format=I420,width=96,height=64,framerate=30/1 "
                              + "! filtercam record=true record-audio=true record-audio-source=\"audiotestsrc is-live=true wave=ticks\" "
                              + "record-location=\(dir.path)/a-%05d.mp4", prepare: { messages = BusLog($0) })
        let found = try streams(dir.appendingPathComponent("a-00000.mp4").path)
        XCTAssertEqual(found.map(\.codec), ["h264", "aac"], "\(found)")
        guard found.count == 2 else { return }
        // The sound is checked before the recording starts, so the picture starts a little
        // after the first frame; picture and sound end together.
        XCTAssertGreaterThan(found[0].frames, 45, "\(found)")
        XCTAssertEqual(found[1].duration, found[0].duration, accuracy: 0.25, "sound as long as the picture: \(found)")
        XCTAssertTrue(messages.elements.contains { $0.hasPrefix("recording-saved") && $0.contains("sound=(boolean)true") }, "\(messages.elements)")
        XCTAssertEqual(messages.warnings, [])
    }

    /// Paused for a second and played again: the sound stays beside its picture. The
    /// recording's own pipeline ran on through the pause, and the sound ended 1 s longer
    /// than the picture (3.97 s against 2.94).
    func testSoundStaysBesideThePictureAcrossAPause() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let pipeline = try Pipeline(description: "videotestsrc is-live=true ! video/x-raw,format=I420,width=96,height=64,framerate=30/1 "
                                    + "! filtercam name=fc record=true record-audio=true record-audio-source=\"audiotestsrc is-live=true wave=ticks\" "
                                    + "record-location=\(dir.path)/p-%d.mp4 ! fakesink")
        defer { pipeline.setState(GST_STATE_NULL) }
        let fc = try pipeline.requireElement("fc")
        func processed(atLeast n: Int) -> Bool {
            let deadline = Date().addingTimeInterval(30)
            while Int(Pipeline.property(fc, "frames-processed") ?? "0") ?? 0 < n && Date() < deadline { usleep(10_000) }
            return Int(Pipeline.property(fc, "frames-processed") ?? "0") ?? 0 >= n
        }
        pipeline.setState(GST_STATE_PLAYING)
        XCTAssertTrue(processed(atLeast: 30))
        pipeline.setState(GST_STATE_PAUSED)
        Thread.sleep(forTimeInterval: 1)   // the pause itself
        pipeline.setState(GST_STATE_PLAYING)
        XCTAssertTrue(processed(atLeast: 60))
        gst_element_send_event(pipeline.element, gst_event_new_eos())
        XCTAssertNotNil(GstOwned(gst_bus_timed_pop_filtered(pipeline.bus, 20_000_000_000, GST_MESSAGE_EOS)), "EOS")
        pipeline.setState(GST_STATE_NULL)
        let found = try streams(dir.appendingPathComponent("p-0.mp4").path)
        XCTAssertEqual(found.map(\.codec), ["h264", "aac"], "\(found)")
        guard found.count == 2 else { return }
        XCTAssertEqual(found[1].duration, found[0].duration, accuracy: 0.3, "sound as long as the picture: \(found)")
    }

    /// Without a microphone (here a sound server that is not there) the picture is
    /// recorded alone, and the warning says why.
    func testNoMicrophoneRecordsThePictureAloneAndSaysWhy() throws {
        let (path, warnings) = try recordLive(frames: 30, sound: "pulsesrc server=/nonexistent-fc-sound")
        XCTAssertEqual(warnings.count, 1, "\(warnings)")
        let warning = warnings.first ?? ""
        XCTAssertTrue(warning.contains("\(path) without sound") && warning.contains("no sound from 'pulsesrc server=/nonexistent-fc-sound'")
                      && warning.contains("Failed to connect"), warning)
    }

    /// A sound source that starts and then gives no sound (a stalled microphone) is waited
    /// for up to 3 s: the frames meanwhile wait for the recording (15 did, and the file
    /// began 2.5 s after the picture it was asked at).
    func testASoundSourceThatStaysSilentCostsNoPicture() throws {
        let (path, warnings) = try recordLive(frames: 60, sound: "audiotestsrc is-live=true ! valve drop=true")
        XCTAssertTrue(warnings.first?.contains("\(path) without sound") ?? false, "\(warnings)")
    }

    /// Records `frames` live frames with sound asked from `sound`, which gives none: the
    /// file has the picture alone, every frame (those that came while the sound was
    /// checked waited for the recording). Returns the file and the bus's warnings.
    private func recordLive(frames: Int, sound: String) throws -> (String, [String]) {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        var messages: BusLog!
        _ = try collectFrames("videotestsrc is-live=true num-buffers=\(frames) ! video/x-raw,format=I420,width=96,height=64,framerate=30/1 "
                              + "! filtercam record=true record-audio=true record-audio-source=\"\(sound.replacingOccurrences(of: "\"", with: "\\\""))\" "
                              + "record-location=\(dir.path)/m-%05d.mp4", prepare: { messages = BusLog($0) })
        let path = dir.appendingPathComponent("m-00000.mp4").path
        XCTAssertEqual(try streams(path).map(\.codec), ["h264"])
        XCTAssertEqual(Double(try XCTUnwrap(try probeFrameCount(path))), Double(frames), accuracy: 3, "the picture waits for no sound")
        return (path, messages.warnings)
    }

    /// A sound source that is not live would give its sound as fast as it is taken, ahead
    /// of the picture: the picture is recorded alone, and the warning says what to use.
    func testASoundSourceThatIsNotLiveIsRefusedAndSaysWhatToUse() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        var messages: BusLog!
        _ = try collectFrames("videotestsrc is-live=true num-buffers=30 ! video/x-raw,format=I420,width=96,height=64,framerate=30/1 "
                              + "! filtercam record=true record-audio=true record-audio-source=audiotestsrc "
                              + "record-location=\(dir.path)/n-%05d.mp4", prepare: { messages = BusLog($0) })
        let path = dir.appendingPathComponent("n-00000.mp4").path
        XCTAssertEqual(try streams(path).map(\.codec), ["h264"])
        XCTAssertEqual(messages.warnings, ["recording \(path) without sound: 'audiotestsrc' is not a live source: its sound would run "
                                           + "ahead of the picture (a microphone, or a live test source: audiotestsrc is-live=true)"])
    }

    /// An 8192×2 strip is recorded at 65536×16 (no side under 16): over what x264enc
    /// takes, it was announced, then failed "not-negotiated". Refused before it starts.
    func testAPictureTooLongToEncodeIsRefusedBeforeItStarts() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        var messages: BusLog!
        _ = try collectFrames("videotestsrc num-buffers=3 ! video/x-raw,format=I420,width=8192,height=2 "
                              + "! filtercam record=true record-location=\(dir.path)/w-%05d.mp4", prepare: { messages = BusLog($0) })
        XCTAssertEqual(messages.warnings.count, 1, "\(messages.warnings)")
        XCTAssertTrue(messages.warnings.first?.contains("a 8192x2 picture is recorded at 65536x16 (no side under 16), over the 16384 pixels a side") ?? false,
                      "\(messages.warnings)")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), [])
    }

    /// A sound source GStreamer cannot build is a typo, not a missing microphone: said so.
    func testASoundSourceThatCannotBeBuiltIsNamedAsSuch() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        var messages: BusLog!
        _ = try collectFrames("videotestsrc is-live=true num-buffers=10 ! video/x-raw,format=I420,width=96,height=64,framerate=30/1 "
                              + "! filtercam record=true record-audio=true record-audio-source=nosuchsoundsource "
                              + "record-location=\(dir.path)/b-%05d.mp4", prepare: { messages = BusLog($0) })
        let path = dir.appendingPathComponent("b-00000.mp4").path
        XCTAssertEqual(messages.warnings, ["recording \(path) without sound: 'nosuchsoundsource' is not a sound source GStreamer can build: "
                                           + "no element \"nosuchsoundsource\""])
    }

    /// A folder that is not there: a warning naming the path and why, `record` back to
    /// false, and every frame still goes through.
    func testAFolderThatCannotBeWrittenIsAWarningAndTheStreamRunsOn() throws {
        let missing = "/nonexistent-\(UUID().uuidString)"
        var messages: BusLog!
        var recording: String?
        // Not live, so that no frame is dropped as late on a loaded machine: all 20 must pass.
        let frames = try collectFrames("videotestsrc num-buffers=20 ! video/x-raw,format=I420,width=96,height=64,framerate=30/1 "
                                       + "! filtercam name=fc osd=true record=true record-location=\(missing)/r-%05d.mp4",
                                       prepare: { messages = BusLog($0) }, afterEOS: { p in
            recording = p.element(named: "fc").flatMap { Pipeline.property($0, "record") }
        })
        XCTAssertEqual(frames.count, 20, "the stream runs on, every frame through")
        XCTAssertEqual(messages.warnings, ["cannot record to \(missing)/r-00000.mp4: the folder '\(missing)' does not exist"])
        XCTAssertTrue(messages.elements.contains { $0.hasPrefix("recording-failed") }, "\(messages.elements)")
        XCTAssertEqual(recording, "false")
    }

    /// The folder removed while a recording runs: the file is written to its end but no
    /// folder holds it, so it is said to be lost (it was said to be saved, "0 B").
    func testARecordingWhoseFolderIsRemovedIsSaidToBeLost() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        var messages: BusLog!
        let frames = try collectFrames("videotestsrc num-buffers=20 ! video/x-raw,format=I420,width=96,height=64,framerate=30/1 "
                                       + "! filtercam record=true record-location=\(dir.path)/r-%05d.mp4",
                                       prepare: { messages = BusLog($0) }, onFrame: { i, _, _ in
            if i == 10 { try? FileManager.default.removeItem(at: dir) }
        })
        XCTAssertEqual(frames.count, 20, "the stream runs on")
        XCTAssertEqual(messages.warnings, ["recording \(dir.path)/r-00000.mp4 is lost: the file is no longer there (its folder was "
                                           + "removed or renamed while it recorded)"])
        XCTAssertTrue(messages.elements.contains { $0.hasPrefix("recording-failed") }, "\(messages.elements)")
        XCTAssertFalse(messages.elements.contains { $0.hasPrefix("recording-saved") }, "\(messages.elements)")
    }

    /// The `record` command (key v) twice, then again: numbered files that never overwrite
    /// one another (nor a file already there), the second finished by the end of the stream.
    func testRecordCommandStartsAndStopsNumberedFiles() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = FileManager.default.createFile(atPath: dir.appendingPathComponent("v-00000.mp4").path, contents: Data("mine".utf8))
        var written: String?
        _ = try collectFrames("videotestsrc is-live=true num-buffers=45 ! video/x-raw,format=I420,width=96,height=64,framerate=30/1 "
                              + "! filtercam name=fc record-location=\(dir.path)/v-%05d.mp4", onFrame: { i, _, pipeline in
            guard [5, 20, 30].contains(i), let fc = pipeline.element(named: "fc") else { return }
            XCTAssertNil(try? ControlCommand.record.run(on: ElementControl(fc)))
        }, afterEOS: { p in written = p.element(named: "fc").flatMap { Pipeline.property($0, "recordings-written") } })
        XCTAssertEqual(files(dir), ["v-00000.mp4", "v-00001.mp4", "v-00002.mp4"])
        XCTAssertEqual(try String(contentsOf: dir.appendingPathComponent("v-00000.mp4"), encoding: .utf8), "mine")
        for (name, expected) in [("v-00001.mp4", 15), ("v-00002.mp4", 15)] {
            let path = dir.appendingPathComponent(name).path
            try assertPlayableEverywhere(path)
            XCTAssertEqual(Double(try XCTUnwrap(try probeFrameCount(path))), Double(expected), accuracy: 3, name)
        }
        XCTAssertEqual(written, "2")
    }

    /// `v v` in quick succession: each press acts, as piped `record` lines do. The second
    /// within a frame or two, while the recording still started, made it announced then
    /// said to have stopped before its first frame, with no file; the second before any
    /// frame came (two keys in one go) made both vanish without a word (testers' finds).
    /// The frames kept for it, or the next one, are its frames: it leaves a short file.
    func testAStopWhileTheRecordingStartsKeepsTheFramesItHas() throws {
        try assertQuickStartThenStopRecords(at: [5, 6])   // a frame between the two
        try assertQuickStartThenStopRecords(at: [5, 5])   // no frame between the two
    }

    /// `record` false then true at once, from the application, while a recording runs: two
    /// files, every time (the false was lost in about 1 run of 8: one file, no
    /// recording-saved for the first part). And true, false, true before the first frame:
    /// a short file, then the next.
    func testFalseThenTrueAtOnceSplitsTheRecording() throws {
        for (name, toggles) in [("split", [(2, true), (12, false), (12, true)]), ("before", [(2, true), (2, false), (2, true)])] {
            let (names, messages) = try recordThirtyFrames { i, fc in
                for (at, on) in toggles where at == i { try? Pipeline.setProperty(fc, "record", on ? "true" : "false") }
            }
            XCTAssertEqual(names, ["q-00000.mp4", "q-00001.mp4"], name)
            XCTAssertEqual(messages.elements.filter { $0.hasPrefix("recording-saved") }.count, 2, "\(name): \(messages.elements)")
            XCTAssertEqual(messages.warnings, [], name)
        }
    }

    /// 30 live I420 frames through `filtercam name=fc` recording to q-%05d.mp4 in a folder
    /// of its own; `each(i, fc)` with every frame that reached the sink. The files' names
    /// and the bus's messages; `check` sees the folder before it goes.
    private func recordThirtyFrames(_ each: @escaping (Int, UnsafeMutablePointer<GstElement>) -> Void,
                                    check: (URL) throws -> Void = { _ in }) throws -> (files: [String], messages: BusLog) {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        var messages: BusLog!
        _ = try collectFrames("videotestsrc is-live=true num-buffers=30 ! video/x-raw,format=I420,width=96,height=64,framerate=30/1 "
                              + "! filtercam name=fc record-location=\(dir.path)/q-%05d.mp4", prepare: { messages = BusLog($0) },
                              onFrame: { i, _, pipeline in
            if let fc = pipeline.element(named: "fc") { each(i, fc) }
        })
        try check(dir)
        return (files(dir), messages)
    }

    private func assertQuickStartThenStopRecords(at presses: [Int]) throws {
        // A frame reaching the sink was kept for a recording asked for before it.
        let (names, messages) = try recordThirtyFrames({ i, fc in
            for _ in presses.filter({ $0 == i }) { XCTAssertNil(try? ControlCommand.record.run(on: ElementControl(fc))) }
        }, check: { dir in
            let path = dir.appendingPathComponent("q-00000.mp4").path
            try assertPlayableEverywhere(path)
            let counted = try probeFrameCount(path)
            XCTAssertTrue((1...3).contains(counted ?? 0), "\(String(describing: counted)) frames")
        })
        XCTAssertEqual(messages.warnings, [], "no 'stopped before its first frame'")
        XCTAssertEqual(names, ["q-00000.mp4"])
        let saved = try XCTUnwrap(messages.elements.first { $0.hasPrefix("recording-saved") }, "\(messages.elements)")
        XCTAssertTrue(["1", "2", "3"].contains { saved.contains("frames=(int)\($0)") || saved.contains("frames=(uint)\($0)") }, saved)
    }

    /// Through the loadable plugin in stock gst-launch-1.0 (FoundationEssentials, not the
    /// program's Foundation): `recording-saved` gives the file's size as on disk.
    func testTheSavedMessageGivesTheFilesSizeInStockGstLaunch() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("clip-000.mp4").path
        let r = try runGstTool("gst-launch-1.0", ["-e", "-m", "videotestsrc", "num-buffers=30", "!", "video/x-raw,width=96,height=64",
                                                  "!", "filtercam", "record=true", "record-location=\(dir.path)/clip-%03d.mp4", "!", "fakesink"])
        XCTAssertEqual(r.status, 0, r.summary)
        let line = try XCTUnwrap(r.stdoutText.split(separator: "\n").first { $0.contains("recording-saved") }, r.stdoutText)
        let said = try XCTUnwrap(line.range(of: #"size=\(guint64\)(\d+)"#, options: .regularExpression).map { line[$0] }, String(line))
        let onDisk = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: file)[.size] as? Int)
        XCTAssertGreaterThan(onDisk, 0)
        XCTAssertEqual(said, "size=(guint64)\(onDisk)")
    }

    /// `record` twice in one go (two lines piped together) is a start then a stop, each
    /// said, not two toggles within a frame that cancel out unseen; a `record` into a
    /// missing folder is said each time, and the name it could not use is used next.
    func testTwoRecordsInARowStartThenStopAndFailuresAreSaidEachTime() throws {
        try Build.requireCLI()
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = "videotestsrc is-live=true ! video/x-raw,format=I420,width=96,height=64,framerate=30/1"
        let p = try RunningProcess(Build.cli, ["launch", "\(source) ! filtercam record-location=\(dir.path)/r-%05d.mp4 ! fakesink sync=true"])
        p.write("record\nrecord\n")
        XCTAssertTrue(p.waitForStderr(containing: "recorded \(dir.path)/r-00000.mp4: ", timeout: 20), p.stderrSoFar)
        p.write("quit\n")
        let r = p.wait(timeout: 30)
        XCTAssertEqual(r.status, 0, r.summary)
        XCTAssertTrue(r.stderr.contains("recording \(dir.path)/r-00000.mp4 (96x64, no sound)"), r.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir.appendingPathComponent("r-00000.mp4").path))

        let missing = dir.appendingPathComponent("missing").path
        let q = try RunningProcess(Build.cli, ["launch", "\(source) ! filtercam record-location=\(missing)/r-%05d.mp4 ! fakesink sync=true"])
        let failure = "recording failed: cannot record to \(missing)/r-00000.mp4: the folder '\(missing)' does not exist"
        q.write("record\n")
        XCTAssertTrue(q.waitForStderr(containing: failure, timeout: 20), q.stderrSoFar)
        q.write("record\n")
        XCTAssertTrue(q.waitForStderr(containing: failure + "\n" + failure, timeout: 20), q.stderrSoFar)
        q.write("quit\n")
        let s = q.wait(timeout: 30)
        // A still or recording asked for that failed fails the run (said, the stream ran on).
        XCTAssertEqual(s.status, 1, s.summary)
        XCTAssertTrue(s.stderr.contains("failed (said above): exit status 1"), s.stderr)
        XCTAssertFalse(s.stderr.contains("WARNING"), s.stderr)
    }

    /// `filtercam launch --audio`: `record` on stdin starts and stops, with sound; the
    /// terminal names the file, then its length and size; Ctrl-C while recording finishes
    /// the second file.
    func testTheTerminalPrintsTheFileItsLengthAndSize() throws {
        try Build.requireCLI()
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let p = try RunningProcess(Build.cli, ["launch", "--audio", "videotestsrc is-live=true ! video/x-raw,format=I420,width=96,height=64,framerate=30/1 "
                                               + "! filtercam record-location=\(dir.path)/t-%05d.mp4 record-audio-source=\"audiotestsrc is-live=true\" "
                                               + "! fakesink sync=true"])
        p.write("record\n")
        XCTAssertTrue(p.waitForStderr(containing: "recording \(dir.path)/t-00000.mp4 (96x64, with sound)", timeout: 15), p.stderrSoFar)
        Thread.sleep(forTimeInterval: 1)
        p.write("record\n")
        XCTAssertTrue(p.waitForStderr(containing: "recorded \(dir.path)/t-00000.mp4: ", timeout: 15), p.stderrSoFar)
        p.write("record\n")
        XCTAssertTrue(p.waitForStderr(containing: "recording \(dir.path)/t-00001.mp4", timeout: 15), p.stderrSoFar)
        p.interrupt()   // at once: the file still plays (below)
        let r = p.wait(timeout: 30)
        XCTAssertEqual(r.status, 0, r.summary)
        let saved = r.stderr.split(separator: "\n").filter { $0.hasPrefix("recorded ") }
        XCTAssertEqual(saved.count, 2, r.stderr)
        // "recorded …/t-00000.mp4: 1.0 s, 12 kB (30 frames, with sound)"
        let line = String(saved.first ?? "")
        let pattern = #"^recorded .*/t-00000\.mp4: (\d+\.\d) s, \d+ (B|kB|MB) \((\d+) frames, with sound\)$"#
        XCTAssertNotNil(line.range(of: pattern, options: .regularExpression), line)
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: dir.appendingPathComponent("t-00000.mp4").path)[.size] as? Int)
        XCTAssertTrue(line.contains(RecordingReport.size(UInt64(size))), "the size as on disk (\(size)): \(line)")
        let seconds = Double(line.split(separator: ":")[1].split(separator: " ")[0]) ?? 0
        let picture = try XCTUnwrap(try streams(dir.appendingPathComponent("t-00000.mp4").path).first { $0.codec == "h264" })
        XCTAssertEqual(seconds, picture.duration, accuracy: 0.1, "the length said is the picture's in the file")
        XCTAssertTrue(r.stderr.contains("recordings=2"), r.stderr)
        // Stopped as soon as it started, it still plays, with picture and sound.
        try assertPlayableEverywhere(dir.appendingPathComponent("t-00001.mp4").path)
        let codecs = try streams(dir.appendingPathComponent("t-00001.mp4").path).map(\.codec)
        XCTAssertTrue(codecs.contains("h264") && codecs.contains("aac"), "\(codecs)")
    }

    /// A recorder with sound ended the moment it started, before its microphone (a tone)
    /// has given anything, writes a file that plays, with a sound track: `finish` waits
    /// for the sound's first buffer. Without that wait the sound track had no format and
    /// ffprobe could not read the file.
    func testARecorderWithSoundEndedAtOnceWritesAFileThatPlays() throws {
        guard MP4Recorder.soundEncoder != nil else { throw XCTSkip("no AAC encoder") }
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let clock = try XCTUnwrap(GstOwned(gst_system_clock_obtain()))
        for round in 0..<3 {
            let path = dir.appendingPathComponent("at-once-\(round).mp4").path
            let frame = StillPixels.rgb(PixelBuffer(width: 64, height: 48, format: .bgrx))
            let recorder = try MP4Recorder(path: path, first: frame, framesPerSecond: 30, live: true,
                                           sound: "audiotestsrc is-live=true", clock: (clock: clock.pointer, base: UInt64(gst_clock_get_time(clock.pointer))))
            recorder.push(frame, framesPerSecond: 30, runningTime: nil, duration: nil)
            XCTAssertNil(recorder.finish())
            try assertPlayableEverywhere(path)
            let codecs = try streams(path).map(\.codec)
            XCTAssertTrue(codecs.contains("h264") && codecs.contains("aac"), "round \(round): \(codecs)")
        }
    }
}
