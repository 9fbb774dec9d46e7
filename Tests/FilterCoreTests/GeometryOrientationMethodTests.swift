import XCTest
import FilterCore

/// The eight orientation methods as values: names, tags, EXIF, sizes, group structure and
/// coordinate mappings.
final class GeometryOrientationMethodTests: XCTestCase {
    typealias M = OrientationMethod

    func testRawValuesAndNicksAreGStreamers() {
        // GstVideoOrientationMethod values and nicks (gst-plugins-base video/videoorientation.h).
        let expected: [(M, Int, String)] = [
            (.identity, 0, "identity"), (.rotate90R, 1, "90r"), (.rotate180, 2, "180"), (.rotate90L, 3, "90l"),
            (.horizontal, 4, "horiz"), (.vertical, 5, "vert"), (.upperLeftDiagonal, 6, "ul-lr"),
            (.upperRightDiagonal, 7, "ur-ll"),
        ]
        XCTAssertEqual(M.allCases.count, 8)
        for (m, raw, nick) in expected {
            XCTAssertEqual(m.rawValue, raw)
            XCTAssertEqual(m.nick, nick)
            XCTAssertEqual(M(nick: nick), m)
            XCTAssertEqual(M(rawValue: raw), m)
        }
        XCTAssertNil(M(nick: "auto"))
        XCTAssertNil(M(nick: "clockwise"))
        XCTAssertNil(M(rawValue: 8))
    }

    /// The rows of shared/fixtures/orientation/orientation_table.json (verified against
    /// videoflip, exiftool and Pillow), copied here so the test needs no machine path.
    static let fixture: [(exif: Int, direction: String, tag: String, displaySize: (Int, Int))] = [
        (1, "identity", "rotate-0", (31, 17)),
        (2, "horiz", "flip-rotate-0", (31, 17)),
        (3, "180", "rotate-180", (31, 17)),
        (4, "vert", "flip-rotate-180", (31, 17)),
        (5, "ul-lr", "flip-rotate-270", (17, 31)),
        (6, "90r", "rotate-90", (17, 31)),
        (7, "ur-ll", "flip-rotate-90", (17, 31)),
        (8, "90l", "rotate-270", (17, 31)),
    ]

    func testTagsAndEXIFFollowTheFixtureTable() throws {
        for row in Self.fixture {
            let m = try XCTUnwrap(M(nick: row.direction))
            XCTAssertEqual(m.exifOrientation, row.exif, row.direction)
            XCTAssertEqual(M(exifOrientation: row.exif), m)
            XCTAssertEqual(m.imageOrientationTag, row.tag, row.direction)
            XCTAssertEqual(M(imageOrientationTag: row.tag), m, row.tag)
            let size = m.outputSize(width: 31, height: 17)
            XCTAssertTrue(size == row.displaySize, "\(row.direction): \(size) vs \(row.displaySize)")
        }
        XCTAssertEqual(Set(Self.fixture.map(\.exif)), Set(1...8))
        XCTAssertNil(M(imageOrientationTag: "rotate-45"))
        XCTAssertNil(M(imageOrientationTag: "Rotate-90"))
        XCTAssertNil(M(exifOrientation: 0))
        XCTAssertNil(M(exifOrientation: 9))
    }

    func testTagsMeanMirrorFirstThenTurnClockwise() {
        // The fixture's reading of the tag names, checked as compositions.
        let turns: [Int: M] = [0: .identity, 90: .rotate90R, 180: .rotate180, 270: .rotate90L]
        for (degrees, turn) in turns {
            XCTAssertEqual(M(imageOrientationTag: "rotate-\(degrees)"), turn)
            XCTAssertEqual(M(imageOrientationTag: "flip-rotate-\(degrees)"), M.horizontal.then(turn))
        }
    }

    func testSizes() {
        for m in M.allCases {
            let swaps = [M.rotate90R, .rotate90L, .upperLeftDiagonal, .upperRightDiagonal].contains(m)
            XCTAssertEqual(m.swapsAxes, swaps, m.nick)
            let (w, h) = m.outputSize(width: 7, height: 5)
            XCTAssertEqual([w, h], swaps ? [5, 7] : [7, 5], m.nick)
        }
    }

    func testInverseUndoesAndCompositionIsAGroup() {
        for a in M.allCases {
            XCTAssertEqual(a.then(a.inverse), .identity, a.nick)
            XCTAssertEqual(a.inverse.then(a), .identity, a.nick)
            XCTAssertEqual(a.then(.identity), a)
            XCTAssertEqual(M.identity.then(a), a)
            for b in M.allCases {
                XCTAssertEqual(a.then(b).inverse, b.inverse.then(a.inverse))
                for c in M.allCases {
                    XCTAssertEqual(a.then(b).then(c), a.then(b.then(c)))
                }
            }
        }
        XCTAssertEqual(M.allCases.filter { $0.inverse == $0 }.count, 6, "all but 90r and 90l undo themselves")
        XCTAssertEqual(M.rotate90R.inverse, .rotate90L)
    }

    func testCompositionsWorkedOutByHand() {
        XCTAssertEqual(M.rotate90R.then(.rotate90R), .rotate180)
        XCTAssertEqual(M.rotate90R.then(.rotate180), .rotate90L)
        XCTAssertEqual(M.rotate90L.then(.rotate90L), .rotate180)
        XCTAssertEqual(M.horizontal.then(.vertical), .rotate180)
        XCTAssertEqual(M.rotate90R.then(.horizontal), .upperLeftDiagonal)
        XCTAssertEqual(M.horizontal.then(.rotate90R), .upperRightDiagonal)
        XCTAssertEqual(M.rotate90L.then(.horizontal), .upperRightDiagonal)
        XCTAssertEqual(M.rotate180.then(.horizontal), .vertical)
        XCTAssertEqual(M.upperLeftDiagonal.then(.upperRightDiagonal), .rotate180)
        XCTAssertEqual(M.upperLeftDiagonal.then(.horizontal), .rotate90R)   // [[1,4],[2,5],[3,6]] mirrored
        XCTAssertNotEqual(M.rotate90R.then(.horizontal), M.horizontal.then(.rotate90R), "not commutative")
    }

