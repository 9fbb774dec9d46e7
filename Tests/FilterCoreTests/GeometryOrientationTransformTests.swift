import XCTest
import FilterCore

/// `Orientation.transform`: the fast kernels against the one-pixel-at-a-time reference,
/// hand-checked pixels, padded rows, odd sizes, sub-rectangles and real `videoflip`.
final class GeometryOrientationTransformTests: XCTestCase {
    typealias M = OrientationMethod

    func testHandCheckedPicture() {
        // 1 2 3 / 4 5 6, as in GeometryOrientationMethodTests, through the kernels.
        let input = Words(width: 3, height: 2, pixels: [1, 2, 3, 4, 5, 6])
        let expected: [M: [[UInt32]]] = [
            .identity: [[1, 2, 3], [4, 5, 6]], .rotate90R: [[4, 1], [5, 2], [6, 3]],
            .rotate180: [[6, 5, 4], [3, 2, 1]], .rotate90L: [[3, 6], [2, 5], [1, 4]],
            .horizontal: [[3, 2, 1], [6, 5, 4]], .vertical: [[4, 5, 6], [1, 2, 3]],
            .upperLeftDiagonal: [[1, 4], [2, 5], [3, 6]], .upperRightDiagonal: [[6, 3], [5, 2], [4, 1]],
        ]
        for m in M.allCases {
            XCTAssertEqual(transformed(input, m).rows, expected[m], m.nick)
        }
    }

    /// Sizes around the 4×4 blocks and the tiles: every edge case of the block loops.
    func testMatchesReferenceAtAwkwardSizes() {
        let sizes = [(1, 1), (1, 7), (7, 1), (2, 3), (4, 4), (5, 4), (4, 5), (3, 9), (8, 8),
                     (33, 17), (17, 33), (32, 32), (35, 70), (64, 36), (65, 31)]
        for (w, h) in sizes {
            let input = Words.distinct(width: w, height: h, seed: UInt32(w * 100 + h))
            for m in M.allCases {
                XCTAssertEqual(transformed(input, m), input.reference(m), "\(m) at \(w)x\(h)")
            }
        }
    }

    func testPaddedStridesOnEitherSide() {
        let input = Words.distinct(width: 33, height: 17, seed: 3)
        for m in M.allCases {
            let reference = input.reference(m)
            for (sp, dp) in [(4, 0), (0, 12), (60, 4), (128, 256)] {
                XCTAssertEqual(transformed(input, m, srcPadding: sp, dstPadding: dp), reference,
                               "\(m), source padding \(sp), destination padding \(dp)")
            }
        }
    }

    /// A frame large enough to go through both threads of `RowSplitter` and many tiles.
    func testLargeOddFrameSplitBetweenThreads() {
        let input = Words.distinct(width: 321, height: 239, seed: 9)
        for m in [M.identity, .rotate90R, .upperRightDiagonal, .rotate180] {
            XCTAssertEqual(transformed(input, m, srcPadding: 36, dstPadding: 20), input.reference(m), m.nick)
        }
    }

    func testSubRectangleIsACropOfTheOrientedPicture() {
        let input = Words.distinct(width: 41, height: 23, seed: 5)
        let src = PaddedFrame(input, padding: 8)
        for m in M.allCases {
            let full = input.reference(m)
            for r in [PixelRect(x: 3, y: 5, width: 9, height: 13), PixelRect(x: 0, y: 0, width: 1, height: full.height),
                      PixelRect(x: full.width - 7, y: full.height - 6, width: 7, height: 6)] {
                let s = m.sourceRect(forOutputRect: r, inputWidth: input.width, inputHeight: input.height)
                let dst = PaddedFrame(width: r.width, height: r.height, padding: 4)
                Orientation.transform(m, from: src.view, sourceRect: s, to: dst.view)
                XCTAssertEqual(dst.words, full.cropped(r), "\(m), output rectangle \(r)")
                XCTAssertTrue(dst.paddingIntact)
            }
        }
    }

    func testEveryPixelFormatMovesWholePixels() {
        let input = Words.distinct(width: 6, height: 5)
        for format in PixelFormat.allCases {
            let src = PixelBuffer(width: 6, height: 5, format: format)
            src.load(packed: input.packedBytes)
            let dst = PixelBuffer(width: 5, height: 6, format: format)
            Orientation.transform(.rotate90L, from: src.view, to: dst.view)
            XCTAssertEqual(dst.packedBytes, input.reference(.rotate90L).packedBytes, format.rawValue)
        }
    }

    /// Byte-exact against GStreamer's own `videoflip video-direction=<nick>` (packed BGRA).
    func testByteExactAgainstVideoflip() throws {
        for (w, h) in [(7, 5), (32, 17)] {
            let input = Words.noise(width: w, height: h, seed: UInt64(w))
            for m in M.allCases {
                let (ow, oh) = m.outputSize(width: w, height: h)
                let gst = try gstreamer(input, element: "videoflip video-direction=\(m.nick)", outputWidth: ow, outputHeight: oh)
                XCTAssertEqual(transformed(input, m, srcPadding: 8, dstPadding: 4).packedBytes, gst.packedBytes,
                               "\(m.nick) at \(w)x\(h) differs from videoflip")
            }
        }
    }
}
