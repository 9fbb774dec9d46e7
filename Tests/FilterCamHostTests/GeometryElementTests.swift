import CFilterCamShim
import CGStreamer
@testable import FilterCamHost
@testable import FilterCamTool
import FilterCore
import FilterCamTestSupport
import Foundation
import XCTest

/// `filtercam`'s lens, orientation and zoom properties against GStreamer's own
/// `videoflip` and `videocrop`, byte for byte, through real pipelines.
final class GeometryElementTests: XCTestCase {
    static let nicks = ["identity", "90r", "180", "90l", "horiz", "vert", "ul-lr", "ur-ll"]

    override func setUp() {
        GStreamer.initialize()
    }

    private func source(_ format: String, _ w: Int, _ h: Int, frames: Int = 2) -> String {
        "videotestsrc num-buffers=\(frames) pattern=smpte ! video/x-raw,format=\(format),width=\(w),height=\(h),framerate=30/1"
    }

    private func assertSameFrames(_ a: [CapturedFrame], _ b: [CapturedFrame], _ what: String,
                                  file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(a.count, b.count, what, file: file, line: line)
        for (x, y) in zip(a, b) {
            XCTAssertEqual(x.width, y.width, what, file: file, line: line)
            XCTAssertEqual(x.height, y.height, what, file: file, line: line)
            XCTAssertTrue(x.bytes == y.bytes, "\(what): pixels differ", file: file, line: line)
        }
    }

    func testEveryOrientationMatchesVideoflipInBothOrdersAndOddSizes() throws {
        for format in ["BGRA", "RGBA"] {
            for (w, h) in [(64, 48), (33, 17)] {
                for nick in Self.nicks {
                    let ours = try collectFrames("\(source(format, w, h)) ! filtercam orientation=\(nick)")
                    let theirs = try collectFrames("\(source(format, w, h)) ! videoflip video-direction=\(nick)")
                    assertSameFrames(ours, theirs, "\(nick) \(format) \(w)x\(h)")
                }
            }
        }
    }

    /// Frames with padded rows (GstVideoMeta stride) through `element`.
    private func padded(_ element: String, width: Int, height: Int, stride: Int) throws -> [CapturedFrame] {
        try runPaddedFrames(through: element, width: width, height: height, stride: stride, count: 2) { x, y, f in
            (0..<4).map { c in UInt8((x * 7 + y * 13 + c * 31 + f) & 255) }
        }
    }

    func testOrientationWithPaddedStridesMatchesVideoflip() throws {
        for nick in ["90r", "180", "ul-lr", "horiz"] {
            let ours = try padded("filtercam orientation=\(nick)", width: 21, height: 11, stride: 21 * 4 + 20)
            let theirs = try padded("videoflip video-direction=\(nick)", width: 21, height: 11, stride: 21 * 4 + 20)
            XCTAssertEqual(ours.count, 2)
            assertSameFrames(ours, theirs, "padded \(nick)")
        }
    }

    /// Rows that do not start on a 32-bit word (a stride such as 85 for 21 BGRx pixels, as
    /// `rawvideoparse plane-strides` gives) stopped the process in every RGB job.
    func testRowsNotAlignedToWordsAreTakenAsVideoflipTakesThem() throws {
        for stride in [21 * 4 + 1, 21 * 4 + 3] {
            for nick in ["90r", "horiz"] {
                let ours = try padded("filtercam orientation=\(nick)", width: 21, height: 11, stride: stride)
                let theirs = try padded("videoflip video-direction=\(nick)", width: 21, height: 11, stride: stride)
                XCTAssertEqual(ours.count, 2)
                assertSameFrames(ours, theirs, "stride \(stride), \(nick)")
            }
            let sepia = try padded("filtercam filter=sepia", width: 21, height: 11, stride: stride)
            let packedSepia = try padded("filtercam filter=sepia", width: 21, height: 11, stride: 21 * 4)
            XCTAssertEqual(sepia.count, 2)
            assertSameFrames(sepia, packedSepia, "sepia, stride \(stride)")
        }
    }

