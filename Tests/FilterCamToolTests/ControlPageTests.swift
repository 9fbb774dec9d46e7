import FilterCore
@testable import FilterCamTool
import XCTest

/// The web page's part that needs no server: which commands the page may send, and the
/// page's filter buttons.
final class ControlPageTests: XCTestCase {
    func testCommandsThatActOnTheServerAreRefusedFromTheWeb() throws {
        for line in ["quit", "q", "help", "set filter=sepia", "set sink.location=/tmp/x", "camera /dev/video0",
                     "filter lut file=/etc/passwd", "filter sepia, lut intensity=0.5 file='/etc/passwd'"] {
            XCTAssertNotNil(ControlPage.refusal(of: try ControlCommand(line: line)), line)
        }
        for line in ["filter mono", "filter look:teal-orange", "filter sepia intensity=0.5", "rotate", "mirror", "snapshot",
                     "lens-at 0.75,0.75", "zoom-in", "zoom-out", "lens", "countdown"] {
            XCTAssertNil(ControlPage.refusal(of: try ControlCommand(line: line)), line)
        }
        // The refusal names the command given (a `record PATH` was told about 'snapshot NAME').
        let aimed = try XCTUnwrap(ControlPage.refusal(of: try ControlCommand(line: "record /tmp/x.mp4")))
        XCTAssertTrue(aimed.hasPrefix("'record /tmp/x.mp4' aims the command at an element"), aimed)
    }

    func testThePageHasOneButtonPerFilterAndTheStableIds() {
        let page = String(decoding: ControlPage.page, as: UTF8.self)
        for id in FilterRegistry.shared.ids where id != "lut" {
            XCTAssertTrue(page.contains("data-filter=\"\(id)\""), id)
            XCTAssertTrue(page.contains("src=\"/preview/\(id).png\""), id)
        }
        // A bare lut changes nothing (its picture showed a look it would not apply).
        XCTAssertFalse(page.contains("data-filter=\"lut\""))
        for attribute in ["<video id=\"live\"", "data-action=\"rotate\"", "data-action=\"mirror\"", "data-action=\"snapshot\"", "data-action=\"record\"",
                          "<script src=\"/page.js\">"] {
            XCTAssertTrue(page.contains(attribute), attribute)
        }
        XCTAssertFalse(page.contains("<!-- filters -->"))
    }

    func testTextIsEscapedForHTML() {
        XCTAssertEqual("Core Image's <CISepia> & \"sepia\"".escapedForHTML, "Core Image&#39;s &lt;CISepia&gt; &amp; &quot;sepia&quot;")
    }
}
