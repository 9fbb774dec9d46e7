@testable import FilterCamHost
@testable import FilterCamTool
import Foundation
import XCTest

/// 16. PipelineFile, LiveCommand and MessageJSON.quote without GStreamer running.
final class PipelineFileTests: XCTestCase {
    func testCommentsStrippedButHashInsideQuotesKept() throws {
        let text = """
            # a comment line
            videotestsrc num-buffers=3   # trailing comment
              ! filtercam filter="sepia # not a comment" # but this is
              ! textoverlay text='a#b' ! fakesink
            """
        let file = try PipelineFile(text: text, environment: [:])
        XCTAssertEqual(file.description,
                       "videotestsrc num-buffers=3 ! filtercam filter=\"sepia # not a comment\" ! textoverlay text='a#b' ! fakesink")
        XCTAssertFalse(file.description.contains("trailing"))
        XCTAssertFalse(file.description.contains("but this is"))
    }

    /// A file saved with Windows line endings: each line ends at "\r\n" (one Character in
    /// Swift, so splitting on "\n" alone kept the file as one line and a comment hid the rest).
    func testWindowsLineEndings() throws {
        let file = try PipelineFile(text: "# demo\r\nvideotestsrc ! \r\n  filtercam # lens later\r\n ! fakesink\r\n")
        XCTAssertEqual(file.description, "videotestsrc ! filtercam ! fakesink")
        XCTAssertEqual(file.line(mentioning: "fakesink"), 4)
        XCTAssertThrowsError(try PipelineFile(text: "\r\n\r\n"), "only line breaks is an empty file")
    }

    /// Control characters in an echoed reference are shown escaped (found by the fuzzer).
    func testControlCharactersInAReferenceAreEscapedInTheMessage() {
        XCTAssertThrowsError(try PipelineFile(text: "a ${\u{1}} b", fileName: "x.pipeline")) { error in
            XCTAssertEqual("\(error)", "x.pipeline:1: '${\\u{1}}' is not a variable reference (write ${NAME} or ${NAME:-default})")
        }
    }

    /// GStreamer reads a description as a C string: a NUL byte would silently end the pipeline there.
    func testNULByteIsAnErrorNamingTheLine() {
        XCTAssertThrowsError(try PipelineFile(text: "videotestsrc\n ! fakesink\u{0} ! ignored", environment: [:], fileName: "x.pipeline")) { error in
            XCTAssertEqual("\(error)", "x.pipeline:2: holds a NUL byte (binary data, not a pipeline description)")
        }
    }

    /// Defaults nest up to a bound; 10,000 levels are refused at once, not after seconds.
    func testNestingIsBounded() throws {
        func nested(_ depth: Int) -> String { String(repeating: "${A:-", count: depth) + "x" + String(repeating: "}", count: depth) }
        XCTAssertEqual(try PipelineFile(text: nested(PipelineFile.maximumNesting), environment: [:]).description, "x")
        let start = Date()
        XCTAssertThrowsError(try PipelineFile(text: nested(10_000), environment: [:], fileName: "x.pipeline")) { error in
            XCTAssertEqual("\(error)", "x.pipeline:1: ${…} defaults nested more than \(PipelineFile.maximumNesting) deep")
        }
        XCTAssertLessThan(Date().timeIntervalSince(start), 1)
    }

    func testApostropheInsideDoubleQuotesDoesNotHideComment() throws {
        let file = try PipelineFile(text: "a text=\"it's\" # gone", environment: [:])
        XCTAssertEqual(file.description, "a text=\"it's\"")
    }

    func testVariables() throws {
        let env = ["SRC": "videotestsrc", "N": "7", "EMPTY": ""]
        let file = try PipelineFile(text: "${SRC} num-buffers=${N} ! x w=${W:-640} e=${EMPTY:-fallback} ! ${SINK:-fakesink}", environment: env)
        XCTAssertEqual(file.description, "videotestsrc num-buffers=7 ! x w=640 e=fallback ! fakesink")
    }

    func testSetValueWinsOverDefault() throws {
        let file = try PipelineFile(text: "x w=${W:-640}", environment: ["W": "8"])
        XCTAssertEqual(file.description, "x w=8")
    }

    func testNestedDefaults() throws {
        let text = "${A:-${B:-x}}"
        XCTAssertEqual(try PipelineFile(text: text, environment: [:]).description, "x")
        XCTAssertEqual(try PipelineFile(text: text, environment: ["B": "bee"]).description, "bee")
        XCTAssertEqual(try PipelineFile(text: text, environment: ["A": "ay", "B": "bee"]).description, "ay")
        // A default holding a description with spaces and its own variable.
        let preview = "${SOURCE:-v4l2src device=${DEVICE:-/dev/video0}} ! fakesink"
        XCTAssertEqual(try PipelineFile(text: preview, environment: [:]).description, "v4l2src device=/dev/video0 ! fakesink")
        XCTAssertEqual(try PipelineFile(text: preview, environment: ["DEVICE": "/dev/video2"]).description, "v4l2src device=/dev/video2 ! fakesink")
        XCTAssertEqual(try PipelineFile(text: preview, environment: ["SOURCE": "videotestsrc"]).description, "videotestsrc ! fakesink")
    }

    func testUnsetVariableWithoutDefaultNamesVariableAndLine() {
        let text = "# header\nvideotestsrc\n  ! filtercam filter=${FILTER_UNSET_X}\n  ! fakesink"
        XCTAssertThrowsError(try PipelineFile(text: text, environment: [:], fileName: "my.pipeline")) { error in
            let message = "\(error)"
            XCTAssertTrue(message.contains("FILTER_UNSET_X"), message)
            XCTAssertTrue(message.contains("my.pipeline:3"), message)
        }
    }

