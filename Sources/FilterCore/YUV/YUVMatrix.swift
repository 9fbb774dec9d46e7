/// How a YUV frame's samples relate to R′G′B′: the luma weights of the caps' colour matrix
/// and whether the samples use the full 0…255 range or the video range (Y 16…235,
/// chroma 16…240). Filters that compute colours (sepia) need it.
public struct YUVMatrix: Hashable, Sendable {
    public let kr: Double
    public let kb: Double
    public let fullRange: Bool

    public init(kr: Double, kb: Double, fullRange: Bool) {
        self.kr = kr; self.kb = kb; self.fullRange = fullRange
    }

    public static let bt601 = YUVMatrix(kr: 0.299, kb: 0.114, fullRange: false)
    public static let bt709 = YUVMatrix(kr: 0.2126, kb: 0.0722, fullRange: false)
    public static let bt2020 = YUVMatrix(kr: 0.2627, kb: 0.0593, fullRange: false)

    public func withFullRange(_ full: Bool) -> YUVMatrix { YUVMatrix(kr: kr, kb: kb, fullRange: full) }

    private var lumaScale: Double { fullRange ? 255 : 219 }
    private var chromaScale: Double { fullRange ? 255 : 224 }
    private var lumaOffset: Double { fullRange ? 0 : 16 }

    /// Luma sample → luma in 0…255 (R′G′B′ units).
    public func luma(_ y: Int) -> Double { (Double(y) - lumaOffset) * 255 / lumaScale }

    /// An R′G′B′ colour (0…255 each) as Y, U, V samples, rounded and clamped to 0…255.
    public func samples(r: Double, g: Double, b: Double) -> (y: UInt8, u: UInt8, v: UInt8) {
        let l = kr * r + (1 - kr - kb) * g + kb * b
        let y = lumaOffset + l * lumaScale / 255
        let u = 128 + (b - l) / (2 * (1 - kb)) * chromaScale / 255
        let v = 128 + (r - l) / (2 * (1 - kr)) * chromaScale / 255
        func byte(_ x: Double) -> UInt8 { UInt8(min(max(x.rounded(), 0), 255)) }
        return (byte(y), byte(u), byte(v))
    }
}
