import FilterCamHost
import FilterCamTool
import FilterCore
import Foundation

/// `filtercam launch preview` finds `pipelines/preview.pipeline`: in the current folder,
/// then in the installed share folder (`<prefix>/share/filtercam/pipelines`, next to
/// `<prefix>/bin/filtercam`), then in the package the binary was built in. A name finds
/// its pipeline even where the current folder holds a file or folder of that name (a
/// `snapshot` folder for the stills stopped `launch snapshot`): `./NAME` is that file.
enum PipelineLookup {
    static func file(named name: String) -> String? {
        guard looksLikeName(name) else { return nil }
        for folder in folders() {
            let path = folder.appendingPathComponent(name + ".pipeline").path
            if FileManager.default.fileExists(atPath: path) { return path }
        }
        return nil
    }

    /// A single word that can only be a pipeline name or an element's name.
    static func looksLikeName(_ word: String) -> Bool {
        !word.isEmpty && !word.contains("/") && !word.contains("!") && !word.contains(" ") && !word.contains("=")
            && !word.hasSuffix(".pipeline") && !word.hasPrefix("-")
    }

    /// A file FilterCam ships: in the installed share folder as `installed`
    /// (`<prefix>/share/filtercam/…`), else in the package the binary was built in.
    static func shippedFile(package relative: String, installed: String) -> String? {
        ([shareFolder.appendingPathComponent(installed)] + inPackage(relative)).map(\.path)
            .first { FileManager.default.fileExists(atPath: $0) }
    }

    /// Where names are looked up, in order.
    static func folders() -> [URL] {
        [URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("pipelines"),
         shareFolder.appendingPathComponent("pipelines")] + inPackage("pipelines")
    }

    private static var binFolder: URL { ProgramLocation.folder }

    /// `<prefix>/share/filtercam`, next to `<prefix>/bin/filtercam`.
    private static var shareFolder: URL {
        binFolder.deletingLastPathComponent().appendingPathComponent("share/filtercam")
    }

    /// `relative` in the folders above the binary: from a build folder
    /// (.build/<triple>/<configuration>/filtercam), the package's.
    private static func inPackage(_ relative: String) -> [URL] {
        var folder = binFolder, candidates: [URL] = []
        for _ in 0..<4 {
            folder = folder.deletingLastPathComponent()
            candidates.append(folder.appendingPathComponent(relative))
        }
        return candidates
    }
}

/// What `launch` and `serve` were given: a pipeline file (by path or by name) or a
/// description; the description to parse, and the file when there is one (to name lines).
struct PipelineTarget {
    let argument: String
    let description: String
    let file: PipelineFile?
    /// Said when a name found its pipeline beside a file of the same name here.
    let note: String?

