import CGStreamer
import CFilterCamShim
import FilterCore

/// A GStreamer element as the target of `ControlCommand.run(on:)`: its properties read
/// and written as text, its `snapshot` action signal, and the lens that `lens` put away
/// kept as data on the GObject, so the window's keys and the terminal's share it.
public final class ElementControl: ControlTarget {
    public typealias Setter = (UnsafeMutablePointer<GstElement>, String, String) throws -> Void

    public let element: UnsafeMutablePointer<GstElement>
    private let setter: Setter

    /// `set`: how a property is set (the CLI's checks and words); by default a value the
    /// element refuses is the error.
    public init(_ element: UnsafeMutablePointer<GstElement>, set: Setter? = nil) {
        self.element = element
        self.setter = set ?? Self.setRefusing
    }

    public var name: String { GStreamer.name(of: element) }

    public func value(_ property: String) -> String? {
        GStreamer.property(element, property)
    }

    /// The `filtercam` element behind the GStreamer one, nil for other elements.
    private var filterCam: FilterCamElement? {
        fc_element_get_ctx(element).flatMap { ElementHost.from(context: $0).body as? FilterCamElement }
    }

    public var appliedOrientation: String? {
        filterCam?.appliedOrientation.nick
    }

    public var takesRGBOnlyFilters: Bool { filterCam?.yuvFormatFlowing == nil }

    /// The transform a `filtercam` element would apply were `property` set to `value`
    /// (`FilterCamElement.appliedOrientation(setting:to:)`), nil for other elements and values.
    public func appliedOrientation(setting property: String, to value: String) -> String? {
        filterCam?.appliedOrientation(setting: property, to: value)?.nick
    }

    /// Whether a still asked of a `filtercam` element, or the rest of its bracketed set (one
    /// frame per bias), still waits for its frames.
    public var stillIsWaiting: Bool {
        filterCam?.snapshots.stillIsWaiting ?? false
    }

    public func set(_ property: String, _ value: String) throws {
        try setter(element, property, value)
    }

    public func snapshot() throws {
        guard g_signal_lookup("snapshot", element.pointee.object.object.g_type_instance.g_class.pointee.g_type) != 0 else {
            throw ControlError("\(name) cannot take snapshots")
        }
        fc_emit_action(element, "snapshot")
    }

    private static let keptLensKey = "filtercam-kept-lens"

    public var keptLens: String? {
        get { g_object_get_data(element.asGObject, Self.keptLensKey).map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } }
        set { g_object_set_data_full(element.asGObject, Self.keptLensKey, newValue.map { UnsafeMutableRawPointer(g_strdup($0)) }, g_free) }   // ownership handed to the element: it frees the copy
    }

    private static func setRefusing(_ element: UnsafeMutablePointer<GstElement>, _ property: String, _ value: String) throws {
        if let refusal = PropertyRefusal.collecting({ GStreamer.set(UnsafeMutableRawPointer(element), property, value) }).first {
            throw ControlError(refusal)
        }
    }
}
