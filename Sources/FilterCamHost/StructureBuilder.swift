import CGStreamer
import CFilterCamShim

/// Builds a GstStructure field by field (gst_structure_new and _set are variadic, which
/// Swift cannot call), e.g. for element messages.
struct StructureBuilder {
    let structure: UnsafeMutablePointer<GstStructure>

    init(_ name: String) {
        structure = gst_structure_new_empty(name)
    }

    func set(_ field: String, _ value: String) {
        var v = GValue()
        g_value_init(&v, fc_type_string())
        g_value_set_string(&v, value)
        gst_structure_take_value(structure, field, &v)
    }

    func set(_ field: String, _ value: Int) {
        var v = GValue()
        g_value_init(&v, fc_type_int())
        g_value_set_int(&v, Int32(clamping: value))
        gst_structure_take_value(structure, field, &v)
    }

    func set(_ field: String, _ value: Bool) {
        var v = GValue()
        g_value_init(&v, fc_type_boolean())
        g_value_set_boolean(&v, value ? 1 : 0)
        gst_structure_take_value(structure, field, &v)
    }

    func set(_ field: String, uint64 value: UInt64) {
        var v = GValue()
        g_value_init(&v, fc_type_uint64())
        g_value_set_uint64(&v, guint64(value))
        gst_structure_take_value(structure, field, &v)
    }

    func set(_ field: String, _ value: Double) {
        var v = GValue()
        g_value_init(&v, fc_type_double())
        g_value_set_double(&v, value)
        gst_structure_take_value(structure, field, &v)
    }

    /// A list field (GstValueList) of structures.
    func set(_ field: String, structures: [StructureBuilder]) {
        var list = GValue()
        g_value_init(&list, gst_value_list_get_type())
        for s in structures {
            var item = GValue()
            g_value_init(&item, gst_structure_get_type())
            g_value_take_boxed(&item, s.structure)
            gst_value_list_append_and_take_value(&list, &item)
        }
        gst_structure_take_value(structure, field, &list)
    }

    /// Posts the structure as an element message from `element` (takes it).
    func post(from element: UnsafeMutablePointer<GstElement>) {
        _ = fc_post_element_message(element, structure)
    }

    /// The builder after `body` has set its fields.
    func with(_ body: (StructureBuilder) -> Void) -> StructureBuilder {
        body(self)
        return self
    }
}
