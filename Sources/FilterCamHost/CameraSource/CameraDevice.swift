import CGStreamer
import CFilterCamShim
import FilterCore

/// A camera as GStreamer's device monitor ("Video/Source") reports it.
public struct CameraDevice: Equatable, Sendable {
    public var path: String
    /// The monitor's display name.
    public var name: String
    /// `api.v4l2.cap.card`, when the V4L2 provider gives it.
    public var card: String?
    /// The formats, sizes and frame rates it offers, one caps structure each.
    public var caps: [String]
    /// The sizes in `caps` that are fixed (for choosing a mode).
    public var modes: [CameraMode]

    public init(path: String, name: String, card: String? = nil, caps: [String] = [], modes: [CameraMode] = []) {
        self.path = path
        self.name = name
        self.card = card
        self.caps = caps
        self.modes = modes
    }

    /// Which way the camera faces, from words in its name or card ("front", "user" …),
    /// or nil when they say nothing.
    public var facing: Facing? {
        let text = (name + " " + (card ?? "")).lowercased()
        if ["front", "user", "facetime", "selfie"].contains(where: text.contains) { return .front }
        if ["back", "rear", "world", "environment"].contains(where: text.contains) { return .back }
        return nil
    }

    public enum Facing: String, Sendable { case back, front }
}

/// One size a camera delivers, raw or as JPEG.
public struct CameraMode: Equatable, Sendable {
    public var width: Int
    public var height: Int
    public var isJPEG: Bool
    public init(width: Int, height: Int, isJPEG: Bool) {
        self.width = width
        self.height = height
        self.isJPEG = isJPEG
    }
    var area: Int { width * height }

    /// The mode to capture for an output of `width`×`height` (nil: the largest, for the
    /// photo preset): that size raw, else as JPEG, else the smallest larger one, else the
    /// largest; raw before JPEG at equal size.
    public static func choose(width: Int?, height: Int?, among modes: [CameraMode]) -> CameraMode? {
        let rawFirst: (CameraMode, CameraMode) -> Bool = { a, b in
            a.area != b.area ? a.area < b.area : (!a.isJPEG && b.isJPEG)
        }
        guard let width, let height else {
            return modes.sorted { a, b in a.area != b.area ? a.area > b.area : (!a.isJPEG && b.isJPEG) }.first
        }
        if let exact = modes.filter({ $0.width == width && $0.height == height }).sorted(by: rawFirst).first {
            return exact
        }
        if let larger = modes.filter({ $0.width >= width && $0.height >= height }).sorted(by: rawFirst).first {
            return larger
        }
        return modes.sorted { a, b in a.area != b.area ? a.area > b.area : (!a.isJPEG && b.isJPEG) }.first
    }
}

/// What the `camera` property asks for.
public enum CameraRequest: Equatable, Sendable, CustomStringConvertible {
    case back, front
    /// A V4L2 device node, e.g. /dev/video2.
    case path(String)
    /// `test:PATTERN`: a videotestsrc picture (pattern nick, e.g. smpte, ball, snow).
    case test(pattern: String)

    public struct Invalid: Error, CustomStringConvertible {
        public let description: String
    }

    public init(parsing text: String) throws(Invalid) {
        // Names in any case (`Back`, `test:SMPTE` were refused); a device path as written.
        let written = text.trimmingSpaces
        let t = written.hasPrefix("/") ? written : written.lowercased()
        switch t {
        case "back", "": self = .back
        case "front": self = .front
        default:
            if t.hasPrefix("/") {
                self = .path(t)
            } else if t.hasPrefix("test:") || t == "test" {
                var pattern = t == "test" ? "smpte" : String(t.dropFirst(5))
                // By number too, as videotestsrc's pattern=18 (its enum's values are 0, 1, …).
                if let number = Int(pattern), TestPicture.patterns.indices.contains(number) { pattern = TestPicture.patterns[number] }
                guard TestPicture.patterns.contains(pattern) else {
                    throw Invalid(description: "unknown test pattern \(pattern.quotedForMessage)\(NameSuggestion.hint(for: pattern, among: TestPicture.patterns)); "
                                  + "patterns: \(TestPicture.patterns.joined(separator: ", "))")
                }
                self = .test(pattern: pattern)
            } else {
                let hint = NameSuggestion.hint(for: t, among: ["back", "front"] + TestPicture.patterns.map { "test:\($0)" })
                throw Invalid(description: "camera must be back, front, a device path (/dev/videoN) or test:PATTERN\(hint)")
            }
        }
    }

    public var description: String {
        switch self {
        case .back: return "back"
        case .front: return "front"
        case .path(let p): return p
        case .test(let p): return "test:\(p)"
        }
    }

    /// The camera for back/front among `devices`: one whose name or card says so; else
    /// back is the first camera not named front, and front the first camera other than
    /// that back one (so: first = back, second = front); else the first camera, with a
    /// `note` saying so. nil when there is no camera.
    public static func choose(_ facing: CameraDevice.Facing, among devices: [CameraDevice]) -> (device: CameraDevice, note: String?)? {
        guard let first = devices.first else { return nil }
        if let named = devices.first(where: { $0.facing == facing }) { return (named, nil) }
        switch facing {
        case .back:
            if let unnamed = devices.first(where: { $0.facing != .front }) { return (unnamed, nil) }
        case .front:
            let back = choose(.back, among: devices)?.device
            if let other = devices.first(where: { $0 != back }) { return (other, nil) }
        }
        return (first, "no \(facing.rawValue) camera; using \(first.path) (\(first.name))")
    }
}

/// The videotestsrc patterns (nicks), for `camera=test:PATTERN`.
enum TestPicture {
    static let patterns: [String] = {
        GStreamer.initialize()
        guard let made = gst_element_factory_make("videotestsrc", nil) else { return ["smpte"] }
        let src = GstOwned(sinking: made)
        let klass = UnsafeMutableRawPointer(src.pointer.pointee.object.object.g_type_instance.g_class).assumingMemoryBound(to: GObjectClass.self)
        guard let spec = g_object_class_find_property(klass, "pattern"),
              let enumClass = g_type_class_ref(spec.pointee.value_type) else { return ["smpte"] }
        defer { g_type_class_unref(enumClass) }
        let ec = enumClass.assumingMemoryBound(to: GEnumClass.self)
        return (0..<Int(ec.pointee.n_values)).map { String(cString: ec.pointee.values[$0].value_nick) }
    }()
}
