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
            ("outside", ["LUT_3D_SIZE 2"] + entries.prefix(5) + ["0 1.5 0"] + entries.suffix(2), 7, ["1.5", "outside the domain 0…1"]),
            ("negative", ["DOMAIN_MIN 0 0 0", "LUT_3D_SIZE 2", "-0.2 0 0"] + entries.suffix(7), 3, ["-0.2", "outside the domain"]),
            ("huge", ["# big", "LUT_3D_SIZE 1000000000"] + entries, 2, ["1000000000", "out of range", "2…65"]),
            ("size-66", ["LUT_3D_SIZE 66"], 1, ["66", "2…65"]),
            ("size-word", ["LUT_3D_SIZE many"], 1, ["one whole number"]),
            ("two-numbers", ["LUT_3D_SIZE 2", "0 0"] + entries.suffix(7), 2, ["three numbers", "'0 0'"]),
            ("keyword-late", ["LUT_3D_SIZE 2"] + entries.prefix(4) + ["DOMAIN_MAX 1 1 1"] + entries.suffix(4), 6, ["after the table"]),
            ("two-sizes", ["LUT_3D_SIZE 2", "LUT_1D_SIZE 4"] + entries, 2, ["second size line"]),
            ("bad-domain", ["LUT_3D_SIZE 2", "DOMAIN_MIN 1 0 0", "DOMAIN_MAX 0.5 1 1"] + entries, 3, ["red", "DOMAIN_MIN must be below"]),
            ("domain-word", ["DOMAIN_MIN 0 zero 0"], 1, ["DOMAIN_MIN takes 3 numbers"]),
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

    func testBinaryAndUnreadableFilesAreRefusedClearly() throws {
        var binary = Array("LUT_3D_SIZE 2\n0 0 0\n".utf8)
        binary += [0, 1, 2, 255, 10]
        let b = files.write("binary.cube", bytes: binary)
        let message = lookError { _ = try LookLibrary.load(b) }
        XCTAssertTrue(message.contains("'\(b)' line 3") && message.contains("binary data"), message)

        let png = files.write("picture.png", bytes: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13])
        let pngMessage = lookError { _ = try LookLibrary.load(png) }
        XCTAssertTrue(pngMessage.contains(png) && pngMessage.contains("PNG"), pngMessage)

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
