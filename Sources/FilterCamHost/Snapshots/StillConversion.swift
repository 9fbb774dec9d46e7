import CGStreamer
import CFilterCamShim
import Foundation

/// Converts one still between formats with GStreamer's own `videoconvert` (off the live
/// path, on the snapshot writer's thread): a YUV still that needs RGB work (a bracket's
/// exposure) is converted exactly as a user's `videoconvert` would convert it.
enum StillConversion {
    /// The converted frame's bytes, tightly packed (`toFormat` must be a 4-byte RGB format).
    static func run(buffer: UnsafeMutablePointer<GstBuffer>, caps: String, toFormat: String) throws -> Data {
        var error: UnsafeMutablePointer<GError>?
        let parsed = gst_parse_launch_full(
            "appsrc name=src format=time caps=\"\(caps)\" ! videoconvert ! video/x-raw,format=\(toFormat) ! appsink name=sink sync=false",
            nil, GST_PARSE_FLAG_FATAL_ERRORS, &error)
        if let error {
            let message = String(cString: error.pointee.message)
            g_error_free(error)
            if let parsed { gst_object_unref(UnsafeMutableRawPointer(parsed)) }
            gst_buffer_unref(buffer)
            throw JPEGWriter.Failure(description: "the still could not be converted to RGB: \(message)")
        }
        guard let pipeline = parsed else {
            gst_buffer_unref(buffer)
            throw JPEGWriter.Failure(description: "the still could not be converted to RGB")
        }
        gst_object_ref_sink(UnsafeMutableRawPointer(pipeline))
        defer {
            gst_element_set_state(pipeline, GST_STATE_NULL)
            gst_object_unref(UnsafeMutableRawPointer(pipeline))
        }
        guard let source = gst_bin_get_by_name(pipeline.asBin, "src"), let sink = gst_bin_get_by_name(pipeline.asBin, "sink") else {
            gst_buffer_unref(buffer)
            throw JPEGWriter.Failure(description: "still conversion pipeline incomplete")
        }
        defer {
            gst_object_unref(UnsafeMutableRawPointer(source))
            gst_object_unref(UnsafeMutableRawPointer(sink))
        }
        gst_element_set_state(pipeline, GST_STATE_PLAYING)
        guard gst_app_src_push_buffer(source.asAppSrc, buffer) == GST_FLOW_OK else {
            throw JPEGWriter.Failure(description: "videoconvert refused the still")
        }
        guard let data = JPEGEncoder.pullBytes(from: sink) else {
            throw JPEGWriter.Failure(description: "videoconvert gave no frame for the still within 10 s")
        }
        return data
    }
}
