import FilterCore
import Foundation

/// The terminal's command line while it is typed (`:filter ve…`), and every line printed
/// meanwhile: a line goes above it and the typed text is drawn again after it. A window
/// key's echo was written onto the half-typed line (`:filter vewindow: rotate: …`), and
/// the typed text vanished until the next key redrew it.
///
/// The typed text is drawn on the terminal: stderr when it is one, else the process's
/// terminal (`2> log`: the typing was invisible, and the log filled with its redraws).
public final class TypedLine: Sendable {
    public static let standardError = TypedLine(FileHandle.standardError,
                                                screen: isatty(STDERR_FILENO) != 0 ? nil : FileHandle(forWritingAtPath: "/dev/tty"))

    private let output: FileHandle
    /// Where the typed text is drawn when it is not `output` (nil: on `output`).
    private let screen: FileHandle?
    /// The text typed so far, nil while no command line is being typed.
    private let typed = Locked<String?>(nil)

    /// A terminal that takes no escape sequences (TERM=dumb, as Emacs's shell sets, or none):
    /// what was drawn is overwritten with spaces instead (`ESC[K` showed as `^[[K`).
    private let dumb: Bool

    public static let terminalIsDumb: Bool = {
        let term = getenv("TERM").map { String(cString: $0) } ?? ""
        return term.isEmpty || term == "dumb"
    }()

    public init(_ output: FileHandle, screen: FileHandle? = nil, dumb: Bool = TypedLine.terminalIsDumb) {
        self.output = output
        self.screen = screen
        self.dumb = dumb
    }

    /// Draws the command line in place (`editing`: still being typed; otherwise it is
    /// done, and the next output starts on a line of its own).
    public func redraw(_ text: String, editing: Bool) {
        typed.withLock { t in
            let erase = erasing(t)
            t = editing ? text : nil
            if let screen {
                write(erase + (editing ? text : ""), to: screen)
                if !editing { write(text + "\n", to: output) }
            } else {
                write(erase + text + (editing ? "" : "\n"), to: output)
            }
        }
    }

    /// The typed line is finished (a command was entered, or refused): output goes below it.
    public func finish(with text: String = "") {
        typed.withLock { t in
            if let screen {
                if t != nil { write(erasing(t), to: screen) }
                if !text.isEmpty { write(text + "\n", to: output) }
            } else if !text.isEmpty {
                write(erasing(t) + text + "\n", to: output)
            } else if t != nil {
                write("\n", to: output)
            }
            t = nil
        }
    }

    /// The process is ending: a half-typed line is taken off the screen (it stayed, and
    /// the shell's next output ran on from it).
    public func abandon() {
        typed.withLock { t in
            if t != nil { write(erasing(t), to: screen ?? output) }
            t = nil
        }
    }

    /// Draws the half-typed line again on a fresh line (after Ctrl-Z and `fg` the shell has
    /// written over it, and it stayed away until the next key).
    public func drawAgain() {
        typed.withLock { t in
            guard let t else { return }
            write(clear + t, to: screen ?? output)
        }
    }

    /// Prints `line` (a newline is added), above the command line being typed if one is.
    public func print(_ line: String) {
        let text = line.hasSuffix("\n") ? line : line + "\n"
        typed.withLock { t in
            guard let t else { return write(text, to: output) }
            if let screen {
                write(erasing(t), to: screen)
                write(text, to: output)
                write(t, to: screen)
            } else {
                write(erasing(t) + text + t, to: output)
            }
        }
    }

    /// Carriage return and erase to the end of the line.
    private var clear: String { dumb ? "\r" : "\r\u{1B}[K" }

    /// What takes `drawn` (the typed text on screen) off it: the line, and the rows above it
    /// that a text wider than the terminal took (each keystroke left a copy of such a line).
    private func erasing(_ drawn: String?) -> String {
        if dumb { return "\r" + String(repeating: " ", count: drawn?.count ?? 0) + "\r" }
        let columns = Self.columns(of: screen ?? output)
        guard let drawn, columns > 0, drawn.count > columns else { return clear }
        return clear + String(repeating: "\u{1B}[1A\u{1B}[K", count: (drawn.count - 1) / columns)
    }

    /// The terminal's width (0: not a terminal).
    private static func columns(of handle: FileHandle) -> Int {
        var size = winsize()
        return ioctl(handle.fileDescriptor, UInt(TIOCGWINSZ), &size) == 0 ? Int(size.ws_col) : 0
    }

    private func write(_ text: String, to handle: FileHandle) {
        try? handle.write(contentsOf: Data(text.utf8))   // a reader gone loses the text, not the process
    }
}
