import CGStreamer
import CFilterCamShim
import FilterCore

/// Small, safe wrappers over the GStreamer calls the host makes everywhere.
public enum GStreamer {
    /// Initialises GStreamer once and registers FilterCam's elements statically, unless
    /// they came from a loadable plugin in this process: registered again, every element's
    /// factory would be replaced, and the classes made before hold the freed ones
    /// (`gst_element_get_factory` crashed PyGObject on the first element a program made).
    public static func initialize() {
        _ = initialized
    }

    private static let initialized: Bool = {
        guard gst_is_initialized() == 0 else {
            // A host started GStreamer (this is the loadable plugin, or a program that
            // initialised it first): its registry is its own business.
            if !FilterCamPlugin.loadedFromFile { FilterCamPlugin.registerStatic() }
            return true
        }
        // A program with the elements built in (`filtercam`): its element types are made
        // before the registry is brought up to date. A scan inside this process
        // (GST_REGISTRY_FORK=no) loads an updated libgstfiltercam.so, whose own copy of this
        // code made the types first: the program's commands then found no filtercam element
        // of theirs ("are fc<id> filters"). Made first, the plugin's registration takes
        // these types (fc_element_register keeps a type that exists). Without a registry
        // file gst_init scans regardless.
        let update = getenv("GST_REGISTRY_UPDATE").map { String(cString: $0) }
        setenv("GST_REGISTRY_UPDATE", "no", 1)
        gst_init(nil, nil)
        if let update { setenv("GST_REGISTRY_UPDATE", update, 1) } else { unsetenv("GST_REGISTRY_UPDATE") }
        if !FilterCamPlugin.loadedFromFile { FilterCamPlugin.registerStatic() }
        if update != "no" { _ = gst_update_registry() }
        return true
    }()

    /// Whether an element factory of that name is registered (ours included).
    package static func hasElement(named name: String) -> Bool {
        initialize()
        return GstOwned(opaque: gst_element_factory_find(name)) != nil
    }

    /// A pipeline from FilterCam's own description (no user input: a failure means a
    /// missing plugin), owned.
    static func launch(_ description: String) throws(GStreamerError) -> GstOwned<GstElement> {
        var error: UnsafeMutablePointer<GError>?
        let parsed = gst_parse_launch_full(description, nil, GST_PARSE_FLAG_FATAL_ERRORS, &error).map(GstOwned.init(sinking:))
        if let error { throw GStreamerError(taking: error) }
        guard let parsed else { throw GStreamerError(message: "the description gave no pipeline") }
        return parsed
    }

    /// A static pad of `element`, borrowed: the element keeps its static pads while it lives.
    static func staticPad(_ element: UnsafeMutablePointer<GstElement>, _ name: String) -> UnsafeMutablePointer<GstPad>? {
        GstOwned(gst_element_get_static_pad(element, name))?.pointer
    }

    /// Makes an element from a factory, or nil when the factory is missing.
    static func make(_ factory: String, name: String? = nil) -> UnsafeMutablePointer<GstElement>? {
        gst_element_factory_make(factory, name)
    }

    /// Links each element to the next, as gst_element_link_many (variadic, which Swift
    /// cannot call) does.
    static func link(_ elements: [UnsafeMutablePointer<GstElement>]) {
        for (a, b) in zip(elements, elements.dropFirst()) { _ = gst_element_link(a, b) }
    }

    /// Reads a property as text (`gst_value_serialize`; an enum as its nick), or nil when there is none.
    package static func property(_ element: UnsafeMutablePointer<GstElement>, _ name: String) -> String? {
        guard let spec = g_object_class_find_property(UnsafeMutableRawPointer(element.pointee.object.object.g_type_instance.g_class).assumingMemoryBound(to: GObjectClass.self), name) else { return nil }
        var value = GValue()
        g_value_init(&value, spec.pointee.value_type)
        g_object_get_property(element.asGObject, name, &value)
        defer { g_value_unset(&value) }
        if spec.pointee.value_type == fc_type_string() {
            return String(optionalCString: g_value_get_string(&value)) ?? ""
        }
        // As a person writes it: GStreamer serializes doubles with 17 digits (0.3 reads
        // 0.29999999999999999).
        if spec.pointee.value_type == fc_type_double() { return NumberText.text(g_value_get_double(&value)) }
        return String(takingGLib: gst_value_serialize(&value))
    }

