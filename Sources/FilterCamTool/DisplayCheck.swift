import Foundation
#if canImport(Glibc)
import Glibc
#endif

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

    /// A local X display named by DISPLAY (":N", "unix:N", with or without ".screen") that
    /// nothing answers on: its socket, as a file or in the abstract namespace, takes no
    /// connection. Without Wayland the window sinks then crash as with no display at all.
    static var unreachableLocalDisplay: String? {
        let env = ProcessInfo.processInfo.environment
        guard (env["WAYLAND_DISPLAY"] ?? "").isEmpty, let display = env["DISPLAY"], !display.isEmpty,
              let colon = display.lastIndex(of: ":") else { return nil }
        let host = display[..<colon]
        guard host.isEmpty || host == "unix",
              let number = Int(display[display.index(after: colon)...].split(separator: ".").first ?? "") else { return nil }
        let path = "/tmp/.X11-unix/X\(number)"
        return acceptsConnections(path, abstract: false) || acceptsConnections(path, abstract: true) ? nil : display
    }

    private static func acceptsConnections(_ path: String, abstract: Bool) -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return true }   // cannot tell: let the sink try
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let offset = abstract ? 1 : 0   // the abstract namespace: a leading NUL
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in bytes.enumerated() where i + offset < raw.count { raw[i + offset] = b }
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + offset + bytes.count)
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, length) == 0 }
        }
    }

    /// The message for a window pipeline on a machine without a display, or nil. `command`
    /// is how the user ran it ("filtercam launch", "pixelate-demo"); `pipelineFiles`: the
    /// program takes the shipped pipeline files; `sinkOf`: the pipeline file run (the words
    /// as the user typed them, shell-quoted) when it reads its window sink from SINK, so the
    /// hint names that file; `typed`: the description is the user's own, not a file's.
    public static func problem(with description: String, command: String, pipelineFiles: Bool = true,
                               sinkOf file: String? = nil, typed: Bool = false) -> String? {
        guard let sink = windowSink(in: description) else { return nil }
        if hasDisplay {
            guard let display = unreachableLocalDisplay else { return nil }
            return """
                \(command): this pipeline opens a window (\(sink)), but nothing answers on the display \(display) \
                (DISPLAY): its X server is not running.
                  Start it, set DISPLAY to a running one, or unset it and use a virtual display: xvfb-run -a \(command) …
                """
        }
        // A description of the user's own is mended in place; the shipped files come second
        // (they were the first remedy named, as if preview.pipeline were what was typed).
        let withoutWindow = pipelineFiles && typed
            ? """
                Without a window: put fakesink in place of \(sink), or an encoder into a file
                (… ! x264enc ! mp4mux ! filesink location=out.mp4); or a shipped pipeline without one:
                SINK=fakesink \(command) pipelines/preview.pipeline, pipelines/record.pipeline
                (to a file), pipelines/rawout.pipeline (raw frames on stdout).
              """
            : pipelineFiles
            ? """
                Without a window: SINK=fakesink \(command) \(file ?? "pipelines/preview.pipeline"),
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

    /// `text` as one shell word, quoted only when it must be (a name typed with spaces).
    public static func shellWord(_ text: String) -> String {
        let plain = !text.isEmpty && text.unicodeScalars.allSatisfy { CharacterSet.shellPlain.contains($0) }
        return plain ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

private extension CharacterSet {
    static let shellPlain = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./-+:,=@%")
}
