import FilterCamHost
import CGStreamer
import CFilterCamShim
import Foundation

/// Element messages as one JSON object per line, for `filtercam launch --messages`:
/// `{"source": ELEMENT, "name": STRUCTURE, …fields…}`; lists become arrays and nested
/// structures objects. A field of the message's own called `source` or `name` is written
/// as `field:source` / `field:name`: one key, one value, and the element's name kept.
public enum MessageJSON {
    static func line(for message: UnsafeMutablePointer<GstMessage>) -> String? {
        guard let structure = gst_message_get_structure(message) else { return nil }
        let source = message.pointee.src.flatMap { String(takingGLib: gst_object_get_name($0)) } ?? "?"
        let envelope = ["source", "name"]
        var fields: [(String, String)] = [("source", quote(source)), ("name", quote(String(cString: gst_structure_get_name(structure))))]
        fields += structureFields(structure).map { (envelope.contains($0.0) ? "field:" + $0.0 : $0.0, $0.1) }
        return "{" + fields.map { "\(quote($0.0)):\($0.1)" }.joined(separator: ",") + "}"
    }

    static func structureFields(_ s: UnsafePointer<GstStructure>) -> [(String, String)] {
        (0..<Int(gst_structure_n_fields(s))).map { i in
            let name = String(cString: gst_structure_nth_field_name(s, guint(i)))
            return (name, json(gst_structure_get_value(s, name)!))
        }
    }

    static func json(_ v: UnsafePointer<GValue>) -> String {
        let type = v.pointee.g_type
        switch g_type_fundamental(type) {
        case fc_type_boolean(): return g_value_get_boolean(v) != 0 ? "true" : "false"
        case fc_type_int(): return String(g_value_get_int(v))
        case fc_type_uint(): return String(g_value_get_uint(v))
        case fc_type_uint64(): return String(g_value_get_uint64(v))
        default: break
        }
        if type == gst_value_list_get_type() {
            return "[" + (0..<gst_value_list_get_size(v)).map { json(gst_value_list_get_value(v, $0)) }.joined(separator: ",") + "]"
        }
        if type == gst_value_array_get_type() {
            return "[" + (0..<gst_value_array_get_size(v)).map { json(gst_value_array_get_value(v, $0)) }.joined(separator: ",") + "]"
        }
        // GValueArray (deprecated in GLib, still in some elements' messages, e.g. `level`),
        // found by name: its type function is deprecated too.
        if type == g_type_from_name("GValueArray"), let boxed = g_value_get_boxed(v) {
            let array = boxed.assumingMemoryBound(to: GValueArray.self)
            return "[" + (0..<Int(array.pointee.n_values)).map { json(array.pointee.values + $0) }.joined(separator: ",") + "]"
        }
        if type == gst_structure_get_type(), let s = gst_value_get_structure(v) {
            return "{" + structureFields(s).map { "\(quote($0.0)):\($0.1)" }.joined(separator: ",") + "}"
        }
        if type == fc_type_double() {
            let d = g_value_get_double(v)
            return d.isFinite ? String(d) : "null"
        }
        // Floats too (`spectrum`'s magnitudes were strings, "-13.35…").
        if type == G_TYPE_FLOAT_VALUE {
            let f = g_value_get_float(v)
            return f.isFinite ? String(Double(f)) : "null"
        }
        if type == G_TYPE_INT64_VALUE { return String(g_value_get_int64(v)) }
        if type == fc_type_string() { return g_value_get_string(v).map { quote(String(cString: $0)) } ?? "null" }
        return String(takingGLib: gst_value_serialize(v)).map(quote) ?? "null"
    }

    private static let G_TYPE_INT64_VALUE: GType = GType(10 << 2)   // G_TYPE_INT64
    private static let G_TYPE_FLOAT_VALUE: GType = GType(14 << 2)   // G_TYPE_FLOAT

    public static func quote(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where u.value < 0x20: out += String(format: "\\u%04x", u.value)
            default: out.unicodeScalars.append(u)
            }
        }
        return out + "\""
    }
}
