/// How `filtercamsrc`'s camera-control properties become V4L2 control writes: a pure table
/// over control names as `v4l2-ctl --list-ctrls` prints them (the kernel's control name,
/// lower-cased, every run of other characters made one `_`), so it can be tested without
/// a camera. Each property lists the names it looks for, first present wins:
///
/// | property         | V4L2 controls (UVC and V4L2 names)                                        |
/// |------------------|---------------------------------------------------------------------------|
/// | torch            | led1_mode (0 off, 1 on) · led_mode (0 none, 2 torch)                       |
/// | focus-mode       | focus_automatic_continuous · focus_auto (locked 0, continuous 1);          |
/// |                  | auto = once: auto_focus_start after switching continuous off, else 1       |
/// | focus-position   | focus_absolute (0–1 spans min–max), continuous autofocus off first         |
/// | exposure-bias    | auto_exposure_bias (0.001 EV, integer menu: nearest item) ·               |
/// |                  | brightness (approximation: ±4 EV spans default → max / min)               |
/// | exposure-time    | exposure_time_absolute · exposure_absolute (100 µs units), after          |
/// |                  | auto_exposure (exposure_auto) = 1 manual and exposure_dynamic_framerate    |
/// |                  | (exposure_auto_priority) = 0; 0 µs = auto: auto_exposure = 3 (aperture     |
/// |                  | priority) once iso is auto too                                             |
/// | iso              | iso_sensitivity (integer menu, iso_sensitivity_auto = 0 first) ·           |
/// |                  | gain (ISO 100–3200 spans min–max, auto gain and auto exposure off first);  |
/// |                  | 0 = auto                                                                   |
/// | white-balance    | white_balance_temperature (K), after white_balance_automatic ·             |
/// |                  | white_balance_temperature_auto · auto_white_balance = 0                    |
/// |                  | (or auto_n_preset_white_balance = 0 manual); 0 = auto on again              |
/// | tint             | red_balance and blue_balance (±150 spans default → max / min; magenta +)   |
/// | zoom             | zoom_absolute (×min when min > 0, as UVC's 100 = 1×; else 1–10 spans range)|
///
/// Automatic modes are always written before the manual value they would override, as
/// V4L2 drivers refuse (EACCES/EBUSY) manual values while the automatic mode is on.
public enum V4L2ControlMap {
    /// The camera-control properties of `filtercamsrc`, in table order.
    public static let properties = ["torch", "focus-mode", "focus-position", "exposure-bias", "exposure-time",
                                    "iso", "white-balance", "tint", "zoom"]

    /// Every control name each property may write (for `filtercam devices` and the docs).
    public static let controlNames: [String: [String]] = [
        "torch": ["led1_mode", "led_mode"],
        "focus-mode": focusAutoNames + ["auto_focus_start"],
        "focus-position": ["focus_absolute"] + focusAutoNames,
        "exposure-bias": ["auto_exposure_bias", "brightness"],
        "exposure-time": exposureTimeNames + autoExposureNames + dynamicFramerateNames,
        "iso": ["iso_sensitivity", "iso_sensitivity_auto", "gain"] + autoGainNames + autoExposureNames,
        "white-balance": ["white_balance_temperature"] + whiteBalanceAutoNames + ["auto_n_preset_white_balance"],
        "tint": ["red_balance", "blue_balance"] + whiteBalanceAutoNames,
        "zoom": ["zoom_absolute"],
    ]

    static let focusAutoNames = ["focus_automatic_continuous", "focus_auto"]
    static let autoExposureNames = ["auto_exposure", "exposure_auto"]
    static let exposureTimeNames = ["exposure_time_absolute", "exposure_absolute"]
    static let dynamicFramerateNames = ["exposure_dynamic_framerate", "exposure_auto_priority"]
    static let autoGainNames = ["gain_automatic", "auto_gain"]
    static let whiteBalanceAutoNames = ["white_balance_automatic", "white_balance_temperature_auto", "auto_white_balance"]

    /// `auto_exposure` menu values (V4L2_EXPOSURE_*).
    static let exposureManual: Int64 = 1
    static let exposureAperturePriority: Int64 = 3

    /// The property that drives a control, if any (`filtercam devices`).
    public static func property(controlling name: String) -> String? {
        properties.first { controlNames[$0]?.contains(name) ?? false }
    }

