import CGStreamer
import CFilterCamShim
import FilterCamHost
import FilterCore

/// A property's valid values on one line, for an error about a value it did not take: a
/// FilterCam element's own words ("one of identity, 90r, …", without the nicks it refuses;
/// "a number from 0 to 2"), another element's enum nicks or type and range as
/// `gst-inspect-1.0` gives them, joined into one line; with a "did you mean" for the value
/// given when it is close to one of an enum's nicks (case included: `90R`).
public enum PropertyChoices {
    public static func describe(_ property: String, of element: UnsafeMutablePointer<GstElement>, given value: String?) -> String? {
        let klass = UnsafeMutableRawPointer(element.pointee.object.object.g_type_instance.g_class).assumingMemoryBound(to: GObjectClass.self)
        guard let spec = g_object_class_find_property(klass, property) else { return nil }
        let words: String, nicks: [String]?
        if let declared = ElementProperty.declared(property, in: element) {
            words = declared.kind.typeDescription
            nicks = declared.choices
        } else {
            nicks = enumNicks(spec)
            words = nicks.map { "one of " + $0.joined(separator: ", ") } ?? plainWords(spec)
                ?? Inspector.typeDescription(spec).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "; ")
        }
        guard let value, let nicks, let guess = closestNick(to: value, among: nicks) else { return words }
        return "\(words) (did you mean \"\(guess)\"?)"
    }

    /// The nick a mistyped value most likely meant: the same letters in another case, else
    /// the closest by edit distance.
    static func closestNick(to value: String, among nicks: [String]) -> String? {
        nicks.first { $0.lowercased() == value.lowercased() && $0 != value }
            ?? NameSuggestion.closest(to: value.lowercased(), among: nicks)
    }

    /// Another element's boolean, number or text property in words ("true or false
    /// (default true)", "an integer from -1 to 2147483647 (default -1)"); nil for other types,
    /// which keep `gst-inspect-1.0`'s description.
    private static func plainWords(_ spec: UnsafeMutablePointer<GParamSpec>) -> String? {
        let raw = UnsafeMutableRawPointer(spec)
        func integers(_ range: (minimum: Any, maximum: Any, default: Any)) -> String {
            "an integer from \(range.minimum) to \(range.maximum) (default \(range.default))"
        }
        switch g_type_fundamental(spec.pointee.value_type) {
        case fc_type_boolean():
            let p = raw.assumingMemoryBound(to: GParamSpecBoolean.self).pointee
            return "true or false (default \(p.default_value != 0))"
        case fc_type_int():
            let p = raw.assumingMemoryBound(to: GParamSpecInt.self).pointee
            return integers((p.minimum, p.maximum, p.default_value))
        case fc_type_uint():
            let p = raw.assumingMemoryBound(to: GParamSpecUInt.self).pointee
            return integers((p.minimum, p.maximum, p.default_value))
        case fc_type_uint64():
            let p = raw.assumingMemoryBound(to: GParamSpecUInt64.self).pointee
            return integers((p.minimum, p.maximum, p.default_value))
        case fc_type_double():
            let p = raw.assumingMemoryBound(to: GParamSpecDouble.self).pointee
            return "a number from \(NumberText.text(p.minimum)) to \(NumberText.text(p.maximum)) (default \(NumberText.text(p.default_value)))"
        default:
            return nil
        }
    }

    private static func enumNicks(_ spec: UnsafeMutablePointer<GParamSpec>) -> [String]? {
        guard g_type_is_a(spec.pointee.value_type, fc_type_enum()) != 0, let enumClass = g_type_class_ref(spec.pointee.value_type) else { return nil }
        defer { g_type_class_unref(enumClass) }
        let values = enumClass.assumingMemoryBound(to: GEnumClass.self).pointee
        return (0..<Int(values.n_values)).map { String(cString: values.values[$0].value_nick) }
    }
}
