import Foundation

/// A pipeline that opens a window needs a display. Without one, `autovideosink` falls
/// through to `kmssink`, which crashes the process (exit 139, no message); so the check
/// comes first and says what to do instead.
public enum DisplayCheck {
    /// Sinks that open a window (fpsdisplaysink does too, unless it is given another sink).
    static let windowSinks: Set<String> = ["autovideosink", "ximagesink", "xvimagesink", "glimagesink",
                                           "gtksink", "gtkglsink", "waylandsink", "kmssink", "fpsdisplaysink"]

    /// The first window sink in a gst-launch description, if any.
    static func windowSink(in description: String) -> String? {
        for segment in description.split(separator: "!") {
            let words = segment.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" })
            guard let first = words.first.map(String.init), windowSinks.contains(first) else { continue }
            if first == "fpsdisplaysink",
               let sink = words.first(where: { $0.hasPrefix("video-sink=") }),
               !windowSinks.contains(String(sink.dropFirst("video-sink=".count))) {
                continue
            }
            return first
        }
        return nil
    }

    static var hasDisplay: Bool {
        let env = ProcessInfo.processInfo.environment
        return !(env["DISPLAY"] ?? "").isEmpty || !(env["WAYLAND_DISPLAY"] ?? "").isEmpty
    }

    /// The message for a window pipeline on a machine without a display, or nil. `command`
    /// is how the user ran it ("filtercam launch", "pixelate-demo"); `pipelineFiles`: the
    /// program takes the shipped pipeline files.
    public static func problem(with description: String, command: String, pipelineFiles: Bool = true) -> String? {
        guard !hasDisplay, let sink = windowSink(in: description) else { return nil }
        let withoutWindow = pipelineFiles
            ? """
                Without a window: SINK=fakesink \(command) pipelines/preview.pipeline,
                pipelines/record.pipeline (to a file), pipelines/rawout.pipeline (raw frames on stdout),
                or end a description with '! fakesink' or an encoder.
              """
            : "  Without a window: end the description with '! fakesink' or an encoder."
        return """
            \(command): this pipeline opens a window (\(sink)), but there is no display \
            (DISPLAY and WAYLAND_DISPLAY are unset).
              Run it on a desktop, or under a virtual display: xvfb-run -a \(command) …
            \(withoutWindow)
            """
    }
}