    /// v4l2-ctl's name for a kernel control name ("Focus, Automatic Continuous" →
    /// "focus_automatic_continuous").
    public static func variableName(_ controlName: String) -> String {
        var out = ""
        var pendingUnderscore = false
        for scalar in controlName.unicodeScalars {
            let isAlnum = (scalar.value < 128) && (("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar))
            if isAlnum {
                if pendingUnderscore { out += "_" }
                pendingUnderscore = false
                out += String(scalar).lowercased()
            } else if !out.isEmpty {
                pendingUnderscore = true
            }
        }
        return out
    }

    /// The writes, in order, that apply `control` to a device with `controls` (by
    /// v4l2-ctl name); `settings` are the other exposure settings in force (iso and
    /// exposure time share the automatic exposure mode). Nothing is written when a
    /// required control is missing.
    public static func writes(for control: CameraControl, on controls: [String: V4L2ControlInfo],
                              settings: CameraControlSettings = CameraControlSettings()) throws(MissingControl) -> [V4L2ControlWrite] {
        func first(_ names: [String]) -> V4L2ControlInfo? { names.lazy.compactMap { controls[$0] }.first }
        func require(_ names: [String]) throws(MissingControl) -> V4L2ControlInfo {
            guard let c = first(names) else { throw MissingControl(property: control.propertyName, candidates: names) }
            return c
        }
        func write(_ c: V4L2ControlInfo, _ value: Int64) -> V4L2ControlWrite {
            V4L2ControlWrite(name: c.name, value: c.clamped(value))
        }
        var out: [V4L2ControlWrite] = []
        switch control {
        case .torch(let on):
            if let led1 = controls["led1_mode"] {
                out.append(write(led1, on ? 1 : 0))
            } else {
                let led = try require(["led1_mode", "led_mode"])
                out.append(write(led, on ? 2 : 0))
            }
        case .focusMode(let mode):
            let auto = try require(focusAutoNames)
            switch mode {
            case .locked: out.append(write(auto, 0))
            case .continuous: out.append(write(auto, 1))
            case .auto:
                if let start = controls["auto_focus_start"] {
                    out += [write(auto, 0), write(start, 1)]
                } else {
                    out.append(write(auto, 1))
                }
            }
        case .focusPosition(let p):
            let absolute = try require(["focus_absolute"])
            if let auto = first(focusAutoNames) { out.append(write(auto, 0)) }
            out.append(write(absolute, absolute.spanning(p)))
        case .exposureBias(let ev):
            let c = try require(["auto_exposure_bias", "brightness"])
            if c.name == "auto_exposure_bias" {
                let milli = Int64((ev * 1000).rounded())
                out.append(V4L2ControlWrite(name: c.name, value: c.menuValues.isEmpty ? c.clamped(milli) : c.nearestMenuIndex(to: milli)))
            } else {
                let range = ev >= 0 ? Double(c.maximum - c.defaultValue) : Double(c.defaultValue - c.minimum)
                out.append(write(c, c.defaultValue + Int64((ev / 4 * range).rounded())))
            }
        case .exposureTime(let micros):
            let mode = first(autoExposureNames)
            if micros > 0 {
                let time = try require(exposureTimeNames)
                if let mode { out.append(write(mode, exposureManual)) }
                if let dynamic = first(dynamicFramerateNames) { out.append(write(dynamic, 0)) }
                out.append(write(time, Int64((Double(micros) / 100).rounded())))
            } else {
                let mode = try require(autoExposureNames)
                if settings.iso == 0 || controls["iso_sensitivity"] != nil {
                    out.append(write(mode, exposureAperturePriority))
                }
            }
        case .iso(let iso):
            if let sensitivity = controls["iso_sensitivity"] {
                let auto = controls["iso_sensitivity_auto"]
                if iso > 0 {
                    if let auto { out.append(write(auto, 0)) }
                    out.append(V4L2ControlWrite(name: sensitivity.name, value: sensitivity.menuValues.isEmpty
                        ? sensitivity.clamped(Int64(iso)) : sensitivity.nearestMenuIndex(to: Int64(iso))))
                } else if let auto {
                    out.append(write(auto, 1))
                }
            } else {
                let gain = try require(["iso_sensitivity", "gain"])
                let autoGain = first(autoGainNames), mode = first(autoExposureNames)
                if iso > 0 {
                    if let autoGain { out.append(write(autoGain, 0)) }
                    if let mode { out.append(write(mode, exposureManual)) }
                    out.append(write(gain, gain.spanning((Double(iso) - 100) / 3100)))
                } else {
                    if let autoGain { out.append(write(autoGain, 1)) }
                    if let mode, settings.exposureTime == 0 { out.append(write(mode, exposureAperturePriority)) }
                }
            }
        case .whiteBalance(let kelvin):
            let auto = first(whiteBalanceAutoNames)
            let preset = controls["auto_n_preset_white_balance"]
            if kelvin > 0 {
                let temperature = try require(["white_balance_temperature"])
                if let auto { out.append(write(auto, 0)) } else if let preset { out.append(write(preset, 0)) }
                out.append(write(temperature, Int64(kelvin)))
            } else {
                if let auto { out.append(write(auto, 1)) } else {
                    let preset = try require(whiteBalanceAutoNames + ["auto_n_preset_white_balance"])
                    out.append(write(preset, 1))
                }
            }
        case .tint(let tint):
            let red = try require(["red_balance"]), blue = try require(["blue_balance"])
            if let auto = first(whiteBalanceAutoNames) { out.append(write(auto, 0)) }
            for c in [red, blue] {
                let range = tint >= 0 ? Double(c.maximum - c.defaultValue) : Double(c.defaultValue - c.minimum)
                out.append(write(c, c.defaultValue + Int64((Double(tint) / 150 * range).rounded())))
            }
        case .zoom(let z):
            let zoom = try require(["zoom_absolute"])
            let value = zoom.minimum > 0 ? Int64((Double(zoom.minimum) * z).rounded()) : zoom.spanning((z - 1) / 9)
            out.append(write(zoom, value))
        }
        return out
    }
}

/// One camera-control property value.
public enum CameraControl: Equatable, Sendable {
    case torch(Bool)
    case focusMode(FocusMode)
    /// 0 = nearest, 1 = farthest, over the lens's range.
    case focusPosition(Double)
    /// EV, -4…4.
    case exposureBias(Double)
    /// µs; 0 = automatic.
    case exposureTime(Int)
    /// 0 = automatic.
    case iso(Int)
    /// Kelvin 2000–10000; 0 = automatic.
    case whiteBalance(Int)
    /// -150 (green) … 150 (magenta).
    case tint(Int)
    /// 1…10.
    case zoom(Double)

    public var propertyName: String {
        switch self {
        case .torch: return "torch"
        case .focusMode: return "focus-mode"
        case .focusPosition: return "focus-position"
        case .exposureBias: return "exposure-bias"
        case .exposureTime: return "exposure-time"
        case .iso: return "iso"
        case .whiteBalance: return "white-balance"
        case .tint: return "tint"
        case .zoom: return "zoom"
        }
    }
}

public enum FocusMode: String, CaseIterable, Sendable {
    case locked, auto, continuous
}

/// The exposure settings that decide whether automatic exposure may come back on.
public struct CameraControlSettings: Equatable, Sendable {
    public var exposureTime: Int
    public var iso: Int
    public init(exposureTime: Int = 0, iso: Int = 0) {
        self.exposureTime = exposureTime
        self.iso = iso
    }
}

/// A control as VIDIOC_QUERYCTRL describes it, under its v4l2-ctl name.
public struct V4L2ControlInfo: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        case integer, boolean, menu, button, integerMenu, other(Int32)
        /// From V4L2_CTRL_TYPE_*.
        public init(v4l2Type t: Int32) {
            switch t {
            case 1: self = .integer
            case 2: self = .boolean
            case 3: self = .menu
            case 4: self = .button
            case 9: self = .integerMenu
            default: self = .other(t)
            }
        }
        public var name: String {
            switch self {
            case .integer: return "int"
            case .boolean: return "bool"
            case .menu: return "menu"
            case .button: return "button"
            case .integerMenu: return "intmenu"
            case .other(let t): return "type \(t)"
            }
        }
    }

