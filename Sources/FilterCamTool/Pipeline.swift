import CGStreamer
import CFilterCamShim
import FilterCore
import FilterCamHost
import Foundation

/// A parsed, owned GStreamer pipeline (the reference is released on deinit).
public final class Pipeline {
    public struct ParseError: Error, CustomStringConvertible {
        public let description: String
        /// For a link that failed: what to change, for the cause found (`FormatProblem`).
        public let linkHint: String?
        package init(description: String, linkHint: String? = nil) {
            self.description = description
            self.linkHint = linkHint
        }
    }

    private let owned: GstOwned<GstElement>
    package var element: UnsafeMutablePointer<GstElement> { owned.pointer }

    /// Parses a gst-launch description; any error (unknown element, property or value,
    /// bad link) is fatal and described. (Parsed without GST_PARSE_FLAG_FATAL_ERRORS, so a
    /// failed link leaves its elements to look at for the hint.)
    public init(description: String) throws {
        GStreamer.initialize()
        if let name = Self.repeatedName(in: description) {
            // GStreamer's parser adds the first and leaves the second out of the pipeline,
            // with four warnings and a link error that does not say why.
            throw ParseError(description: "two elements are named \(name.quotedForMessage): each element's name must be its own")
        }
        var error: UnsafeMutablePointer<GError>?
        // GObject only warns about an out-of-range property value in a description;
        // those warnings are caught here and made parse errors.
        let warnings = GObjectWarnings.capture {
            gst_parse_launch_full(description, nil, GST_PARSE_FLAG_NONE, &error)
        }
        let parsed = warnings.result.map(GstOwned.init(sinking:))
        if error == nil, let warning = warnings.messages.first {
            var text = warning.message
            // Name the range: find the element that has the property in what was parsed.
            // GObject's warning does not say which element; when several have a property of
            // that name (num-buffers), all of them are named.
            if let parsed, let property = warning.property {
                let candidates = Self.isA(parsed.pointer, gst_bin_get_type()) ? Pipeline.elements(of: parsed.pointer) : [parsed.pointer]
                let having = candidates.reversed().compactMap { e -> (UnsafeMutablePointer<GstElement>, UnsafeMutablePointer<GParamSpec>)? in
                    let klass = UnsafeMutableRawPointer(e.pointee.object.object.g_type_instance.g_class).assumingMemoryBound(to: GObjectClass.self)
                    return g_object_class_find_property(klass, property).map { (e, $0) }
                }
                if let (e, spec) = having.first {
                    let choices = PropertyChoices.describe(property, of: e, given: nil) ?? Inspector.typeDescription(spec)
                    // GObject writes a double as "2.000000": shown as the user wrote it, 2.
                    let given = warning.value.map { v in Double(v).map(NumberText.text) ?? v } ?? "?"
                    let owner = having.count == 1 ? "\(GStreamer.name(of: e)).\(property)"
                        : "\(property) of " + having.map { GStreamer.name(of: $0.0) }.joined(separator: " or ")
                    text = warning.readOnly
                        ? "\(owner) is read-only: it tells what the element does and is not set (filtercam inspect \(Pipeline.factoryName(of: e) ?? "") shows what is writable)"
                        : "invalid value \(given) for \(owner): '\(property)' takes \(choices)"
                }
            }
            throw ParseError(description: text)
        }
        if let error {
            let problem = GStreamerError(taking: error)
            let isLink = problem.domain == gst_parse_error_quark() && problem.code == Int32(GST_PARSE_ERROR_LINK.rawValue)
            throw ParseError(description: problem.message,
                             linkHint: isLink ? parsed.flatMap { FormatProblem.linkHint(in: $0.pointer, error: problem.message) } : nil)
        }
        guard let parsed else { throw ParseError(description: "the description gave no pipeline") }
        // A single element is wrapped into a pipeline so it has a bus and a clock.
        if Self.isA(parsed.pointer, gst_pipeline_get_type()) {
            owned = parsed
        } else {
            owned = GstOwned(sinking: gst_pipeline_new(nil)!)
            gst_bin_add(owned.pointer.asBin, parsed.pointer)   // the pipeline takes a reference of its own
        }
    }

    private static func isA(_ element: UnsafeMutablePointer<GstElement>, _ type: GType) -> Bool {
        g_type_check_instance_is_a(UnsafeMutableRawPointer(element).assumingMemoryBound(to: GTypeInstance.self), type) != 0
    }

    deinit {
        gst_element_set_state(element, GST_STATE_NULL)
    }

    /// PLAYING (true) or PAUSED (false): a live source stops producing while paused.
    public func setPlaying(_ playing: Bool) {
        _ = setState(playing ? GST_STATE_PLAYING : GST_STATE_PAUSED)
    }

