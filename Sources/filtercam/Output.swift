import FilterCamTool
import Foundation

extension FileHandle {
    /// Writes `text`; with no reader left (`filtercam … | tee log` after Ctrl-C, SIGPIPE
    /// ignored) the text is lost, not the process: `write(_: Data)` traps on EPIPE.
    func write(_ text: String) {
        try? write(contentsOf: Data(text.utf8))
    }
}

/// Prints to stderr (above a command line being typed in the terminal).
func printError(_ text: String) {
    TypedLine.standardError.print(text)
}