    /// lens x,y,w,h → pixel borders: left = round(x·W), right = W − round((x+w)·W), etc.
    func testLensCropMatchesVideocrop() throws {
        for (w, h, lens) in [(64, 48, "0.25,0.25,0.5,0.5"), (33, 17, "0.1,0.3,0.55,0.6"), (33, 17, "0,0,1,0.5")] {
            let r = try LensRect(parsing: lens).pixelRect(width: w, height: h)
            let crop = "videocrop left=\(r.x) right=\(w - r.x - r.width) top=\(r.y) bottom=\(h - r.y - r.height)"
            let ours = try collectFrames("\(source("BGRA", w, h)) ! filtercam lens=\(lens) lens-crop=true")
            let theirs = try collectFrames("\(source("BGRA", w, h)) ! \(crop)")
            assertSameFrames(ours, theirs, "lens-crop \(lens) at \(w)x\(h)")
        }
    }

    func testFilterAppliesOnlyInsideTheLens() throws {
        let input = try collectFrames(source("BGRA", 40, 20, frames: 1))
        let out = try collectFrames("\(source("BGRA", 40, 20, frames: 1)) ! filtercam filter=invert lens=0.25,0.25,0.5,0.5")
        let lens = PixelRect(x: 10, y: 5, width: 20, height: 10)
        for y in 0..<20 { for x in 0..<40 {
            let i = input[0].pixel(x, y), o = out[0].pixel(x, y)
            let inside = x >= lens.x && x < lens.x + lens.width && y >= lens.y && y < lens.y + lens.height
            let expected = inside ? [255 - i[0], 255 - i[1], 255 - i[2], i[3]] : i
            XCTAssertEqual(o, expected, "(\(x),\(y)) inside=\(inside)")
        } }
    }

    func testOrientationThenLensInViewerCoordinates() throws {
        // 90r turns 40x20 into 20x40; the lens is then a rectangle of the turned picture.
        let turned = try collectFrames("\(source("BGRA", 40, 20, frames: 1)) ! videoflip video-direction=90r")
        let out = try collectFrames("\(source("BGRA", 40, 20, frames: 1)) ! filtercam orientation=90r filter=invert lens=0,0,0.5,0.25")
        XCTAssertEqual(out[0].width, 20)
        XCTAssertEqual(out[0].height, 40)
        for y in 0..<40 { for x in 0..<20 {
            let i = turned[0].pixel(x, y)
            let inside = x < 10 && y < 10
            XCTAssertEqual(out[0].pixel(x, y), inside ? [255 - i[0], 255 - i[1], 255 - i[2], i[3]] : i, "(\(x),\(y))")
        } }
    }

    func testZoomIsClampedAndReadBack() throws {
        let pipeline = try Pipeline(description: "videotestsrc ! filtercam name=fc max-zoom=4 ! fakesink")
        let fc = try pipeline.requireElement("fc")
        try Pipeline.setProperty(fc, "zoom", "10")
        XCTAssertEqual(Pipeline.property(fc, "zoom").flatMap(Double.init), 4)
        try Pipeline.setProperty(fc, "zoom", "0.5")
        XCTAssertEqual(Pipeline.property(fc, "zoom").flatMap(Double.init), 1)
        try Pipeline.setProperty(fc, "zoom", "2.5")
        XCTAssertEqual(Pipeline.property(fc, "zoom").flatMap(Double.init), 2.5)
        try Pipeline.setProperty(fc, "max-zoom", "2")
        XCTAssertEqual(Pipeline.property(fc, "zoom").flatMap(Double.init), 2, "lowering max-zoom clamps the zoom")
        // Below zero too, as a pinch past the end (GLib refused it before the element saw it).
        try Pipeline.setProperty(fc, "zoom", "-3")
        XCTAssertEqual(Pipeline.property(fc, "zoom").flatMap(Double.init), 1)
        XCTAssertThrowsError(try Pipeline.setProperty(fc, "zoom", "inf")) { error in
            XCTAssertTrue("\(error)".hasSuffix("zoom takes any finite number"), "\(error)")
        }
    }

    /// In a description the order of the properties does not matter: `zoom=10 max-zoom=12`
    /// was clamped to the default maximum 8 before max-zoom came.
    func testZoomBeforeMaxZoomInADescriptionIsNotClampedByTheDefault() throws {
        for properties in ["zoom=10 max-zoom=12", "max-zoom=12 zoom=10"] {
            let pipeline = try Pipeline(description: "videotestsrc ! filtercam name=fc \(properties) ! fakesink")
            XCTAssertEqual(Pipeline.property(try pipeline.requireElement("fc"), "zoom").flatMap(Double.init), 10, properties)
        }
    }

