/// The keys, the same in the preview window and in a terminal, and every help text
/// written from them: the window's help card, the terminal's one-line hint, the command
/// list (`:help`, `filtercam launch --help`) and the README's key table.
///
/// Keys are named as X11 names them, which is how GStreamer's navigation events carry
/// them ("n", "space", "plus", "bracketleft", "Left"); a terminal's characters and arrow
/// sequences are translated to these names (`keyName(for:)`, `TerminalKeys`).
public enum Keymap {
    public struct Binding: Sendable {
        public let command: ControlCommand
        /// The key names; the first shown ones name the key in the help.
        public let keys: [String]
        /// What the command does, for the command list and the README.
        public let help: String

        init(_ command: ControlCommand, _ keys: [String], _ help: String) {
            self.command = command; self.keys = keys; self.help = help
        }

        /// The keys as the help shows them (aliases such as "KP_Add" are left out).
        public var labels: [String] { keys.compactMap(Keymap.label) }
    }

    /// Bindings shown together on one line of the card and of the hint.
    public struct Row: Sendable {
        public let text: String
        public let bindings: [Binding]

        init(_ text: String, _ bindings: [Binding]) { self.text = text; self.bindings = bindings }

        /// "n / p", "s, space", "← / → / ↑ / ↓".
        public var label: String { bindings.map { $0.labels.joined(separator: ", ") }.joined(separator: " / ") }
        /// "n/p": the first key of each binding.
        var shortLabel: String { bindings.compactMap(\.labels.first).joined(separator: "/") }
    }

    public static let rows: [Row] = [
        Row("next / previous filter", [Binding(.nextFilter, ["n"], "the next filter in the catalog"),
                                       Binding(.previousFilter, ["p"], "the previous filter in the catalog")]),
        Row("rotate", [Binding(.rotate, ["r"], "turn the picture a quarter clockwise")]),
        Row("mirror", [Binding(.mirror, ["m"], "mirror left-right (with orientation=auto: swap camera-facing)")]),
        Row("zoom in / out", [Binding(.zoomIn, ["plus", "equal", "KP_Add"], "zoom in ×1.25, up to max-zoom (the wheel too)"),
                              Binding(.zoomOut, ["minus", "KP_Subtract"], "zoom out ÷1.25, down to 1")]),
        Row("lens on/off", [Binding(.lens, ["l"], "the lens off (the whole picture), or back where it was")]),
        Row("lens size", [Binding(.lensSmaller, ["bracketleft"], "a smaller lens"),
                          Binding(.lensLarger, ["bracketright"], "a larger lens")]),
        Row("move the lens (gallery: choose)", ControlCommand.Direction.allCases.map { d in
            Binding(.moveLens(d), [d.rawValue.prefix(1).uppercased() + d.rawValue.dropFirst()],
                    "move the lens \(d.rawValue) (in the gallery: the selection)")
        }),
        Row("effects gallery / close", [
            Binding(.gallery, ["g"], "the effects gallery: the live picture through every filter at once, titled thumbnails; "
                    + "arrows or a click choose the filter; g again closes it"),
            Binding(.cancel, ["Escape"], "close the gallery, keeping the chosen filter, else call off a countdown (in the window: the help card first, if shown)"),
            Binding(.closeGallery, ["Return", "KP_Enter"], "close the gallery, keeping the chosen filter (in the window: the help card first, if shown)"),
        ]),
        Row("gallery pages", [Binding(.turnPage(-1), ["Prior", "Page_Up"], "the gallery's previous page"),
                              Binding(.turnPage(1), ["Next", "Page_Down"], "the gallery's next page")]),
        Row("snapshot", [Binding(.snapshot, ["s", "space"], "take a still")]),
        Row("countdown still", [Binding(.countdown, ["t"], "a still after a 3-2-1 countdown on the picture (again: cancel it)")]),
        Row("record on/off", [Binding(.record, ["v"], "start or stop recording the picture (without the on-screen display) to a numbered MP4")]),
        Row("faces on/off", [Binding(.faces, ["f"], "face detection on/off")]),
        // The window sinks name a key by its unshifted symbol: "?" comes as "slash" (and
        // "+" as "equal"), so the window needs those aliases for the help's "?" and "+".
        Row("help", [Binding(.help, ["h", "question", "slash"], "the keys on one line (in the window with osd=true: a card); as a command, this list")]),
        Row("quit", [Binding(.quit, ["q"], "stop (sends EOS first so recordings are finalised)")]),
    ]

