/// The catalog filters that run natively on YUV planes. Each states how close it comes to
/// its RGB result taken through `videoconvert` (checked by the element tests).

extension NoneFilter: YUVFilter {
    func apply(to frame: YUVFrame) {}
    var yuvTolerance: String { "exact (nothing changes)" }
}

/// Mono keeps the luma and pulls the chroma to neutral (128) by `intensity`, as
/// `videobalance saturation=1−k` does. The grey is the frame's own luma, so it equals the
/// RGB result through videoconvert within ±2 for BT.601 frames; for BT.709 frames the grey
/// follows BT.709's weights instead of Rec.601's.
extension MonoFilter: YUVFilter {
    func apply(to frame: YUVFrame) {
        let table = YUVTables.towardsNeutral(keep: 1 - intensity)
        frame.mapChroma(u: table, v: table)
    }
    var yuvTolerance: String { "±2 per sample on BT.601 frames (the grey is the frame's own luma)" }
}

/// Invert mirrors each sample within its range: luma `235 + 16 − Y` (video range) or
/// `255 − Y` (full), chroma `256 − C`, mixed with the original by `intensity`. These are
/// exactly the negative of the R′G′B′ picture, so within ±2 of the RGB result.
extension InvertFilter: YUVFilter {
    func apply(to frame: YUVFrame) {
        let top = frame.matrix.fullRange ? 255 : 251
        let luma = YUVTables.mix((0..<256).map { top - $0 }, intensity)
        let chroma = YUVTables.mix((0..<256).map { 256 - $0 }, intensity)
        frame.mapLuma(luma)
        frame.mapChroma(u: chroma, v: chroma)
    }
    var yuvTolerance: String { "±2 per sample" }
}

/// Tables of one sample to one sample.
enum YUVTables {
    /// Chroma `128 + (c − 128)·keep`, rounded.
    static func towardsNeutral(keep: Double) -> [UInt8] {
        (0..<256).map { UInt8(min(max((128 + Double($0 - 128) * keep).rounded(), 0), 255)) }
    }

    /// `c + k (target[c] − c)`, rounded and clamped.
    static func mix(_ target: [Int], _ k: Double) -> [UInt8] {
        (0..<256).map { c in UInt8(min(max((Double(c) + k * Double(target[c] - c)).rounded(), 0), 255)) }
    }
}
