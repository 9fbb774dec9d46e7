import Foundation

extension FileHandle {
    func write(_ text: String) {
        write(text.data(using: .utf8)!)
    }
}

/// Prints to stderr.
func printError(_ text: String) {
    FileHandle.standardError.write(text.hasSuffix("\n") ? text : text + "\n")
}
