import CFilterCamShim
import CGStreamer
import CWindowTitle
import FilterCore
import FilterCamHost
import Foundation

/// Titles the preview windows of a running pipeline after the app and its filter
/// ("FilterCam - Sepia"), as a camera app's window is titled, instead of glimagesink's
/// "OpenGL renderer" or ximagesink's "gst-launch-1.0". The dash is ASCII: ximagesink
/// stores its title as Latin-1 text, and an em dash read back as "â\302\200\302\224".
final class WindowTitles {
    /// The sinks that show a window of their own.
    static let windowSinks: Set<String> = ["glimagesink", "ximagesink", "xvimagesink"]

    /// The title each window shows (by its sink's name).
    private var shown: [String: String] = [:]
    private var lastCheck = Date.distantPast

    /// The title for a FilterCam element's `filter` value: the app, then each filter of
    /// the chain by its catalog title.
    static func title(forFilter filter: String?) -> String {
        guard let filter, let chain = try? FilterChain.parse(filter), !chain.isIdentity else { return "FilterCam" }
        let names = chain.steps.map { FilterRegistry.shared.descriptor(id: $0.id)?.title ?? $0.id }
        return "FilterCam - " + names.joined(separator: " + ")
    }

    /// Sets the titles again when a filter changed (a key in the window, a command here),
    /// or when a window had none yet. Each window is titled after the `filtercam` nearest
    /// upstream of its sink, the one its keys change: every window showed the first
    /// element's filter (two windows of a tee both "Sepia" with one branch mono; an
    /// `fcsepia` first left "FilterCam"). Cheap enough for every turn of the session's
    /// loop; looks at most five times a second.
    func refresh(_ pipeline: Pipeline) {
        guard Date().timeIntervalSince(lastCheck) > 0.2 else { return }
        lastCheck = Date()
        for sink in pipeline.elements where Pipeline.factoryName(of: sink).map(Self.windowSinks.contains) ?? false {
            let filter = Self.filterCam(upstreamOf: sink).flatMap { pipeline.element(named: $0) }
                .flatMap { Pipeline.property($0, "filter") }
            let title = Self.title(forFilter: filter), name = GStreamer.name(of: sink)
            guard shown[name] != title else { continue }
            // A sink without its window yet is asked again.
            if fc_window_title_set(UnsafeMutableRawPointer(sink), title) != 0 { shown[name] = title }
        }
    }

    /// The name of the nearest `filtercam` feeding `sink`.
    private static func filterCam(upstreamOf sink: UnsafeMutablePointer<GstElement>) -> String? {
        let factory = strdup("filtercam")
        defer { free(factory) }
        var names: [UnsafePointer<CChar>?] = [UnsafePointer(factory), nil]
        return String(takingGLib: fc_upstream_element_of_factory(sink, &names))
    }
}