    func testUnterminatedAndMalformedReferences() {
        XCTAssertThrowsError(try PipelineFile(text: "a ${OOPS", environment: [:])) { error in
            XCTAssertTrue("\(error)".contains("${"), "\(error)")
        }
        XCTAssertThrowsError(try PipelineFile(text: "a ${not valid}", environment: [:]))
    }

    func testEmptyFileIsAnError() {
        XCTAssertThrowsError(try PipelineFile(text: "# only\n\n  # comments\n", environment: [:]))
    }

    func testMissingFileNamesPath() {
        XCTAssertThrowsError(try PipelineFile(contentsOf: "/nonexistent/x.pipeline", environment: [:])) { error in
            XCTAssertTrue("\(error)".contains("/nonexistent/x.pipeline"))
        }
    }

    func testLineMentioning() throws {
        let file = try PipelineFile(text: "videotestsrc\n ! filtercam\n ! fakesink", environment: [:])
        XCTAssertEqual(file.line(mentioning: "filtercam"), 2)
        XCTAssertEqual(file.line(mentioning: "fakesink"), 3)
        XCTAssertNil(file.line(mentioning: "nothing"))
    }
}

final class LiveCommandTests: XCTestCase {
    func testEveryVerb() throws {
        XCTAssertEqual(try LiveCommand(line: "set filter=sepia"), .set(element: nil, property: "filter", value: "sepia"))
        XCTAssertEqual(try LiveCommand(line: "  set filtercam0.intensity=0.5  "), .set(element: "filtercam0", property: "intensity", value: "0.5"))
        XCTAssertEqual(try LiveCommand(line: "set filter = \"sepia intensity=1, invert\""),
                       .set(element: nil, property: "filter", value: "sepia intensity=1, invert"))
        XCTAssertEqual(try LiveCommand(line: "set lens='0.1,0.1,0.5,0.5'"), .set(element: nil, property: "lens", value: "0.1,0.1,0.5,0.5"))
        XCTAssertEqual(try LiveCommand(line: "set zoom=1.5"), .set(element: nil, property: "zoom", value: "1.5"))
        XCTAssertEqual(try LiveCommand(line: "set a.b.c=1"), .set(element: "a.b", property: "c", value: "1"))
        XCTAssertEqual(try LiveCommand(line: "filter sepia"), .filter("sepia"))
        XCTAssertEqual(try LiveCommand(line: "next-filter"), .nextFilter)
        XCTAssertEqual(try LiveCommand(line: "previous-filter"), .previousFilter)
        XCTAssertEqual(try LiveCommand(line: "rotate"), .rotate)
        XCTAssertEqual(try LiveCommand(line: "snapshot"), .snapshot)
        XCTAssertEqual(try LiveCommand(line: "faces"), .faces)
        XCTAssertEqual(try LiveCommand(line: "help"), .help)
        XCTAssertEqual(try LiveCommand(line: "?"), .help)
        XCTAssertEqual(try LiveCommand(line: "quit"), .quit)
        XCTAssertEqual(try LiveCommand(line: "exit\r"), .quit)
    }

    func testErrors() {
        func error(_ line: String) -> String? {
            do { _ = try LiveCommand(line: line); return nil } catch { return error.description }
        }
        XCTAssertNotNil(error(""))
        XCTAssertNotNil(error("   "))
        XCTAssertTrue(error("set filter")?.contains("PROP=VALUE") ?? false)
        XCTAssertNotNil(error("set =1"))
        XCTAssertNotNil(error("set .x=1"))
        XCTAssertNotNil(error("set fc.=1"))
        XCTAssertTrue(error("filter")?.contains("filter id") ?? false)
        XCTAssertTrue(error("bogus")?.contains("unknown command 'bogus'") ?? false)
        XCTAssertTrue(error("bogus")?.contains("quit") ?? false, "the error lists the commands")
        for verb in ["quit", "rotate", "next-filter", "previous-filter", "snapshot", "faces", "help"] {
            XCTAssertNotNil(error("\(verb) extra"), "'\(verb) extra' should be refused")
        }
        XCTAssertNotNil(error("SET filter=sepia"), "verbs are case-sensitive")
    }

    func testKeyBindings() {
        XCTAssertEqual(LiveCommand(key: "n"), .nextFilter)
        XCTAssertEqual(LiveCommand(key: "p"), .previousFilter)
        XCTAssertEqual(LiveCommand(key: "r"), .rotate)
        XCTAssertEqual(LiveCommand(key: "s"), .snapshot)
        XCTAssertEqual(LiveCommand(key: " "), .snapshot)
        XCTAssertEqual(LiveCommand(key: "f"), .faces)
        XCTAssertEqual(LiveCommand(key: "h"), .help)
        XCTAssertEqual(LiveCommand(key: "?"), .help)
        XCTAssertEqual(LiveCommand(key: "q"), .quit)
        XCTAssertNil(LiveCommand(key: "x"))
        XCTAssertNil(LiveCommand(key: "Q"))
        XCTAssertNil(LiveCommand(key: "\n"))
    }

    func testHelpTextMentionsEveryVerb() {
        for verb in ["set", "filter", "next-filter", "previous-filter", "rotate", "snapshot", "faces", "help", "quit"] {
            XCTAssertTrue(LiveCommand.helpText.contains(verb), verb)
        }
    }
}

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
