import CGStreamer
import CFilterCamShim
import FilterCore
import Synchronization

/// Errors worded for the user: inner errors re-posted by the element, and formats or
/// caps the element cannot process.
extension FrameWorker {
    /// The accepted formats, for messages.
    private var formatNames: String { formats.joined(separator: ", ") }

    /// The inner appsink's EOS is ours, not the pipeline's.
    /// An ERROR or WARNING from the inner appsink/appsrc is re-posted by the element itself,
    /// so the user reads "filtercam0", not "filtercam0-out". (Other inner messages are
    /// dropped by the shell.)
    func filterMessage(_ message: UnsafeMutablePointer<GstMessage>) -> Bool {
        let source = UnsafeMutableRawPointer(message.pointee.src)
        let inner = source == UnsafeMutableRawPointer(appsink) || source == UnsafeMutableRawPointer(appsrc)
        guard inner else { return false }
        switch message.pointee.type {
        case GST_MESSAGE_EOS:
            return source == UnsafeMutableRawPointer(appsink)
        case GST_MESSAGE_ERROR, GST_MESSAGE_WARNING:
            var error: UnsafeMutablePointer<GError>?
            var debug: UnsafeMutablePointer<gchar>?
            let isError = message.pointee.type == GST_MESSAGE_ERROR
            if isError { gst_message_parse_error(message, &error, &debug) } else { gst_message_parse_warning(message, &error, &debug) }
            let text = error.map { String(cString: $0.pointee.message) } ?? "internal error"
            let detail = debug.map { String(cString: $0) }
            if let error { g_error_free(error) }
            g_free(debug)
            let name = GStreamer.name(of: element)
            // A frame format nobody negotiated is the usual cause: say what to do.
            let hint = text.contains("not-negotiated") || (detail ?? "").contains("not-negotiated")
                ? " (the frames' format or size could not be agreed downstream; put videoconvert ! videoscale after \(name))" : ""
            let report = "\(name): \(text)\(hint)"
            if isError { fc_post_error(element, report, detail) } else { fc_post_warning(element, report, detail) }
            return true
        default:
            return false
        }
    }

    /// Reads the input format when the caps change; reports caps we cannot use.
    func adopt(caps: UnsafeMutablePointer<GstCaps>, stream: inout StreamState) -> Bool {
        let (usable, changed) = stream.adopt(caps)
        if !usable && changed {
            fc_post_error(element, "\(GStreamer.name(of: element)) cannot process frames in caps \(GStreamer.describe(caps)); it takes progressive raw video in \(formatNames) (put deinterlace or videoconvert in front)", nil)
        }
        return usable
    }

    /// When every structure of `caps` is system-memory raw video in formats we do not
    /// take, the first of those formats (upstream can offer nothing we take).
    static func onlyUnsupportedFormat(_ caps: UnsafeMutablePointer<GstCaps>, accepted: [String] = FrameFormat.allNames) -> String? {
        let n = gst_caps_get_size(caps)
        guard n > 0, gst_caps_is_any(caps) == 0 else { return nil }
        var first: String?
        for i in 0..<n {
            guard let structure = gst_caps_get_structure(caps, i),
                  String(cString: gst_structure_get_name(structure)) == "video/x-raw" else { return nil }
            if let features = gst_caps_get_features(caps, i), gst_caps_features_is_any(features) != 0 ||
                (gst_caps_features_get_size(features) > 0 && gst_caps_features_contains(features, "memory:SystemMemory") == 0) {
                return nil
            }
            guard let format = gst_structure_get_string(structure, "format").map({ String(cString: $0) }) else { return nil }
            if accepted.contains(format) { return nil }
            first = first ?? format
        }
        return first
    }

    /// Posts (once per stream) the error that names the format and the remedy.
    func refuseFormat(_ format: String) {
        guard !refusedFormat.exchange(true, ordering: .relaxed) else { return }
        let text = "\(GStreamer.name(of: element)) cannot process \(format) frames; accepted formats: \(formatNames) (put videoconvert in front)"
        log.error(element, text)
        fc_post_error(element, text, nil)
    }
}