    /// Sets any property from its string form (enum nick, number, boolean, caps).
    static func set(_ object: UnsafeMutableRawPointer, _ property: String, _ value: String) {
        gst_util_set_object_arg(object.assumingMemoryBound(to: GObject.self), property, value)
    }

    /// The factory name of an element (`filtercam`, `videotestsrc`).
    package static func factoryName(of element: UnsafeMutablePointer<GstElement>) -> String? {
        guard let factory = gst_element_get_factory(element) else { return nil }
        return String(takingGLib: gst_object_get_name(UnsafeMutableRawPointer(factory).assumingMemoryBound(to: GstObject.self)))
    }

    /// The element's name (`filtercam0`).
    package static func name(of element: UnsafeMutablePointer<GstElement>) -> String {
        String(takingGLib: gst_object_get_name(element.asObject)) ?? "?"
    }
}

extension UnsafeMutablePointer where Pointee == GstElement {
    package var asObject: UnsafeMutablePointer<GstObject> { UnsafeMutableRawPointer(self).assumingMemoryBound(to: GstObject.self) }
    package var asGObject: UnsafeMutablePointer<GObject> { UnsafeMutableRawPointer(self).assumingMemoryBound(to: GObject.self) }
    package var asBin: UnsafeMutablePointer<GstBin> { UnsafeMutableRawPointer(self).assumingMemoryBound(to: GstBin.self) }
    package var asAppSink: UnsafeMutablePointer<GstAppSink> { UnsafeMutableRawPointer(self).assumingMemoryBound(to: GstAppSink.self) }
    package var asAppSrc: UnsafeMutablePointer<GstAppSrc> { UnsafeMutableRawPointer(self).assumingMemoryBound(to: GstAppSrc.self) }

    /// Whether the element runs (PAUSED or PLAYING), as it stands now (no wait).
    var isRunning: Bool {
        var state = GST_STATE_NULL, next = GST_STATE_NULL
        gst_element_get_state(self, &state, &next, 0)
        return state.rawValue >= GST_STATE_PAUSED.rawValue
    }
}

/// Reads a GValue of the common fundamental types as Swift values.
enum GValueReader {
    static func string(_ v: UnsafePointer<GValue>) -> String? {
        guard let c = g_value_get_string(v) else { return nil }
        return String(cString: c)
    }
}

extension String {
    /// `String(cString:)` for optional C strings.
    package init?(optionalCString p: UnsafePointer<gchar>?) {
        guard let p else { return nil }
        self.init(cString: p)
    }

}

extension GStreamer {
    /// What an iterator hands out (a bin's children, an element's pads), borrowed: their
    /// owner keeps them. The iterator and its values are freed here.
    package static func objects<Object>(of iterator: UnsafeMutablePointer<GstIterator>?, as: Object.Type) -> [UnsafeMutablePointer<Object>] {
        guard let iterator else { return [] }
        var objects: [UnsafeMutablePointer<Object>] = []
        var value = GValue()
        while gst_iterator_next(iterator, &value) == GST_ITERATOR_OK {
            if let object = g_value_get_object(&value) { objects.append(object.assumingMemoryBound(to: Object.self)) }
            g_value_reset(&value)
        }
        g_value_unset(&value)
        gst_iterator_free(iterator)
        return objects
    }

    /// Caps as text (gst_caps_to_string's copy is freed here).
    static func describe(_ caps: UnsafeMutablePointer<GstCaps>) -> String {
        String(takingGLib: gst_caps_to_string(caps)) ?? "?"
    }
}

extension GStreamer {
    /// The GStreamer library in use, e.g. "1.22.0".
    public static var versionString: String {
        var major: guint = 0, minor: guint = 0, micro: guint = 0, nano: guint = 0
        gst_version(&major, &minor, &micro, &nano)
        return "\(major).\(minor).\(micro)"
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces, tabs and line ends.
    package var trimmingSpaces: String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" || f == "\r" || f == "\n" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" || l == "\r" || l == "\n" { s = s.dropLast() }
        return String(s)
    }
}
