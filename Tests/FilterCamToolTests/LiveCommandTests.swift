@testable import FilterCamHost
@testable import FilterCamTool
import Foundation
import XCTest

/// LiveCommand without GStreamer running (PipelineFile and MessageJSON.quote: their own tests).
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
        // A verb aimed at one of several elements (the session checks the name).
        XCTAssertEqual(try LiveCommand(line: "snapshot filtercam1"), .on(element: "filtercam1", .snapshot))
        XCTAssertEqual(try LiveCommand(line: "rotate  cam "), .on(element: "cam", .rotate))
        XCTAssertEqual(try LiveCommand(line: "snapshot filtercam1").line, "snapshot filtercam1")
        XCTAssertTrue(try LiveCommand(line: "record b").needsAPicture)
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
        XCTAssertTrue(error("rotat")?.hasPrefix("unknown command 'rotat' (did you mean \"rotate\"?); commands:") ?? false, error("rotat") ?? "")
        for verb in ["quit", "help"] {
            XCTAssertNotNil(error("\(verb) extra"), "'\(verb) extra' should be refused (it aims at no element)")
        }
        XCTAssertNotNil(error("rotate two words"), "one element name, no more")
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
