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
        guard intensity > 0 else { return }
        frame.map(luma: nil, chroma: .towardsNeutral(keep: 1 - intensity))
    }
    var yuvTolerance: String { "±2 per sample on BT.601 frames (the grey is the frame's own luma)" }
}

/// Invert mirrors each sample within its range: luma `235 + 16 − Y` (video range) or
/// `255 − Y` (full), chroma `256 − C`, mixed with the original by `intensity`. These are
/// exactly the negative of the R′G′B′ picture, so within ±2 of the RGB result.
extension InvertFilter: YUVFilter {
    func apply(to frame: YUVFrame) {
        guard intensity > 0 else { return }
        // c + k·(top − c − c): a line of slope 1 − 2k.
        let top = frame.matrix.fullRange ? 255.0 : 251, k = intensity
        frame.map(luma: SampleLine(offset: k * top, slope: 1 - 2 * k), chroma: SampleLine(offset: k * 256, slope: 1 - 2 * k))
    }
    var yuvTolerance: String { "±2 per sample" }
}

/// Tables of one sample to one sample.
enum YUVTables {
    /// `c + k (target[c] − c)`, rounded and clamped.
    static func mix(_ target: [Int], _ k: Double) -> [UInt8] {
        (0..<256).map { c in UInt8(min(max((Double(c) + k * Double(target[c] - c)).rounded(), 0), 255)) }
    }
}
