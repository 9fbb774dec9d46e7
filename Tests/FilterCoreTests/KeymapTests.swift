import XCTest
@testable import FilterCore

/// The one keymap and vocabulary: keys, lines, the help written from them (the window's
/// pointer: PreviewControlTests).
final class KeymapTests: XCTestCase {
    func testEveryKeyAndItsCommand() {
        let expected: [String: ControlCommand] = [
            "n": .nextFilter, "p": .previousFilter, "r": .rotate, "m": .mirror,
            "plus": .zoomIn, "equal": .zoomIn, "KP_Add": .zoomIn, "minus": .zoomOut, "KP_Subtract": .zoomOut,
            "l": .lens, "bracketleft": .lensSmaller, "bracketright": .lensLarger,
            "Left": .moveLens(.left), "Right": .moveLens(.right), "Up": .moveLens(.up), "Down": .moveLens(.down),
            "s": .snapshot, "space": .snapshot, "t": .countdown, "v": .record, "f": .faces, "h": .help, "question": .help, "slash": .help, "q": .quit,
            "g": .gallery, "Escape": .cancel, "Return": .closeGallery, "KP_Enter": .closeGallery,
            "Prior": .turnPage(-1), "Page_Up": .turnPage(-1), "Next": .turnPage(1), "Page_Down": .turnPage(1),
        ]
        for (key, command) in expected { XCTAssertEqual(Keymap.command(forKey: key), command, key) }
        XCTAssertEqual(Set(Keymap.bindings.flatMap(\.keys)), Set(expected.keys), "no other key is bound")
        for key in ["x", "Q", "G", "Tab", ""] { XCTAssertNil(Keymap.command(forKey: key), key) }
    }

    func testTerminalCharactersAreTheWindowsKeyNames() {
        let expected: [Character: String] = [" ": "space", "+": "plus", "=": "equal", "-": "minus",
                                             "[": "bracketleft", "]": "bracketright", "?": "question", "n": "n", "Q": "Q"]
        for (c, name) in expected { XCTAssertEqual(Keymap.keyName(for: c), name, "\(c)") }
        XCTAssertNil(Keymap.keyName(for: "\n"))
        XCTAssertNil(Keymap.keyName(for: "é"))
        XCTAssertEqual(ControlCommand(key: "m"), .mirror)
        XCTAssertEqual(ControlCommand(key: "+"), .zoomIn)
        XCTAssertEqual(ControlCommand(key: "]"), .lensLarger)
        XCTAssertNil(ControlCommand(key: "x"))
    }

    func testEveryCommandReadsBackFromItsLine() throws {
        let commands: [ControlCommand] = Keymap.bindings.map(\.command) + [
            .set(element: "fc", property: "zoom", value: "2"), .set(element: nil, property: "filter", value: "sepia"),
            .filter("mono"), .lensAt(x: 0.25, y: 0.75), .camera("front"), .pickAt(x: 0.5, y: 0.125),
            .on(element: "filtercam1", .snapshot), .on(element: "cam", .zoomIn),
        ]
        for c in commands { XCTAssertEqual(try ControlCommand(line: c.line), c, c.line) }
        XCTAssertEqual(try ControlCommand(line: "lens-left"), .moveLens(.left))
        XCTAssertEqual(try ControlCommand(line: "zoom-in"), .zoomIn)
        XCTAssertEqual(try ControlCommand(line: "lens-at 0.5, 0.5"), .lensAt(x: 0.5, y: 0.5))
        XCTAssertEqual(try ControlCommand(line: "next-page"), .turnPage(1))
        // A tab separates words as a space does; a filter or camera may be quoted as a
        // pipeline file quotes it (both were refused: "unknown filter '\"sepia\"'").
        XCTAssertEqual(try ControlCommand(line: "filter\tinvert"), .filter("invert"))
        XCTAssertEqual(try ControlCommand(line: "filter \"sepia, vignette\""), .filter("sepia, vignette"))
        XCTAssertEqual(try ControlCommand(line: "camera 'front'"), .camera("front"))
        XCTAssertEqual(try ControlCommand(line: "set\tzoom=2"), .set(element: nil, property: "zoom", value: "2"))
        // (`mirror now` is `mirror` aimed at an element called now: the session says there is none.)
        for bad in ["lens-at", "lens-at 2,0", "lens-at a,b", "mirror now please", "quit now", "help me", "pick-at", "pick-at 0.5"] {
            XCTAssertThrowsError(try ControlCommand(line: bad), bad)
        }
        // A point outside the picture is said to be outside, not to lack X,Y.
        XCTAssertThrowsError(try ControlCommand(line: "lens-at 2,2")) {
            XCTAssertEqual("\($0)", "'lens-at 2,2' is outside the picture: X and Y are fractions from 0 to 1, e.g. 'lens-at 0.5,0.5' for the middle")
        }
    }

