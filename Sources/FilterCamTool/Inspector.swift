import CGStreamer
import CFilterCamShim
import FilterCamHost
import FilterCore
import Foundation

/// `filtercam inspect`: an element's description in the manner of `gst-inspect-1.0`.
public enum Inspector {
    public struct NotFound: Error, CustomStringConvertible {
        public let description: String
    }

    /// FilterCam's own element factory names.
    public static var filterCamElementNames: [String] {
        GStreamer.initialize()
        return FilterCamPlugin.elementClasses.map(\.factoryName)
    }

    public static func describe(factory name: String) throws -> String {
        GStreamer.initialize()
        guard let ownedFactory = GstOwned(opaque: gst_element_factory_find(name)) else {
            // ELEMENT.PROPERTY, as in a live `set`: the element's page lists the property.
            let parts = name.split(separator: ".", maxSplits: 1).map(String.init)
            if parts.count == 2, let element = gst_element_factory_make(parts[0], nil).map(GstOwned.init(sinking:)) {
                let has = Pipeline.property(element.pointer, parts[1]) != nil
                throw NotFound(description: "\(name.quotedForMessage) names a property, and inspect takes an element: filtercam inspect \(parts[0]) "
                               + (has ? "lists it among its properties" : "lists its properties (it has none called \(parts[1].quotedForMessage))"))
            }
            // A near miss of one of FilterCam's names first, else of any installed element's.
            var hint = NameSuggestion.hint(for: name, among: filterCamElementNames)
            if hint.isEmpty {
                let installed = GstOwned<GstObject>.list(taking: gst_registry_get_feature_list(gst_registry_get(), gst_element_factory_get_type()))
                hint = NameSuggestion.hint(for: name, among: installed.compactMap { String(takingGLib: gst_object_get_name($0.pointer)) })
            }
            throw NotFound(description: "no element \(name.quotedForMessage)\(hint); FilterCam's elements: \(filterCamElementNames.joined(separator: ", ")) (other GStreamer elements: gst-inspect-1.0)")
        }
        let factory = OpaquePointer(ownedFactory.pointer)
        guard let ownedElement = gst_element_factory_create(factory, nil).map(GstOwned.init(sinking:)) else {
            throw NotFound(description: "element '\(name)' could not be created")
        }
        let element = ownedElement.pointer
        var out = "Factory Details:\n"
        for key in ["long-name", "klass", "description", "author"] {
            let value = String(optionalCString: gst_element_factory_get_metadata(factory, key)) ?? ""
            out += "  \(key.padding(toLength: 16, withPad: " ", startingAt: 0))\(value)\n"
        }
        out += "\nPad Templates:\n"
        let templates = gst_element_factory_get_static_pad_templates(factory)
        var node = UnsafeMutablePointer(mutating: templates)
        while let n = node {
            let t = n.pointee.data.assumingMemoryBound(to: GstStaticPadTemplate.self)
            let direction = t.pointee.direction == GST_PAD_SINK ? "SINK" : "SRC"
            out += "  \(direction) template: '\(String(cString: t.pointee.name_template))'\n"
            let availability = t.pointee.presence == GST_PAD_REQUEST ? "On request" : t.pointee.presence == GST_PAD_SOMETIMES ? "Sometimes" : "Always"
            out += "    Availability: \(availability)\n"
            out += "    Capabilities:\n      \(String(cString: t.pointee.static_caps.string))\n"
            node = n.pointee.next
        }
        out += "\nElement Properties:\n"
        let klass = UnsafeMutableRawPointer(element.pointee.object.object.g_type_instance.g_class).assumingMemoryBound(to: GObjectClass.self)
        var count: guint = 0
        let specs = Array(takingGLib: g_object_class_list_properties(klass, &count), count: Int(count))
        for spec in specs.compactMap({ $0 }) { out += describe(property: spec, of: element) }
        let signals = ElementSignals(of: element)
        if !signals.emitted.isEmpty {
            out += "\nElement Signals:\n" + signals.emitted.joined()
        }
        if !signals.actions.isEmpty {
            out += "\nElement Actions:\n" + signals.actions.joined()
        }
        return out
    }

