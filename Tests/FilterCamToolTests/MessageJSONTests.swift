import CGStreamer
import CFilterCamShim
@testable import FilterCamHost
@testable import FilterCamTool
import FilterCore
import Foundation
import XCTest

final class MessageJSONQuoteTests: XCTestCase {
    private func decode(_ quoted: String) throws -> String? {
        try JSONSerialization.jsonObject(with: Data(quoted.utf8), options: .fragmentsAllowed) as? String
    }

    func testQuoteEscapes() {
        XCTAssertEqual(MessageJSON.quote("plain"), "\"plain\"")
        XCTAssertEqual(MessageJSON.quote("a\"b"), "\"a\\\"b\"")
        XCTAssertEqual(MessageJSON.quote("a\\b"), "\"a\\\\b\"")
        XCTAssertEqual(MessageJSON.quote("l1\nl2\r\t"), "\"l1\\nl2\\r\\t\"")
        XCTAssertEqual(MessageJSON.quote("\u{01}\u{1f}"), "\"\\u0001\\u001f\"")
        XCTAssertEqual(MessageJSON.quote(""), "\"\"")
    }

    func testQuoteRoundTripsThroughJSONSerialization() throws {
        let samples = ["", "x", "quote \" and \\ backslash", "new\nline\ttab\r", "\u{00}\u{07}\u{1b}[0m",
                       "ünïcødé — 日本 😀", "</script>", "{\"json\": [1,2]}"]
        for s in samples {
            XCTAssertEqual(try decode(MessageJSON.quote(s)), s, "round trip of \(s.debugDescription)")
        }
    }
}

/// Bus messages as `filtercam launch --messages` prints them, one JSON object a line.
final class MessageJSONLineTests: XCTestCase {
    /// A `fakesrc` named `face-test` stands in for the element posting the messages.
    private var element: UnsafeMutablePointer<GstElement>!

    override func setUp() {
        GStreamer.initialize()
        element = gst_element_factory_make("fakesrc", "face-test")
        _ = gst_object_ref_sink(UnsafeMutableRawPointer(element))
    }

    override func tearDown() {
        gst_object_unref(UnsafeMutableRawPointer(element))
    }

    /// What `filtercam launch --messages` prints for the face detection's `faces` message.
    func testFacesMessagePrintsAsTheCLIShowsIt() {
        let s = FaceReport.structure([DetectedFace(rect: PixelRect(x: 96, y: 164, width: 218, height: 218), angle: 90)], timestamp: 66_666_666)
        let m = gst_message_new_element(element.asObject, s)!
        defer { gst_message_unref(m) }
        XCTAssertEqual(MessageJSON.line(for: m),
                       #"{"source":"face-test","name":"faces","timestamp":66666666,"faces":[{"x":96,"y":164,"width":218,"height":218,"angle":90}]}"#)
        let empty = gst_message_new_element(element.asObject, FaceReport.structure([], timestamp: 1))!
        defer { gst_message_unref(empty) }
        XCTAssertEqual(MessageJSON.line(for: empty), #"{"source":"face-test","name":"faces","timestamp":1,"faces":[]}"#)
    }

    /// A message with fields of its own called `source` and `name` (filtercamsrc's
    /// `filtercamsrc-camera` has a `source`): each key once, the element's name kept.
    func testFieldsCalledSourceOrNameDoNotTakeTheEnvelopesKeys() throws {
        let s = gst_structure_new_empty("filtercamsrc-camera")!
        var value = GValue()
        g_value_init(&value, fc_type_string())
        g_value_set_string(&value, "test picture")
        gst_structure_set_value(s, "source", &value)
        g_value_set_string(&value, "back")
        gst_structure_set_value(s, "name", &value)
        g_value_unset(&value)
        let m = gst_message_new_element(element.asObject, s)!
        defer { gst_message_unref(m) }
        let line = try XCTUnwrap(MessageJSON.line(for: m))
        XCTAssertEqual(line, #"{"source":"face-test","name":"filtercamsrc-camera","field:source":"test picture","field:name":"back"}"#)
        let parsed = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String])
        XCTAssertEqual(parsed["source"], "face-test")
    }

    /// A float field is a JSON number, as a double is (`spectrum`'s magnitudes were strings).
    func testFloatFieldsAreNumbers() throws {
        let s = gst_structure_new_empty("spectrum")!
        var value = GValue()
        g_value_init(&value, GType(14 << 2))   // G_TYPE_FLOAT
        g_value_set_float(&value, -13.25)
        gst_structure_set_value(s, "magnitude", &value)
        g_value_unset(&value)
        let m = gst_message_new_element(element.asObject, s)!
        defer { gst_message_unref(m) }
        XCTAssertEqual(MessageJSON.line(for: m), #"{"source":"face-test","name":"spectrum","magnitude":-13.25}"#)
    }
}
