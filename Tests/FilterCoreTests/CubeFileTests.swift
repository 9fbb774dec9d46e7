import Foundation
import XCTest
@testable import FilterCore

/// The `.cube` reader: what a file may hold, and every bad file refused with a message
/// naming the file and the line.
final class CubeFileTests: XCTestCase {
    let files = LookFiles()
    /// A valid 2³ table: the identity.
    let identity8 = LookFiles.identity2

    func testTitleCommentsDomainAndLineEndingsAreRead() throws {
        let text = LookFiles.cube(["# made by hand", "", "TITLE \"Two by two\"", "LUT_3D_SIZE 2", "  # indented comment",
                                   "DOMAIN_MIN 0 0 0", "DOMAIN_MAX 1 1 1", "LUT_IN_VIDEO_RANGE"], identity8)
            .replacingOccurrences(of: "\n", with: "\r\n")
        let look = try LookLibrary.load(files.write("a.cube", text))
        XCTAssertEqual(look.shape, .cube(size: 2))
        XCTAssertEqual(look.title, "Two by two")
        XCTAssertEqual(look.values.count, 24)
        XCTAssertEqual(Array(look.values[3..<6]), [1, 0, 0], "red varies fastest")
        XCTAssertEqual(Array(look.values[12..<15]), [0, 0, 1])

        let curves = try LookLibrary.load(files.write("c.cube", LookFiles.cube(["LUT_1D_SIZE 3", "LUT_1D_INPUT_RANGE 0 2"],
                                                                               [[0, 0, 0], [0.5, 0.25, 1], [2, 2, 2]])))
        XCTAssertEqual(curves.shape, .curves(size: 3))
        XCTAssertEqual(curves.domainMax, [2, 2, 2])
        XCTAssertNil(curves.title)
    }

    /// Each bad file: (file text, line to blame, words the reason must hold).
    func testBadFilesAreRefusedNamingTheFileAndTheLine() throws {
        let entries = identity8.map { $0.map { String($0) }.joined(separator: " ") }
        let cases: [(String, [String], Int, [String])] = [
            ("no-size", ["# no size"] + entries, 2, ["size line is missing"]),
            ("only-comments", ["# nothing", "TITLE \"x\""], 2, ["size line is missing"]),
            ("too-few", ["LUT_3D_SIZE 2"] + entries.dropLast(), 8, ["7 entries", "LUT_3D_SIZE 2", "needs 8"]),
            ("too-many", ["LUT_3D_SIZE 2"] + entries + ["0 0 0"], 10, ["more entries", "8"]),
            ("nan", ["LUT_3D_SIZE 2"] + entries.prefix(3) + ["0.5 nan 0.5"] + entries.suffix(4), 5, ["'nan' is not a number"]),
            ("infinity", ["LUT_3D_SIZE 2", "inf 0 0"] + entries.suffix(7), 2, ["'inf' is not a number"]),
            ("outside", ["LUT_3D_SIZE 2"] + entries.prefix(5) + ["0 1.5 0"] + entries.suffix(2), 7, ["1.5", "far outside the outputs' range 0…1"]),
            ("negative", ["DOMAIN_MIN 0 0 0", "LUT_3D_SIZE 2", "-0.2 0 0"] + entries.suffix(7), 3, ["-0.2", "far outside", "log or HDR"]),
            ("wide-domain", ["DOMAIN_MAX 4 4 4", "LUT_3D_SIZE 2", "0 4.5 0"] + entries.suffix(7), 3, ["4.5", "range 0…4"]),
            ("huge", ["# big", "LUT_3D_SIZE 1000000000"] + entries, 2, ["1000000000", "out of range", "2…65"]),
            ("size-66", ["LUT_3D_SIZE 66"], 1, ["66", "2…65"]),
            ("size-word", ["LUT_3D_SIZE many"], 1, ["one whole number"]),
            ("two-numbers", ["LUT_3D_SIZE 2", "0 0"] + entries.suffix(7), 2, ["three numbers", "'0 0'"]),
            ("keyword-late", ["LUT_3D_SIZE 2"] + entries.prefix(4) + ["DOMAIN_MAX 1 1 1"] + entries.suffix(4), 6, ["after the table"]),
            ("two-sizes", ["LUT_3D_SIZE 2", "LUT_1D_SIZE 4"] + entries, 2, ["second size line"]),
            ("bad-domain", ["LUT_3D_SIZE 2", "DOMAIN_MIN 1 0 0", "DOMAIN_MAX 0.5 1 1"] + entries, 3, ["red", "DOMAIN_MIN must be below"]),
            ("domain-word", ["DOMAIN_MIN 0 zero 0"], 1, ["DOMAIN_MIN takes 3 numbers"]),
            ("endless-domain", ["LUT_3D_SIZE 2", "DOMAIN_MIN -1.7e308 0 0", "DOMAIN_MAX 1.7e308 1 1"] + entries, 3,
             ["red", "wider than a number can span"]),
        ]
        for (name, lines, line, words) in cases {
            let path = files.write("\(name).cube", lines.joined(separator: "\n") + "\n")
            do {
                let look = try LookLibrary.load(path)
                XCTFail("\(name): read as \(look.shape)")
            } catch {
                XCTAssertEqual(error.file, path, name)
                XCTAssertEqual(error.line, line, "\(name): \(error)")
                for word in words { XCTAssertTrue(error.description.contains(word), "\(name): '\(word)' not in \(error)") }
                XCTAssertTrue(error.description.hasPrefix("look file '\(path)' line \(line): "), error.description)
            }
        }
    }

