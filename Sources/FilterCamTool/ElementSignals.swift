import CGStreamer
import CFilterCamShim
import FilterCamHost

/// An element's signals as `gst-inspect-1.0` lists them: those it emits ("Element
/// Signals", a handler gets `user_data` last) and those an application emits to make it
/// act ("Element Actions"), from its own type up to (not including) GstElement; a bin's
/// own signals only for a plain bin.
struct ElementSignals {
    private(set) var emitted: [String] = []
    private(set) var actions: [String] = []

    init(of element: UnsafeMutablePointer<GstElement>) {
        let own = element.pointee.object.object.g_type_instance.g_class.pointee.g_type
        var type = own
        while type != 0 && type != gst_element_get_type() && type != gst_object_get_type() {
            defer { type = g_type_parent(type) }
            if type == gst_bin_get_type() && own != gst_bin_get_type() { continue }
            var count: guint = 0
            for id in Array(takingGLib: g_signal_list_ids(type, &count), count: Int(count)) {
                var query = GSignalQuery()
                g_signal_query(id, &query)
                let isAction = query.signal_flags.rawValue & G_SIGNAL_ACTION.rawValue != 0
                let line = Self.signature(query, handler: !isAction)
                if isAction { actions.append(line) } else { emitted.append(line) }
            }
        }
    }

    /// `  "name" :  RETURN user_function (GstElement* object,` then a parameter a line,
    /// lined up under the first, as gst-inspect-1.0 prints them.
    private static func signature(_ query: GSignalQuery, handler: Bool) -> String {
        let head = "  \"\(String(cString: query.signal_name))\" :  \(typeName(query.return_type)) user_function ("
        let indent = String(repeating: " ", count: head.count)
        var parameters = ["GstElement* object"]
        for i in 0..<Int(query.n_params) { parameters.append("\(typeName(query.param_types[i])) arg\(i)") }
        if handler { parameters.append("gpointer user_data") }
        return head + parameters.joined(separator: ",\n" + indent) + ");\n"
    }

    /// A type's name, with `*` for what travels by pointer (objects, boxed types).
    private static func typeName(_ type: GType) -> String {
        let plain = type & ~GType(1)   // G_SIGNAL_TYPE_STATIC_SCOPE
        let name = String(cString: g_type_name(plain))
        let byValue = fc_type_is_fundamental(plain) != 0 || g_type_fundamental(plain) == fc_type_enum() || g_type_fundamental(plain) == fc_type_flags()
        return byValue ? name : name + "*"
    }
}
