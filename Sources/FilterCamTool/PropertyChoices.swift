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
            if let flags = flagNicks(spec) {
                // Flags: names joined with +, each read on its own.
                var words = "any of " + flags.nicks.joined(separator: ", ") + ", joined with + (default \(flags.defaultText == "(none)" ? "none" : flags.defaultText))"
                if let value {
                    let parts = value.split(separator: "+", omittingEmptySubsequences: false).map { String($0).trimmingSpaces }
                    let guessed = parts.map { part in flags.nicks.contains(part) ? part : closestNick(to: part, among: flags.nicks) }
                    if guessed != parts, !guessed.contains(nil) { words += " (did you mean \"\(guessed.map { $0! }.joined(separator: "+"))\"?)" }
                }
                return words
            }
            nicks = enumNicks(spec)
            words = nicks.map { "one of " + $0.joined(separator: ", ") } ?? plainWords(spec)
                ?? Inspector.typeDescription(spec).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "; ")
        }
        guard let value, let nicks, let guess = closestNick(to: value, among: nicks) else { return words }
        return "\(words) (did you mean \"\(guess)\"?)"
    }

    /// A flags property's nicks and its default in words ("(none)" when no flag is set).
    private static func flagNicks(_ spec: UnsafeMutablePointer<GParamSpec>) -> (nicks: [String], defaultText: String)? {
        guard g_type_is_a(spec.pointee.value_type, fc_type_flags()) != 0 else { return nil }
        let p = UnsafeMutableRawPointer(spec).assumingMemoryBound(to: GParamSpecFlags.self)
        guard let flagsClass = p.pointee.flags_class else { return nil }
        let nicks = (0..<Int(flagsClass.pointee.n_values)).map { String(cString: flagsClass.pointee.values[$0].value_nick) }
        return (nicks, flagsText(p.pointee.default_value, flagsClass))
    }

    /// `value`'s flags by nick, joined with + as GStreamer reads them; "(none)" for none.
    static func flagsText(_ value: guint, _ flagsClass: UnsafeMutablePointer<GFlagsClass>) -> String {
        let set = (0..<Int(flagsClass.pointee.n_values)).map { flagsClass.pointee.values[$0] }
            .filter { $0.value != 0 && value & $0.value == $0.value }
        return set.isEmpty ? "(none)" : set.map { String(cString: $0.value_nick) }.joined(separator: "+")
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
