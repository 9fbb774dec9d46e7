import CGStreamer
import CFilterCamShim

/// A GError as a Swift value, read once and freed here: every GError GStreamer hands over
/// (a bus ERROR or WARNING, a description that does not parse) is read through it.
package struct GStreamerError: Error, CustomStringConvertible {
    package let message: String
    package let domain: GQuark
    package let code: Int32
    package var description: String { message }

    /// An error GStreamer did not describe (a call failed without a GError).
    package init(message: String) {
        self.message = message
        domain = 0
        code = 0
    }

    /// Reads and frees `error`.
    package init(taking error: UnsafeMutablePointer<GError>) {
        message = String(cString: error.pointee.message)
        domain = error.pointee.domain
        code = error.pointee.code
        g_error_free(error)
    }
}

/// An ERROR or WARNING message, read once: which it is, its error and its debug detail.
package struct BusProblem {
    package let isError: Bool
    package let error: GStreamerError?
    /// The debug detail (where in the C source, and the element's own words).
    package let detail: String?

    /// Nil for any other kind of message.
    package init?(_ message: UnsafeMutablePointer<GstMessage>) {
        let type = message.pointee.type
        guard type == GST_MESSAGE_ERROR || type == GST_MESSAGE_WARNING else { return nil }
        isError = type == GST_MESSAGE_ERROR
        var error: UnsafeMutablePointer<GError>?
        var debug: UnsafeMutablePointer<gchar>?
        if isError { gst_message_parse_error(message, &error, &debug) } else { gst_message_parse_warning(message, &error, &debug) }
        self.error = error.map(GStreamerError.init(taking:))
        detail = String(takingGLib: debug)
    }

    /// The error's message, or `fallback` when the message carried none.
    package func text(or fallback: String) -> String { error?.message ?? fallback }
}
