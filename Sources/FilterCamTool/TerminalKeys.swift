import FilterCore

/// Keys typed in a terminal (raw mode), one byte at a time: single keys are `Keymap`'s
/// commands, the same as in the preview window (arrows arrive as escape sequences), and
/// `:` opens a command line for the full commands (`set zoom=2`, `filter mono`, …): Enter
/// runs it, Esc cancels, Backspace deletes a character, Ctrl-U the line, Ctrl-W a word;
/// arrows are ignored there. An unknown key gets a one-line hint.
public struct TerminalKeys {
    public enum Outcome: Equatable {
        /// Nothing to do yet (a character went into the command line).
        case none
        case command(LiveCommand)
        /// Text to show: the command line as typed so far (redrawn), or a hint.
        case show(String)
        case error(String)
    }

    public static let shortHelp = hint + "; :help lists every command"
    public static let hint = Keymap.hint

    private var line: [UInt8]?
    /// The bytes of a non-ASCII key so far.
    private var pendingCharacter: [UInt8] = []
    /// Bytes of an escape sequence so far (ESC, then `[` or `O`).
    private var escape: [UInt8]?
    /// False when the Esc came while a command line was typed: a sequence (an arrow) is
    /// swallowed and the line kept, an Esc alone cancels the line.
    private var escapeActs = true

    public init() {}

    public var isEditing: Bool { line != nil }

    /// An Esc came last: either the Esc key or the start of an arrow's sequence.
    public var awaitsSequence: Bool { escape == [27] }

    public mutating func feed(_ byte: UInt8) -> Outcome {
        if var sequence = escape {
            sequence.append(byte)
            escape = nil
            if sequence.count == 2 {
                guard byte == UInt8(ascii: "[") || byte == UInt8(ascii: "O") else {
                    // A lone Esc, then a key: in a command line the Esc cancels it.
                    if !escapeActs, line != nil { line = nil; return .show("(cancelled)") }
                    return feed(byte)
                }
                escape = sequence
                return .none
            }
            // ESC [ A…D: the arrows; ESC [ 5 ~ and ESC [ 6 ~: PgUp, PgDn. Another sequence (a
            // function key…) ends at its final byte.
            if sequence.count == 3, let name = Self.arrows[byte] { return escapeActs ? key(name) ?? .none : .none }
            if !(0x40...0x7E).contains(byte) { escape = sequence; return .none }
            if let name = Self.sequences[sequence] { return escapeActs ? key(name) ?? .none : .none }
            return .none
        }
        if var typed = line {
            switch byte {
            case 13, 10:
                line = nil
                let text = String(decoding: typed, as: UTF8.self)
                if text.allSatisfy({ $0 == " " || $0 == "\t" }) { return .show("") }
                do { return .command(try LiveCommand(line: text)) } catch { return .error("command error: \(error)") }
            case 27:
                // Esc alone cancels (escapeAlone, a moment later); an arrow's sequence
                // (ESC [ A) is swallowed and the line kept: an arrow threw the line away.
                escape = [27]
                escapeActs = false
                return .none
            case 127, 8:
                // One character, not one byte: `é` left half of itself behind.
                while let last = typed.last, last & 0xC0 == 0x80 { typed.removeLast() }
                if !typed.isEmpty { typed.removeLast() }
                line = typed
                return .show(":" + String(decoding: typed, as: UTF8.self))
            case 21:   // Ctrl-U: the whole line, as in a shell
                line = []
                return .show(":")
            case 23:   // Ctrl-W: the last word
                while typed.last == UInt8(ascii: " ") { typed.removeLast() }
                while let last = typed.last, last != UInt8(ascii: " ") { typed.removeLast() }
                line = typed
                return .show(":" + String(decoding: typed, as: UTF8.self))
            default:
                guard byte >= 32 else { return .none }
                typed.append(byte)
                line = typed
                return .show(":" + String(decoding: typed, as: UTF8.self))
            }
        }
        switch byte {
        case UInt8(ascii: ":"):
            line = []
            return .show(":")
        case 27:
            escape = [27]
            escapeActs = true
            return .none
        case 10, 13:
            return key("Return") ?? .none
        default:
            if byte >= 0x80 { return character(byte) }
            guard let name = Keymap.keyName(for: Character(UnicodeScalar(byte))) else { return unknown(byte) }
            return key(name) ?? unknown(byte)
        }
    }

    /// A non-ASCII key arrives as 2-4 UTF-8 bytes: one hint for the character (`é` gave two,
    /// for "Ã" and "©").
    private mutating func character(_ byte: UInt8) -> Outcome {
        if byte & 0xC0 != 0x80 { pendingCharacter = [] }   // a lead byte starts a character
        pendingCharacter.append(byte)
        let lead = pendingCharacter[0]
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
        guard pendingCharacter.count >= length else { return .none }
        defer { pendingCharacter = [] }
        let text = String(decoding: pendingCharacter, as: UTF8.self)
        return .error("unknown key \(text.debugDescription); \(Self.hint)")
    }

    /// A key by its name: its command; `h` shows the keys on one line here (the full list is
    /// `:help`), not the whole list at every press.
    private func key(_ name: String) -> Outcome? {
        guard let command = Keymap.command(forKey: name) else { return nil }
        return command == .help ? .show(Self.shortHelp) : .command(command)
    }

    private func unknown(_ byte: UInt8) -> Outcome {
        // A control key by the name a terminal user knows (it read "\u{04}").
        let name = byte == 127 ? "Backspace" : byte < 32 ? "Ctrl-\(Character(UnicodeScalar(byte + 64)))"
            : String(UnicodeScalar(byte)).debugDescription
        return .error("unknown key \(name); \(Self.hint)")
    }

    /// An Esc alone, nothing after it within a moment (the reader's wait): the key Esc.
    /// Called when no byte followed; a sequence's Esc is always followed at once.
    public mutating func escapeAlone() -> Outcome {
        guard escape == [27] else { return .none }
        escape = nil
        if !escapeActs, line != nil {
            line = nil
            return .show("(cancelled)")
        }
        return escapeActs ? key("Escape") ?? .none : .none
    }

    /// How long a lone Esc waits for the rest of a sequence before it is the key Esc.
    public static let escapeWaitMilliseconds: Int32 = 50

    private static let sequences: [[UInt8]: String] = [
        [27, UInt8(ascii: "["), UInt8(ascii: "5"), UInt8(ascii: "~")]: "Prior",
        [27, UInt8(ascii: "["), UInt8(ascii: "6"), UInt8(ascii: "~")]: "Next",
    ]

    private static let arrows: [UInt8: String] = [
        UInt8(ascii: "A"): "Up", UInt8(ascii: "B"): "Down", UInt8(ascii: "C"): "Right", UInt8(ascii: "D"): "Left",
    ]
}