    static func describe(property spec: UnsafeMutablePointer<GParamSpec>, of element: UnsafeMutablePointer<GstElement>) -> String {
        let name = String(cString: spec.pointee.name)
        let blurb = String(optionalCString: g_param_spec_get_blurb(spec)) ?? ""
        let flags = spec.pointee.flags.rawValue
        var flagWords: [String] = []
        if flags & G_PARAM_READABLE.rawValue != 0 { flagWords.append("readable") }
        if flags & G_PARAM_WRITABLE.rawValue != 0 { flagWords.append("writable") }
        // As gst-inspect-1.0: a property without GStreamer's mutability flags gets no words
        // (this said "changeable only in NULL or READY state" of every such one, `name` too).
        if flags & G_PARAM_DEPRECATED.rawValue != 0 { flagWords.append("deprecated") }
        if fc_param_is_controllable(spec) != 0 { flagWords.append("controllable") }
        if let words = fc_param_mutability(spec) { flagWords.append(String(cString: words)) }
        var out = "  \(name.padding(toLength: max(22, name.count + 1), withPad: " ", startingAt: 0)): \(blurb)\n"
        out += "                        flags: \(flagWords.joined(separator: ", "))\n"
        // As gst-inspect-1.0, the default is what a new element has (a subclass may change
        // it: a GstBaseTransform's `qos` is declared false and made true).
        var current = GValue()
        if flags & G_PARAM_READABLE.rawValue != 0 {
            g_value_init(&current, spec.pointee.value_type)
            g_object_get_property(UnsafeMutableRawPointer(element).assumingMemoryBound(to: GObject.self), spec.pointee.name, &current)
        }
        defer { if current.g_type != 0 { g_value_unset(&current) } }
        let description = current.g_type != 0 ? withUnsafePointer(to: &current) { typeDescription(spec, value: $0) } : typeDescription(spec)
        out += "                        \(description)\n"
        return out
    }

