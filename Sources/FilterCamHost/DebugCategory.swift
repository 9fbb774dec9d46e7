import CGStreamer

/// A GStreamer debug category (`GST_DEBUG=filtercam:5`): one per element kind, so a user
/// can see negotiation, drops, latency and property changes like any stock element's.
struct DebugCategory: Sendable {
    private let categoryPointer: GstPointer<GstDebugCategory>   // GStreamer's debug log is MT-safe
    var category: UnsafeMutablePointer<GstDebugCategory> { categoryPointer.pointer }

    init(_ name: String, _ description: String) {
        GStreamer.initialize()
        categoryPointer = GstPointer(_gst_debug_category_new(name, 0, description))
    }

    static let filtercam = DebugCategory("filtercam", "FilterCam camera filter")
    static let filtercamsrc = DebugCategory("filtercamsrc", "FilterCam camera source")
    static let singleFilter = DebugCategory("fc", "FilterCam single-filter elements (fc<id>)")

    /// The message is only built when the category's threshold lets it through.
    func log(_ level: GstDebugLevel, _ object: UnsafeMutableRawPointer?, _ message: () -> String,
             file: String, function: String, line: Int) {
        guard gst_debug_category_get_threshold(category).rawValue >= level.rawValue else { return }
        gst_debug_log_literal(category, level, file, function, Int32(line),
                              object?.assumingMemoryBound(to: GObject.self), message())
    }
}

extension DebugCategory {
    func error(_ element: UnsafeMutablePointer<GstElement>, _ message: @autoclosure () -> String,
               file: String = #fileID, function: String = #function, line: Int = #line) {
        log(GST_LEVEL_ERROR, UnsafeMutableRawPointer(element), message, file: file, function: function, line: line)
    }
    func warning(_ element: UnsafeMutablePointer<GstElement>, _ message: @autoclosure () -> String,
                 file: String = #fileID, function: String = #function, line: Int = #line) {
        log(GST_LEVEL_WARNING, UnsafeMutableRawPointer(element), message, file: file, function: function, line: line)
    }
    func info(_ element: UnsafeMutablePointer<GstElement>, _ message: @autoclosure () -> String,
              file: String = #fileID, function: String = #function, line: Int = #line) {
        log(GST_LEVEL_INFO, UnsafeMutableRawPointer(element), message, file: file, function: function, line: line)
    }
    func debug(_ element: UnsafeMutablePointer<GstElement>, _ message: @autoclosure () -> String,
               file: String = #fileID, function: String = #function, line: Int = #line) {
        log(GST_LEVEL_DEBUG, UnsafeMutableRawPointer(element), message, file: file, function: function, line: line)
    }
    func log(_ element: UnsafeMutablePointer<GstElement>, _ message: @autoclosure () -> String,
             file: String = #fileID, function: String = #function, line: Int = #line) {
        log(GST_LEVEL_LOG, UnsafeMutableRawPointer(element), message, file: file, function: function, line: line)
    }
}
