import CGStreamer
import CFilterCamShim
import FoundationEssentials

/// Converts one still between formats with GStreamer's own `videoconvert` (off the live
/// path, on the snapshot writer's thread): a YUV still that needs RGB work (a bracket's
/// exposure) is converted exactly as a user's `videoconvert` would convert it.
enum StillConversion {
    /// The converted frame's bytes, tightly packed (`toFormat` must be a 4-byte RGB format).
    static func run(buffer: GstOwned<GstBuffer>, caps: String, toFormat: String) throws -> Data {
        let pipeline: GstOwned<GstElement>
        do {
            pipeline = try GStreamer.launch(
                "appsrc name=src format=time caps=\"\(caps)\" ! videoconvert ! video/x-raw,format=\(toFormat) ! appsink name=sink sync=false")
        } catch {
            throw JPEGWriter.Failure(description: "the still could not be converted to RGB: \(error)")
        }
        defer { gst_element_set_state(pipeline.pointer, GST_STATE_NULL) }
        guard let source = pipeline.child(named: "src"), let sink = pipeline.child(named: "sink") else {
            throw JPEGWriter.Failure(description: "still conversion pipeline incomplete")
        }
        gst_element_set_state(pipeline.pointer, GST_STATE_PLAYING)
        guard gst_app_src_push_buffer(source.asAppSrc, buffer.take()) == GST_FLOW_OK else {
            throw JPEGWriter.Failure(description: "videoconvert refused the still")
        }
        guard let data = JPEGEncoder.pullBytes(from: sink) else {
            throw JPEGWriter.Failure(description: "videoconvert gave no frame for the still within 10 s")
        }
        return data
    }
}