    public var name: String
    public var id: UInt32
    public var kind: Kind
    public var minimum: Int64
    public var maximum: Int64
    public var step: Int64
    public var defaultValue: Int64
    /// Integer menus: index → value; menus: index → item name.
    public var menuValues: [Int64: Int64]
    public var menuNames: [Int64: String]

    public init(name: String, id: UInt32 = 0, kind: Kind = .integer, minimum: Int64 = 0, maximum: Int64 = 1,
                step: Int64 = 1, defaultValue: Int64 = 0, menuValues: [Int64: Int64] = [:], menuNames: [Int64: String] = [:]) {
        self.name = name
        self.id = id
        self.kind = kind
        self.minimum = minimum
        self.maximum = maximum
        self.step = step
        self.defaultValue = defaultValue
        self.menuValues = menuValues
        self.menuNames = menuNames
    }

    /// `value` inside [minimum, maximum], on a step.
    func clamped(_ value: Int64) -> Int64 {
        if kind == .button { return 1 }   // buttons report 0…0; any write presses them
        let v = min(max(value, minimum), maximum)
        guard step > 1 else { return v }
        let snapped = minimum + ((v - minimum) + step / 2) / step * step
        return snapped > maximum ? snapped - step : snapped
    }

    /// `fraction` (0–1) of the way from minimum to maximum.
    func spanning(_ fraction: Double) -> Int64 {
        let f = min(max(fraction, 0), 1)
        return minimum + Int64((Double(maximum - minimum) * f).rounded())
    }

    /// The index of the integer-menu item nearest to `value`.
    func nearestMenuIndex(to value: Int64) -> Int64 {
        menuValues.min { a, b in
            let da = abs(a.value - value), db = abs(b.value - value)
            return da != db ? da < db : a.key < b.key
        }?.key ?? clamped(value)
    }
}

/// One control write: `name=value`, as `v4l2-ctl --set-ctrl` takes it.
public struct V4L2ControlWrite: Equatable, Sendable, CustomStringConvertible {
    public var name: String
    public var value: Int64
    public init(name: String, value: Int64) {
        self.name = name
        self.value = value
    }
    public var description: String { "\(name)=\(value)" }
}

/// A property the camera has no control for.
public struct MissingControl: Error, Equatable, CustomStringConvertible {
    public let property: String
    public let candidates: [String]
    public var description: String {
        "has no control for \(property) (looked for \(candidates.joined(separator: ", ")))"
    }
}
