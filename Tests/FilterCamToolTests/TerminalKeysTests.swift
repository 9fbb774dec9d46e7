import XCTest
@testable import FilterCamHost
@testable import FilterCamTool

final class TerminalKeysTests: XCTestCase {
    func feed(_ text: String, _ keys: inout TerminalKeys) -> [TerminalKeys.Outcome] {
        text.utf8.map { keys.feed($0) }
    }

    func testSingleKeysAreCommands() {
        var keys = TerminalKeys()
        XCTAssertEqual(feed("nrsq", &keys), [.command(.nextFilter), .command(.rotate), .command(.snapshot), .command(.quit)])
    }

    func testHShowsTheKeysOnOneLineAndHelpListsEveryCommand() {
        var keys = TerminalKeys()
        guard case .show(let short) = keys.feed(UInt8(ascii: "h")) else { return XCTFail("h shows nothing") }
        XCTAssertFalse(short.contains("\n"), "one line: \(short)")
        XCTAssertTrue(short.contains("q quit") && short.contains(":help"), short)
        XCTAssertEqual(feed(":help\r", &keys).last, .command(.help))
    }

    func testColonOpensACommandLine() {
        var keys = TerminalKeys()
        let out = feed(":set zoom=2\r", &keys)
        XCTAssertEqual(out.first, .show(":"))
        XCTAssertEqual(out.last, .command(.set(element: nil, property: "zoom", value: "2")))
        // No snapshot was taken by the 's' of "set", no zoom key by '2'.
        XCTAssertFalse(out.dropLast().contains { if case .command = $0 { return true }; return false })
    }

    func testEscapeCancelsAndBackspaceDeletes() {
        var keys = TerminalKeys()
        _ = feed(":filtr", &keys)
        XCTAssertEqual(keys.feed(127), .show(":filt"))
        // An Esc alone cancels (nothing after it within a moment: the reader's escapeAlone).
        XCTAssertEqual(keys.feed(27), .none)
        XCTAssertEqual(keys.escapeAlone(), .show("(cancelled)"))
        XCTAssertFalse(keys.isEditing)
        XCTAssertEqual(keys.feed(UInt8(ascii: "n")), .command(.nextFilter))
    }

    /// A non-ASCII key is one hint naming it (`é` gave two, "Ã" and "©"); a control key is
    /// named as such (it read "\u{04}").
    func testAnUnknownCharacterOrControlKeyIsNamed() {
        var keys = TerminalKeys()
        let out = feed("é", &keys).filter { $0 != .none }
        XCTAssertEqual(out.count, 1, "\(out)")
        guard case .error(let accented) = out.first else { return XCTFail("no hint") }
        XCTAssertTrue(accented.hasPrefix("unknown key \"é\""), accented)
        guard case .error(let control) = keys.feed(4) else { return XCTFail("no hint") }
        XCTAssertTrue(control.hasPrefix("unknown key Ctrl-D"), control)
        XCTAssertEqual(keys.feed(UInt8(ascii: "n")), .command(.nextFilter))
    }

    func testUnknownKeyAndBadCommandGetOneLine() {
        var keys = TerminalKeys()
        guard case .error(let hint) = keys.feed(UInt8(ascii: "x")) else { return XCTFail("no hint") }
        XCTAssertTrue(hint.contains("':'"), hint)
        guard case .error(let message) = feed(":zoom 2\n", &keys).last else { return XCTFail("no error") }
        XCTAssertTrue(message.contains("unknown command"), message)
    }

    func testEveryWindowKeyWorksInTheTerminal() {
        var keys = TerminalKeys()
        XCTAssertEqual(feed("ml+=-[] ?", &keys), [.command(.mirror), .command(.lens), .command(.zoomIn), .command(.zoomIn),
                                                .command(.zoomOut), .command(.lensSmaller), .command(.lensLarger),
                                                .command(.snapshot), .show(TerminalKeys.shortHelp)])
        // The arrows, as terminals send them (ESC [ A, or ESC O A in application mode).
        XCTAssertEqual(feed("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D\u{1B}OA", &keys).filter { $0 != .none },
                       [.command(.moveLens(.up)), .command(.moveLens(.down)), .command(.moveLens(.right)),
                        .command(.moveLens(.left)), .command(.moveLens(.up))])
        // Another key's sequence (F5: ESC [ 1 5 ~) is no command and no hint; a lone Esc is nothing.
        XCTAssertEqual(feed("\u{1B}[15~\u{1B}n", &keys).filter { $0 != .none }, [.command(.nextFilter)])
    }

    /// The gallery's keys: g, PgUp/PgDn (ESC [ 5 ~, ESC [ 6 ~), Enter, and an Esc with
    /// nothing after it (the reader calls `escapeAlone` when no byte follows in time).
    func testTheGallerysKeysInTheTerminal() {
        var keys = TerminalKeys()
        XCTAssertEqual(feed("g\u{1B}[5~\u{1B}[6~\r", &keys).filter { $0 != .none },
                       [.command(.gallery), .command(.turnPage(-1)), .command(.turnPage(1)), .command(.closeGallery)])
        XCTAssertEqual(keys.escapeAlone(), .none, "no Esc pending")
        XCTAssertEqual(keys.feed(27), .none)
        XCTAssertTrue(keys.awaitsSequence)
        XCTAssertEqual(keys.escapeAlone(), .command(.cancel))
        XCTAssertFalse(keys.awaitsSequence)
        // The Esc that cancels a command line is not also the key.
        _ = feed(":set", &keys)
        XCTAssertEqual(keys.feed(27), .none)
        XCTAssertEqual(keys.escapeAlone(), .show("(cancelled)"))
        XCTAssertEqual(keys.escapeAlone(), .none)
    }

    /// An arrow while typing threw the whole line away ("(cancelled)"): it is ignored.
    func testAnArrowWhileTypingIsIgnoredAndTheLineKept() {
        var keys = TerminalKeys()
        let out = feed(":set\u{1B}[D\u{1B}[A zoom=2\r", &keys)
        XCTAssertEqual(out.last, .command(.set(element: nil, property: "zoom", value: "2")))
        XCTAssertFalse(out.contains(.show("(cancelled)")), "\(out)")
        // An Esc then another key in the line: the Esc cancels, the key is not a command.
        XCTAssertEqual(feed(":set\u{1B}n", &keys).last, .show("(cancelled)"))
        XCTAssertFalse(keys.isEditing)
    }

    /// Backspace takes a character (a UTF-8 one whole: `é` left a broken byte behind);
    /// Ctrl-U takes the line, Ctrl-W the last word (they were ignored).
    func testBackspaceTakesACharacterAndCtrlUAndCtrlWEdit() {
        var keys = TerminalKeys()
        XCTAssertEqual(feed(":filter monoé", &keys).last, .show(":filter monoé"))
        XCTAssertEqual(keys.feed(127), .show(":filter mono"))
        XCTAssertEqual(keys.feed(23), .show(":filter "))
        XCTAssertEqual(keys.feed(21), .show(":"))
        XCTAssertEqual(feed("set zoom=2\r", &keys).last, .command(.set(element: nil, property: "zoom", value: "2")))
    }
}