    /// Composition and inverse agree with the pixels: transforming by a, then by b, is
    /// transforming by a.then(b).
    func testCompositionMatchesPixels() {
        let input = Words.distinct(width: 5, height: 3)
        for a in M.allCases {
            for b in M.allCases {
                XCTAssertEqual(input.reference(a).reference(b), input.reference(a.then(b)), "\(a) then \(b)")
            }
            XCTAssertEqual(input.reference(a).reference(a.inverse), input, "\(a) then its inverse")
        }
    }

    /// Every pixel of a 3×2 picture, written out by hand from videoflip's definitions:
    ///     1 2 3
    ///     4 5 6
    func testSourcePixelOnAHandCheckedPicture() {
        let input = Words(width: 3, height: 2, pixels: [1, 2, 3, 4, 5, 6])
        let expected: [M: [[UInt32]]] = [
            .identity: [[1, 2, 3], [4, 5, 6]],
            .rotate90R: [[4, 1], [5, 2], [6, 3]],           // turned clockwise: left column, upwards, on top
            .rotate180: [[6, 5, 4], [3, 2, 1]],
            .rotate90L: [[3, 6], [2, 5], [1, 4]],           // counter-clockwise: right column on top
            .horizontal: [[3, 2, 1], [6, 5, 4]],
            .vertical: [[4, 5, 6], [1, 2, 3]],
            .upperLeftDiagonal: [[1, 4], [2, 5], [3, 6]],   // transpose
            .upperRightDiagonal: [[6, 3], [5, 2], [4, 1]],  // anti-transpose
        ]
        for m in M.allCases {
            XCTAssertEqual(input.reference(m).rows, expected[m], m.nick)
        }
    }

    /// The output pixel under a pointer came from the input pixel the pointer maps to.
    func testPointerMappingAgreesWithThePixels() {
        var rng = SystemRandomNumberGenerator()
        for (w, h) in [(7, 5), (1, 4), (16, 9)] {
            let input = Words.distinct(width: w, height: h)
            for m in M.allCases {
                let output = input.reference(m)
                for _ in 0..<200 {
                    let ox = Double.random(in: 0.01..<(Double(output.width) - 0.01), using: &rng)
                    let oy = Double.random(in: 0.01..<(Double(output.height) - 0.01), using: &rng)
                    guard ox - ox.rounded(.down) > 1e-6, oy - oy.rounded(.down) > 1e-6 else { continue }
                    let (sx, sy) = m.mapPointToSource(x: ox, y: oy, outputWidth: output.width, outputHeight: output.height)
                    XCTAssert(sx > 0 && sx < Double(w) && sy > 0 && sy < Double(h), "\(m) maps (\(ox),\(oy)) outside")
                    XCTAssertEqual(output[Int(ox), Int(oy)], input[Int(sx), Int(sy)], "\(m) at (\(ox), \(oy)) in \(w)x\(h)")
                    let (bx, by) = m.mapPointToOutput(x: sx, y: sy, inputWidth: w, inputHeight: h)
                    XCTAssertEqual(bx, ox, accuracy: 1e-9)
                    XCTAssertEqual(by, oy, accuracy: 1e-9)
                }
            }
        }
    }

    func testPointerMappingIsVideoflipsFormula() {
        // gst_video_flip_src_event for a 7x5 input: output 5x7 when turned.
        let cases: [(M, (Double, Double))] = [
            (.identity, (1.5, 2.25)), (.rotate90R, (2.25, 5 - 1.5)), (.rotate180, (7 - 1.5, 5 - 2.25)),
            (.rotate90L, (7 - 2.25, 1.5)), (.horizontal, (7 - 1.5, 2.25)), (.vertical, (1.5, 5 - 2.25)),
            (.upperLeftDiagonal, (2.25, 1.5)), (.upperRightDiagonal, (7 - 2.25, 5 - 1.5)),
        ]
        for (m, expected) in cases {
            let (ow, oh) = m.outputSize(width: 7, height: 5)
            let p = m.mapPointToSource(x: 1.5, y: 2.25, outputWidth: ow, outputHeight: oh)
            XCTAssertTrue(p == expected, "\(m): \(p) vs \(expected)")
        }
    }

    /// Transforming the source rectangle of an output rectangle gives that output rectangle.
    func testSourceRectOfAnOutputRect() {
        let input = Words.distinct(width: 9, height: 6)
        for m in M.allCases {
            let full = input.reference(m)
            for r in [PixelRect(x: 0, y: 0, width: full.width, height: full.height),
                      PixelRect(x: 1, y: 2, width: 3, height: 2), PixelRect(x: full.width - 1, y: 0, width: 1, height: 4),
                      PixelRect(x: 2, y: full.height - 3, width: full.width - 2, height: 3)] {
                let s = m.sourceRect(forOutputRect: r, inputWidth: 9, inputHeight: 6)
                XCTAssert(s.x >= 0 && s.y >= 0 && s.x + s.width <= 9 && s.y + s.height <= 6, "\(m) \(r) → \(s)")
                XCTAssertEqual(input.cropped(s).reference(m), full.cropped(r), "\(m), output rect \(r) from \(s)")
            }
        }
    }
}
