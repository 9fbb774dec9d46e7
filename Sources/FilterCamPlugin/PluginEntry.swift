import CGStreamer
import FilterCamHost

/// GStreamer loads `libgstfiltercam.so` and looks up this symbol (named after the file).
@_cdecl("gst_plugin_filtercam_get_desc")
public func gst_plugin_filtercam_get_desc() -> UnsafeRawPointer {
    UnsafeRawPointer(FilterCamPlugin.descriptor)
}
