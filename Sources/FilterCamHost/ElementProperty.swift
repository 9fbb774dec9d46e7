import CGStreamer
import CFilterCamShim

/// The declaration of one GObject property of a Swift-backed element: what
/// `gst-inspect-1.0` and `filtercam inspect` show, and how values travel as GValues.
public struct ElementProperty: Sendable {
    public enum Kind: Sendable {
        case double(min: Double, max: Double, defaultValue: Double)
        case int(min: Int32, max: Int32, defaultValue: Int32)
        case uint(min: UInt32, max: UInt32, defaultValue: UInt32)
        case bool(defaultValue: Bool)
        case string(defaultValue: String?)
        /// An enum registered by FilterCam, values 0..<nicks.count.
        case enumeration(typeName: String, nicks: [String], defaultIndex: Int)
        /// An enum type GStreamer already has (e.g. GstVideoOrientationMethod); `refused`:
        /// its nicks this element does not take (refused by name, left out of its choices).
        case gstEnum(getType: @Sendable () -> GType, defaultValue: Int32, refused: [String] = [])
        /// Read-only 64-bit counter.
        case counter
        /// Read-only text the element reports (a string property that cannot be set).
        case readOnlyText
    }

    public let name: String
    public let nick: String
    public let blurb: String
    public let kind: Kind
    /// Kept for old pipelines only: flagged so (gst-inspect-1.0 says "deprecated").
    public private(set) var isDeprecated = false

    public init(_ name: String, nick: String, blurb: String, _ kind: Kind) {
        self.name = name
        self.nick = nick
        self.blurb = blurb
        self.kind = kind
    }

    /// The value a fresh element reads.
    var defaultValue: PropertyValue {
        switch kind {
        case .double(_, _, let d): return .double(d)
        case .int(_, _, let d): return .int(Int(d))
        case .uint(_, _, let d): return .int(Int(d))
        case .bool(let d): return .bool(d)
        case .string(let d): return .string(d)
        case .enumeration(_, _, let d): return .int(d)
        case .gstEnum(_, let d, _): return .int(Int(d))
        case .counter: return .uint64(0)
        case .readOnlyText: return .string(nil)
        }
    }

    /// The same property, flagged deprecated.
    public func deprecated() -> ElementProperty {
        var p = self
        p.isDeprecated = true
        return p
    }

    var isReadOnly: Bool {
        switch kind {
        case .counter, .readOnlyText: return true
        default: return false
        }
    }

    /// GstController's bindings interpolate numbers (and switch booleans and enums); a
    /// string property cannot follow a control source, so it is not flagged controllable.
    var isControllable: Bool {
        switch kind {
        case .string, .counter, .readOnlyText: return false
        default: return true
        }
    }

    /// A new GParamSpec (floating) for class registration.
    func makeParamSpec() -> UnsafeMutablePointer<GParamSpec> {
        var flags = isReadOnly ? fc_param_flags_readonly() : fc_param_flags_readwrite_playing(isControllable ? 1 : 0)
        if isDeprecated { flags = GParamFlags(rawValue: flags.rawValue | G_PARAM_DEPRECATED.rawValue) }
        switch kind {
        case .double(let lo, let hi, let d):
            return g_param_spec_double(name, nick, blurb, lo, hi, d, flags)
        case .int(let lo, let hi, let d):
            return g_param_spec_int(name, nick, blurb, lo, hi, d, flags)
        case .uint(let lo, let hi, let d):
            return g_param_spec_uint(name, nick, blurb, lo, hi, d, flags)
        case .bool(let d):
            return g_param_spec_boolean(name, nick, blurb, d ? 1 : 0, flags)
        case .string(let d):
            return g_param_spec_string(name, nick, blurb, d, flags)
        case .enumeration(let typeName, let nicks, let d):
            return g_param_spec_enum(name, nick, blurb, Self.enumType(typeName, nicks), Int32(d), flags)
        case .gstEnum(let getType, let d, _):
            return g_param_spec_enum(name, nick, blurb, getType(), d, flags)
        case .counter:
            return g_param_spec_uint64(name, nick, blurb, 0, guint64.max, 0, flags)
        case .readOnlyText:
            return g_param_spec_string(name, nick, blurb, nil, flags)
        }
    }

