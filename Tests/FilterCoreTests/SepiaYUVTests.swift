@testable import FilterCore
import XCTest

/// Sepia's tone on YUV samples in integers (`SepiaTone`) against the same formula in
/// floating point, computed here from its definition: the grey of the sample's luma, times
/// the sepia matrix's row sums, turned into samples by the frame's matrix and mixed with
/// the original by `intensity`.
final class SepiaYUVTests: XCTestCase {
    private let matrices: [(String, YUVMatrix)] = [
        ("BT.601", .bt601), ("BT.709", .bt709), ("BT.2020", .bt2020), ("BT.601 full range", YUVMatrix.bt601.withFullRange(true)),
    ]

    /// The tone's samples for luma sample `y`, in floating point.
    private func reference(_ y: Int, _ m: YUVMatrix) -> (y: Double, u: Double, v: Double) {
        let l = min(max(m.luma(y), 0), 255)
        let s = m.samples(r: min(255, 1.351 * l), g: min(255, 1.203 * l), b: min(255, 0.937 * l))
        return (Double(s.y), Double(s.u), Double(s.v))
    }

    func testLumaCurveIsTheFormulaWithinOne() {
        for (name, m) in matrices {
            for intensity in [0.3, 0.8, 1.0] {
                let tone = SepiaTone(m, intensity: intensity)
                for y in 0..<256 {
                    let expected = (Double(y) + intensity * (reference(y, m).y - Double(y))).rounded()
                    XCTAssertLessThanOrEqual(abs(Double(tone.map(UInt8(y), correction: 0)) - expected), 1,
                                             "\(name), intensity \(intensity), luma \(y)")
                }
            }
        }
    }

    func testChromaTowardsTheToneOfTheMeanLumaWithinOne() {
        for (name, m) in matrices {
            for intensity in [0.3, 0.8, 1.0] {
                let tone = SepiaTone(m, intensity: intensity)
                for mean in 0..<256 {
                    let t = tone.tone(Int32(mean)), r = reference(mean, m)
                    for c in [0, 77, 128, 200, 255] {
                        let u = (Double(c) + intensity * (r.u - Double(c))).rounded()
                        let v = (Double(c) + intensity * (r.v - Double(c))).rounded()
                        XCTAssertLessThanOrEqual(abs(Double(tone.mix(Int32(c), t.u)) - u), 1, "\(name) U, mean \(mean), chroma \(c)")
                        XCTAssertLessThanOrEqual(abs(Double(tone.mix(Int32(c), t.v)) - v), 1, "\(name) V, mean \(mean), chroma \(c)")
                    }
                }
            }
        }
    }

    /// A whole 4:2:0 site and a YUY2 macropixel come out as their samples through the tone:
    /// chroma from the site's mean grey as it was, each luma through the tone of its grey
    /// (its luma plus the site's chroma correction).
    func testFrameSitesTakeTheirMeanLumasTone() {
        let tone = SepiaTone(.bt601, intensity: 0.8)
        for format in [YUVFormat.i420, .nv12, .yuy2] {
            let frame = YUVBuffer(format: format, width: 2, height: 2)
            let lumas: [UInt8] = format == .yuy2 ? [40, 200] : [40, 200, 90, 250]
            let mean = (lumas.map(Int32.init).reduce(0, +) + Int32(lumas.count / 2)) / Int32(lumas.count)
            let c = tone.correction(60, 170)
            let t = tone.tone(mean + c)
            // I420 and NV12: four luma samples, then U and V; YUY2: two rows of Y0 U Y1 V.
            frame.load(packed: format == .yuy2 ? [40, 60, 200, 170, 40, 60, 200, 170] : [40, 200, 90, 250, 60, 170])
            SepiaFilter(intensity: 0.8).apply(to: frame.frame)   // BT.601
            let out = frame.packedBytes
            let expectedLuma = lumas.map { tone.map($0, correction: c) }
            switch format {
            case .i420, .nv12:
                XCTAssertEqual(Array(out[0..<4]), expectedLuma, "\(format)")
                XCTAssertEqual(Array(out[4..<6]), [tone.mix(60, t.u), tone.mix(170, t.v)], "\(format)")
            default:
                XCTAssertEqual(Array(out[4..<8]), Array(out[0..<4]), "both rows alike")
                XCTAssertEqual([out[0], out[2]], expectedLuma, "\(format)")
                XCTAssertEqual([out[1], out[3]], [tone.mix(60, t.u), tone.mix(170, t.v)], "\(format)")
            }
        }
    }

    /// Flat colours (chroma the same over each site), BT.601 and BT.709, video and full
    /// range: the YUV result is the RGB filter's, computed here from its matrix in floating
    /// point and turned into samples, within ±2. Saturated greens and blues lay 5 (BT.601)
    /// and 24 (BT.709) levels off while the grey was the luma alone.
    func testFlatColoursMatchTheRGBFilterWithinTwo() {
        let sepia: [[Double]] = [[0.393, 0.769, 0.189], [0.349, 0.686, 0.168], [0.272, 0.534, 0.131]]
        let levels: [Double] = [0, 40, 100, 160, 220, 255]
        for (name, m) in matrices {
            for intensity in [0.8, 1.0] {
                for r in levels { for g in levels { for b in levels {
                    let rgb = [r, g, b]
                    let s = sepia.map { row in min(255, zip(row, rgb).map(*).reduce(0, +)) }
                    let mixed = (0..<3).map { rgb[$0] + intensity * (s[$0] - rgb[$0]) }
                    let source = m.samples(r: r, g: g, b: b), expected = m.samples(r: mixed[0], g: mixed[1], b: mixed[2])
                    for format in [YUVFormat.i420, .yuy2] {
                        let frame = YUVBuffer(format: format, width: 2, height: 2)
                        frame.load(packed: format == .yuy2 ? Array(repeating: [source.y, source.u, source.y, source.v], count: 2).flatMap { $0 }
                                                           : [source.y, source.y, source.y, source.y, source.u, source.v])
                        var view = frame.frame
                        view.matrix = m
                        SepiaFilter(intensity: intensity).apply(to: view)
                        let out = frame.packedBytes
                        let got = format == .yuy2 ? (out[0], out[1], out[3]) : (out[0], out[4], out[5])
                        for (a, e, what) in [(got.0, expected.y, "Y"), (got.1, expected.u, "U"), (got.2, expected.v, "V")] {
                            XCTAssertLessThanOrEqual(abs(Int(a) - Int(e)), 2, "\(name) \(format) intensity \(intensity) RGB \(rgb) \(what)")
                        }
                    }
                }}}
            }
        }
    }

    /// A YUY2 frame of odd width ends in a macropixel whose second luma is padding: it is
    /// left alone, and the chroma takes the tone of the first luma.
    func testOddWidthsLastMacropixelTakesItsOneLumasTone() {
        let tone = SepiaTone(.bt601, intensity: 1)
        let frame = YUVBuffer(format: .yuy2, width: 3, height: 1)
        let row: [UInt8] = [30, 60, 90, 170, 220, 100, 7, 140]
        frame.load(packed: Array(row[0..<frame.packedBytes.count]))
        SepiaFilter(intensity: 1).apply(to: frame.frame)
        let c = tone.correction(100, 140)
        let out = frame.packedBytes, last = tone.tone(220 + c)
        XCTAssertEqual(Array(out[4..<8]), [tone.map(220, correction: c), tone.mix(100, last.u), 7, tone.mix(140, last.v)])
    }
}
