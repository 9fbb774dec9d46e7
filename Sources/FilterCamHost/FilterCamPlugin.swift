import CGStreamer
import CFilterCamShim
import FilterCore
import FoundationEssentials
import Glibc

/// FilterCam's elements, registered either statically (inside the `filtercam` program
/// and any program that links FilterCamHost) or by the loadable `libgstfiltercam.so`.
public enum FilterCamPlugin {
    /// The mark (object data on the pipeline) of a program that takes a window's `quit`
    /// itself: `filtercam launch` and `serve` end the stream after what they wait for.
    /// Without it (`gst-launch-1.0`, an application) the element ends the stream.
    public static let quitHandlerMark = "filtercam-handles-quit"

    public static let version = "0.2.0"

    /// Every element class the plugin provides: `filtercam`, `filtercamsrc`, then one element per
    /// registered filter (`fcsepia`, …). Classes are made once per filter id.
    package static var elementClasses: [ElementClass] {
        prepareLooks()
        return [FilterCamElement.elementClass, CameraSourceElement.elementClass]
            + FilterRegistry.shared.all.filter { $0.elementName != nil }.map(singleFilterClass)
    }

    private static let singleFilterClasses = Locked<[String: ElementClass]>([:])

    private static func singleFilterClass(_ d: FilterDescriptor) -> ElementClass {
        singleFilterClasses.withLock { classes in
            if let c = classes[d.id] { return c }
            let c = SingleFilterElement.elementClass(for: d)
            classes[d.id] = c
            return c
        }
    }

    /// Adds a filter to this program: to the filter registry (so chains and
    /// `filtercam filter=ID` know it) and as its own element `fc<id>`. Call it once at start.
    @discardableResult
    public static func register(filter descriptor: FilterDescriptor) -> Bool {
        // The same declaration again (a test, a second call at start-up): already there.
        if let known = FilterRegistry.shared.descriptor(id: descriptor.id), known.title == descriptor.title,
           known.parameters.map(\.name) == descriptor.parameters.map(\.name), GStreamer.hasElement(named: SingleFilterElement.prefix + descriptor.id) {
            return true
        }
        if let problem = registrationProblem(descriptor) {
            let line = Array("FilterCam: filter \(descriptor.id.quotedForMessage) not registered: \(problem)\n".utf8)
            _ = line.withUnsafeBytes { Glibc.write(STDERR_FILENO, $0.baseAddress, $0.count) }
            return false
        }
        // GStreamer first: starting it registers the static plugin with the filters known
        // then. Added to the registry before, the element would be registered twice, and the
        // second factory replaces the first, which the element's class still points to.
        GStreamer.initialize()
        FilterRegistry.shared.register(descriptor)
        return singleFilterClass(descriptor).register(in: nil)
    }

    /// Why a filter cannot be registered (nil: it can). An id already taken made `filtercam
    /// filter=ID` the new filter and `fcID` the old one; an id GObject cannot name a type
    /// after ("My Filter") stayed in the catalog with no element; a parameter named as one of
    /// the element's own properties (`name`, `frames-processed`) broke the element.
    public static func registrationProblem(_ d: FilterDescriptor) -> String? {
        let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789-")
        guard let first = d.id.first, ("a"..."z").contains(first), d.id.allSatisfy(allowed.contains), !d.id.hasSuffix("-") else {
            return "an id is lower-case letters, digits and dashes, starting with a letter (e.g. my-filter)"
        }
        if FilterRegistry.shared.descriptor(id: d.id) != nil {
            return "the id is taken (filtercam filters lists the ids in use): give yours another"
        }
        let reserved = ["name", "parent"] + FrameWorker.counterProperties.map(\.name)
        if let clash = d.parameters.first(where: { reserved.contains($0.name) }) {
            return "its parameter \(clash.name.quotedForMessage) has the name of a property every element has "
                + "(\(reserved.joined(separator: ", "))): name it otherwise"
        }
        if let bad = d.parameters.first(where: { p in p.name.first.map { !("a"..."z").contains($0) } ?? true || !p.name.allSatisfy(allowed.contains) }) {
            return "its parameter \(bad.name.quotedForMessage) is not a property name: lower-case letters, digits and dashes, starting with a letter"
        }
        return nil
    }

