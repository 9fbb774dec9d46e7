import XCTest
@testable import FilterCore

/// Full mono (and a flash's grey) set every chroma sample to one value through
/// `fillChroma`, a store-only path beside the table lookup of `mapChroma`: each format's
/// chroma becomes the value and no luma sample (nor a padding luma byte) changes.
final class YUVChromaFillTests: XCTestCase {
    /// A frame whose bytes count up from 1 (wrapping), so a changed byte shows.
    private func countingFrame(_ format: YUVFormat, _ w: Int, _ h: Int) -> YUVBuffer {
        let buffer = YUVBuffer(format: format, width: w, height: h)
        let count = buffer.packedBytes.count
        buffer.load(packed: (0..<count).map { UInt8(truncatingIfNeeded: $0 % 251 + 1) })
        return buffer
    }

    func testConstantTablesSetEveryChromaSampleAndKeepLuma() {
        for format in [YUVFormat.i420, .nv12, .yuy2, .uyvy] {
            for (w, h) in [(5, 3), (200, 130)] {
                let buffer = countingFrame(format, w, h)
                let before = buffer.packedBytes
                buffer.frame.mapChroma(u: Array(repeating: 100, count: 256), v: Array(repeating: 200, count: 256))
                let after = buffer.packedBytes
                // Where each format keeps its samples, written out from its layout.
                let lumaBytes = w * h, cw = (w + 1) / 2, ch = (h + 1) / 2
                for (i, (old, new)) in zip(before, after).enumerated() {
                    let expected: UInt8
                    switch format {
                    case .i420: expected = i < lumaBytes ? old : (i < lumaBytes + cw * ch ? 100 : 200)
                    case .nv12: expected = i < lumaBytes ? old : ((i - lumaBytes) % 2 == 0 ? 100 : 200)
                    case .yuy2: expected = [old, 100, old, 200][i % 4]
                    case .uyvy: expected = [100, old, 200, old][i % 4]
                    }
                    XCTAssertEqual(new, expected, "\(format) \(w)x\(h) byte \(i)")
                    if new != expected { break }
                }
            }
        }
    }
}
