@testable import FilterCore
import XCTest

/// Mapping each sample on its own: through lines (`map(luma:chroma:)`, arithmetic, one pass
/// over a packed frame) and through tables (`mapLuma` / `mapChroma`, looked up), in every
/// layout, against each sample by hand.
final class YUVSampleMapTests: XCTestCase {
    private func noise(_ count: Int) -> [UInt8] {
        var state: UInt32 = 7
        return (0..<count).map { _ in
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt8(truncatingIfNeeded: state >> 24)
        }
    }

    /// A frame of noise in `format`, and its luma, U and V samples before and after `change`.
    /// The last entry of each is the frame's bytes, padding included.
    private func samples(_ format: YUVFormat, _ w: Int, _ h: Int, _ change: (YUVFrame) -> Void)
        -> (before: [[UInt8]], after: [[UInt8]]) {
        let buffer = YUVBuffer(format: format, width: w, height: h)
        buffer.load(packed: noise(buffer.packedBytes.count))
        func read(_ g: SampleGrid) -> [UInt8] { (0..<g.height).flatMap { y in (0..<g.width).map { g.row(y)[$0 * g.step] } } }
        func all() -> [[UInt8]] {
            [read(buffer.frame.lumaGrid), read(buffer.frame.chromaGrid(v: false)), read(buffer.frame.chromaGrid(v: true)),
             buffer.packedBytes]
        }
        let before = all()
        change(buffer.frame)
        return (before, all())
    }

    func testASampleLineIsTheLineRoundedHalfUp() {
        // Values by hand: 251 − c (invert at full intensity), clamped at 0.
        let invert = SampleLine(offset: 251, slope: -1)
        XCTAssertEqual([0, 100, 251, 252, 255].map { invert.map($0) }, [251, 151, 0, 0, 0])
        // 64 + c/2 (mono at half intensity): odd c lands on a half, which rounds up.
        let half = SampleLine.towardsNeutral(keep: 0.5)
        XCTAssertEqual([0, 1, 3, 128, 255].map { half.map($0) }, [64, 65, 66, 128, 192])
        // 75.3 + 0.4 c (invert at 0.3) meets halves exactly (c = 3, 8, …), which round up;
        // offset and slope are not exact in binary.
        let third = SampleLine(offset: 0.3 * 251, slope: 0.4)
        XCTAssertEqual([3, 8, 208, 255].map { third.map($0) }, [77, 79, 159, 177])
        // Against the line in exact arithmetic (tenths of an intensity, in integers) over
        // every sample: different only less than 2⁻¹² below a half.
        for tenths in 1...9 {
            let k = Double(tenths) / 10, line = SampleLine(offset: k * 251, slope: 1 - 2 * k)
            for c in 0...255 {
                // 10 × (k · 251 + (1 − 2k) c), exactly.
                let tenfold = tenths * 251 + (10 - 2 * tenths) * c
                let rounded = UInt8(min(max(tenfold + 5, 0) / 10, 255))   // halves up, clamped
                XCTAssertEqual(line.map(UInt8(c)), rounded, "k \(k), c \(c)")
            }
        }
    }

    func testLinesMapEverySampleInEveryLayout() {
        let luma = SampleLine(offset: 0.3 * 251, slope: 0.4), chroma = SampleLine.towardsNeutral(keep: 0.35)
        for format in YUVFormat.allCases {
            for (w, h) in [(7, 5), (32, 4)] {
                let both = samples(format, w, h) { $0.map(luma: luma, chroma: chroma) }
                XCTAssertEqual(both.after[0], both.before[0].map(luma.map), "\(format) \(w)x\(h) luma")
                XCTAssertEqual(both.after[1], both.before[1].map(chroma.map), "\(format) \(w)x\(h) U")
                XCTAssertEqual(both.after[2], both.before[2].map(chroma.map), "\(format) \(w)x\(h) V")
                if format.isPacked, w % 2 == 1 {   // the padding luma of each row's last macropixel stays
                    let rowBytes = 4 * ((w + 1) / 2), padding = rowBytes - 4 + format.packedOffsets.y1
                    for y in 0..<h {
                        XCTAssertEqual(both.after[3][y * rowBytes + padding], both.before[3][y * rowBytes + padding], "\(format) padding")
                    }
                }
                let chromaOnly = samples(format, w, h) { $0.map(luma: nil, chroma: chroma) }
                XCTAssertEqual(chromaOnly.after[0], chromaOnly.before[0], "\(format) \(w)x\(h) luma kept")
                XCTAssertEqual(chromaOnly.after[2], chromaOnly.before[2].map(chroma.map), "\(format) \(w)x\(h) V")
                let grey = samples(format, w, h) { $0.map(luma: nil, chroma: .towardsNeutral(keep: 0)) }
                XCTAssertEqual(grey.after[0], grey.before[0], "\(format) \(w)x\(h) luma kept")
                XCTAssertEqual(Set(grey.after[1] + grey.after[2]), [128], "\(format) \(w)x\(h) chroma filled")
            }
        }
    }

    func testTablesMapEverySampleInEveryLayout() {
        let tables: [[UInt8]] = [(0..<256).map { UInt8(max(251 - $0, 0)) },
                                 (0..<256).map { UInt8(($0 * $0) / 255) }]
        for format in YUVFormat.allCases {
            for (w, h) in [(7, 5), (32, 4)] {
                for table in tables {
                    let s = samples(format, w, h) { frame in
                        frame.mapLuma(table)
                        frame.mapChroma(u: table, v: table)
                    }
                    for (i, plane) in ["luma", "U", "V"].enumerated() {
                        XCTAssertEqual(s.after[i], s.before[i].map { table[Int($0)] }, "\(format) \(w)x\(h) \(plane)")
                    }
                }
            }
        }
    }
}
