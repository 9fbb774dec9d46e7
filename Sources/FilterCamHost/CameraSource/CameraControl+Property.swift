import FilterCore

/// A camera control as the property that sets it: one switch each way, so the source
/// keeps a control in one place (`CameraSourceElement.Settings.controls`).
extension CameraControl {
    /// The control a property value sets; nil when `name` is not a camera control.
    init?(property name: String, _ value: PropertyValue) {
        switch (name, value) {
        case ("torch", .bool(let v)): self = .torch(v)
        case ("focus-mode", .int(let v)): self = .focusMode(FocusMode.allCases[v])
        case ("focus-position", .double(let v)): self = .focusPosition(v)
        case ("exposure-bias", .double(let v)): self = .exposureBias(v)
        case ("exposure-time", .int(let v)): self = .exposureTime(v)
        case ("iso", .int(let v)): self = .iso(v)
        case ("white-balance", .int(let v)): self = .whiteBalance(v)
        case ("tint", .int(let v)): self = .tint(v)
        case ("zoom", .double(let v)): self = .zoom(v)
        default: return nil
        }
    }

    /// The value its property reads.
    var propertyValue: PropertyValue {
        switch self {
        case .torch(let v): return .bool(v)
        case .focusMode(let m): return .int(FocusMode.allCases.firstIndex(of: m)!)
        case .focusPosition(let v), .exposureBias(let v), .zoom(let v): return .double(v)
        case .exposureTime(let v), .iso(let v), .whiteBalance(let v), .tint(let v): return .int(v)
        }
    }
}
