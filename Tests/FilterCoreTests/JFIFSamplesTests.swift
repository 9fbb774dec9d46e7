@testable import FilterCore
import XCTest

/// A still's samples carried into JPEG's (full-range BT.601), checked against samples
/// computed by hand from the colour's R′G′B′.
final class JFIFSamplesTests: XCTestCase {
    /// A frame of `format` with every luma `y` and every chroma `u`, `v`, in `matrix`.
    private func flat(_ format: YUVFormat, _ matrix: YUVMatrix, y: UInt8, u: UInt8, v: UInt8) -> YUVFrame {
        let buffer = YUVBuffer(format: format, width: 6, height: 4)
        var frame = buffer.frame
        frame.matrix = matrix
        frame.mapLuma([UInt8](repeating: y, count: 256))
        frame.fillChroma(u: u, v: v)
        retained.append(buffer)
        return frame
    }
    private var retained: [YUVBuffer] = []

    private func samples(_ frame: YUVFrame) -> Set<[UInt8]> {
        let l = frame.lumaGrid, u = frame.chromaGrid(v: false), v = frame.chromaGrid(v: true)
        return Set((0..<l.height).flatMap { y in (0..<l.width).map { x in
            [l.row(y)[x * l.step], u.row(y / (l.height / u.height))[(x / (l.width / u.width)) * u.step],
             v.row(y / (l.height / v.height))[(x / (l.width / v.width)) * v.step]]
        } })
    }

    func testVideoRangeWhiteBlackAndBlueBecomeTheFileSamplesComputedByHand() {
        // Video-range BT.601: white Y 235, black Y 16, blue (0,0,255) Y 41 U 240 V 110.
        // In a JPEG: white Y 255, black Y 0, blue Y 0.114·255 = 29.07, U 128 + 127.5 = 255.5
        // (clamped 255), V 128 − 0.0813·255 = 107.3.
        for format in YUVFormat.allCases {
            for (input, expected) in [([235, 128, 128], [255, 128, 128]), ([16, 128, 128], [0, 128, 128]),
                                      ([41, 240, 110], [29, 255, 107])] as [([UInt8], [UInt8])] {
                let frame = flat(format, .bt601, y: input[0], u: input[1], v: input[2])
                frame.convertSamples(to: .jfif)
                let out = Array(samples(frame))
                XCTAssertEqual(out.count, 1, "\(format): one colour in, one out")
                for c in 0..<3 {
                    XCTAssertEqual(Double(out[0][c]), Double(expected[c]), accuracy: 1, "\(format) \(input) channel \(c)")
                }
            }
        }
    }

    func testBT709ColoursKeepTheirRGB() {
        // A BT.709 video-range colour and the same R′G′B′ in JPEG samples, both from
        // YUVMatrix.samples (the forward formula), within ±1.
        for (r, g, b) in [(255.0, 255.0, 0.0), (0.0, 255.0, 255.0), (200.0, 60.0, 30.0), (128.0, 128.0, 128.0)] {
            let source = YUVMatrix.bt709.samples(r: r, g: g, b: b), target = YUVMatrix.jfif.samples(r: r, g: g, b: b)
            for format in YUVFormat.allCases {
                let frame = flat(format, .bt709, y: source.y, u: source.u, v: source.v)
                frame.convertSamples(to: .jfif)
                let out = Array(samples(frame))
                XCTAssertEqual(out.count, 1)
                for (c, want) in [target.y, target.u, target.v].enumerated() {
                    XCTAssertEqual(Double(out[0][c]), Double(want), accuracy: 1, "\(format) (\(r),\(g),\(b)) channel \(c)")
                }
            }
        }
    }

    func testFullRangeBT601IsLeftAsItIs() {
        let frame = flat(.i420, .jfif, y: 7, u: 250, v: 3)
        frame.convertSamples(to: .jfif)
        XCTAssertEqual(samples(frame), [[7, 250, 3]])
    }
}