    func testZoomTwoShowsTheCentreScaledUp() throws {
        // A 2x zoom of 64x48 is its centre 32x24 (videocrop 16/16/12/12) scaled back to
        // 64x48. GStreamer's bilinear videoscale is the reference; the two bilinear
        // scalers place samples slightly differently, so the mean difference is small but
        // not zero, while the uncropped picture is far off.
        let src = "videotestsrc num-buffers=1 pattern=colors ! video/x-raw,format=BGRA,width=64,height=48"
        let out = try collectFrames("\(src) ! filtercam zoom=2")
        let reference = try collectFrames("\(src) ! videocrop left=16 right=16 top=12 bottom=12 ! videoscale method=bilinear ! video/x-raw,width=64,height=48")
        let unzoomed = try collectFrames(src)
        func meanDifference(_ a: CapturedFrame, _ b: CapturedFrame) -> Double {
            Double(zip(a.bytes, b.bytes).map { abs(Int($0) - Int($1)) }.reduce(0, +)) / Double(a.bytes.count)
        }
        XCTAssertEqual(out[0].width, 64)
        XCTAssertEqual(out[0].height, 48)
        let ours = meanDifference(out[0], reference[0]), wrong = meanDifference(unzoomed[0], reference[0])
        XCTAssertLessThan(ours, 6, "zoom 2 vs videocrop ! videoscale")
        XCTAssertGreaterThan(wrong, ours * 3, "the reference tells a zoomed picture from an unzoomed one")
    }

    func testAutoFollowsImageOrientationTags() throws {
        // The fixture table: tag rotate-90 = EXIF 6 = videoflip 90r; flip-rotate-90 = EXIF 7 = ur-ll.
        for (tag, nick) in [("rotate-90", "90r"), ("rotate-180", "180"), ("flip-rotate-90", "ur-ll"), ("flip-rotate-270", "ul-lr")] {
            let ours = try collectFrames("\(source("BGRA", 33, 17)) ! taginject tags=\"image-orientation=\(tag)\" ! filtercam orientation=auto")
            let theirs = try collectFrames("\(source("BGRA", 33, 17)) ! videoflip video-direction=\(nick)")
            assertSameFrames(ours, theirs, "auto with tag \(tag)")
        }
    }

    func testAutoFollowsTheDeviceOrientationTable() throws {
        for row in DeviceOrientationTracker.table {
            let ours = try collectFrames("\(source("BGRA", 33, 17)) ! filtercam orientation=auto device-orientation=\(row.orientation.nick) camera-facing=\(row.facing.nick)")
            let theirs = try collectFrames("\(source("BGRA", 33, 17)) ! videoflip video-direction=\(row.method.nick)")
            assertSameFrames(ours, theirs, "\(row.orientation.nick)/\(row.facing.nick) → \(row.method.nick)")
        }
        // Face up keeps the last known orientation (SquareCam): portrait then face-up stays 90r.
        let pipeline = try Pipeline(description: "videotestsrc ! filtercam name=fc orientation=auto ! fakesink")
        let fc = try pipeline.requireElement("fc")
        try Pipeline.setProperty(fc, "device-orientation", "portrait")
        try Pipeline.setProperty(fc, "device-orientation", "face-up")
        let kept = try collectFrames("\(source("BGRA", 33, 17)) ! filtercam orientation=auto device-orientation=portrait")
        XCTAssertEqual(kept[0].width, 17)
    }

    /// `rotate` under auto turns what the frames show: with the device held in portrait and
    /// a front camera's mirror, the turn keeps both (it once turned from no transform at all,
    /// and a mirrored selfie came out unmirrored). The same when `mirror` came just before,
    /// with no frame between (piped commands).
    func testRotateUnderAutoTurnsThePictureAsShown() throws {
        for (device, facing, after) in [("portrait", "back", OrientationMethod.rotate90R.then(.rotate90R)),
                                         ("portrait", "front", OrientationMethod.rotate90R.then(.horizontal).then(.rotate90R)),
                                         ("landscape-left", "front", OrientationMethod.horizontal.then(.rotate90R))] {
            let pipeline = try Pipeline(description: "videotestsrc ! filtercam name=fc orientation=auto device-orientation=\(device) ! fakesink")
            let fc = try pipeline.requireElement("fc")
            if facing == "front" { XCTAssertEqual(try ControlCommand.mirror.run(on: ElementControl(fc)), "mirror: on (camera-facing front)") }
            _ = try ControlCommand.rotate.run(on: ElementControl(fc))
            XCTAssertEqual(Pipeline.property(fc, "orientation"), after.nick, "\(device), \(facing) camera")
        }
    }

