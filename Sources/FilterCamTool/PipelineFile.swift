import Foundation
import FilterCore
import FilterCamHost

/// A pipeline file: gst-launch syntax over several lines, `#` comments, and `${NAME}` /
/// `${NAME:-default}` substituted from the environment. A value is substituted as text, so
/// it can add elements (`"` and `!` included): the environment belongs to the user who runs
/// the file, and nothing a network client sends is ever substituted.
public struct PipelineFile {
    public struct Error: Swift.Error, CustomStringConvertible {
        public let description: String
    }

    /// How deep `${A:-${B:-…}}` defaults may nest: deeper is refused, which keeps the work
    /// linear in the line's length.
    public static let maximumNesting = 16

    /// The description text after comments and substitution.
    public let description: String
    /// Where each line of the file began in `description`, to name lines in errors.
    public let sourceLines: [String]
    /// The variables the file reads (`${NAME}`, `${NAME:-default}`), in order.
    public let variablesRead: [String]

    public init(text: String, environment: [String: String] = ProcessInfo.processInfo.environment,
                fileName: String = "<text>") throws {
        var lines: [String] = []
        // Any line ending: "\n", "\r\n" (a file saved on Windows) or "\r".
        for (number, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = Self.stripComment(String(raw))
            do {
                // GStreamer reads the description as a C string: a NUL would silently end it.
                if raw.contains("\0") {
                    throw Error(description: "holds a NUL byte (binary data, not a pipeline description)")
                }
                lines.append(try Self.substitute(line, environment: environment))
            } catch let e as Error {
                throw Error(description: "\(fileName):\(number + 1): \(e.description)")
            }
        }
        sourceLines = lines
        variablesRead = Self.variables(in: text).map(\.name)
        description = lines.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            .filter { !$0.isEmpty }.joined(separator: " ")
        if description.isEmpty {
            throw Error(description: "\(fileName): the file holds no pipeline (only comments or blank lines)")
        }
    }

