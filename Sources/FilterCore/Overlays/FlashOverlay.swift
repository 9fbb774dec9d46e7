/// The white flash a camera app shows while a still is captured: the live picture is
/// blended towards white, fading in and out over `duration` of stream time.
public struct FlashOverlay: Sendable {
    /// Total length of the flash in nanoseconds of stream time (about 0.4 s).
    public static let duration: UInt64 = 400_000_000
    /// Strongest blend towards white, at the middle of the flash.
    public static let peak = 0.8

    /// Blend weight at `elapsed` ns after the flash started: a triangle 0 → peak → 0.
    public static func weight(elapsed: UInt64) -> Double {
        guard elapsed < duration else { return 0 }
        let t = Double(elapsed) / Double(duration)
        return peak * (t < 0.5 ? t * 2 : (1 - t) * 2)
    }

    /// Blends every colour channel towards 255 by `weight` (0…1); alpha is kept.
    /// c' = c + ((255 − c) · w + 128) >> 8, with w = round(weight · 256).
    public static func apply(weight: Double, to frame: FrameView) {
        let w = UInt32((min(max(weight, 0), 1) * 256).rounded())
        guard w > 0 else { return }
        let alphaMask: UInt32 = 0xFF00_0000
        RowSplitter.shared.run(rows: frame.height, columns: frame.width) { rows in
            for y in rows {
                let row = frame.row(y)
                for x in 0..<frame.width {
                    let p = row[x]
                    let c0 = p & 0xFF, c1 = (p >> 8) & 0xFF, c2 = (p >> 16) & 0xFF
                    let n0 = c0 &+ (((255 &- c0) &* w &+ 128) >> 8)
                    let n1 = c1 &+ (((255 &- c1) &* w &+ 128) >> 8)
                    let n2 = c2 &+ (((255 &- c2) &* w &+ 128) >> 8)
                    row[x] = (p & alphaMask) | n0 | (n1 << 8) | (n2 << 16)
                }
            }
        }
    }
}

extension FlashOverlay {
    /// The same flash on a YUV frame: luma blended towards the matrix's white (235, or 255
    /// at full range) and chroma towards grey (128) by the same weight, which is what the
    /// RGB blend towards white does to the samples.
    public static func apply(weight: Double, to frame: YUVFrame) {
        let w = Int((min(max(weight, 0), 1) * 256).rounded())
        guard w > 0 else { return }
        let white = frame.matrix.fullRange ? 255 : 235
        func towards(_ target: Int) -> [UInt8] {
            (0..<256).map { c in UInt8(clamping: c + (((target - c) * w + (target >= c ? 128 : 127)) >> 8)) }
        }
        frame.mapLuma(towards(white))
        let grey = towards(128)
        frame.mapChroma(u: grey, v: grey)
    }
}