    /// Throws the file's error (missing, unreadable, a `${…}` problem).
    init(_ words: [String], command: String = "launch") throws {
        // `launch preview FILTER=mono`, as make takes variables: only the shell sets them.
        let assignments = words.filter { $0.range(of: #"^[A-Z_][A-Z0-9_]*="#, options: .regularExpression) != nil }
        if !assignments.isEmpty, !words.contains(where: { $0.contains("!") }) {
            throw VariablesAsArguments(assignments: assignments, command: command,
                                       rest: words.filter { !assignments.contains($0) })
        }
        // `launch demo extra` or `launch --messages m.json demo`: GStreamer would read the
        // words as one description and blame the pipeline's name ("no element demo").
        if words.count > 1, !words.contains(where: { $0.contains("!") }),
           let name = words.first(where: { PipelineLookup.file(named: $0) != nil || $0.hasSuffix(".pipeline") }) {
            throw WordsBesidePipeline(name: name, others: words.filter { $0 != name }, command: command)
        }
        var argument = words.count == 1 ? words[0] : words.map(Self.descriptionWord).joined(separator: " ")
        var info = stat()
        if words.count == 1, let found = PipelineLookup.file(named: argument) {
            note = stat(argument, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
                ? "note: '\(argument)' is the pipeline \(found); the file of that name here is './\(argument)'" : nil
            argument = found
        } else {
            note = nil
        }
        if words.count == 1, PipelineLookup.looksLikeName(argument), argument == words[0],
           !FileManager.default.fileExists(atPath: argument), !GStreamer.hasElement(named: argument) {
            throw UnknownPipelineName(name: argument)
        }
        // One quoted word whose first word is an element (`'playbin uri=file:///a.mp4'`) is a
        // description, though its URI has a slash; a file of that name is still a file.
        let firstWord = argument.split(separator: " ").first.map(String.init) ?? ""
        let describesElement = argument.contains(" ") && GStreamer.hasElement(named: firstWord)
        let looksLikeFile = words.count == 1 && !argument.contains("!") &&
            (FileManager.default.fileExists(atPath: argument)
             || (!describesElement && (argument.hasSuffix(".pipeline") || argument.contains("/"))))
        if looksLikeFile {
            let file: PipelineFile
            do {
                file = try PipelineFile(contentsOf: argument)
            } catch let error as PipelineFile.Error where !FileManager.default.fileExists(atPath: argument) {
                // `pipelines/demo.pipeline` typed outside the package folder: the shipped one
                // of that name is found by its name alone.
                let name = ((argument as NSString).lastPathComponent as NSString).deletingPathExtension
                guard ShippedPipelines.names().contains(name) else { throw error }
                throw MissingPipelineFile(description: "\(error.description); the shipped pipeline of that name is 'filtercam \(command) \(name)'")
            }
            // A value Swift read with U+FFFD in place of bytes that are not UTF-8 (the file
            // would be written under another name).
            if let name = file.variablesRead.first(where: { NotUTF8.variable($0) != nil }) {
                throw VariableNotText(name: name, value: NotUTF8.variable(name)!)
            }
            self.file = file
            description = file.description
        } else {
            file = nil
            description = argument
        }
        self.argument = argument
    }

    /// A word of a description typed as several: a property's value holding a space
    /// (`location="my clip.raw"`, the shell took the quotes) has its spaces escaped, as
    /// gst-launch-1.0 escapes its arguments; joined with plain spaces, "clip.raw" became a
    /// word of its own ("unexpected reference"). Other words (`'filtercam filter=sepia'`)
    /// join as they are.
    static func descriptionWord(_ word: String) -> String {
        guard word.range(of: #"^[A-Za-z_][A-Za-z0-9_:-]*="#, options: .regularExpression) != nil,
              word.contains(where: \.isWhitespace) else { return word }
        var escaped = "", inQuotes = false, previous: Character? = nil
        for ch in word {
            if ch == "\"" && (!inQuotes || previous != "\\") { inQuotes.toggle() }
            if ch == " " && !inQuotes { escaped.append("\\") }
            escaped.append(ch)
            previous = ch
        }
        return escaped
    }
}

/// A pipeline file path that is not there, when a shipped pipeline has its name.
struct MissingPipelineFile: Error, CustomStringConvertible {
    let description: String
}

/// A variable the file reads whose value is not UTF-8 text.
struct VariableNotText: Error, CustomStringConvertible {
    let name: String
    let value: String
    var description: String { "\(name)=\(value) is not UTF-8 text: names and values go to GStreamer as UTF-8" }
}

/// A single word that names neither a pipeline file nor an element.
struct UnknownPipelineName: Error, CustomStringConvertible {
    let name: String
    var description: String {
        let shipped = ShippedPipelines.names(), local = ShippedPipelines.localFolder() == nil ? [] : ShippedPipelines.allNames().filter { !shipped.contains($0) }
        var text = "no pipeline file \(name).pipeline (looked in ./pipelines, the installed share folder and the package) "
            + "and no element \(name.quotedForMessage)\(NameSuggestion.hint(for: name, among: ShippedPipelines.allNames()))"
        if !shipped.isEmpty { text += "; shipped pipelines: \(shipped.joined(separator: ", ")) (filtercam launch --help)" }
        if !local.isEmpty { text += "; in ./pipelines: \(local.joined(separator: ", "))" }
        return text
    }
}

/// `NAME=VALUE` words after the command: a pipeline file reads its variables from the
/// environment, so they go before the command.
/// Words given beside a pipeline's name or file, which takes nothing after it.
struct WordsBesidePipeline: Error, CustomStringConvertible {
    let name: String
    let others: [String]
    let command: String
    var description: String {
        "\(name.quotedForMessage) is a pipeline and is given alone; "
            + "\(others.map(\.quotedForMessage).joined(separator: ", ")) cannot go with it "
            + "(options go before it, variables before the command: FILTER=mono filtercam \(command) \(name))"
    }
}

struct VariablesAsArguments: Error, CustomStringConvertible {
    let assignments: [String]
    let command: String
    let rest: [String]
    var description: String {
        // The command to type, each word quoted for a shell where it must be ("A=my stills").
        let set = assignments.map(DisplayCheck.shellWord).joined(separator: " ")
        return "\(assignments.joined(separator: " ")) \(assignments.count == 1 ? "is a variable" : "are variables") of the pipeline file: "
            + "set \(assignments.count == 1 ? "it" : "them") before the command, as for any program: "
            + "\(set) filtercam \(command) \(rest.map(DisplayCheck.shellWord).joined(separator: " "))"
    }
}