    /// Changing orientation and lens-crop while PLAYING into an encoder: new caps, no error,
    /// and every frame has the size its caps say.
    func testOrientationChangeWhilePlayingRenegotiatesThroughAnEncoder() throws {
        var sizes: [String] = []
        let frames = try collectFrames("videotestsrc is-live=true num-buffers=30 ! video/x-raw,format=BGRA,width=64,height=48,framerate=30/1 ! filtercam name=fc ! tee name=t ! queue ! videoconvert ! x264enc speed-preset=ultrafast tune=zerolatency ! fakesink t. ! queue",
                                       onFrame: { i, frame, pipeline in
            sizes.append("\(frame.width)x\(frame.height)")
            guard let fc = pipeline.element(named: "fc") else { return }
            if i == 5 { try? Pipeline.setProperty(fc, "orientation", "90r") }
            if i == 15 { try? Pipeline.setProperty(fc, "lens-crop", "true"); try? Pipeline.setProperty(fc, "lens", "0.25,0.25,0.5,0.5") }
        })
        XCTAssertEqual(frames.count, 30)
        XCTAssertEqual(sizes.first, "64x48")
        XCTAssertEqual(sizes.last, "24x32", "90r then the centre lens of the turned 48x64 picture")
        XCTAssertTrue(sizes.contains("48x64"))
        // Once a new size appears, the old one never comes back.
        let firstTurned = try XCTUnwrap(sizes.firstIndex(of: "48x64"))
        XCTAssertFalse(sizes[firstTurned...].contains("64x48"), "\(sizes)")
    }

    func testNavigationIsMappedBackThroughTheTransform() throws {
        // A click at (2, 5) on the 90r output (17x33) of a 33x17 input lands at input
        // (5, 17 − 2) = (5, 15), as stock videoflip maps it.
        let point = try clickSeenUpstream(through: "filtercam name=turn orientation=90r")
        XCTAssertEqual(point.x, 5, accuracy: 1e-9)
        XCTAssertEqual(point.y, 15, accuracy: 1e-9)
        let stock = try clickSeenUpstream(through: "videoflip name=turn video-direction=90r")
        XCTAssertEqual(point.x, stock.x, accuracy: 1e-9)
        XCTAssertEqual(point.y, stock.y, accuracy: 1e-9)
    }