    /// What other tools write: a byte-order mark, CR line ends (old Macs), keywords in lower
    /// case, outputs a little outside 0…1 (clamped where applied), outputs wider than a
    /// narrow input domain (video range in, full range out). FFmpeg's lut3d takes the last
    /// three kinds too.
    func testWhatOtherToolsWriteIsTaken() throws {
        let entries = identity8.map { $0.map { String($0) }.joined(separator: " ") }
        let bom = files.write("bom.cube", bytes: [0xEF, 0xBB, 0xBF] + Array((["TITLE \"bom\"", "LUT_3D_SIZE 2"] + entries).joined(separator: "\r\n").utf8))
        XCTAssertEqual(try LookLibrary.load(bom).title, "bom")
        let cr = files.write("cr.cube", (["# old Mac", "LUT_3D_SIZE 2"] + entries).joined(separator: "\r") + "\r")
        XCTAssertEqual(try LookLibrary.load(cr).values.count, 24)
        let lower = files.write("lower.cube", (["title \"lower\"", "lut_3d_size 2", "domain_max 1 1 1"] + entries).joined(separator: "\n"))
        XCTAssertEqual(try LookLibrary.load(lower).title, "lower")

        // -0.002 and 1.003: kept as written, clamped where applied (black stays black, white white).
        var over = entries
        over[0] = "-0.002 0 -0.05"
        over[7] = "1.003 1.05 1"
        let overshoot = try LookLibrary.load(files.write("over.cube", (["LUT_3D_SIZE 2"] + over).joined(separator: "\n")))
        XCTAssertEqual(Array(overshoot.values[0..<3]), [-0.002, 0, -0.05])
        XCTAssertEqual(Array(overshoot.values[21..<24]), [1.003, 1.05, 1])
        XCTAssert(overshoot.look(r: 0, g: 0, b: 0) == (0, 0, 0) && overshoot.look(r: 255, g: 255, b: 255) == (255, 255, 255))

        // Video range in (16…235 of 255), full range out: 16 gives 0, 235 gives 255, 125.5 the middle.
        let legal = try LookLibrary.load(files.write("legal.cube", (["DOMAIN_MIN 0.0627451 0.0627451 0.0627451",
                                                                     "DOMAIN_MAX 0.921569 0.921569 0.921569", "LUT_3D_SIZE 2"] + entries).joined(separator: "\n")))
        XCTAssert(legal.look(r: 16, g: 16, b: 16) == (0, 0, 0) && legal.look(r: 235, g: 235, b: 235) == (255, 255, 255))
        XCTAssertEqual(legal.look(r: 235, g: 16, b: 16).r, 255)
    }

    /// Outputs as wide as a wide domain lets them be (±1e19 in ±1e20) are read and applied
    /// without overflowing the lattice's fixed point: they count as ±4110, far past what a
    /// level shows. (Such a file trapped the whole process.)
    func testOutputsFarPastTheRangeInAWideDomainAreApplied() throws {
        var lines = ["LUT_3D_SIZE 2", "DOMAIN_MIN -1e20 0 0", "DOMAIN_MAX 1e20 1 1"]
        for b in 0..<2 { for g in 0..<2 { for r in 0..<2 { lines.append("\(r == 0 ? "-1e19" : "1e19") \(g) \(b)") } } }
        let look = try LookLibrary.load(files.write("wide.cube", lines.joined(separator: "\n") + "\n"))
        // Every input red sits mid-domain: weights 127/255 and 128/255 of -1e19 and 1e19, far
        // above 1. Green and blue are the identity, exact in the coarse fixed point too.
        XCTAssert(look.look(r: 10, g: 20, b: 200) == (255, 20, 200))
        XCTAssert(look.look(r: 250, g: 0, b: 255) == (255, 0, 255))
    }

