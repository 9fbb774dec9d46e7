import CGStreamer
import FilterCamHost
import FilterCamTool

/// The `filtercam` element's text-valued properties set from any text, as a pipeline file
/// or `set PROP=VALUE` would. A value is taken or refused (a warning); either way the value
/// the element then reports is one it takes back unchanged.
enum PropertyTarget {
    static let names = ["filter", "lens", "orientation", "device-orientation", "zoom", "intensity",
                        "snapshot-location", "snapshot-bracket", "snapshot-every", "face-cascade", "camera-facing"]
    nonisolated(unsafe) static var element: UnsafeMutablePointer<GstElement>!

    static func prepare() {
        GStreamer.initialize()
        element = gst_element_factory_make("filtercam", "fuzzed")
        precondition(element != nil, "the filtercam element is not registered")
    }

    static func run(_ input: UnsafeRawBufferPointer) {
        var bytes = FuzzBytes(input)
        let name = bytes.pick(names)
        let text = bytes.restAsText()
        do {
            try Pipeline.setProperty(element, name, text)
        } catch {
            FuzzCheck.requireMessage("\(error)", refusing: text)
        }
        guard let shown = Pipeline.property(element, name) else {
            return FuzzCheck.require(false, "\(name) cannot be read after \(text.debugDescription)")
        }
        do {
            try Pipeline.setProperty(element, name, shown)
        } catch {
            FuzzCheck.require(false, "\(name) reports \(shown.debugDescription) but refuses it: \(error)")
        }
        FuzzCheck.require(Pipeline.property(element, name) == shown, "\(name)=\(shown.debugDescription) does not read back the same")
    }
}