    /// A value as a user writes it: an enum by its nick (a refusal of orientation=custom
    /// named the value '9').
    func text(of value: PropertyValue) -> String {
        guard case .int(let index) = value else { return value.text }
        let nicks: [String]
        switch kind {
        case .enumeration(_, let names, _): nicks = names
        case .gstEnum(let getType, _, _): nicks = Self.nicks(of: getType())
        default: return value.text
        }
        return nicks.indices.contains(index) ? nicks[index] : value.text
    }

    /// The values an enum property takes, by nick (nil for other kinds).
    package var choices: [String]? {
        switch kind {
        case .enumeration(_, let nicks, _): return nicks
        case .gstEnum(let getType, _, let refused): return Self.nicks(of: getType()).filter { !refused.contains($0) }
        default: return nil
        }
    }

    /// The nicks of a registered enum type, in value order.
    static func nicks(of type: GType) -> [String] {
        guard let klass = g_type_class_ref(type) else { return [] }
        defer { g_type_class_unref(klass) }
        let enumClass = klass.assumingMemoryBound(to: GEnumClass.self).pointee
        return (0..<Int(enumClass.n_values)).map { String(cString: enumClass.values[$0].value_nick) }
    }

    static func enumType(_ typeName: String, _ nicks: [String]) -> GType {
        var cStrings = nicks.map { strdup($0) }
        defer { cStrings.forEach { free($0) } }
        return cStrings.withUnsafeMutableBufferPointer { buf in
            buf.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buf.count) {
                fc_register_enum(typeName, $0, guint(nicks.count))
            }
        }
    }
}

/// A property value in Swift terms.
public enum PropertyValue: Equatable, Sendable {
    case double(Double)
    case int(Int)
    case bool(Bool)
    case string(String?)
    case uint64(UInt64)

    /// The value as a user would have written it.
    var text: String {
        switch self {
        case .double(let v): return String(v)
        case .int(let v): return String(v)
        case .bool(let v): return v ? "true" : "false"
        case .string(let v): return v ?? ""
        case .uint64(let v): return String(v)
        }
    }

    init(reading value: UnsafePointer<GValue>, as kind: ElementProperty.Kind) {
        switch kind {
        case .double: self = .double(g_value_get_double(value))
        case .int: self = .int(Int(g_value_get_int(value)))
        case .uint: self = .int(Int(g_value_get_uint(value)))
        case .bool: self = .bool(g_value_get_boolean(value) != 0)
        case .string, .readOnlyText: self = .string(GValueReader.string(value))
        case .enumeration, .gstEnum: self = .int(Int(g_value_get_enum(value)))
        case .counter: self = .uint64(UInt64(g_value_get_uint64(value)))
        }
    }

    func write(to value: UnsafeMutablePointer<GValue>, as kind: ElementProperty.Kind) {
        switch (kind, self) {
        case (.double, .double(let v)): g_value_set_double(value, v)
        case (.int, .int(let v)): g_value_set_int(value, Int32(clamping: v))
        case (.uint, .int(let v)): g_value_set_uint(value, UInt32(clamping: v))
        case (.bool, .bool(let v)): g_value_set_boolean(value, v ? 1 : 0)
        case (.string, .string(let v)), (.readOnlyText, .string(let v)): g_value_set_string(value, v)
        case (.enumeration, .int(let v)), (.gstEnum, .int(let v)): g_value_set_enum(value, Int32(v))
        case (.counter, .uint64(let v)): g_value_set_uint64(value, guint64(v))
        default: break
        }
    }
}
