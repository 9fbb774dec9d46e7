/// The 4-byte-per-pixel layouts FilterCam works on, named as GStreamer names them.
///
/// Kernels read a pixel as one little-endian `UInt32`; `redShift`/`blueShift` say where
/// the colour channels sit in it, so one kernel serves every layout.
public enum PixelFormat: String, CaseIterable, Sendable {
    case bgra = "BGRA"
    case bgrx = "BGRx"
    case rgba = "RGBA"
    case rgbx = "RGBx"

    /// Byte offsets of the channels inside a pixel.
    public var redByte: Int { self == .bgra || self == .bgrx ? 2 : 0 }
    public var greenByte: Int { 1 }
    public var blueByte: Int { self == .bgra || self == .bgrx ? 0 : 2 }
    public var alphaByte: Int { 3 }

    /// Bit shifts of the channels inside a little-endian 32-bit pixel.
    public var redShift: UInt32 { UInt32(redByte * 8) }
    public var greenShift: UInt32 { 8 }
    public var blueShift: UInt32 { UInt32(blueByte * 8) }
    public var alphaShift: UInt32 { 24 }

    /// Whether the fourth byte carries alpha (`x` formats: padding, kept as it was).
    public var hasAlpha: Bool { self == .bgra || self == .rgba }

    /// True when red is the byte at offset 0.
    public var isRGBOrder: Bool { redByte == 0 }

    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
}
