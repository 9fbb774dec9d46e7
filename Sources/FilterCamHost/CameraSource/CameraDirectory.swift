import FilterCore
import CGStreamer
import CFilterCamShim

/// The cameras GStreamer's device monitor finds (filter "Video/Source"), one per device
/// node; devices without a node path (e.g. libcamera's) are left out, as `filtercamsrc`
/// opens cameras through v4l2src.
public enum CameraDirectory {
    public static func list() -> [CameraDevice] {
        GStreamer.initialize()
        guard let monitor = GstOwned(gst_device_monitor_new()) else { return [] }
        _ = gst_device_monitor_add_filter(monitor.pointer, "Video/Source", nil)
        var result: [CameraDevice] = []
        for device in GstOwned<GstDevice>.list(taking: gst_device_monitor_get_devices(monitor.pointer)) {
            guard let camera = describe(device.pointer), !result.contains(where: { $0.path == camera.path }) else { continue }
            result.append(camera)
        }
        return result.sorted { $0.path.localizedStandardLess($1.path) }
    }

    static func describe(_ device: UnsafeMutablePointer<GstDevice>) -> CameraDevice? {
        var path: String? = nil, card: String? = nil
        if let owned = GstOwned(gst_device_get_properties(device)) {
            let props = owned.pointer
            path = String(optionalCString: gst_structure_get_string(props, "api.v4l2.path"))
                ?? String(optionalCString: gst_structure_get_string(props, "device.path"))
            card = String(optionalCString: gst_structure_get_string(props, "api.v4l2.cap.card"))
        }
        guard let path else { return nil }
        let name = String(takingGLib: gst_device_get_display_name(device)) ?? card ?? path
        var caps: [String] = [], modes: [CameraMode] = []
        if let owned = GstOwned(gst_device_get_caps(device)) {
            let c = owned.pointer
            for i in 0..<gst_caps_get_size(c) {
                guard let s = gst_caps_get_structure(c, i) else { continue }
                if let text = String(takingGLib: gst_structure_to_string(s)) { caps.append(text) }
                var w: gint = 0, h: gint = 0
                let media = String(cString: gst_structure_get_name(s))
                if (media == "video/x-raw" || media == "image/jpeg"),
                   gst_structure_get_int(s, "width", &w) != 0, gst_structure_get_int(s, "height", &h) != 0 {
                    let mode = CameraMode(width: Int(w), height: Int(h), isJPEG: media == "image/jpeg")
                    if !modes.contains(mode) { modes.append(mode) }
                }
            }
        }
        return CameraDevice(path: path, name: name, card: card, caps: caps, modes: modes)
    }

    /// The controls of the camera at `path` (v4l2-ctl names), or why they cannot be read.
    public static func controls(of device: CameraDevice) -> Result<[V4L2ControlInfo], CameraProblem> {
        CameraHandle.controls(of: device.path)
    }

    /// What `filtercam devices` prints for `devices`, with each device's controls (nil:
    /// they could not be read, with the reason).
    public static func report(_ devices: [CameraDevice], controls: (CameraDevice) -> Result<[V4L2ControlInfo], CameraProblem>) -> String {
        var out = ""
        for d in devices {
            let facing = d.facing.map { " [\($0.rawValue)]" } ?? ""
            out += "\(d.path)  \(d.name)\(facing)\n"
            if let card = d.card, card != d.name { out += "  card: \(card)\n" }
            out += "  formats:\n"
            if d.caps.isEmpty { out += "    (none reported)\n" }
            for c in d.caps { out += "    \(c)\n" }
            out += "  controls:\n"
            switch controls(d) {
            case .success(let list):
                if list.isEmpty { out += "    (none)\n" }
                for c in list {
                    var line = "    \(c.name) (\(c.kind.name))"
                    switch c.kind {
                    case .integer, .integerMenu, .menu: line += " min=\(c.minimum) max=\(c.maximum)"
                    default: break
                    }
                    if c.kind != .button { line += " default=\(c.defaultValue)" }
                    if !c.menuNames.isEmpty {
                        line += " " + c.menuNames.keys.sorted().map { "\($0):\(c.menuNames[$0]!)" }.joined(separator: ", ")
                    } else if !c.menuValues.isEmpty {
                        line += " " + c.menuValues.keys.sorted().map { "\($0):\(c.menuValues[$0]!)" }.joined(separator: ", ")
                    }
                    if let property = V4L2ControlMap.property(controlling: c.name) { line += "  -> \(property)" }
                    out += line + "\n"
                }
            case .failure(let problem):
                out += "    (cannot read: \(problem.message(for: d.path)))\n"
            }
        }
        return out
    }
}

extension String {
    /// Natural order, so /dev/video2 comes before /dev/video10.
    func localizedStandardLess(_ other: String) -> Bool {
        let a = self.split(whereSeparator: { !$0.isNumber }), b = other.split(whereSeparator: { !$0.isNumber })
        let prefixA = self.filter { !$0.isNumber }, prefixB = other.filter { !$0.isNumber }
        if prefixA != prefixB { return self < other }
        return a.compactMap { Int($0) } .lexicographicallyPrecedes(b.compactMap { Int($0) })
    }
}
