import FilterCore
import Foundation

/// The looks FilterCam ships (`looks/*.cube`, installed in `<prefix>/share/filtercam/looks`)
/// are in the `filtercam` program's catalog by default: with FILTERCAM_LOOKS unset, it is
/// pointed at them before GStreamer starts, so the plugin adds them as `look:NAME` as for
/// any folder. Set but empty keeps them out; set to a folder uses that folder instead.
/// Stock `gst-launch-1.0` gets no default: a plugin reads no folder nobody named.
enum ShippedLooks {
    /// The shipped looks folder, if this program finds one.
    static var folder: String? {
        PipelineLookup.shippedFile(package: "looks", installed: "looks")
    }

    /// Call before anything starts GStreamer (the plugin reads the variable once).
    static func useByDefault() {
        guard ProcessInfo.processInfo.environment[LookFolder.environmentVariable] == nil, let folder else { return }
        setenv(LookFolder.environmentVariable, folder, 0)
    }
}
