import FilterCore
import Foundation

/// The pipeline files that ship with filtercam (what `launch NAME` finds), for
/// `launch --help` and for "did you mean" when a name is mistyped.
enum ShippedPipelines {
    /// The first folder of `PipelineLookup`'s search path that holds pipeline files.
    static func folder() -> URL? {
        PipelineLookup.folders().first { folder in !names(in: folder).isEmpty }
    }

    static func names() -> [String] {
        folder().map(names(in:)) ?? []
    }

    private static func names(in folder: URL) -> [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return files.filter { $0.hasSuffix(".pipeline") }.map { String($0.dropLast(".pipeline".count)) }.sorted()
    }

    /// One line per shipped pipeline: its name, what its first comment line says, and the
    /// variables it reads with their defaults (`${NAME:-default}`, as the file has them).
    static func listing() -> String {
        guard let folder = folder() else { return "  (none found)" }
        return names(in: folder).map { name in
            let text = (try? String(contentsOf: folder.appendingPathComponent(name + ".pipeline"), encoding: .utf8)) ?? ""
            let summary = text.split(separator: "\n").first { $0.hasPrefix("#") }
                .map { $0.dropFirst().trimmingCharacters(in: .whitespaces) } ?? ""
            let variables = self.variables(in: text).map { "\($0.name)=\($0.defaultValue)" }
            var line = "  \(name.padding(toLength: 16, withPad: " ", startingAt: 0)) \(summary)"
            if !variables.isEmpty { line += "\n  \(String(repeating: " ", count: 16))  " + variables.joined(separator: " ") }
            return line
        }.joined(separator: "\n")
    }

    /// `${NAME}` and `${NAME:-default}` references, outermost first, each name once
    /// (a default that holds another reference is shown as written).
    static func variables(in text: String) -> [(name: String, defaultValue: String)] {
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
}