    /// Window keys `s` then `r` pressed within one frame: the still is of the picture before
    /// the turn, as with the terminal's commands (the turn reached the still's frame).
    func testAKeyPressedAfterSnapshotWaitsForTheStill() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let pipeline = try Pipeline(description: "videotestsrc is-live=true ! video/x-raw,format=I420,width=64,height=48,framerate=30/1 "
                                    + "! filtercam flash=false snapshot-location=\(dir.path)/s-%d.jpg ! fakesink name=sink")
        let sink = try pipeline.requireElement("sink")
        pipeline.setState(GST_STATE_PLAYING)
        defer { pipeline.setState(GST_STATE_NULL) }
        var sizes: [String] = []
        for i in 0..<3 {
            gst_element_send_event(sink, gst_navigation_event_new_key_press("s", GST_NAVIGATION_MODIFIER_NONE)!)
            gst_element_send_event(sink, gst_navigation_event_new_key_press("r", GST_NAVIGATION_MODIFIER_NONE)!)
            XCTAssertEqual(nextStillMessage(on: pipeline), "snapshot-saved", "still \(i)")
            let still = try XCTUnwrap(try collectFrames("filesrc location=\(dir.path)/s-\(i).jpg ! jpegdec").first)
            sizes.append("\(still.width)x\(still.height)")
        }
        XCTAssertEqual(sizes, ["64x48", "48x64", "64x48"], "each still before the turn pressed after it")
    }

    /// A click beside the picture (a letterboxed window's bars: outside the frame once the
    /// sink maps it) closes the help card, as a click on the picture does; it stayed up.
    func testAClickOnTheBarsClosesTheHelpCard() throws {
        let pipeline = try Pipeline(description: "videotestsrc is-live=true pattern=white ! video/x-raw,format=BGRx,width=160,height=120,framerate=30/1 "
                                    + "! filtercam osd=true ! appsink name=sink max-buffers=1 drop=true")
        let sink = try pipeline.requireElement("sink")
        pipeline.setState(GST_STATE_PLAYING)
        defer { pipeline.setState(GST_STATE_NULL) }
        /// Waits until a frame's centre is dark (the card shown) or light (none).
        func waitForCentre(dark: Bool) throws -> Bool {
            let deadline = Date().addingTimeInterval(20)
            while Date() < deadline {
                guard let sample = gst_app_sink_try_pull_sample(sink.asAppSink, 100_000_000) else { continue }
                defer { gst_sample_unref(sample) }
                let frame = try sample.capturedFrame()
                // The card's box is dark; its letters are white: the darkest of the middle row.
                let darkest = (0..<160).map { frame.bytes[(60 * 160 + $0) * 4] }.min() ?? 255
                if (darkest < 150) == dark { return true }
            }
            return false
        }
        XCTAssertTrue(try waitForCentre(dark: false), "a white picture")
        gst_element_send_event(sink, gst_navigation_event_new_key_press("h", GST_NAVIGATION_MODIFIER_NONE)!)
        XCTAssertTrue(try waitForCentre(dark: true), "h shows the card")
        gst_element_send_event(sink, gst_navigation_event_new_mouse_button_press(1, -20, 60, GST_NAVIGATION_MODIFIER_NONE)!)
        XCTAssertTrue(try waitForCentre(dark: false), "a click on the bar closes the card")
    }

    /// Where a button-3 click at (2, 5) on the output of `transform` (given a 33x17 BGRA
    /// input) reaches the source. Button 3: filtercam uses button 1 (the lens) and the wheel;
    /// others go upstream.
    private func clickSeenUpstream(through transform: String) throws -> (x: Double, y: Double) {
        let pipeline = try Pipeline(description: "videotestsrc name=src ! video/x-raw,format=BGRA,width=33,height=17 ! \(transform) ! fakesink name=sink")
        let src = try pipeline.requireElement("src"), sink = try pipeline.requireElement("sink")
        let srcPad = gst_element_get_static_pad(src, "src")!
        defer { gst_object_unref(srcPad) }
        final class Seen: @unchecked Sendable { var point: (x: Double, y: Double)? }
        let seen = Seen()
        gst_pad_add_probe(srcPad, GST_PAD_PROBE_TYPE_EVENT_UPSTREAM, { _, info, data in
            let seen = Unmanaged<Seen>.fromOpaque(data!).takeUnretainedValue()
            if let event = fc_probe_info_event(info), event.pointee.type == GST_EVENT_NAVIGATION,
               let s = gst_event_get_structure(event) {
                var x = 0.0, y = 0.0
                if gst_structure_get_double(s, "pointer_x", &x) != 0, gst_structure_get_double(s, "pointer_y", &y) != 0 {
                    seen.point = (x, y)
                }
            }
            return GST_PAD_PROBE_OK
        }, Unmanaged.passUnretained(seen).toOpaque(), nil)
        // Mapped once the turn is negotiated: the sink has the turned caps after the first frame.
        pipeline.setState(GST_STATE_PLAYING)
        XCTAssertNotNil(waitForState(pipeline))
        let sinkPad = gst_element_get_static_pad(sink, "sink")!
        defer { gst_object_unref(sinkPad) }
        let caps = try XCTUnwrap(gst_pad_get_current_caps(sinkPad), "the sink prerolled with caps")
        XCTAssertEqual(GStreamer.describe(caps).contains("width=(int)17, height=(int)33"), true, GStreamer.describe(caps))
        gst_caps_unref(caps)
        // The event travels upstream on this thread: it has reached the source when the call returns.
        gst_element_send_event(sink, gst_navigation_event_new_mouse_button_press(3, 2, 5, GST_NAVIGATION_MODIFIER_NONE)!)
        pipeline.setState(GST_STATE_NULL)
        return try XCTUnwrap(seen.point, "the navigation event reached the source through \(transform)")
    }
}
