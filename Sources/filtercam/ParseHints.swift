import CGStreamer
import CFilterCamShim
import FilterCamHost
import FilterCamTool
import FilterCore
import Foundation

/// What to add to a GStreamer parse error so the user can fix the description: the
/// closest element or property name ("did you mean"), the valid values of a property,
/// and, for a pipeline file, the line of a syntax error.
enum ParseHints {
    static func hints(for message: String, file: PipelineFile?, description: String) -> [String] {
        var out: [String] = []
        let quoted = message.split(separator: "\"", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 }.map { String($0.element) }
        if message.hasPrefix("no element"), let name = quoted.first {
            // `filter=mono, vignette` unquoted: GStreamer reads ", vignette" as a next element.
            if FilterRegistry.shared.descriptor(id: name) != nil {
                out.append("\(name.quotedForMessage) is a FilterCam filter: a chain of several goes in quotes, e.g. "
                           + "filter=\"mono, \(name)\" (or its own element, fc\(name))")
            } else if let package = StockElementPackages.debian[name] {
                out.append("\(name) comes in the Debian package \(package), not installed here (make deps installs what the "
                           + "shipped pipelines use; gst-inspect-1.0 \(name) says when it is there)")
            } else if let guess = NameSuggestion.closest(to: name, among: elementNames()) {
                out.append("did you mean \"\(guess)\"? (gst-inspect-1.0 lists the elements)")
            }
        }
        if message.hasPrefix("no property"), quoted.count >= 2,
           let guess = NameSuggestion.closest(to: quoted[0], among: propertyNames(ofFactory: quoted[1])) {
            out.append("did you mean \"\(guess)\"? (filtercam inspect \(quoted[1]) lists its properties)")
        }
        if message.hasPrefix("could not set property"), quoted.count >= 3,
           let choices = valueDescription(property: quoted[0], factory: quoted[1], given: quoted[2]) {
            out.append("\(quoted[0]) takes \(choices)")
        }
        if let field = mistypedCapsField(in: message) {
            out.append("\(field.name) takes \(field.takes), not \(field.value.quotedForMessage): the caps read it as \(field.type)")
        }
        if message.contains("syntax error"), file == nil, let shape = syntaxShape(of: description) {
            out.append(shape)
        }
        if message.contains("syntax error"), let file {
            if let line = syntaxErrorLine(in: file) {
                let text = file.sourceLines[line - 1].trimmingCharacters(in: .whitespaces)
                out.append("the syntax error is at line \(line): \(text)")
                if text.hasSuffix("\\") {
                    out.append("a pipeline file needs no '\\' to go on at the next line (a line ending in '!', or the next starting with '!', goes on): remove it")
                }
            } else if let last = file.sourceLines.lastIndex(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty }),
                      file.sourceLines[last].trimmingCharacters(in: .whitespaces).hasSuffix("!") {
                // Each line may end in '!' when the next continues it; the last may not.
                out.append("the description ends with '!' at line \(last + 1), with nothing after it: \(file.sourceLines[last].trimmingCharacters(in: .whitespaces))")
            }
        }
        return out
    }

    /// The video/audio caps fields that take numbers, and what they take.
    private static let numericCapsFields = [
        "width": "a whole number (width=640)", "height": "a whole number (height=480)",
        "framerate": "a fraction (framerate=30/1)", "pixel-aspect-ratio": "a fraction (pixel-aspect-ratio=1/1)",
        "rate": "a whole number (rate=48000)", "channels": "a whole number (channels=2)",
    ]

    /// A caps field of a failed link given a value of the wrong type ("width=abc" is read as
    /// a string, "width=12.5" as a double, and the link fails as if the caps fit nothing).
    static func mistypedCapsField(in message: String) -> (name: String, value: String, type: String, takes: String)? {
        guard message.contains("can't handle caps") else { return nil }
        var rest = message[...]
        while let found = rest.range(of: #"[a-z-]+=\((string|double)\)[^,;]+"#, options: .regularExpression) {
            let field = rest[found]
            let name = String(field.prefix { $0 != "=" }), type = String(field.drop { $0 != "(" }.dropFirst().prefix { $0 != ")" })
            let value = String(field.drop { $0 != ")" }.dropFirst())
            // A double is a mistake only where a whole number is taken (a fraction takes 29.97).
            if let takes = numericCapsFields[name], type == "string" || takes.hasPrefix("a whole") {
                return (name, value, type == "double" ? "a decimal number" : "text", takes)
            }
            rest = rest[found.upperBound...]
        }
        return nil
    }

    /// What is wrong with a description given on the command line that GStreamer calls only
    /// a "syntax error": a '!' with no element on one side, or a shell's line continuation.
    static func syntaxShape(of description: String) -> String? {
        let text = description.trimmingCharacters(in: .whitespacesAndNewlines)
        if text.hasPrefix("!") { return "the description starts with '!', with no element before it" }
        if text.hasSuffix("!") { return "the description ends with '!', with nothing after it" }
        if let doubled = text.range(of: #"!\s*!"#, options: .regularExpression) {
            let before = text[..<doubled.lowerBound].split(separator: " ").suffix(1).joined()
            let after = text[doubled.upperBound...].split(separator: " ").prefix(1).joined()
            return "two '!' with no element between them: \(before) \(text[doubled]) \(after)"
        }
        if text.contains("\\\n") || text.hasSuffix("\\") {
            return "a '\\' at a line's end is the shell's line continuation; inside quotes it stays in the description: remove it"
        }
        return nil
    }

    /// The pipeline file's line a parse error comes from: the line quoting what the error
    /// quotes, or for a link that failed ("could not link videotestsrc0 to filtercam0",
    /// which quotes nothing) the line making the link's second element, else its first.
    static func line(of message: String, in file: PipelineFile) -> Int? {
        if let token = LaunchCommand.offendingToken(in: message), let line = file.line(mentioning: token) { return line }
        if let field = mistypedCapsField(in: message), let line = file.line(mentioning: "\(field.name)=\(field.value)") { return line }
        guard message.hasPrefix("could not link ") else { return nil }
        let words = message.split(separator: " ").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: ",.:")) }
        guard words.count >= 6, words[4] == "to" else { return nil }
        for name in [words[5], words[3]] {
            let factory = String(name.reversed().drop { $0.isNumber }.reversed())
            if let found = file.line(forElement: name, factory: factory) { return found.number }
        }
        return nil
    }

    /// The registry's element names.
    static func elementNames() -> [String] {
        GStreamer.initialize()
        let features = GstOwned<GstObject>.list(taking: gst_registry_get_feature_list(gst_registry_get(), gst_element_factory_get_type()))
        return features.compactMap { String(takingGLib: gst_object_get_name($0.pointer)) }
    }

    static func propertyNames(ofFactory factory: String) -> [String] {
        withClass(of: factory) { klass in
            var count: guint = 0
            let specs = Array(takingGLib: g_object_class_list_properties(klass, &count), count: Int(count))
            return specs.compactMap { $0.map { String(cString: $0.pointee.name) } }
        } ?? []
    }

    /// "one of identity, 90r, …" for an enum (with a "did you mean" for `value`), the type
    /// and range otherwise (`PropertyChoices`).
    static func valueDescription(property: String, factory: String, given value: String?) -> String? {
        GStreamer.initialize()
        guard let owned = gst_element_factory_make(factory, nil).map(GstOwned.init(sinking:)) else { return nil }
        return PropertyChoices.describe(property, of: owned.pointer, given: value)
    }

    private static func withClass<T>(of factory: String, _ body: (UnsafeMutablePointer<GObjectClass>) -> T) -> T? {
        GStreamer.initialize()
        guard let owned = gst_element_factory_make(factory, nil).map(GstOwned.init(sinking:)) else { return nil }
        let element = owned.pointer
        let klass = UnsafeMutableRawPointer(element.pointee.object.object.g_type_instance.g_class)!
            .assumingMemoryBound(to: GObjectClass.self)
        return body(klass)
    }

    /// GStreamer's parser logs a CRITICAL of its own for some syntax errors (`! !`): the
    /// user's parse shows it once, as gst-launch-1.0 does; the parses made here to find the
    /// line do not repeat it in the middle of the error.
    private static func quietly<T>(_ body: () -> T) -> T {
        let levels = GLogLevelFlags(rawValue: G_LOG_LEVEL_CRITICAL.rawValue | G_LOG_LEVEL_WARNING.rawValue)
        let id = g_log_set_handler("GStreamer", levels, { _, _, _, _ in }, nil)
        defer { g_log_remove_handler("GStreamer", id) }
        return body()
    }

    /// The first line whose end makes the description unparsable by syntax (a trailing
    /// '!' is allowed, as the next line may continue it).
    static func syntaxErrorLine(in file: PipelineFile) -> Int? {
        var prefix = ""
        for (i, line) in file.sourceLines.enumerated() {
            prefix += " " + line
            var candidate = prefix.trimmingCharacters(in: .whitespaces)
            if candidate.hasSuffix("!") { candidate = String(candidate.dropLast()) }
            guard !candidate.trimmingCharacters(in: .whitespaces).isEmpty else { continue }
            var error: UnsafeMutablePointer<GError>?
            let parsed = quietly { gst_parse_launch_full(candidate, nil, GST_PARSE_FLAG_NONE, &error) }
            _ = parsed.map(GstOwned.init(sinking:))   // only the error is wanted
            if let error, GStreamerError(taking: error).code == Int32(GST_PARSE_ERROR_SYNTAX.rawValue) { return i + 1 }
        }
        return nil
    }
}