    /// Loads a file; the error names the file and says what is wrong with it.
    public init(contentsOf path: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw Error(description: "pipeline file '\(path)' does not exist")
        }
        guard !isFolder.boolValue else {
            let files = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter { $0.hasSuffix(".pipeline") }.sorted()
            throw Error(description: "'\(path)' is a folder, not a pipeline file"
                        + (files.isEmpty ? "" : "; its pipeline files: \(files.joined(separator: ", "))"))
        }
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw Error(description: "pipeline file '\(path)' cannot be read: no permission to read it")
        }
        var info = stat()
        if stat(path, &info) == 0 && (info.st_mode & S_IFMT) != S_IFREG {
            // /dev/null, a FIFO, a device: a pipeline file is a regular text file.
            throw Error(description: "'\(path)' is not a regular file: a pipeline file is a text file holding a pipeline description")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Error(description: "pipeline file '\(path)' cannot be read")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw Error(description: "pipeline file '\(path)' is not UTF-8 text")
        }
        try self.init(text: text, environment: environment, fileName: path)
    }

    /// `${NAME}` and `${NAME:-default}` references, outermost first, each name once
    /// (a default that holds another reference is shown as written).
    public static func variables(in text: String) -> [(name: String, defaultValue: String)] {
        var found: [(String, String)] = []
        let chars = Array(text)
        var i = 0
        while i + 1 < chars.count {
            guard chars[i] == "$", chars[i + 1] == "{" else { i += 1; continue }
            var j = i + 2, depth = 1
            while j < chars.count, depth > 0 {
                if chars[j] == "{" { depth += 1 } else if chars[j] == "}" { depth -= 1 }
                j += 1
            }
            let body = String(chars[(i + 2)..<max(i + 2, j - 1)])
            let parts = body.components(separatedBy: ":-")
            let name = parts[0]
            if !name.isEmpty, !found.contains(where: { $0.0 == name }) {
                found.append((name, parts.count > 1 ? parts.dropFirst().joined(separator: ":-") : ""))
            }
            // Nested references inside a default are listed too.
            i = name.isEmpty ? j : i + 2 + name.count
        }
        return found
    }

    /// A default value as it runs when no variable is set: the `${…}` inside it replaced
    /// by their own defaults (for help texts).
    public static func withDefaults(_ value: String) -> String {
        (try? substitute(value, environment: [:])) ?? value
    }

    /// The 1-based line of the file that mentions `token`, for error messages.
    public func line(mentioning token: String) -> Int? {
        sourceLines.firstIndex { $0.contains(token) }.map { $0 + 1 }
    }

    /// The line an element's error comes from: the first 'quoted' value of the message
    /// that a line holds (a value a variable put there, `filter="sepai"`), with its text.
    public func line(forError message: String) -> (number: Int, text: String)? {
        let parts = message.split(separator: "'", omittingEmptySubsequences: false)
        for token in stride(from: 1, to: parts.count - 1, by: 2).map({ String(parts[$0]) }) where token.count > 1 {
            if let number = line(mentioning: token) {
                return (number, sourceLines[number - 1].trimmingCharacters(in: .whitespaces))
            }
        }
        return nil
    }

    /// The line that makes the element `name` of `factory`, for an error whose message
    /// quotes nothing of the file (`Resource not found`): the line with `name=NAME`, or for
    /// a name GStreamer gave (`filesrc0`: the factory and a count) the factory's only
    /// mention, or its mention of that count.
    public func line(forElement name: String, factory: String) -> (number: Int, text: String)? {
        let code = sourceLines.map(Self.stripComment)
        func words(_ line: String) -> [Substring] { line.split { $0 == " " || $0 == "\t" || $0 == "!" } }
        var index = code.firstIndex { words($0).contains { $0 == "name=\(name)" || $0 == "name=\"\(name)\"" } }
        if index == nil, name.hasPrefix(factory), let count = Int(name.dropFirst(factory.count)) {
            let mentions = code.indices.flatMap { i in words(code[i]).filter { $0 == factory }.map { _ in i } }
            index = mentions.count == 1 ? mentions[0] : mentions.indices.contains(count) ? mentions[count] : nil
        }
        return index.map { ($0 + 1, sourceLines[$0].trimmingCharacters(in: .whitespaces)) }
    }

    /// Drops `#` to the end of the line, unless the `#` is inside quotes.
    /// The line without its comment: a `#` outside quotes at the start of a word, as a
    /// shell reads it (`location=take#2.raw` wrote the file `take`, saying nothing).
    /// A backslash makes the next character plain (`my\\ #1.raw` is one word).
    static func stripComment(_ line: String) -> String {
        var inQuote: Character? = nil
        var out = ""
        var escaped = false, wordStarts = true
        for ch in line {
            defer { escaped = !escaped && ch == "\\" }
            if !escaped && (ch == "\"" || ch == "'") {
                if inQuote == ch { inQuote = nil } else if inQuote == nil { inQuote = ch }
            }
            if ch == "#" && !escaped && inQuote == nil && wordStarts { break }
            wordStarts = ch.isWhitespace && !escaped
            out.append(ch)
        }
        return out
    }

    static func substitute(_ line: String, environment: [String: String], nesting: Int = 0) throws -> String {
        guard nesting <= maximumNesting else {
            throw Error(description: "${…} defaults nested more than \(maximumNesting) deep")
        }
        var out = ""
        var rest = Substring(line)
        while let start = rest.range(of: "${") {
            out += rest[..<start.lowerBound]
            // The matching brace, allowing ${…} inside a default value.
            var depth = 1
            var end: Substring.Index? = nil
            var i = start.upperBound
            while i < rest.endIndex {
                if rest[i] == "{" { depth += 1 }
                if rest[i] == "}" {
                    depth -= 1
                    if depth == 0 { end = i; break }
                }
                i = rest.index(after: i)
            }
            guard let end else {
                throw Error(description: "unterminated '${' (write ${NAME} or ${NAME:-default})")
            }
            let body = rest[start.upperBound..<end]
            let name: Substring, fallback: Substring?
            if let sep = body.range(of: ":-") {
                name = body[..<sep.lowerBound]
                fallback = body[sep.upperBound...]
            } else {
                name = body
                fallback = nil
            }
            guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
                throw Error(description: "\("${\(body)}".quotedForMessage) is not a variable reference (write ${NAME} or ${NAME:-default})")
            }
            if let value = environment[String(name)], !(value.isEmpty && fallback != nil) {
                out += value
            } else if let fallback {
                out += try substitute(String(fallback), environment: environment, nesting: nesting + 1)
            } else {
                throw Error(description: "environment variable \(name) is not set and has no default (write ${\(name):-value})")
            }
            rest = rest[rest.index(after: end)...]
        }
        out += rest
        return out
    }
}
