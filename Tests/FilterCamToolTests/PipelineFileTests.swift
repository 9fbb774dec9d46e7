@testable import FilterCamTool
import Foundation
import XCTest

/// 16. PipelineFile without GStreamer running.
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

    /// A `#` inside a word is part of it, as in a shell: `location=take#2.raw` wrote `take`.
    func testHashInsideAWordIsNotAComment() throws {
        let file = try PipelineFile(text: "videotestsrc ! filesink location=take#2.raw\t# a comment\n#whole line\n", environment: [:])
        XCTAssertEqual(file.description, "videotestsrc ! filesink location=take#2.raw")
        let colour = try PipelineFile(text: "videotestsrc ! textoverlay color=#00FF00 text=x#y ! fakesink #done", environment: [:])
        XCTAssertEqual(colour.description, "videotestsrc ! textoverlay color=#00FF00 text=x#y ! fakesink")
        let escaped = try PipelineFile(text: "videotestsrc ! filesink location=my\\ #1.raw # a comment", environment: [:])
        XCTAssertEqual(escaped.description, "videotestsrc ! filesink location=my\\ #1.raw")
    }

    /// A file saved with Windows line endings: each line ends at "\r\n" (one Character in
    /// Swift, so splitting on "\n" alone kept the file as one line and a comment hid the rest).
    /// An error that quotes nothing of the file (`Resource not found`) is placed by the
    /// element that posted it: its `name=`, or GStreamer's name for it (`filesrc1` is the
    /// second filesrc the file makes).
    func testTheLineThatMakesAnElement() throws {
        let file = try PipelineFile(text: "# two files # and a sink\nfilesrc location=a.png ! pngdec ! mix.\n"
                                    + "filesrc location=b.png ! pngdec ! compositor name=mix\n  ! filesink location=out.raw # filesrc here is a comment\n",
                                    environment: [:])
        XCTAssertEqual(file.line(forElement: "filesrc0", factory: "filesrc")?.number, 2)
        XCTAssertEqual(file.line(forElement: "filesrc1", factory: "filesrc")?.number, 3)
        XCTAssertEqual(file.line(forElement: "mix", factory: "compositor")?.number, 3)
        XCTAssertEqual(file.line(forElement: "filesink0", factory: "filesink")?.text, "! filesink location=out.raw")
        XCTAssertEqual(file.line(forElement: "filesink7", factory: "filesink")?.number, 4, "the only filesink, whatever GStreamer's count")
        XCTAssertNil(file.line(forElement: "filesrc5", factory: "filesrc"), "two filesrc: no guess")
        XCTAssertNil(file.line(forElement: "queue0", factory: "queue"))
    }

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
