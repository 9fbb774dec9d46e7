import FilterCore
import Foundation

/// The terminal's command line while it is typed (`:filter ve…`), and every line printed
/// meanwhile: a line goes above it and the typed text is drawn again after it. A window
/// key's echo was written onto the half-typed line (`:filter vewindow: rotate: …`), and
/// the typed text vanished until the next key redrew it.
public final class TypedLine: Sendable {
    public static let standardError = TypedLine(FileHandle.standardError)

    private let output: FileHandle
    /// The text typed so far, nil while no command line is being typed.
    private let typed = Locked<String?>(nil)

    public init(_ output: FileHandle) {
        self.output = output
    }

    /// Draws the command line in place (`editing`: still being typed; otherwise it is
    /// done, and the next output starts on a line of its own).
    public func redraw(_ text: String, editing: Bool) {
        typed.withLock { t in
            t = editing ? text : nil
            write(Self.clear + text + (editing ? "" : "\n"))
        }
    }

    /// The typed line is finished (a command was entered, or refused): output goes below it.
    public func finish(with text: String = "") {
        typed.withLock { t in
            if !text.isEmpty {
                write(Self.clear + text + "\n")
            } else if t != nil {
                write("\n")
            }
            t = nil
        }
    }

    /// Prints `line` (a newline is added), above the command line being typed if one is.
    public func print(_ line: String) {
        let text = line.hasSuffix("\n") ? line : line + "\n"
        typed.withLock { t in
            if let t { write(Self.clear + text + t) } else { write(text) }
        }
    }

    /// Carriage return and erase to the end of the line.
    private static let clear = "\r\u{1B}[K"

    private func write(_ text: String) {
        try? output.write(contentsOf: Data(text.utf8))   // a reader gone loses the text, not the process
    }
}