    /// Whether the last state asked for is PAUSED (`setPlaying(false)`), whether or not
    /// the pause has settled: a pause waits for the sink's next frame (ASYNC) meanwhile.
    public var isPausedOnPurpose: Bool {
        // Only the session's thread asks for states, so the field is read as it set it.
        element.pointee.target_state == GST_STATE_PAUSED
    }

    /// Whether a state change is still under way (a sink waits for its preroll frame, or
    /// the bin has yet to carry on to the state asked for).
    public var isChangingState: Bool {
        var state = GST_STATE_NULL, pending = GST_STATE_NULL
        return gst_element_get_state(element, &state, &pending, 0) == GST_STATE_CHANGE_ASYNC
    }

    @discardableResult
    public func setState(_ state: GstState) -> GstStateChangeReturn {
        gst_element_set_state(element, state)
    }

    public var bus: UnsafeMutablePointer<GstBus> { owned.bus! }

    /// Every element inside, depth first.
    public var elements: [UnsafeMutablePointer<GstElement>] { Pipeline.elements(of: element) }

    static func elements(of bin: UnsafeMutablePointer<GstElement>) -> [UnsafeMutablePointer<GstElement>] {
        GStreamer.objects(of: gst_bin_iterate_recurse(bin.asBin), as: GstElement.self)
    }

    /// The element named `name`, if any.
    public func element(named name: String) -> UnsafeMutablePointer<GstElement>? {
        owned.child(named: name)
    }

    /// The factory name of an element (`filtercam`, `videotestsrc`).
    public static func factoryName(of element: UnsafeMutablePointer<GstElement>) -> String? {
        GStreamer.factoryName(of: element)
    }

    /// The FilterCam elements inside (filtercam and friends) with their names.
    public var filterCamElements: [(name: String, element: UnsafeMutablePointer<GstElement>)] {
        // In the description's order (a bin lists the element added last first).
        elements.reversed().compactMap { e in
            fc_element_get_ctx(e) == nil ? nil : (GStreamer.name(of: e), e)
        }
    }

    /// Reads a property as text (`gst_value_serialize`), or nil when there is none.
    public static func property(_ element: UnsafeMutablePointer<GstElement>, _ name: String) -> String? {
        GStreamer.property(element, name)
    }

    /// Whether the element has a property of that name.
    public static func hasProperty(_ element: UnsafeMutablePointer<GstElement>, _ name: String) -> Bool {
        let klass = UnsafeMutableRawPointer(element.pointee.object.object.g_type_instance.g_class).assumingMemoryBound(to: GObjectClass.self)
        return g_object_class_find_property(klass, name) != nil
    }

    /// Sets a property from text, checking that it exists and that the value parses;
    /// the error names the element, the property and (for enums) the valid values.
    public static func setProperty(_ element: UnsafeMutablePointer<GstElement>, _ name: String, _ value: String) throws {
        let elementName = GStreamer.name(of: element)
        let klass = UnsafeMutableRawPointer(element.pointee.object.object.g_type_instance.g_class).assumingMemoryBound(to: GObjectClass.self)
        guard let spec = g_object_class_find_property(klass, name) else {
            var count: guint = 0
            let names = Array(takingGLib: g_object_class_list_properties(klass, &count), count: Int(count)).compactMap { $0.map { String(cString: $0.pointee.name) } }
            throw ParseError(description: "element \(elementName) has no property \(name.quotedForMessage)\(NameSuggestion.hint(for: name, among: names))")
        }
        guard spec.pointee.flags.rawValue & G_PARAM_WRITABLE.rawValue != 0 else {
            throw ParseError(description: "property \(elementName).\(name) is read-only")
        }
        var v = GValue()
        g_value_init(&v, spec.pointee.value_type)
        defer { g_value_unset(&v) }
        if spec.pointee.value_type == fc_type_string() {
            g_value_set_string(&v, value)
        } else if gst_value_deserialize(&v, value) == 0 || g_param_value_validate(spec, &v) != 0 {
            let choices = PropertyChoices.describe(name, of: element, given: value) ?? Inspector.typeDescription(spec)
            throw ParseError(description: "invalid value \(value.quotedForMessage) for \(elementName).\(name): \(name) takes \(choices)")
        }
        let readable = spec.pointee.flags.rawValue & G_PARAM_READABLE.rawValue != 0
        var before = GValue()
        g_value_init(&before, spec.pointee.value_type)
        defer { g_value_unset(&before) }
        if readable { g_object_get_property(element.asGObject, name, &before) }
        // A value the element refuses (it keeps the old one) is an error here, said once.
        if let refusal = PropertyRefusal.collecting({ g_object_set_property(element.asGObject, name, &v) }).first {
            throw ParseError(description: refusal)
        }
        // A stock element that ignores a value (filesink's location while its file is open:
        // GLib only warns) keeps the old one: that too is an error, not "set". FilterCam's
        // own elements say why themselves, and may store a value in its canonical form.
        guard readable, fc_element_get_ctx(element) == nil else { return }
        var after = GValue()
        g_value_init(&after, spec.pointee.value_type)
        defer { g_value_unset(&after) }
        g_object_get_property(element.asGObject, name, &after)
        let equal = Int32(GST_VALUE_EQUAL)
        if gst_value_compare(&after, &v) != equal && gst_value_compare(&after, &before) == equal {
            let kept = String(takingGLib: gst_value_serialize(&after)) ?? "?"
            throw ParseError(description: "\(elementName) did not take \(name)=\(value.quotedForMessage) and keeps \(kept.quotedForMessage) "
                             + "(an element may refuse a change while it runs: a file sink's location while its file is open)")
        }
    }

