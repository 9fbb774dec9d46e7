import FilterCore
import CGStreamer

/// The element's properties: their declarations, the settings they hold and how setting
/// one acts on the running source.
extension CameraSourceElement {
    static let properties: [ElementProperty] = Property.allCases.map { p in
        switch p {
        case .camera:
            return ElementProperty(p.rawValue, nick: "Camera",
                blurb: "back, front, a device path (/dev/videoN) or test:PATTERN (a test picture, e.g. test:ball); changing it while playing switches cameras without stopping",
                .string(defaultValue: "back"))
        case .preset:
            return ElementProperty(p.rawValue, nick: "Preset",
                blurb: "Output size: 640x480, 1280x720, 1920x1080 or photo (the camera's largest; 1920x1080 for a test picture); always at 30 fps",
                .enumeration(typeName: "FilterCamCameraPreset", nicks: CameraPreset.allCases.map(\.rawValue), defaultIndex: 0))
        case .fallback:
            return ElementProperty(p.rawValue, nick: "Fallback",
                blurb: "When no camera can be opened: test (a live test picture and a WARNING) or none (an ERROR: the pipeline does not start)",
                .enumeration(typeName: "FilterCamCameraFallback", nicks: CameraFallback.allCases.map(\.rawValue), defaultIndex: 0))
        case .numBuffers:
            return ElementProperty(p.rawValue, nick: "Number of buffers",
                blurb: "Frames to deliver before EOS, counted at the output (at 30 fps, across camera switches; -1 = unlimited)",
                .int(min: -1, max: Int32.max, defaultValue: -1))
        case .showing:
            return ElementProperty(p.rawValue, nick: "Showing",
                blurb: "What the source shows now (read-only): the camera's name, test:PATTERN, or a test picture standing in for a camera that was not found or failed (and why); empty before it starts",
                .readOnlyText)
        case .torch:
            return ElementProperty(p.rawValue, nick: "Torch", blurb: "Torch (LED) on", .bool(defaultValue: false))
        case .focusMode:
            return ElementProperty(p.rawValue, nick: "Focus mode",
                blurb: "locked, auto (focus once) or continuous autofocus",
                .enumeration(typeName: "FilterCamFocusMode", nicks: FocusMode.allCases.map(\.rawValue), defaultIndex: 2))
        case .focusPosition:
            return ElementProperty(p.rawValue, nick: "Focus position",
                blurb: "Lens position, 0 (nearest) to 1 (farthest); locks focus", .double(min: 0, max: 1, defaultValue: 0.5))
        case .exposureBias:
            return ElementProperty(p.rawValue, nick: "Exposure bias",
                blurb: "Exposure compensation in EV", .double(min: -4, max: 4, defaultValue: 0))
        case .exposureTime:
            return ElementProperty(p.rawValue, nick: "Exposure time",
                blurb: "Custom exposure time in µs (0 = automatic exposure)", .int(min: 0, max: 10_000_000, defaultValue: 0))
        case .iso:
            return ElementProperty(p.rawValue, nick: "ISO", blurb: "Custom ISO (0 = automatic)", .int(min: 0, max: 102_400, defaultValue: 0))
        case .whiteBalance:
            return ElementProperty(p.rawValue, nick: "White balance",
                blurb: "0 = automatic, else the temperature in kelvin (2000–10000)", .int(min: 0, max: 10_000, defaultValue: 0))
        case .tint:
            return ElementProperty(p.rawValue, nick: "Tint", blurb: "White balance tint, -150 (green) to 150 (magenta)",
                .int(min: -150, max: 150, defaultValue: 0))
        case .zoom:
            return ElementProperty(p.rawValue, nick: "Zoom", blurb: "Optical/camera zoom factor", .double(min: 1, max: 10, defaultValue: 1))
        }
    }

    struct Settings {
        var camera = CameraRequest.back
        var cameraText = "back"
        var preset = CameraPreset.vga
        var fallback = CameraFallback.test
        var numBuffers = -1
        /// The camera controls the user set, in the order first set: each held once, here
        /// (only these are ever applied; an unset control reads as its declared default).
        var controls: [CameraControl] = []
    }

    func set(_ name: String, _ value: PropertyValue) throws(PropertyProblem) {
        guard let property = Property(rawValue: name) else { throw PropertyProblem.unexpected(value, for: name) }
        switch (property, value) {
        case (.camera, .string(let text)):
            // NULL or nothing is the default camera, and reads back as it (it read back '').
            let given = text?.trimmingSpaces ?? ""
            let text = given.isEmpty ? "back" : given
            do {
                let request = try CameraRequest(parsing: text)
                settings.withLock { $0.camera = request; $0.cameraText = text }
                if hasSource { switchCamera(to: request) }
            } catch {
                log.warning(element, "refused camera=\(text): \(error.description)")
                throw PropertyProblem(error.description)
            }
        case (.preset, .int(let v)):
            let preset = CameraPreset.allCases[v]
            settings.withLock { $0.preset = preset }
            // Under `switching`: a start or a switch on another thread reads the size. Before
            // the camera opens too: a description's links are made then, and they must see
            // the preset's size (`! video/x-raw,width=1280,height=720` after preset=1280x720
            // did not link, the element still saying 640x480). The camera's largest (photo)
            // is known once it opens: any size until then.
            switching.lock()
            if let size = preset.size {
                setOutputCaps(width: size.width, height: size.height)
            } else if !hasSource {
                setOutputCaps(width: nil, height: nil)
            }
            switching.unlock()
        case (.fallback, .int(let v)):
            settings.withLock { $0.fallback = CameraFallback.allCases[v] }
        case (.numBuffers, .int(let v)):
            settings.withLock { $0.numBuffers = v }
        default:
            try setControl(name, value)
        }
    }

    func get(_ name: String) -> PropertyValue {
        let s = settings.withLock { $0 }
        switch Property(rawValue: name)! {
        case .camera: return .string(s.cameraText)
        case .preset: return .int(CameraPreset.allCases.firstIndex(of: s.preset)!)
        case .fallback: return .int(CameraFallback.allCases.firstIndex(of: s.fallback)!)
        case .numBuffers: return .int(s.numBuffers)
        case .showing: return .string(shown.withLock { $0?.label })
        default:
            return s.control(named: name)?.propertyValue
                ?? Self.properties.first { $0.name == name }!.defaultValue
        }
    }

    private var hasSource: Bool {
        switching.lock()
        defer { switching.unlock() }
        return active != nil
    }
}

/// `preset`: the output size.
enum CameraPreset: String, CaseIterable {
    case vga = "640x480", hd = "1280x720", fullHD = "1920x1080", photo
    var size: (width: Int, height: Int)? {
        switch self {
        case .vga: return (640, 480)
        case .hd: return (1280, 720)
        case .fullHD: return (1920, 1080)
        case .photo: return nil
        }
    }
    /// The photo preset's size when there is no camera to ask.
    static let photoFallbackSize = (width: 1920, height: 1080)
}

/// `fallback`: what happens when no camera can be opened.
enum CameraFallback: String, CaseIterable {
    case test, none
}
