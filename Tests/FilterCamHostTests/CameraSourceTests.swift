import CFilterCamShim
import CGStreamer
@testable import FilterCamHost
@testable import FilterCamTool
import FilterCamTestSupport
import Foundation
import XCTest

/// `filtercamsrc` and `filtercam devices` on a machine without a camera (CI): the fallback
/// picture and its warning, fallback=none, presets, controls without a camera, and
/// switching cameras (test:PATTERN pseudo-cameras) while recording.
final class CameraSourceTests: XCTestCase {
    private var hasCamera: Bool { !CameraDirectory.list().isEmpty }

    /// Runs `description` to EOS (or an error) and returns the WARNING texts and the
    /// `filtercamsrc-camera` messages' `source` fields.
    private func warnings(_ description: String) throws -> (warnings: [String], sources: [String]) {
        GStreamer.initialize()
        let pipeline = try Pipeline(description: description)
        XCTAssertNotEqual(pipeline.setState(GST_STATE_PLAYING), GST_STATE_CHANGE_FAILURE)
        var warnings: [String] = [], sources: [String] = []
        let deadline = Date().addingTimeInterval(20)
        loop: while Date() < deadline {
            guard let m = gst_bus_timed_pop(pipeline.bus, GstClockTime(second / 10)) else { continue }
            defer { gst_message_unref(m) }
            switch m.pointee.type {
            case GST_MESSAGE_WARNING:
                var error: UnsafeMutablePointer<GError>?
                gst_message_parse_warning(m, &error, nil)
                warnings.append(error.map { String(cString: $0.pointee.message) } ?? "?")
                if let error { g_error_free(error) }
            case GST_MESSAGE_ELEMENT:
                if let s = gst_message_get_structure(m), gst_structure_has_name(s, "filtercamsrc-camera") != 0,
                   let source = gst_structure_get_string(s, "source") {
                    sources.append(String(cString: source))
                }
            case GST_MESSAGE_EOS, GST_MESSAGE_ERROR:
                break loop
            default:
                break
            }
        }
        pipeline.setState(GST_STATE_NULL)
        return (warnings, sources)
    }

    /// No camera named (an empty value, or NULL) is the default camera and reads back as
    /// it (it read back '' while opening the back camera).
    func testAnEmptyCameraIsTheDefaultOne() throws {
        let pipeline = try Pipeline(description: "filtercamsrc name=s camera=test:ball ! fakesink")
        let s = try pipeline.requireElement("s")
        for empty in ["", "  "] {
            try Pipeline.setProperty(s, "camera", "test:ball")
            try Pipeline.setProperty(s, "camera", empty)
            XCTAssertEqual(Pipeline.property(s, "camera"), "back", "camera='\(empty)'")
        }
    }

    func testDevicesSaysNoCamera() throws {
        if hasCamera { throw XCTSkip("this machine has a camera") }
        let r = try runCLI(["devices"], timeout: 20)
        // An empty listing is a complete answer, not an error (as `v4l2-ctl --list-devices`).
        XCTAssertEqual(r.status, 0, r.summary)
        XCTAssertTrue(r.stdoutText.contains("no camera found"), r.summary)
    }

    func testMissingDeviceFallsBackToTestPictureWithWarning() throws {
        let frames = try collectFrames("filtercamsrc camera=/dev/video-filtercam-missing num-buffers=5")
        XCTAssertEqual(frames.count, 5)
        XCTAssertEqual(frames.first?.width, 640)
        XCTAssertEqual(frames.first?.height, 480)
        XCTAssertEqual(frames.first?.format, "YUY2", "the test picture comes as a webcam's raw mode does, unconverted")
        let seen = try warnings("filtercamsrc camera=/dev/video-filtercam-missing num-buffers=5 ! fakesink")
        XCTAssertTrue(seen.warnings.contains { $0.contains("/dev/video-filtercam-missing does not exist") && $0.contains("test picture") }, "\(seen)")
        XCTAssertEqual(seen.sources.count, 1)
        XCTAssertTrue(seen.sources.first?.contains("does not exist") ?? false, "\(seen)")
    }