    /// A `name=` given to two elements of `description` (quotes kept together), if any.
    static func repeatedName(in description: String) -> String? {
        var seen: Set<String> = [], word = "", quote: Character?
        var words: [String] = []
        for c in description + " " {
            if let q = quote {
                if c == q { quote = nil } else { word.append(c) }
            } else if c == "\"" || c == "'" {
                quote = c
            } else if c == " " || c == "\t" || c == "\n" || c == "!" {
                if !word.isEmpty { words.append(word) }
                word = ""
            } else {
                word.append(c)
            }
        }
        for w in words where w.hasPrefix("name=") {
            let name = String(w.dropFirst("name=".count))
            if !seen.insert(name).inserted { return name }
        }
        return nil
    }
}

/// Collects GLib-GObject warnings (e.g. "value … is invalid or out of range for property")
/// emitted while `body` runs on this thread.
enum GObjectWarnings {
    struct Warning {
        let message: String
        let property: String?
        let value: String?
        /// A read-only property was set (`showing=x`).
        var readOnly = false
    }

    /// What a capture collects: the thread whose warnings are collected, and them. A
    /// warning another thread raises meanwhile (e.g. a refused property value set by the
    /// application while a snapshot encoder is being built) is not this body's and goes to
    /// GLib's default handler. Read by the log handler on whichever thread warns, so
    /// behind its own lock (`lock` is held by the capturing thread for the whole body).
    private struct Collecting {
        var thread: pthread_t?
        var warnings: [Warning] = []
    }
    private static let collecting = Locked(Collecting())
    /// One capture at a time.
    private static let lock = Locked(())

    static func capture<T>(_ body: () -> T) -> (result: T, messages: [Warning]) {
        lock.withLock { _ in capturing(body) }
    }

    private static func capturing<T>(_ body: () -> T) -> (result: T, messages: [Warning]) {
        collecting.withLock { $0 = Collecting(thread: pthread_self()) }
        let id = g_log_set_handler("GLib-GObject", GLogLevelFlags(rawValue: G_LOG_LEVEL_WARNING.rawValue | G_LOG_LEVEL_CRITICAL.rawValue), { domain, level, message, data in
            let collected = GObjectWarnings.collecting.withLock { c -> Bool in
                guard let thread = c.thread, pthread_equal(thread, pthread_self()) != 0, let message else { return false }
                c.warnings.append(GObjectWarnings.explain(String(cString: message)))
                return true
            }
            if !collected { g_log_default_handler(domain, level, message, data) }
        }, nil)
        let result = body()
        g_log_remove_handler("GLib-GObject", id)
        let warnings = collecting.withLock { c -> [Warning] in
            defer { c = Collecting() }
            return c.warnings
        }
        return (result, warnings)
    }

    /// GObject's wording, e.g. `value "5.000000" of type 'gdouble' is invalid or out of
    /// range for property 'intensity' of type 'gdouble'`, taken apart.
    static func explain(_ message: String) -> Warning {
        // "g_object_new_is_valid_property: property 'showing' of object class
        // 'GstFilterCamSrc' is not writable" (a read-only property set in a description).
        if message.hasSuffix("is not writable"), let start = message.firstRange(of: "property '") {
            let property = message[start.upperBound...].prefix { $0 != "'" }
            return Warning(message: "property '\(property)' is read-only", property: String(property), value: nil, readOnly: true)
        }
        guard message.contains("out of range for property") else { return Warning(message: message, property: nil, value: nil) }
        let quoted = message.split(separator: "'").map(String.init)
        let value = message.split(separator: "\"").dropFirst().first.map(String.init)
        let property = quoted.count >= 4 ? quoted[3] : nil
        return Warning(message: "invalid value \(value ?? "?") for property '\(property ?? "?")': out of its range (see `filtercam inspect`)",
                       property: property, value: value)
    }
}
