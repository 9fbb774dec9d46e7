import CFilterCamShim
import CGStreamer
@testable import FilterCamHost
@testable import FilterCamTool
import FilterCamTestSupport
import Foundation
import XCTest

/// A camera that fails while streaming (unplugged: v4l2src posts "Could not read from
/// resource." and stops). There is no V4L2 device on these machines, so the camera is a
/// simulated one (`CameraSourceElement.simulatedCameras`, a live videotestsrc), and the
/// failure is the ERROR message v4l2src posts, from inside the camera's bin.
final class CameraFailureTests: XCTestCase {
    private let path = "/dev/video-filtercam-simulated"

    override func setUp() {
        GStreamer.initialize()
        // The ball on black: unlike the fallback's smpte bars, its top-left pixel is black.
        CameraSourceElement.simulatedCameras[path] =
            "videotestsrc name=camera is-live=true pattern=ball ! capsfilter caps=\"video/x-raw,width=640,height=480,framerate=30/1\""
    }

    override func tearDown() {
        CameraSourceElement.simulatedCameras[path] = nil
    }

    /// Posts the error v4l2src posts when its device goes away, from the camera element.
    private func unplug(_ source: UnsafeMutablePointer<GstElement>) throws {
        guard let camera = gst_bin_get_by_name(source.asBin, "camera") else { return XCTFail("no camera element") }
        defer { gst_object_unref(UnsafeMutableRawPointer(camera)) }
        let error = g_error_new_literal(gst_resource_error_quark(), Int32(GST_RESOURCE_ERROR_READ.rawValue),
                                        "Could not read from resource.")
        let message = gst_message_new_error(UnsafeMutableRawPointer(camera).assumingMemoryBound(to: GstObject.self), error,
                                            "Error reading from device: No such device")
        g_error_free(error)
        gst_element_post_message(camera, message)
    }

    private func pull(_ sink: UnsafeMutablePointer<GstElement>, for seconds: TimeInterval) throws -> [CapturedFrame] {
        var frames: [CapturedFrame] = []
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let sample = gst_app_sink_try_pull_sample(sink.asAppSink, 100_000_000) {
                frames.append(try sample.capturedFrame())
                gst_sample_unref(sample)
            }
        }
        return frames
    }

    private func messages(_ pipeline: Pipeline, _ type: GstMessageType) -> [String] {
        var texts: [String] = []
        while let m = gst_bus_pop_filtered(pipeline.bus, type) {
            var error: UnsafeMutablePointer<GError>?
            if type == GST_MESSAGE_WARNING { gst_message_parse_warning(m, &error, nil) } else { gst_message_parse_error(m, &error, nil) }
            texts.append(error.map { String(cString: $0.pointee.message) } ?? "?")
            if let error { g_error_free(error) }
            gst_message_unref(m)
        }
        return texts
    }

    func testAFailingCameraIsReplacedByTheTestPictureAndTheStreamRunsOn() throws {
        let pipeline = try Pipeline(description: "filtercamsrc name=cam camera=\(path) ! filtercam filter=invert ! appsink name=out sync=false max-buffers=4 drop=true")
        let cam = try pipeline.requireElement("cam"), sink = try pipeline.requireElement("out")
        pipeline.setState(GST_STATE_PLAYING)
        let before = try pull(sink, for: 0.7)
        XCTAssertGreaterThan(before.count, 5, "the simulated camera streams")
        XCTAssertEqual(before.last?.pixel(0, 0).prefix(3), [255, 255, 255], "the ball's black background, inverted")
        try unplug(cam)
        let after = try pull(sink, for: 1.0)
        let warnings = messages(pipeline, GST_MESSAGE_WARNING), errors = messages(pipeline, GST_MESSAGE_ERROR)
        pipeline.setState(GST_STATE_NULL)
        XCTAssertEqual(errors, [], "the failure is not an error while a test picture can be shown")
        XCTAssertTrue(warnings.contains { $0.contains("camera \(path) (simulated) failed (Could not read from resource.)") && $0.contains("test picture") }, "\(warnings)")
        XCTAssertGreaterThan(after.count, 15, "frames keep coming after the failure")
        XCTAssertEqual(Set(after.map { "\($0.width)x\($0.height)" }), ["640x480"], "same size, no renegotiation")
        // The fallback is videotestsrc's smpte picture, in YUY2 as a webcam gives it,
        // converted to the stream's format (BGRx, held across the switch), still through the filter.
        let smpte = try collectFrames("videotestsrc num-buffers=1 pattern=smpte ! video/x-raw,format=YUY2,width=640,height=480 ! videoconvert ! video/x-raw,format=BGRx ! filtercam filter=invert")
        for (x, y) in [(0, 0), (200, 50), (400, 100), (600, 300)] {   // the colour bars
            XCTAssertEqual(after.last?.pixel(x, y).prefix(3), smpte.first?.pixel(x, y).prefix(3), "pixel (\(x),\(y)) of the test picture")
        }
    }

    func testWithFallbackNoneTheFailureIsTheCamerasError() throws {
        let pipeline = try Pipeline(description: "filtercamsrc name=cam camera=\(path) fallback=none ! appsink name=out sync=false max-buffers=4 drop=true")
        let cam = try pipeline.requireElement("cam"), sink = try pipeline.requireElement("out")
        pipeline.setState(GST_STATE_PLAYING)
        XCTAssertGreaterThan(try pull(sink, for: 0.5).count, 3)
        try unplug(cam)
        let end = gst_bus_timed_pop_filtered(pipeline.bus, 5_000_000_000, GST_MESSAGE_ERROR)
        XCTAssertNotNil(end, "the camera's ERROR reaches the application")
        if let end {
            var error: UnsafeMutablePointer<GError>?
            gst_message_parse_error(end, &error, nil)
            XCTAssertEqual(error.map { String(cString: $0.pointee.message) }, "Could not read from resource.")
            if let error { g_error_free(error) }
            gst_message_unref(end)
        }
        pipeline.setState(GST_STATE_NULL)
    }
}