    public static var bindings: [Binding] { rows.flatMap(\.bindings) }

    /// The command bound to a key name, if any.
    public static func command(forKey name: String) -> ControlCommand? {
        bindings.first { $0.keys.contains(name) }?.command
    }

    /// The key name of a character a terminal sends; arrows come as escape sequences.
    public static func keyName(for character: Character) -> String? {
        switch character {
        case " ": return "space"
        case "+": return "plus"
        case "=": return "equal"
        case "-": return "minus"
        case "[": return "bracketleft"
        case "]": return "bracketright"
        case "?": return "question"
        default: return character.isASCII && (character.isLetter || character.isNumber) ? String(character) : nil
        }
    }

    /// How the help names a key; nil for an alias it does not show.
    static func label(_ name: String) -> String? {
        switch name {
        case "plus": return "+"
        case "minus": return "-"
        case "bracketleft": return "["
        case "bracketright": return "]"
        case "question": return "?"
        case "Left": return "←"
        case "Right": return "→"
        case "Up": return "↑"
        case "Down": return "↓"
        case "Escape": return "Esc"
        case "Return": return "Enter"
        case "Prior": return "PgUp"
        case "Next": return "PgDn"
        case "equal", "slash", "KP_Add", "KP_Subtract", "KP_Enter", "Page_Up", "Page_Down": return nil
        default: return name
        }
    }

    // MARK: Help texts

    /// The window's help card (`h` with osd=true).
    public static var cardLines: [String] {
        // In the gallery a click picks and the wheel turns pages, as the arrows' line says
        // "(gallery: choose)"; the card said "zoom" there.
        let lines = [("click / drag", "place the lens (gallery: pick)"), ("wheel", "zoom (gallery: pages)")]
            + rows.map { ($0.label, $0.text) }
        let width = lines.map(\.0.count).max()! + 2
        return lines.map { $0.0.padded(to: width) + $0.1 }
    }

    /// The keys on one line: a terminal shows it at the start, for `h` and for an unknown key.
    public static var hint: String {
        "keys: " + keyList + "; ':' for a command (e.g. :set zoom=2)"
    }

    /// "n/p next / previous filter, r rotate, …".
    public static var keyList: String {
        rows.map { "\($0.shortLabel) \($0.text)" }.joined(separator: ", ")
    }

    /// Every key and what it does, then the commands without a key: two columns that
    /// read well in 80 (the key, then what it does with its command in brackets).
    public static var helpText: String {
        func rows(_ width: Int, _ pairs: [(String, String)]) -> [String] {
            pairs.map { HelpText.wrap($0.1, indent: 2 + width, first: "  " + $0.0.padded(to: width)) }
        }
        let keys = bindings.map { ($0.labels.joined(separator: " "), "\($0.help) [\($0.command.line)]") } + [
            ("click, drag", "centre the lens there [lens-at X,Y, fractions of the picture]"),
            ("click", "in the gallery: choose that thumbnail and close it [pick-at X,Y]"),
            ("wheel", "zoom in or out (in the preview window)"),
        ]
        let commands = [
            ("set [ELEMENT.]PROP=VALUE", "change a property while playing (default element: the only filtercam)"),
            ("filter ID", "select a filter; again returns to none"),
            ("filter ID NAME=VALUE…, …", "a filter with its settings, or a chain, as the property takes it"),
            ("camera ID", "switch cameras: back, front, /dev/videoN or test:PATTERN"),
            ("COMMAND ELEMENT", "a key's command for one of several filtercams (snapshot filtercam1)"),
        ]
        return (["keys, the same in the preview window and in a terminal (in brackets: the same",
                 "as a command, a line on stdin or ':' and the line in a terminal):"]
                + rows(13, keys)
                + ["", "commands without a key:"]
                + rows(26, commands)
                + ["in a terminal, ':' opens a command line (Enter runs, Esc cancels)."]).joined(separator: "\n")
    }

    /// The README's key table (a test checks that the README has it).
    public static var markdownTable: String {
        var lines = ["| key | command | what it does |", "|---|---|---|"]
        for b in bindings {
            let keys = b.labels.map { "`\($0)`" }.joined(separator: ", ")
            lines.append("| \(keys) | `\(b.command.line)` | \(b.help) |")
        }
        return lines.joined(separator: "\n")
    }
}

private extension String {
    /// The text and at least one space, `width` characters in all.
    func padded(to width: Int) -> String {
        self + String(repeating: " ", count: Swift.max(isEmpty ? width : 1, width - count))
    }
}