    func testBinaryAndUnreadableFilesAreRefusedClearly() throws {
        var binary = Array("LUT_3D_SIZE 2\n0 0 0\n".utf8)
        binary += [0, 1, 2, 255, 10]
        let b = files.write("binary.cube", bytes: binary)
        let message = lookError { _ = try LookLibrary.load(b) }
        XCTAssertTrue(message.contains("'\(b)' line 3") && message.contains("binary data"), message)

        let png = files.write("picture.png", bytes: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13])
        let pngMessage = lookError { _ = try LookLibrary.load(png) }
        XCTAssertTrue(pngMessage.contains(png) && pngMessage.contains("PNG"), pngMessage)
        // A JPEG (lossy, so never a Hald CLUT) given a .png name is named as one.
        let jpeg = files.write("hald.png", bytes: [0xFF, 0xD8, 0xFF, 0xE0, 0, 16] + Array("JFIF".utf8))
        let jpegMessage = lookError { _ = try LookLibrary.load(jpeg) }
        XCTAssertEqual(jpegMessage, "look file '\(jpeg)': is a JPEG picture; Hald CLUTs are read from PNG (save it as PNG, without loss), other looks from .cube files")
        // Bytes that are no picture under a .png name: the user meant a Hald CLUT, not .cube text.
        let noise = files.write("broken.png", bytes: [0x13, 0x37, 0, 200, 17, 99, 0xFE, 1, 2, 3, 4, 5])
        XCTAssertEqual(lookError { _ = try LookLibrary.load(noise) },
                       "look file '\(noise)': is named .png but is not a PNG picture (it lacks PNG's signature): a Hald CLUT must be a PNG file")

        let missing = files.folder + "/missing.cube"
        let missingMessage = lookError { _ = try LookLibrary.load(missing) }
        XCTAssertEqual(missingMessage, "look file '\(missing)': cannot be read: No such file or directory")

        let folderMessage = lookError { _ = try LookLibrary.load(files.folder) }
        XCTAssertTrue(folderMessage.contains("is not a regular file"), folderMessage)

        let device = lookError { _ = try LookLibrary.load("/dev/zero") }
        XCTAssertTrue(device.contains("'/dev/zero'") && device.contains("not a regular file"), device)
    }

    func testAChangedFileIsReadAgainAndTheSameFileIsNot() throws {
        let path = files.write("changing.cube", LookFiles.cube(["LUT_3D_SIZE 2"], identity8))
        let first = try LookLibrary.load(path)
        XCTAssertTrue(try LookLibrary.load(path) === first, "unchanged: the look already read")
        XCTAssertTrue(LookLibrary.loaded(path) === first)
        files.write("changing.cube", LookFiles.cube(["TITLE \"second\"", "LUT_3D_SIZE 2"], identity8))
        let second = try LookLibrary.load(path)
        XCTAssertEqual(second.title, "second")
        XCTAssertFalse(second === first)
    }

    /// Numbers as `.cube` writers write them, read by hand (not by the C locale's strtod).
    func testNumbers() {
        func n(_ s: String) -> Double? { CubeFile.number(ArraySlice(Array(s.utf8))) }
        XCTAssertEqual(n("0.031250"), 0.03125)
        XCTAssertEqual(n("-1"), -1)
        XCTAssertEqual(n(".5"), 0.5)
        XCTAssertEqual(n("+2."), 2)
        XCTAssertEqual(n("1e-3"), 0.001)
        XCTAssertEqual(n("2.5E2"), 250)
        XCTAssertEqual(n("0e999"), 0)
        for bad in ["", "-", ".", "nan", "NaN", "inf", "1e", "1e999", "0x1p3", "1,5", "1.5.2"] {
            XCTAssertNil(n(bad), bad)
        }
    }

    func testAChainRefusesABadLookNamingIt() throws {
        let path = files.write("short.cube", "LUT_3D_SIZE 2\n0 0 0\n")
        let message = lookError { _ = try FilterChain.parse("sepia, lut file=\(path)") }
        XCTAssertTrue(message.contains("filter 'lut'") && message.contains(path) && message.contains("line 2"), message)
        // A path with a space is quoted, and reads back from the chain's description.
        let spaced = files.write("with space.cube", LookFiles.cube(["LUT_3D_SIZE 2"], identity8))
        let chain = try FilterChain.parse("lut file='\(spaced)' intensity=0.5")
        XCTAssertEqual(chain.steps[0].values.text("file"), spaced)
        XCTAssertEqual(try FilterChain.parse(chain.description).steps.map(\.values), chain.steps.map(\.values))
        XCTAssertTrue(lookError { _ = try FilterChain.parse("lut file='\(spaced)") }.contains("unbalanced '"))
    }
}
