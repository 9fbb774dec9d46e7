import FilterCamHost
import PixelateExample

// A loadable GStreamer plugin, libgstpixelate.so, holding only the example filter:
//
//     GST_PLUGIN_PATH=.build/release gst-inspect-1.0 fcpixelate
//     GST_PLUGIN_PATH=.build/release gst-launch-1.0 videotestsrc ! fcpixelate block=8 ! videoconvert ! autovideosink
//
// GStreamer looks up `gst_plugin_<name>_get_desc`, where <name> comes from the file name.
@_cdecl("gst_plugin_pixelate_get_desc")
public func gst_plugin_pixelate_get_desc() -> UnsafeRawPointer {
    FilterCamPlugin.pluginDescriptor(name: "pixelate", summary: "FilterCam example: pixelate",
                                     filters: [PixelateFilter.descriptor])
}
