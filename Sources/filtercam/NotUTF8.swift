import Foundation

/// Arguments and variables whose bytes are not UTF-8 text, shown with those bytes escaped
/// (`fs\xFF.raw`), before Swift replaces them with U+FFFD.
enum NotUTF8 {
    /// The first command-line argument (1 = the command) that is not UTF-8, escaped.
    static func firstArgument() -> (Int, String)? {
        for index in 1..<Int(CommandLine.argc) {
            guard let raw = CommandLine.unsafeArgv[index] else { continue }
            if String(validatingCString: raw) == nil { return (index, escaped(raw)) }
        }
        return nil
    }

    /// The environment variable `name`'s value, escaped, when it is set and not UTF-8.
    static func variable(_ name: String) -> String? {
        guard let raw = getenv(name), String(validatingCString: raw) == nil else { return nil }
        return escaped(raw)
    }

    /// The bytes as text: UTF-8 as it is, other bytes as \xNN.
    static func escaped(_ raw: UnsafePointer<CChar>) -> String {
        let bytes = Array(UnsafeBufferPointer(start: UnsafeRawPointer(raw).assumingMemoryBound(to: UInt8.self), count: strlen(raw)))
        var text = "", i = 0
        while i < bytes.count {
            // A lead byte's sequence when it decodes, else that one byte escaped.
            let lead = bytes[i]
            let length = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 0
            if length > 0, i + length <= bytes.count, let decoded = String(validating: bytes[i..<(i + length)], as: UTF8.self) {
                text += decoded
                i += length
            } else {
                text += String(format: "\\x%02X", lead)
                i += 1
            }
        }
        return text
    }
}
