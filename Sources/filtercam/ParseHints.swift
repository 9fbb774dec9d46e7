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
    static func hints(for message: String, file: PipelineFile?) -> [String] {
        var out: [String] = []
        let quoted = message.split(separator: "\"", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 }.map { String($0.element) }
        if message.hasPrefix("no element"), let name = quoted.first {
            // `filter=mono, vignette` unquoted: GStreamer reads ", vignette" as a next element.
            if FilterRegistry.shared.descriptor(id: name) != nil {
                out.append("\(name.quotedForMessage) is a FilterCam filter: a chain of several goes in quotes, e.g. "
                           + "filter=\"mono, \(name)\" (or its own element, fc\(name))")
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
        if message.contains("syntax error"), let file {
            if let line = syntaxErrorLine(in: file) {
                out.append("the syntax error is at line \(line): \(file.sourceLines[line - 1].trimmingCharacters(in: .whitespaces))")
            } else if let last = file.sourceLines.lastIndex(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty }),
                      file.sourceLines[last].trimmingCharacters(in: .whitespaces).hasSuffix("!") {
                // Each line may end in '!' when the next continues it; the last may not.
                out.append("the description ends with '!' at line \(last + 1), with nothing after it: \(file.sourceLines[last].trimmingCharacters(in: .whitespaces))")
            }
        }
        return out
    }

    /// The pipeline file's line a parse error comes from: the line quoting what the error
    /// quotes, or for a link that failed ("could not link videotestsrc0 to filtercam0",
    /// which quotes nothing) the line making the link's second element, else its first.
    static func line(of message: String, in file: PipelineFile) -> Int? {
        if let token = LaunchCommand.offendingToken(in: message), let line = file.line(mentioning: token) { return line }
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
