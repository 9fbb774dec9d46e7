@testable import FilterCamTool
import Foundation
import XCTest

/// Lines printed while a command line is typed in the terminal go above it, and the typed
/// text is drawn again after them: a window key's echo was written onto the half-typed
/// line (`:filter vewindow: rotate: …`, a tester's find).
final class TypedLineTests: XCTestCase {
    private func written(_ body: (TypedLine) -> Void) throws -> String {
        let pipe = Pipe()
        let line = TypedLine(pipe.fileHandleForWriting, dumb: false)
        body(line)
        try pipe.fileHandleForWriting.close()
        return String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }

    private let clear = "\r\u{1B}[K"

    func testALinePrintedWhileTypingGoesAboveTheTypedText() throws {
        let out = try written { line in
            line.redraw(":filter ve", editing: true)
            line.print("window: rotate: 90° clockwise")
        }
        XCTAssertEqual(out, clear + ":filter ve" + clear + "window: rotate: 90° clockwise\n" + ":filter ve")
    }

    func testOnceEnteredOrCancelledLinesArePlain() throws {
        let out = try written { line in
            line.redraw(":zoom 2", editing: true)
            line.finish()
            line.print("zoom: 2")
            line.redraw(":x", editing: true)
            line.redraw("(cancelled)", editing: false)
            line.print("filter: mono")
        }
        XCTAssertEqual(out, clear + ":zoom 2" + "\n" + "zoom: 2\n" + clear + ":x" + clear + "(cancelled)\n" + "filter: mono\n")
    }

    /// With stderr not a terminal (`2> log`), the typing is drawn on the terminal and the log
    /// gets the result lines only (it filled with redraws; the typing was invisible). A line
    /// half typed when the process ends is taken off the screen (the shell ran on from it).
    func testTypingIsDrawnOnTheTerminalWhenTheOutputIsNotOne() throws {
        let log = Pipe(), terminal = Pipe()
        let line = TypedLine(log.fileHandleForWriting, screen: terminal.fileHandleForWriting, dumb: false)
        line.redraw(":set zo", editing: true)
        line.print("saved s-0.jpg")
        line.redraw(":set zoom=2", editing: true)
        line.finish(with: "set filtercam0.zoom = 2")
        line.redraw(":x", editing: true)
        line.abandon()
        try log.fileHandleForWriting.close()
        try terminal.fileHandleForWriting.close()
        let logged = String(decoding: log.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let shown = String(decoding: terminal.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertEqual(logged, "saved s-0.jpg\nset filtercam0.zoom = 2\n")
        XCTAssertEqual(shown, clear + ":set zo" + clear + ":set zo" + clear + ":set zoom=2" + clear + clear + ":x" + clear)
    }

    /// After Ctrl-Z and `fg` the half-typed line is drawn again (it stayed away until the
    /// next key); with nothing typed, nothing is drawn.
    func testAHalfTypedLineIsDrawnAgainOnRequest() throws {
        let out = try written { line in
            line.drawAgain()
            line.redraw(":filter ve", editing: true)
            line.drawAgain()
            line.finish()
            line.drawAgain()
        }
        XCTAssertEqual(out, clear + ":filter ve" + clear + ":filter ve" + "\n")
    }

    func testARefusalReplacesTheTypedLine() throws {
        let out = try written { line in
            line.redraw(":bogus", editing: true)
            line.finish(with: "unknown command 'bogus'")
            line.print("next")
        }
        XCTAssertEqual(out, clear + ":bogus" + clear + "unknown command 'bogus'\n" + "next\n")
    }

    /// A terminal that takes no escape sequences (TERM=dumb, or none) gets none: what was
    /// drawn is overwritten with spaces (`^[[K` showed at every key).
    func testADumbTerminalGetsNoEscapeSequences() throws {
        let pipe = Pipe()
        let line = TypedLine(pipe.fileHandleForWriting, dumb: true)
        line.redraw(":se", editing: true)
        line.redraw(":set", editing: true)
        line.print("window: rotate")
        line.finish()
        try pipe.fileHandleForWriting.close()
        let out = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertFalse(out.contains("\u{1B}"), out.debugDescription)
        XCTAssertEqual(out, "\r\r:se" + "\r   \r:set" + "\r    \rwindow: rotate\n:set" + "\n")
    }
}
