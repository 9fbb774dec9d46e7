@testable import FilterCore
import XCTest

/// `mapLuma` / `mapChroma` with tables that are lines of slope ±1 (mapped by arithmetic) and
/// with tables that are not (looked up), in every layout, against each sample by hand.
final class YUVSampleMapTests: XCTestCase {
    private func noise(_ count: Int) -> [UInt8] {
        var state: UInt32 = 7
        return (0..<count).map { _ in
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt8(truncatingIfNeeded: state >> 24)
        }
    }

    func testUnitSlopeIsFoundOnlyWhereEveryEntryLiesOnTheLine() {
        func line(_ table: [UInt8]) -> UnitSlope? { table.withUnsafeBufferPointer { UnitSlope($0) } }
        let invert = (0..<256).map { UInt8(max(251 - $0, 0)) }
        XCTAssertEqual(line(invert).map { [$0.base, $0.slope] }, [251, -1])
        XCTAssertEqual(line((0..<256).map { UInt8(min($0 + 10, 255)) }).map { [$0.base, $0.slope] }, [10, 1])
        var bent = invert
        bent[3] &+= 1
        XCTAssertNil(line(bent))
        XCTAssertNil(line((0..<256).map { UInt8($0 / 2) }))
    }

    func testMappedSamplesMatchTheTableInEveryLayout() {
        let tables: [[UInt8]] = [(0..<256).map { UInt8(max(251 - $0, 0)) },          // invert: a line
                                 (0..<256).map { UInt8(min(256 - $0, 255)) },
                                 (0..<256).map { UInt8(($0 * $0) / 255) }]           // a curve: looked up
        for format in YUVFormat.allCases {
            for (w, h) in [(7, 5), (32, 4)] {
                for table in tables {
                    let buffer = YUVBuffer(format: format, width: w, height: h)
                    let input = noise(buffer.packedBytes.count)
                    buffer.load(packed: input)
                    let before = (buffer.frame.lumaGrid, buffer.frame.chromaGrid(v: false), buffer.frame.chromaGrid(v: true))
                    func samples(_ g: SampleGrid) -> [UInt8] {
                        (0..<g.height).flatMap { y in (0..<g.width).map { g.row(y)[$0 * g.step] } }
                    }
                    let luma = samples(before.0), u = samples(before.1), v = samples(before.2)
                    buffer.frame.mapLuma(table)
                    buffer.frame.mapChroma(u: table, v: table)
                    XCTAssertEqual(samples(buffer.frame.lumaGrid), luma.map { table[Int($0)] }, "\(format) \(w)x\(h) luma")
                    XCTAssertEqual(samples(buffer.frame.chromaGrid(v: false)), u.map { table[Int($0)] }, "\(format) \(w)x\(h) U")
                    XCTAssertEqual(samples(buffer.frame.chromaGrid(v: true)), v.map { table[Int($0)] }, "\(format) \(w)x\(h) V")
                }
            }
        }
    }
}
