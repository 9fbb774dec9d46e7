@testable import FilterCore
import XCTest

/// Exposure and posterize do the same arithmetic in every YUV layout, each reading and
/// writing its chroma its own way. NV12 has I420's chroma sites, so its samples equal
/// I420's for the same picture. A YUY2 or UYVY picture whose rows come in identical pairs
/// has, on each row, half the sums of I420's 2×2 site, and the same mean: `(2S + 2¹⁷) >> 18`
/// is `(S + 2¹⁶) >> 17`, so its samples equal I420's too. (I420 itself is checked against
/// videoconvert by the element tests.)
final class YUVChannelCurveLayoutTests: XCTestCase {
    private typealias Samples = (luma: [[UInt8]], u: [[UInt8]], v: [[UInt8]])

    /// Noise over the whole byte range, so dark pixels share sites with saturated chroma
    /// and the R′G′B′ values clamp; rows in identical pairs (the last alone at an odd height).
    private func noise(width w: Int, height h: Int) -> Samples {
        var state: UInt32 = 0x2545_F491
        func byte() -> UInt8 {
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt8(truncatingIfNeeded: state >> 24)
        }
        func rows(_ count: Int, _ width: Int) -> [[UInt8]] { (0..<count).map { _ in (0..<width).map { _ in byte() } } }
        let ch = (h + 1) / 2, cw = (w + 1) / 2
        return (rows(ch, w).flatMap { [$0, $0] }.prefix(h).map { $0 }, rows(ch, cw), rows(ch, cw))
    }

    /// `samples` in `format`: a packed frame's row y takes chroma row y / 2.
    private func buffer(_ format: YUVFormat, _ samples: Samples) -> YUVBuffer {
        let buffer = YUVBuffer(format: format, width: samples.luma[0].count, height: samples.luma.count)
        for (grid, rows) in zip(buffer.frame.sampleGrids, perRow(samples, format)) {
            for y in 0..<grid.height {
                for x in 0..<grid.width { grid.row(y)[x * grid.step] = rows[y][x] }
            }
        }
        return buffer
    }

    /// Luma, U and V rows as `format` keeps them: a packed frame has a chroma row per luma row.
    private func perRow(_ samples: Samples, _ format: YUVFormat) -> [[[UInt8]]] {
        let h = samples.luma.count
        func chroma(_ rows: [[UInt8]]) -> [[UInt8]] { format.isPacked ? (0..<h).map { rows[$0 / 2] } : rows }
        return [samples.luma, chroma(samples.u), chroma(samples.v)]
    }

    /// Every sample of `frame`, luma, U and V rows.
    private func read(_ frame: YUVFrame) -> [[[UInt8]]] {
        frame.sampleGrids.map { grid in (0..<grid.height).map { y in (0..<grid.width).map { grid.row(y)[$0 * grid.step] } } }
    }

    /// Where `a` and `b` first differ: "plane row column: a ≠ b".
    private func firstDifference(_ a: [[[UInt8]]], _ b: [[[UInt8]]]) -> String? {
        for (p, (pa, pb)) in zip(a, b).enumerated() {
            for (y, (ra, rb)) in zip(pa, pb).enumerated() where ra != rb {
                let x = (0..<min(ra.count, rb.count)).first { ra[$0] != rb[$0] } ?? min(ra.count, rb.count)
                return "plane \(p) row \(y) column \(x): \(ra.count > x ? ra[x] : 0) ≠ \(rb.count > x ? rb[x] : 0)"
            }
            if pa.count != pb.count { return "plane \(p): \(pa.count) ≠ \(pb.count) rows" }
        }
        return nil
    }

    /// `chain` on `buffer`'s frame, taken as having `matrix`.
    private func run(_ chain: String, _ buffer: YUVBuffer, _ matrix: YUVMatrix) throws {
        var frame = buffer.frame
        frame.matrix = matrix
        try FilterChain.parse(chain).makeFilters().apply(to: frame)
    }

    func testEveryLayoutGivesI420sSamplesForTheSamePicture() throws {
        for (w, h) in [(150, 6), (13, 7), (3, 1)] {
            let picture = noise(width: w, height: h)
            for chain in ["exposure ev=1", "exposure ev=-2", "posterize levels=3"] {
                for matrix in [YUVMatrix.bt601, .bt709.withFullRange(true)] {
                    let i420 = buffer(.i420, picture)
                    try run(chain, i420, matrix)
                    let result = read(i420.frame)
                    XCTAssertNotEqual(result[0], picture.luma, "\(chain) changed nothing")
                    let expected: Samples = (result[0], result[1], result[2])
                    for format in [YUVFormat.nv12, .yuy2, .uyvy] {
                        let other = buffer(format, picture)
                        try run(chain, other, matrix)
                        let difference = firstDifference(read(other.frame), perRow(expected, format))
                        XCTAssertNil(difference, "\(chain) \(format) \(w)x\(h) \(matrix)")
                    }
                }
            }
        }
    }
}
