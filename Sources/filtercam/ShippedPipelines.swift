import FilterCamTool
import FilterCore
import Foundation

/// The pipeline files that ship with filtercam (what `launch NAME` finds), for
/// `launch --help` and for "did you mean" when a name is mistyped.
enum ShippedPipelines {
    /// The folder FilterCam's own pipeline files are in: the first of the installed share
    /// folder and the package that holds some. A `pipelines` folder of the user's own in the
    /// current folder is not it (its files were listed as "shipped", and the shipped ones
    /// left out of the list and of "did you mean").
    static func folder() -> URL? {
        PipelineLookup.folders().dropFirst().first { folder in !names(in: folder).isEmpty }
    }

    static func names() -> [String] {
        folder().map(names(in:)) ?? []
    }

    /// The user's own `./pipelines` when it is not the shipped folder itself (as when
    /// run in the package), and holds pipeline files.
    static func localFolder() -> URL? {
        guard let local = PipelineLookup.folders().first, !names(in: local).isEmpty else { return nil }
        if let shipped = folder(), local.resolvingSymlinksInPath().standardizedFileURL.path
            == shipped.resolvingSymlinksInPath().standardizedFileURL.path { return nil }
        return local
    }

    /// Every name `launch NAME` finds: the user's own first, then the shipped ones.
    static func allNames() -> [String] {
        let local = localFolder().map(names(in:)) ?? []
        return local + names().filter { !local.contains($0) }
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

    /// Each shipped pipeline: its name, what its header says first (up to two sentences
    /// of its first paragraph, whole), and the variables it reads with the defaults they
    /// run with (a default naming other variables shown with theirs).
    static func listing() -> String {
        // Files of the user's own in ./pipelines are listed even with no shipped ones
        // found (a copied binary): `launch NAME` runs them.
        guard let folder = folder() else { return "  (none found)" + localListing() }
        return names(in: folder).map { name in
            let text = (try? String(contentsOf: folder.appendingPathComponent(name + ".pipeline"), encoding: .utf8)) ?? ""
            let variables = PipelineFile.variables(in: text).map { variable -> String in
                let value = PipelineFile.withDefaults(variable.defaultValue)
                return "\(variable.name)=" + (value.isEmpty || value.contains(" ") ? "\"\(value)\"" : value)
            }
            // A name too long for its column puts the text on the next line, as argparse does.
            let column = 17, head = "  " + name
            let first = head.count < column ? head.padding(toLength: column, withPad: " ", startingAt: 0) : nil
            var entry = (first == nil ? head + "\n" : "") + HelpText.wrap(summary(of: text), indent: column, first: first)
            if !variables.isEmpty { entry += "\n" + HelpText.wrap(units: variables, indent: column) }
            return entry
        }.joined(separator: "\n") + localListing()
    }

    /// The user's own pipeline files in ./pipelines, named after the shipped ones (found
    /// first by `launch NAME`, so one of a shipped name is said to be used instead).
    private static func localListing() -> String {
        guard let local = localFolder() else { return "" }
        let shipped = Set(names())
        let own = names(in: local).map { shipped.contains($0) ? "\($0) (used instead of the shipped one)" : $0 }
        return "\n  in ./pipelines: " + own.joined(separator: ", ")
    }

    /// The first sentences of a pipeline file's header: its first paragraph (up to a blank
    /// comment line or an indented example), at most two sentences, leaving out a last one
    /// that only leads into the example (it ends with ":").
    static func summary(of text: String) -> String {
        var paragraph: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            guard line.hasPrefix("#") else { break }
            let body = line.dropFirst()
            if body.trimmingCharacters(in: .whitespaces).isEmpty || body.hasPrefix("   ") { break }
            paragraph.append(body.trimmingCharacters(in: .whitespaces))
        }
        var sentences = self.sentences(paragraph.joined(separator: " "))
        if sentences.count > 1, sentences.last?.hasSuffix(":") == true { sentences.removeLast() }
        return sentences.prefix(2).joined(separator: " ")
    }

    /// Sentences end at ". " (not after "e.g" or "i.e") or at the end.
    private static func sentences(_ text: String) -> [String] {
        var found: [String] = []
        var current = ""
        let words = text.split(separator: " ")
        for (i, word) in words.enumerated() {
            current += (current.isEmpty ? "" : " ") + word
            let ends = (word.hasSuffix(".") && !["e.g.", "i.e."].contains(word)) || i == words.count - 1
            if ends {
                found.append(current)
                current = ""
            }
        }
        return found
    }
}