    /// Type, range or enum values, and default of a property, as gst-inspect-1.0 prints them
    /// (`value`: a new element's, in place of the declared default).
    public static func typeDescription(_ spec: UnsafeMutablePointer<GParamSpec>, value: UnsafePointer<GValue>? = nil) -> String {
        let type = spec.pointee.value_type
        let typeName = String(cString: g_type_name(type))
        let defaultValue = value ?? g_param_spec_get_default_value(spec)!
        let fundamental = g_type_fundamental(type)
        func serialized(_ v: UnsafePointer<GValue>) -> String {
            if g_type_fundamental(v.pointee.g_type) == fc_type_string() {
                return String(optionalCString: g_value_get_string(v)).map { "\"\($0)\"" } ?? "null"   // as gst-inspect-1.0
            }
            return String(takingGLib: gst_value_serialize(v)) ?? "?"
        }
        switch fundamental {
        case fc_type_double():
            let p = UnsafeMutableRawPointer(spec).assumingMemoryBound(to: GParamSpecDouble.self)
            return "Double. Range: \(p.pointee.minimum) - \(p.pointee.maximum) Default: \(g_value_get_double(defaultValue))"
        case fc_type_int():
            let p = UnsafeMutableRawPointer(spec).assumingMemoryBound(to: GParamSpecInt.self)
            return "Integer. Range: \(p.pointee.minimum) - \(p.pointee.maximum) Default: \(g_value_get_int(defaultValue))"
        case fc_type_uint():
            let p = UnsafeMutableRawPointer(spec).assumingMemoryBound(to: GParamSpecUInt.self)
            return "Unsigned Integer. Range: \(p.pointee.minimum) - \(p.pointee.maximum) Default: \(g_value_get_uint(defaultValue))"
        case fc_type_float():
            let p = UnsafeMutableRawPointer(spec).assumingMemoryBound(to: GParamSpecFloat.self)
            return "Float. Range: \(p.pointee.minimum) - \(p.pointee.maximum) Default: \(g_value_get_float(defaultValue))"
        case fc_type_int64():
            let p = UnsafeMutableRawPointer(spec).assumingMemoryBound(to: GParamSpecInt64.self)
            return "Integer64. Range: \(p.pointee.minimum) - \(p.pointee.maximum) Default: \(g_value_get_int64(defaultValue))"
        case fc_type_long():
            let p = UnsafeMutableRawPointer(spec).assumingMemoryBound(to: GParamSpecLong.self)
            return "Long. Range: \(p.pointee.minimum) - \(p.pointee.maximum) Default: \(g_value_get_long(defaultValue))"
        case fc_type_ulong():
            let p = UnsafeMutableRawPointer(spec).assumingMemoryBound(to: GParamSpecULong.self)
            return "Unsigned Long. Range: \(p.pointee.minimum) - \(p.pointee.maximum) Default: \(g_value_get_ulong(defaultValue))"
        case fc_type_object():
            return "Object of type \"\(typeName)\""
        case fc_type_pointer():
            return "Pointer."
        case fc_type_boxed() where g_value_get_boxed(defaultValue) == nil:
            // Nothing to print (gst_value_serialize of an empty sample or structure warned
            // on the terminal): as gst-inspect-1.0.
            return type == fc_type_caps() ? "Caps (NULL)" : "Boxed pointer of type \"\(typeName)\""
        case fc_type_uint64():
            let p = UnsafeMutableRawPointer(spec).assumingMemoryBound(to: GParamSpecUInt64.self)
            return "Unsigned Integer64. Range: \(p.pointee.minimum) - \(p.pointee.maximum) Default: \(g_value_get_uint64(defaultValue))"
        case fc_type_boolean():
            return "Boolean. Default: \(g_value_get_boolean(defaultValue) != 0 ? "true" : "false")"
        case fc_type_string():
            return "String. Default: \(serialized(defaultValue))"
        case fc_type_enum():
            let p = UnsafeMutableRawPointer(spec).assumingMemoryBound(to: GParamSpecEnum.self)
            let enumClass = p.pointee.enum_class!
            let shown = g_value_get_enum(defaultValue)
            let nick = g_enum_get_value(enumClass, shown).map { String(cString: $0.pointee.value_nick) } ?? "?"
            var out = "Enum \"\(typeName)\" Default: \(shown), \"\(nick)\""
            for i in 0..<Int(enumClass.pointee.n_values) {
                let v = enumClass.pointee.values[i]
                out += "\n                           (\(v.value)): \(String(cString: v.value_nick).paddedTo(22)) - \(String(cString: v.value_name))"
            }
            return out
        case fc_type_flags():
            // As gst-inspect-1.0: the default in hex and by name, then every flag.
            let p = UnsafeMutableRawPointer(spec).assumingMemoryBound(to: GParamSpecFlags.self)
            let flagsClass = p.pointee.flags_class!
            let shown = g_value_get_flags(defaultValue)
            let hex = String(shown, radix: 16)
            var out = "Flags \"\(typeName)\" Default: 0x\(String(repeating: "0", count: max(0, 8 - hex.count)) + hex), \"\(PropertyChoices.flagsText(shown, flagsClass))\""
            for i in 0..<Int(flagsClass.pointee.n_values) {
                let v = flagsClass.pointee.values[i]
                let valueHex = String(v.value, radix: 16)
                out += "\n                           (0x\(String(repeating: "0", count: max(0, 8 - valueHex.count)) + valueHex)): \(String(cString: v.value_nick).paddedTo(16)) - \(String(cString: v.value_name))"
            }
            return out
        default:
            return "\(typeName). Default: \(serialized(defaultValue))"
        }
    }
}


private extension String {
    /// Padded with spaces to `width`, never cut (a nick longer than the column stays whole,
    /// so it can be typed back; `padding(toLength:)` cuts).
    func paddedTo(_ width: Int) -> String {
        count >= width ? self : padding(toLength: width, withPad: " ", startingAt: 0)
    }
}
