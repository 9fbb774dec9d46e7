import FilterCamHost
/// Keys typed in a terminal (raw mode), one byte at a time: single keys are commands, and
/// `:` opens a command line for the full commands (`set zoom=2`, `filter mono`, …):
/// Enter runs it, Esc cancels, Backspace deletes. An unknown key gets a one-line hint.
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
    public static let hint = "keys: n/p filter, r rotate, s snapshot, f faces, h help, q quit; ':' for a command (e.g. :set zoom=2)"

    private var line: [UInt8]?

    public init() {}

    public var isEditing: Bool { line != nil }

    public mutating func feed(_ byte: UInt8) -> Outcome {
        if var typed = line {
            switch byte {
            case 13, 10:
                line = nil
                let text = String(decoding: typed, as: UTF8.self)
                if text.trimmingSpaces.isEmpty { return .show("") }
                do { return .command(try LiveCommand(line: text)) } catch { return .error("command error: \(error)") }
            case 27:
                line = nil
                return .show("(cancelled)")
            case 127, 8:
                if !typed.isEmpty { typed.removeLast() }
                line = typed
                return .show(":" + String(decoding: typed, as: UTF8.self))
            default:
                guard byte >= 32 else { return .none }
                typed.append(byte)
                line = typed
                return .show(":" + String(decoding: typed, as: UTF8.self))
            }
        }
        if byte == UInt8(ascii: ":") {
            line = []
            return .show(":")
        }
        // h: the keys on one line (the full command list is `:help`), not 14 lines per press.
        if byte == UInt8(ascii: "h") { return .show(Self.shortHelp) }
        if let command = LiveCommand(key: Character(UnicodeScalar(byte))) { return .command(command) }
        if byte == 10 || byte == 13 { return .none }
        return .error("unknown key \(String(UnicodeScalar(byte)).debugDescription); \(Self.hint)")
    }
}
