import FilterCamTool
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

    /// Every variable some shipped pipeline reads: the names a user may set for one file
    /// and expect another to read.
    static func allVariables() -> Set<String> {
        guard let folder = folder() else { return [] }
        return Set(names(in: folder).flatMap { name -> [String] in
            let text = (try? String(contentsOf: folder.appendingPathComponent(name + ".pipeline"), encoding: .utf8)) ?? ""
            return PipelineFile.variables(in: text).map(\.name)
        })
    }

    /// One line per shipped pipeline: its name, what its first comment line says, and the
    /// variables it reads with their defaults (`${NAME:-default}`, as the file has them).
    static func listing() -> String {
        guard let folder = folder() else { return "  (none found)" }
        return names(in: folder).map { name in
            let text = (try? String(contentsOf: folder.appendingPathComponent(name + ".pipeline"), encoding: .utf8)) ?? ""
            let summary = text.split(separator: "\n").first { $0.hasPrefix("#") }
                .map { $0.dropFirst().trimmingCharacters(in: .whitespaces) } ?? ""
            let variables = PipelineFile.variables(in: text).map { "\($0.name)=\($0.defaultValue)" }
            var line = "  \(name.padding(toLength: 16, withPad: " ", startingAt: 0)) \(summary)"
            if !variables.isEmpty { line += "\n  \(String(repeating: " ", count: 16))  " + variables.joined(separator: " ") }
            return line
        }.joined(separator: "\n")
    }
}