    func testTheHelpIsWrittenFromTheKeymap() {
        XCTAssertEqual(Keymap.hint, "keys: n/p next / previous filter, r rotate, m mirror, +/- zoom in / out, l lens on/off, "
            + "[/] lens size, ←/→/↑/↓ move the lens (gallery: choose), g/Esc/Enter effects gallery / close, PgUp/PgDn gallery pages, "
            + "s snapshot, t countdown still, v record on/off, f faces on/off, h help, q quit; ':' for a command (e.g. :set zoom=2)")
        let card = Keymap.cardLines
        XCTAssertEqual(card.first, "click / drag     place the lens (gallery: pick)")
        XCTAssertTrue(card.contains("wheel            zoom (gallery: pages)"), "\(card)")
        XCTAssertTrue(card.contains("n / p            next / previous filter"), "\(card)")
        XCTAssertTrue(card.contains("← / → / ↑ / ↓    move the lens (gallery: choose)"), "\(card)")
        XCTAssertTrue(card.contains("g / Esc / Enter  effects gallery / close"), "\(card)")
        XCTAssertTrue(card.contains("PgUp / PgDn      gallery pages"), "\(card)")
        XCTAssertTrue(card.contains("s, space         snapshot"), "\(card)")
        XCTAssertTrue(card.contains("v                record on/off"), "\(card)")
        XCTAssertEqual(card.count, 17)
        XCTAssertEqual(OnScreenDisplay.helpLines, card)
        let help = Keymap.helpText
        for line in ["  m            mirror left-right", "  +            zoom in ×1.25", "  ←            move the lens left",
                     "  s space      take a still [snapshot]", "  set [ELEMENT.]PROP=VALUE  change a property",
                     "  camera ID                 switch cameras", "  v            start or stop recording"] {
            XCTAssertTrue(help.contains("\n" + line), line)
        }
        XCTAssertTrue(Keymap.markdownTable.contains("| `s`, `space` | `snapshot` | take a still |"), Keymap.markdownTable)
    }

    /// The command list reads as a table of key and action in 80 columns: each key on
    /// the line where its action starts, the action in a wide column (not wrapped into
    /// a narrow one beside a command column), its command in brackets.
    func testTheCommandListIsAKeyAndActionTableInEightyColumns() {
        let lines = Keymap.helpText.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        XCTAssertEqual(lines.filter { $0.count > HelpText.width }, [], "lines past 80 columns")
        for binding in Keymap.bindings {
            let key = "  " + binding.labels.joined(separator: " ") + " "
            let start = binding.help.split(separator: " ").prefix(3).joined(separator: " ")
            XCTAssertEqual(lines.filter { $0.hasPrefix(key) && $0.contains(start) }.count, 1, "\(key)| \(start)\n\(lines.joined(separator: "\n"))")
            XCTAssertTrue(Keymap.helpText.contains("[\(binding.command.line)]"), binding.command.line)
        }
        // Actions start by column 30 and take at least 50 columns.
        let continued = lines.filter { $0.hasPrefix("   ") }
        XCTAssertFalse(continued.isEmpty)
        for line in continued {
            XCTAssertLessThanOrEqual(line.prefix { $0 == " " }.count, 30, line)
        }
    }

    /// The README's key table is the keymap's.
    func testReadmeHasTheKeyTable() throws {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../README.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        XCTAssertTrue(text.contains(Keymap.markdownTable + "\n"), "README's key table differs; it should read:\n\(Keymap.markdownTable)")
    }
}
