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

    private var shown: String?
    private var lastCheck = Date.distantPast

    /// The title for a FilterCam element's `filter` value: the app, then each filter of
    /// the chain by its catalog title.
    static func title(forFilter filter: String?) -> String {
        guard let filter, let chain = try? FilterChain.parse(filter), !chain.isIdentity else { return "FilterCam" }
        let names = chain.steps.map { FilterRegistry.shared.descriptor(id: $0.id)?.title ?? $0.id }
        return "FilterCam - " + names.joined(separator: " + ")
    }

    /// Sets the title again when the filter changed (a key in the window, a command here),
    /// or when no window had one yet. Cheap enough for every turn of the session's loop;
    /// looks at most five times a second.
    func refresh(_ pipeline: Pipeline) {
        guard Date().timeIntervalSince(lastCheck) > 0.2 else { return }
        lastCheck = Date()
        let filter = pipeline.filterCamElements.first.flatMap { Pipeline.property($0.element, "filter") }
        let title = Self.title(forFilter: filter)
        guard title != shown else { return }
        let sinks = pipeline.elements.filter { Pipeline.factoryName(of: $0).map(Self.windowSinks.contains) ?? false }
        guard !sinks.isEmpty else { shown = title; return }
        // Shown once every sink took it; a sink without its window yet is asked again.
        var all = true
        for sink in sinks where fc_window_title_set(UnsafeMutableRawPointer(sink), title) == 0 { all = false }
        if all { shown = title }
    }
}
