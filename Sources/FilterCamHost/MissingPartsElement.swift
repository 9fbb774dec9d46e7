import CGStreamer
import CFilterCamShim
import FilterCore
import Synchronization

/// The GStreamer elements a FilterCam element is built from: a filter's private appsink →
/// worker → appsrc pair, and the camera source's rate, scale and format stages. All come
/// with GStreamer itself (core and gst-plugins-base), but a trimmed install or a plugin
/// path that leaves one out is possible, and an element built without them crashed the
/// program that made it (stock `gst-inspect-1.0 fcsepia` included).
enum ElementParts {
    /// The factories `ElementClass` instances of this kind are built from.
    static func needed(bySource isSource: Bool) -> [String] {
        isSource ? ["videorate", "videoscale", "videoconvert", "capsfilter"] : ["appsink", "appsrc"]
    }

    /// Those of `factories` this process's registry cannot make.
    static func missing(_ factories: [String]) -> [String] {
        factories.filter { name in
            guard let factory = gst_element_factory_find(name) else { return true }
            gst_object_unref(UnsafeMutableRawPointer(factory))
            return false
        }
    }

    /// Where each comes from and the Debian package that brings it, for the message.
    static func origin(of factory: String) -> (source: String, debianPackage: String) {
        switch factory {
        case "appsink", "appsrc": return ("the app plugin of gst-plugins-base", "gstreamer1.0-plugins-base")
        case "capsfilter": return ("GStreamer's core elements", "libgstreamer1.0-0")
        default: return ("gst-plugins-base", "gstreamer1.0-plugins-base")
        }
    }

    /// "from SOURCE (Debian: PACKAGE); …" for the missing factories, each source once.
    static func origins(of missing: [String]) -> String {
        let sources = Set(missing.map { origin(of: $0) }.map { "\($0.source) (Debian: \($0.debianPackage))" })
        return "from " + sources.sorted().joined(separator: "; ")
    }
}

/// Stands in for an element whose parts cannot be made (`ElementParts`): it can be made,
/// inspected and linked, its properties keep the values set, and it refuses to start with
/// an error that names what is missing and where it comes from, as a stock bin does when
/// an element it needs is not installed.
final class MissingPartsElement: SwiftElement, ElementPart {
    private let elementPointer: GstPointer<GstElement>
    private let properties: [ElementProperty]
    private let missing: [String]
    private let values = Locked<[String: PropertyValue]>([:])
    /// Said once: a pipeline's one PAUSED asks each element to start more than once.
    private let said = Atomic<Bool>(false)

    init(element: UnsafeMutablePointer<GstElement>, elementClass: ElementClass, missing: [String]) {
        elementPointer = GstPointer(element)
        properties = elementClass.properties
        self.missing = missing
        if elementClass.isSource,
           let ghost = gst_ghost_pad_new_no_target_from_template("src", gst_element_get_pad_template(element, "src")) {
            gst_element_add_pad(element, ghost)
        }
    }

    func set(_ name: String, _ value: PropertyValue) throws(PropertyProblem) {
        values.withLock { $0[name] = value }
    }

    func get(_ name: String) -> PropertyValue {
        values.withLock { $0[name] } ?? properties.first { $0.name == name }?.defaultValue ?? .int(0)
    }

    func changeState(_ transition: GstStateChange, after: Bool, result: GstStateChangeReturn) -> GstStateChangeReturn {
        guard !after, fc_transition_current(transition) == Int32(GST_STATE_NULL.rawValue) else { return result }
        let element = elementPointer.pointer
        guard !said.exchange(true, ordering: .relaxed) else { return GST_STATE_CHANGE_FAILURE }
        fc_post_error(element, "\(GStreamer.name(of: element)) cannot start: GStreamer's \(missing.joined(separator: ", ")) "
            + "cannot be made here (\(ElementParts.origins(of: missing))); `gst-inspect-1.0 \(missing[0])` says whether it is installed", nil)
        return GST_STATE_CHANGE_FAILURE
    }
}
