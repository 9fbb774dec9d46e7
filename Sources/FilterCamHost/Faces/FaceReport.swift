import CGStreamer
import CFilterCamShim
import FilterCore

/// How faces leave the element: a `GstVideoRegionOfInterestMeta` of type "face" per face
/// on the buffer, with a param structure `face, angle=(int)…`, and the `faces` element
/// message
///
///     faces, timestamp=(guint64)…, faces={ (structure)"face\,\ x\=(int)96\,…\ angle\=(int)0\;", … }
///
/// which `filtercam launch --messages` prints as
/// `{"source":"filtercam0","name":"faces","timestamp":…,"faces":[{"x":96,"y":164,"width":218,"height":218,"angle":0}]}`.
/// `angle` is the face's roll in the picture, degrees clockwise (0, 90, 180, 270).
enum FaceReport {
    static let roiType = "face"

    /// Adds one ROI meta per face, with its roll as param `face, angle=…` (the buffer must be writable).
    static func addRegionMetas(_ faces: [DetectedFace], to buffer: UnsafeMutablePointer<GstBuffer>) {
        for f in faces {
            let r = f.rect
            guard let meta = gst_buffer_add_video_region_of_interest_meta(buffer, roiType, guint(max(r.x, 0)), guint(max(r.y, 0)),
                                                                         guint(max(r.width, 0)), guint(max(r.height, 0))) else { continue }
            let param = gst_structure_new_empty(roiType)!
            setInt(param, "angle", f.angle)
            gst_video_region_of_interest_meta_add_param(meta, param)
        }
    }

    /// The `faces` message structure (a new structure, for `fc_post_element_message`).
    static func structure(_ faces: [DetectedFace], timestamp: UInt64?) -> UnsafeMutablePointer<GstStructure> {
        let s = gst_structure_new_empty("faces")!
        if let timestamp { setUInt64(s, "timestamp", timestamp) }
        var list = GValue()
        g_value_init(&list, fc_type_list())
        for f in faces {
            let face = gst_structure_new_empty("face")!
            setInt(face, "x", f.rect.x)
            setInt(face, "y", f.rect.y)
            setInt(face, "width", f.rect.width)
            setInt(face, "height", f.rect.height)
            setInt(face, "angle", f.angle)
            var item = GValue()
            g_value_init(&item, fc_type_structure())
            g_value_take_boxed(&item, face)
            gst_value_list_append_and_take_value(&list, &item)
        }
        gst_structure_take_value(s, "faces", &list)
        return s
    }

    /// Faces read back from a `faces` message structure (tests, applications).
    static func faces(in s: UnsafePointer<GstStructure>) -> [DetectedFace] {
        guard let list = gst_structure_get_value(s, "faces"), list.pointee.g_type == fc_type_list() else { return [] }
        return (0..<gst_value_list_get_size(list)).compactMap { i in
            guard let face = gst_value_get_structure(gst_value_list_get_value(list, i)) else { return nil }
            var x: gint = 0, y: gint = 0, w: gint = 0, h: gint = 0, angle: gint = 0
            guard gst_structure_get_int(face, "x", &x) != 0, gst_structure_get_int(face, "y", &y) != 0,
                  gst_structure_get_int(face, "width", &w) != 0, gst_structure_get_int(face, "height", &h) != 0,
                  gst_structure_get_int(face, "angle", &angle) != 0
            else { return nil }
            return DetectedFace(rect: PixelRect(x: Int(x), y: Int(y), width: Int(w), height: Int(h)), angle: Int(angle))
        }
    }

    /// The "face" ROI metas on a buffer, in the order they were added, with their roll.
    static func regionMetas(on buffer: UnsafeMutablePointer<GstBuffer>) -> [DetectedFace] {
        var out: [DetectedFace] = []
        var state: gpointer? = nil
        let api = gst_video_region_of_interest_meta_api_get_type()
        while let meta = gst_buffer_iterate_meta_filtered(buffer, &state, api) {
            let roi = UnsafeMutableRawPointer(meta).assumingMemoryBound(to: GstVideoRegionOfInterestMeta.self)
            guard g_quark_to_string(roi.pointee.roi_type).map({ String(cString: $0) }) == roiType else { continue }
            var angle: gint = 0
            if let param = gst_video_region_of_interest_meta_get_param(roi, roiType) { _ = gst_structure_get_int(param, "angle", &angle) }
            out.append(DetectedFace(rect: PixelRect(x: Int(roi.pointee.x), y: Int(roi.pointee.y),
                                                    width: Int(roi.pointee.w), height: Int(roi.pointee.h)), angle: Int(angle)))
        }
        return out
    }

    private static func setInt(_ s: UnsafeMutablePointer<GstStructure>, _ field: String, _ value: Int) {
        var v = GValue()
        g_value_init(&v, fc_type_int())
        g_value_set_int(&v, gint(clamping: value))
        gst_structure_take_value(s, field, &v)
    }

    private static func setUInt64(_ s: UnsafeMutablePointer<GstStructure>, _ field: String, _ value: UInt64) {
        var v = GValue()
        g_value_init(&v, fc_type_uint64())
        g_value_set_uint64(&v, guint64(value))
        gst_structure_take_value(s, field, &v)
    }
}
