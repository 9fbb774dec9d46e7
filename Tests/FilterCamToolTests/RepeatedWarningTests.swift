import CGStreamer
import FilterCamHost
import FilterCamTool
import FilterCamTestSupport
import Foundation
import XCTest

/// A warning that comes again and again (a sink on a busy machine: "A lot of buffers are
/// being dropped") is printed once, and how often it came at the end.
final class RepeatedWarningTests: XCTestCase {
    func testTheSameWarningIsPrintedOnceWithItsCount() throws {
        GStreamer.initialize()
        let pipeline = try Pipeline(description: "videotestsrc num-buffers=2 ! fakesink name=sink")
        let sink = try XCTUnwrap(pipeline.element(named: "sink"))
        for text in ["A lot of buffers are being dropped.", "A lot of buffers are being dropped.", "another warning",
                     "A lot of buffers are being dropped."] {
            let error = g_error_new_literal(gst_core_error_quark(), Int32(GST_CORE_ERROR_CLOCK.rawValue), text)
            gst_element_post_message(sink, gst_message_new_warning(UnsafeMutableRawPointer(sink).assumingMemoryBound(to: GstObject.self), error, "detail"))
            g_error_free(error)
        }
        let errors = Pipe()
        let session = PipelineSession(pipeline: pipeline, errorOutput: errors.fileHandleForWriting)
        XCTAssertEqual(session.run(), .endOfStream)
        try errors.fileHandleForWriting.close()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let lines = text.split(separator: "\n")
        XCTAssertEqual(lines.filter { $0.hasPrefix("WARNING") && $0.contains("being dropped") }.count, 1, text)
        XCTAssertEqual(lines.filter { $0.hasPrefix("WARNING") && $0.contains("another warning") }.count, 1, text)
        XCTAssertTrue(text.contains("being dropped.\" came 3 times)"), text)
    }
}