    func testNoCameraFallsBackInCLI() throws {
        if hasCamera { throw XCTSkip("this machine has a camera") }
        let r = try runCLI(["launch", "filtercamsrc num-buffers=3 ! fakesink"], timeout: 20)
        XCTAssertEqual(r.status, 0, r.summary)
        XCTAssertTrue(r.stderr.contains("WARNING") && r.stderr.contains("no camera found"), r.stderr)
        XCTAssertFalse(r.stderr.contains("filtercamsrc0: filtercamsrc0"), "the element named twice: \(r.stderr)")
        XCTAssertFalse(r.stderr.contains("processed="), "filtercamsrc is not a filter: no summary line\n\(r.stderr)")
    }

    func testFallbackNoneFailsWithTheReason() throws {
        let r = try runCLI(["launch", "filtercamsrc camera=/dev/video-filtercam-missing fallback=none ! fakesink"], timeout: 20)
        XCTAssertNotEqual(r.status, 0, r.summary)
        XCTAssertTrue(r.stderr.contains("ERROR") && r.stderr.contains("does not exist") && r.stderr.contains("fallback=none"), r.stderr)
    }

    func testPathThatIsNotAVideoDevice() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("video0").path
        _ = FileManager.default.createFile(atPath: file, contents: Data("not a camera".utf8))
        for path in [file, dir.path] {
            let r = try runCLI(["launch", "filtercamsrc camera=\(path) fallback=none ! fakesink"], timeout: 20)
            XCTAssertNotEqual(r.status, 0, r.summary)
            XCTAssertTrue(r.stderr.contains("\(path) is not a video device"), r.stderr)
        }
        let seen = try warnings("filtercamsrc camera=\(file) num-buffers=2 ! fakesink")
        XCTAssertTrue(seen.warnings.contains { $0.contains("\(file) is not a video device") }, "\(seen)")
    }

    func testPresetsGiveExactCaps() throws {
        for (preset, w, h) in [("640x480", 640, 480), ("1280x720", 1280, 720), ("1920x1080", 1920, 1080), ("photo", 1920, 1080)] {
            let frames = try collectFrames("filtercamsrc camera=test:smpte preset=\(preset) num-buffers=2")
            XCTAssertEqual(frames.count, 2, preset)
            for frame in frames {
                XCTAssertEqual([frame.width, frame.height], [w, h], preset)
                // videorate's durations are the steps between its 1/30 s timestamps, rounded.
                XCTAssertEqual(Double(try XCTUnwrap(frame.duration)), Double(second) / 30, accuracy: 1, "30 fps, \(preset)")
            }
        }
        // Downstream may ask for another raw format.
        let rgba = try collectFrames("filtercamsrc camera=test:ball num-buffers=1 ! video/x-raw,format=RGBA")
        XCTAssertEqual(rgba.first?.format, "RGBA")
    }

    /// A caps filter naming the preset's size links and runs, as after any source: the
    /// links of a description are made before the camera opens, and the element said
    /// 640x480 whatever the preset until then ("could not link", a tester's find). Photo
    /// (the camera's largest, 1920x1080 for a test picture) takes any size until it opens.
    func testACapsFilterWithThePresetsSizeLinks() throws {
        for (preset, w, h) in [("1280x720", 1280, 720), ("1920x1080", 1920, 1080), ("photo", 1920, 1080)] {
            let frames = try collectFrames("filtercamsrc camera=test:smpte preset=\(preset) num-buffers=2 ! video/x-raw,width=\(w),height=\(h)")
            XCTAssertEqual(frames.count, 2, preset)
            XCTAssertEqual(frames.map { [$0.width, $0.height] }, [[w, h], [w, h]], preset)
        }
    }

    /// A caps filter after the source that it cannot give: the hint says what it gives and
    /// what to do (it said "videoconvert ! videoscale" for a frame rate too, which fails
    /// again, and never named the preset; a tester's find).
    func testACapsFilterTheSourceCannotGiveGetsTheRightHint() throws {
        for (caps, remedy) in [("video/x-raw,framerate=15/1", "put videorate after it"),
                               ("video/x-raw,width=1280,height=720", "choose the preset of that size")] {
            let r = try runCLI(["launch", "filtercamsrc camera=test:ball num-buffers=2 ! \(caps) ! fakesink"], timeout: 30)
            XCTAssertNotEqual(r.status, 0, r.summary)
            XCTAssertTrue(r.stderr.contains("hint: filtercamsrc0 gives") && r.stderr.contains(remedy), r.stderr)
        }
    }

    /// A camera whose size fits nothing after the source (here: the size a lens crop asks
    /// for its fixed output) is an error of the source naming both sizes, not the camera's
    /// bare "not-linked" from inside it. A preset of a known size fails earlier, at the link,
    /// as any source of that fixed size does; photo's size is known once the camera opens.
    func testAPresetThatFitsNothingAfterIsNamedWithBothSizes() throws {
        let after = " ! filtercam lens=0.25,0.25,0.5,0.5 lens-crop=true ! video/x-raw,format=I420,width=320,height=240 ! fakesink"
        let r = try runCLI(["launch", "filtercamsrc camera=test:smpte num-buffers=3 preset=photo" + after], timeout: 30)
        XCTAssertNotEqual(r.status, 0, r.summary)
        XCTAssertTrue(r.stderr.contains("filtercamsrc0 gives 1920x1080 and what follows it takes 640x480 I420: put videoconvert ! videoscale after filtercamsrc0"), r.stderr)
        XCTAssertFalse(r.stderr.contains("not-linked"), r.stderr)
        let known = try runCLI(["launch", "filtercamsrc camera=test:smpte num-buffers=3 preset=1280x720" + after], timeout: 30)
        XCTAssertNotEqual(known.status, 0, known.summary)
        XCTAssertTrue(known.stderr.contains("could not link filtercam0 to fakesink0") && known.stderr.contains("put videoconvert ! videoscale after"), known.stderr)
    }

    /// num-buffers counts the frames that leave, as a GstBaseSrc's does: `FRAMES=60` is 60
    /// frames in the file. A camera whose first frame comes 0.5 s into the running time (a
    /// slow start, as on a loaded machine) made the 30 fps videorate inside fill the half
    /// second before it with 15 copies, all counted on top (4 asked, 19 given).
    func testNumBuffersCountsTheFramesThatLeave() throws {
        let frames = try collectFrames("filtercamsrc camera=test:ball preset=640x480 num-buffers=4", prepare: { pipeline in
            let clock = gst_system_clock_obtain()!
            defer { gst_object_unref(UnsafeMutableRawPointer(clock)) }
            gst_pipeline_use_clock(UnsafeMutableRawPointer(pipeline.element).assumingMemoryBound(to: GstPipeline.self), clock)
            gst_element_set_start_time(pipeline.element, GstClockTime(UInt64.max))   // GST_CLOCK_TIME_NONE: base time as set
            gst_element_set_base_time(pipeline.element, gst_clock_get_time(clock) - GstClockTime(second / 2))
        })
        XCTAssertEqual(frames.count, 4, "pts \(frames.compactMap(\.pts))")
    }

    func testControlTheCameraLacksWarnsNamingCameraAndControl() throws {
        let r = try runCLI(["launch", "filtercamsrc camera=test:ball torch=true zoom=2 num-buffers=3 ! fakesink"], timeout: 20)
        XCTAssertEqual(r.status, 0, r.summary)
        XCTAssertTrue(r.stderr.contains("camera test:ball has no control for torch (looked for led1_mode, led_mode)"), r.stderr)
        XCTAssertTrue(r.stderr.contains("camera test:ball has no control for zoom (looked for zoom_absolute)"), r.stderr)
    }

    func testInvalidValuesAreErrors() throws {
        let r = try runCLI(["launch", "filtercamsrc camera=test:ball white-balance=1000 num-buffers=3 ! fakesink"], timeout: 20)
        XCTAssertNotEqual(r.status, 0, r.summary)
        XCTAssertTrue(r.stderr.contains("white-balance '1000'") && r.stderr.contains("2000"), r.stderr)
        let c = try runCLI(["launch", "filtercamsrc camera=sideways num-buffers=3 ! fakesink"], timeout: 20)
        XCTAssertNotEqual(c.status, 0, c.summary)
        XCTAssertTrue(c.stderr.contains("camera must be back, front"), c.stderr)
    }

    func testInspectShowsASourceWithCameraProperties() throws {
        let text = try Inspector.describe(factory: "filtercamsrc")
        XCTAssertFalse(text.contains("SINK template"), text)
        XCTAssertTrue(text.contains("SRC template: 'src'"), text)
        for p in ["camera", "preset", "fallback", "num-buffers", "torch", "focus-mode", "focus-position", "exposure-bias",
                  "exposure-time", "iso", "white-balance", "tint", "zoom"] {
            XCTAssertTrue(text.contains("\n  \(p) "), "missing \(p)")
        }
    }

    /// The camera's own format reaches FilterCam and encoders unconverted (the test picture
    /// is YUY2, as a webcam's raw mode); a downstream that needs another format gets it.
    func testTheCamerasFormatPassesThroughAndOtherFormatsAreConverted() throws {
        let into = try collectFrames("filtercamsrc camera=test:smpte num-buffers=2 ! filtercam filter=mono")
        XCTAssertEqual(into.first?.format, "YUY2")
        for format in ["I420", "NV12", "BGRx"] {
            let converted = try collectFrames("filtercamsrc camera=test:smpte num-buffers=2 ! video/x-raw,format=\(format)")
            XCTAssertEqual(converted.first?.format, format)
        }
    }

    func testStockGstLaunchRunsTheSource() throws {
        let r = try runGstTool("gst-launch-1.0", ["filtercamsrc", "camera=test:ball", "num-buffers=5", "!", "fakesink"])
        XCTAssertEqual(r.status, 0, r.summary + r.stdoutText)
    }

    /// Switching cameras while frames flow: the same caps, running time continues, and
    /// the picture changes.
    func testSwitchKeepsCapsAndTimestamps() throws {
        let frames = try collectFrames("filtercamsrc name=cam camera=test:white num-buffers=30", onFrame: { i, _, pipeline in
            if i == 9, let cam = pipeline.element(named: "cam") {
                try? Pipeline.setProperty(cam, "camera", "test:black")
            }
        })
        XCTAssertEqual(frames.count, 30, "num-buffers counts across the switch")
        XCTAssertTrue(frames.allSatisfy { $0.width == 640 && $0.height == 480 && $0.format == frames[0].format },
                      "caps change at the switch: \(Set(frames.map { "\($0.width)x\($0.height) \($0.format)" }))")
        let pts = frames.compactMap(\.pts)
        XCTAssertEqual(pts.count, frames.count)
        for (a, b) in zip(pts, pts.dropFirst()) {
            XCTAssertGreaterThan(b, a, "timestamps increase")
            XCTAssertLessThan(b - a, second / 5, "no gap or jump back at the switch")
        }
        // YUY2 macropixels (Y0 U Y1 V), video range: white, then black.
        XCTAssertEqual(frames.first?.macropixel(10, 10), [235, 128, 235, 128])
        XCTAssertEqual(frames.last?.macropixel(10, 10), [16, 128, 16, 128])
    }

    /// One recording across a switch: one playable file holding both pictures.
    func testSwitchWhileRecordingGivesOneFile() throws {
        guard gst_element_factory_find("openh264dec") != nil else { throw XCTSkip("no openh264dec to decode the recording") }
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("switch.mp4").path
        let pipeline = try Pipeline(description: "filtercamsrc name=cam camera=test:smpte num-buffers=60 ! videoconvert "
            + "! x264enc tune=zerolatency speed-preset=ultrafast ! video/x-h264,profile=constrained-baseline ! mp4mux ! filesink location=\(out)")
        XCTAssertNotEqual(pipeline.setState(GST_STATE_PLAYING), GST_STATE_CHANGE_FAILURE)
        let camera = try pipeline.requireElement("cam")
        XCTAssertTrue(waitForBuffers(leaving: camera, count: 20), "the camera's first 20 frames")
        try Pipeline.setProperty(camera, "camera", "test:ball")
        let m = gst_bus_timed_pop_filtered(pipeline.bus, GstClockTime(20 * second), GstMessageType(rawValue: GST_MESSAGE_EOS.rawValue | GST_MESSAGE_ERROR.rawValue))
        XCTAssertEqual(m?.pointee.type, GST_MESSAGE_EOS, pipeline.popError() ?? "timeout")
        if let m { gst_message_unref(m) }
        pipeline.setState(GST_STATE_NULL)

        let count = try XCTUnwrap(try probeFrameCount(out))
        XCTAssertEqual(count, 60, "num-buffers frames in all, before and after the switch")
        let duration = try XCTUnwrap(try probeDuration(out))
        XCTAssertEqual(duration, Double(count) / 30, accuracy: 0.1, "constant 30 fps across the switch")
        let decoded = try collectFrames("filesrc location=\(out) ! qtdemux ! h264parse ! openh264dec ! videoconvert ! video/x-raw,format=BGRx")
        XCTAssertEqual(decoded.count, count)
        // smpte's top-left bar is light grey; ball is a white ball on black.
        let first = try XCTUnwrap(decoded.first).pixel(20, 20), last = try XCTUnwrap(decoded.last).pixel(2, 2)
        XCTAssertGreaterThan(Int(first[1]), 150, "smpte at the start: \(first)")
        XCTAssertLessThan(Int(last[1]), 40, "ball at the end: \(last)")
    }

    /// The live command `camera ID` in `filtercam launch`.
    /// `camera front` with no such camera says so on its own line, with what stands in
    /// (the answer was "camera: front" over a test picture, the warning held back as a
    /// repeat until the exit's summary). `showing` reads what is shown.
    func testACameraCommandForACameraNotFoundSaysWhatIsShown() throws {
        if hasCamera { throw XCTSkip("this machine has a camera") }
        try Build.requireCLI()
        let p = try RunningProcess(Build.cli, ["launch", "filtercamsrc camera=test:smpte num-buffers=90 ! fakesink sync=true"])
        p.write("camera front\n")
        XCTAssertTrue(p.waitForStderr(containing: "camera: front: not shown, no camera found", timeout: 10), p.stderrSoFar)
        p.write("camera test:ball\n")
        XCTAssertTrue(p.waitForStderr(containing: "camera: test:ball\n", timeout: 10), p.stderrSoFar)
        let r = p.wait(timeout: 30)
        XCTAssertEqual(r.status, 0, r.summary)
        let showing = try collectFrames("filtercamsrc camera=test:ball num-buffers=1", afterEOS: { pipeline in
            let source = try? XCTUnwrap(pipeline.element(named: "filtercamsrc0"))
            XCTAssertEqual(source.flatMap { Pipeline.property($0, "showing") }, "test:ball")
        })
        XCTAssertEqual(showing.count, 1)
    }

    func testLiveCameraCommandSwitches() throws {
        try Build.requireCLI()
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("live.mp4").path
        let p = try RunningProcess(Build.cli, ["launch", "filtercamsrc camera=test:smpte num-buffers=60 ! videoconvert ! x264enc tune=zerolatency speed-preset=ultrafast ! mp4mux ! filesink location=\(out)"])
        // Piped commands wait for the first frame.
        p.write("camera sideways\n")
        p.write("camera test:ball\n")
        XCTAssertTrue(p.waitForStderr(containing: "camera: test:ball", timeout: 10), p.stderrSoFar)
        // Another preset mid-file put two picture sizes in one track: refused, as a turn is.
        p.write("set filtercamsrc0.preset=1280x720\n")
        XCTAssertTrue(p.waitForStderr(containing: "preset 1280x720 would change the camera's picture size (preset 640x480 now) "
                                      + "in the middle of the file mp4mux0 writes", timeout: 10), p.stderrSoFar)
        let r = p.wait(timeout: 30)
        XCTAssertEqual(r.status, 0, r.summary)
        XCTAssertTrue(r.stderr.contains("command error: camera must be back, front"), r.stderr)
        XCTAssertEqual(try XCTUnwrap(try probeFrameCount(out)), 60)
    }

    /// With several sources, `camera ID NAME` aims the command, and without a name the
    /// refusal names them (it said "write 'set NAME.camera=ID'").
    func testACameraCommandNamesOneOfSeveralSources() throws {
        try Build.requireCLI()
        let p = try RunningProcess(Build.cli, ["launch", "filtercamsrc name=a camera=test:smpte num-buffers=60 ! fakesink sync=true "
                                                + "filtercamsrc name=b camera=test:smpte num-buffers=60 ! fakesink sync=true"])
        p.write("camera test:ball\ncamera test:ball b\n")
        XCTAssertTrue(p.waitForStderr(containing: "camera: test:ball\n", timeout: 10), p.stderrSoFar)
        let r = p.wait(timeout: 30)
        XCTAssertEqual(r.status, 0, r.summary)
        XCTAssertTrue(r.stderr.contains("several filtercamsrc elements (a, b): write 'camera test:ball a' or 'set a.camera=test:ball'"), r.stderr)
    }
}