    /// Whether FilterCam's elements came from a loadable plugin (`libgstfiltercam.so`, or
    /// a plugin built on FilterCam) in this process: then nothing registers them statically.
    static var loadedFromFile: Bool { loadedFromFileFlag.withLock { $0 } }
    private static let loadedFromFileFlag = Locked(false)

    /// Filters of loadable plugins built on FilterCam, by plugin name (plugin_init is a C
    /// callback without context, so it finds its filters here by the plugin's name).
    private static let pluginFilters = Locked<[String: [FilterDescriptor]]>([:])

    /// A plugin descriptor for a loadable plugin that provides `filters` as elements
    /// (`fc<id>`): return it from `gst_plugin_<name>_get_desc`.
    public static func pluginDescriptor(name: String, summary: String, filters: [FilterDescriptor]) -> UnsafeRawPointer {
        pluginFilters.withLock { $0[name] = filters }
        return UnsafeRawPointer(makeDescriptor(name: name, summary: summary, initialise: { plugin in
            FilterCamPlugin.loadedFromFileFlag.withLock { $0 = true }
            guard let cName = gst_plugin_get_name(plugin) else { return 0 }
            let name = String(cString: cName)
            let filters = FilterCamPlugin.pluginFilters.withLock { $0[name] ?? [] }
            for d in filters { FilterRegistry.shared.register(d) }
            return filters.allSatisfy { FilterCamPlugin.singleFilterClass($0).register(in: plugin) } ? 1 : 0
        }))
    }

    /// Registers the elements in `plugin`.
    static func register(in plugin: OpaquePointer?) -> Bool {
        elementClasses.allSatisfy { $0.register(in: plugin) }
    }

    /// Registers the plugin statically in this process (after gst_init).
    static func registerStatic() {
        _ = gst_plugin_register_static(GST_VERSION_MAJOR, GST_VERSION_MINOR, "filtercam",
            "FilterCam: camera filters written in Swift", { plugin in FilterCamPlugin.register(in: plugin) ? 1 : 0 },
            version, "LGPL", "filtercam", "FilterCam", "Unknown package origin")
    }

    /// The plugin descriptor for the loadable plugin (`gst_plugin_filtercam_get_desc`).
    public static var descriptor: UnsafeMutablePointer<GstPluginDesc> { filtercamDescriptor.pointer }
    private static let filtercamDescriptor = GstPointer(
        makeDescriptor(name: "filtercam", summary: "FilterCam: camera filters written in Swift") { plugin in
            FilterCamPlugin.loadedFromFileFlag.withLock { $0 = true }
            return FilterCamPlugin.register(in: plugin) ? 1 : 0
        })

    /// A plugin descriptor; `initialise` is GStreamer's plugin_init (a C callback).
    private static func makeDescriptor(name: String, summary: String,
                                       initialise: GstPluginInitFunc) -> UnsafeMutablePointer<GstPluginDesc> {
        let desc = UnsafeMutablePointer<GstPluginDesc>.allocate(capacity: 1)
        desc.initialize(to: GstPluginDesc())
        desc.pointee.major_version = GST_VERSION_MAJOR
        desc.pointee.minor_version = GST_VERSION_MINOR
        desc.pointee.name = UnsafePointer(strdup(name))
        desc.pointee.description = UnsafePointer(strdup(summary))
        desc.pointee.plugin_init = initialise
        desc.pointee.version = UnsafePointer(strdup(version))
        desc.pointee.license = UnsafePointer(strdup("LGPL"))
        desc.pointee.source = UnsafePointer(strdup(name))
        desc.pointee.package = UnsafePointer(strdup("FilterCam"))
        desc.pointee.origin = UnsafePointer(strdup("Unknown package origin"))
        return desc
    }
}
