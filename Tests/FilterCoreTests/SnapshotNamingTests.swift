import Foundation
import XCTest
import FilterCore

/// Still and recording names from a template with one counter, and the path helpers the
/// elements use instead of Foundation's, checked against Foundation's NSString.
final class SnapshotNamingTests: XCTestCase {
    func testCounterWidthAndPlace() throws {
        XCTAssertEqual(try SnapshotNaming(template: "shot-%05d.jpg").path(counter: 42), "shot-00042.jpg")
        XCTAssertEqual(try SnapshotNaming(template: "%d.jpg").path(counter: 7), "7.jpg")
        XCTAssertEqual(try SnapshotNaming(template: "a/%0d-b").path(counter: 12), "a/12-b")
        XCTAssertEqual(try SnapshotNaming(template: "x%3dy").path(counter: 5), "x  5y".replacingOccurrences(of: " ", with: "0"))
        XCTAssertEqual(try SnapshotNaming(template: "s-%02d.jpg").path(counter: 3, bias: -1), "s-03-ev-1.jpg")
    }

    /// A bias given twice named two stills of a set alike: one overwrote the other and both
    /// were said saved.
    func testABracketWithABiasGivenTwiceIsRefused() throws {
        XCTAssertEqual(try SnapshotNaming.parseBracket("-1, 0,1"), [-1, 0, 1])
        for (text, twice) in [("1,1,1", "1"), ("0.5,0.5", "0.5"), ("-0,0", "0")] {
            XCTAssertThrowsError(try SnapshotNaming.parseBracket(text), text) { error in
                XCTAssertTrue("\(error)".contains("\(twice) is given twice"), "\(text): \(error)")
            }
        }
    }

    func testRefusedTemplatesSayWhy() {
        for (template, why) in [("shot.jpg", "needs exactly one counter"), ("%d-%d.jpg", "needs exactly one counter"),
                                ("%%05d.jpg", "needs exactly one counter"), ("%s-%d.jpg", "only one %-conversion"),
                                ("5%-%d.jpg", "only one %-conversion"), ("%d-%%%.jpg", "only one %-conversion"),
                                ("%-5d.jpg", "needs exactly one counter"), ("shots-%d/", "names a folder")] {
            XCTAssertThrowsError(try SnapshotNaming(template: template), template) { error in
                XCTAssertTrue("\(error)".contains(why), "\(template): \(error)")
                XCTAssertTrue("\(error)".contains(template), "\(template): \(error)")
            }
        }
    }

    /// A name that promises another kind of file than the one written is refused, naming
    /// both and the extensions to use (a still named .png was a JPEG, silently); names with
    /// the right extension, in any case, or none that names a media kind, are taken.
    func testANameForAnotherKindOfFileIsRefused() throws {
        for template in ["x-%05d.png", "shots/%d.PNG", "s-%d.webp", "s-%d.mp4", "a-%d.jxl", "a-%d.jp2", "a-%d.ppm", "a-%d.svg", "a-%d.png "] {
            XCTAssertThrowsError(try SnapshotNaming(template: template), template) { error in
                XCTAssertTrue("\(error)".contains(template) && "\(error)".contains("written as JPEG: end the name in .jpg or .jpeg"), "\(error)")
            }
        }
        XCTAssertThrowsError(try SnapshotNaming(template: "r-%d.mkv", property: "record-location", example: "recording-%05d.mp4")) { error in
            XCTAssertTrue("\(error)".contains("names Matroska files, but they are written as MP4: end the name in .mp4 or .m4v"), "\(error)")
        }
        for template in ["x-%05d.JPG", "x-%d.jpeg", "x-%d", "x-%d.still", "v1.png.d/s-%d.jpg"] {
            XCTAssertNoThrow(try SnapshotNaming(template: template), template)
        }
        XCTAssertNoThrow(try SnapshotNaming(template: "r-%d.M4V", property: "record-location", example: "recording-%05d.mp4"))
    }

    /// A width as printf gives it (12 digits at most before: %020d gave 12, multifilesink 20).
    func testACounterWidthIsKeptAsPrintfKeepsIt() throws {
        XCTAssertEqual(try SnapshotNaming(template: "a-%020d.jpg").path(counter: 7), "a-" + String(repeating: "0", count: 19) + "7.jpg")
    }

    /// A symbolic link is a name taken, even one to nothing: the still replaced a dangling
    /// link with a file, where the counter "never overwrites an existing file".
    func testADanglingLinkIsANameTaken() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fc-naming-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("s-0.jpg").path, withDestinationPath: "/nonexistent/target")
        let naming = try SnapshotNaming(template: dir.path + "/s-%d.jpg")
        XCTAssertEqual(naming.nextFree(from: 0, biases: []), 1)
    }

    /// A run's counter starts after the highest number already there, as a camera's DCIM
    /// counter: after s-00001 was deleted, the next still was s-00001, newer than s-00002
    /// but sorted before it (a tester's find). Other templates' names and a bracketed
    /// set's `-ev` names count as theirs.
    func testTheCounterStartsAfterTheHighestNumberThere() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fc-naming-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let naming = try SnapshotNaming(template: dir.path + "/s-%05d.jpg")
        XCTAssertEqual(naming.firstAfterExisting(), 0)
        for name in ["s-00000.jpg", "s-00002.jpg", "s-00007.png", "t-00009.jpg", "s-00004-ev+1.jpg", "s-00005.jpg.tmp", "s-x.jpg"] {
            FileManager.default.createFile(atPath: dir.appendingPathComponent(name).path, contents: Data())
        }
        XCTAssertEqual(naming.firstAfterExisting(), 5)
        XCTAssertEqual(try SnapshotNaming(template: dir.path + "/t-%d.jpg").firstAfterExisting(), 10)
        XCTAssertEqual(try SnapshotNaming(template: dir.path + "/none-%d.jpg").firstAfterExisting(), 0)
        XCTAssertEqual(try SnapshotNaming(template: "/no/such/folder/s-%d.jpg").firstAfterExisting(), 0)
    }

    /// A name whose number no counter made (Int.max) is left alone: counting on from it
    /// overflowed and killed the process at the next still or recording.
    func testANumberPastTheCountersRangeIsLeftAlone() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fc-naming-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for name in ["s-9223372036854775807.jpg", "s-00003.jpg"] {
            FileManager.default.createFile(atPath: dir.appendingPathComponent(name).path, contents: Data())
        }
        let naming = try SnapshotNaming(template: dir.path + "/s-%05d.jpg")
        XCTAssertEqual(naming.firstAfterExisting(), 4)
        XCTAssertEqual(naming.nextFree(from: Int.max, biases: []), SnapshotNaming.counterLimit)
    }

    /// `%%` is a literal `%`, as printf (and so multifilesink and splitmuxsink) reads it.
    func testDoublePercentIsALiteralPercentAsPrintfReadsIt() throws {
        for template in ["100%%-%05d.jpg", "%%%d%%.jpg", "a%%b/%%c-%02d", "%d%%"] {
            let naming = try SnapshotNaming(template: template)
            XCTAssertEqual(naming.path(counter: 7), String(format: template, 7), template)
        }
        XCTAssertEqual(try SnapshotNaming(template: "%%dir/s-%d.jpg").folder, "%dir")
    }

    func testFolder() throws {
        XCTAssertEqual(try SnapshotNaming(template: "/tmp/snaps/s-%d.jpg").folder, "/tmp/snaps")
        XCTAssertEqual(try SnapshotNaming(template: "s-%d.jpg").folder, ".")
        XCTAssertEqual(try SnapshotNaming(template: "/s-%d.jpg").folder, "/")
    }

    func testPathHelpersAgreeWithNSString() {
        for path in ["", "/", "/a", "/a/", "a/b", "a/b/", "a//b", "/a/b/c.jpg", "a/b//", "..", "./x", "../x/y.jpg",
                     "dir/%05d.jpg", "é/ü.jpg", "s-"] {
            XCTAssertEqual(FilePathText.folder(of: path), (path as NSString).deletingLastPathComponent, "folder of \(path)")
            XCTAssertEqual(FilePathText.lastComponent(of: path), (path as NSString).lastPathComponent, "last component of \(path)")
        }
        // Foundation 6.3 on Linux crashes on one-character relative names ("a", "a/", ".")
        // and gives "" for "//": by hand.
        for (path, folder, last) in [("a", "", "a"), ("a/", "", "a"), (".", "", "."), ("//", "/", "/")] {
            XCTAssertEqual(FilePathText.folder(of: path), folder, "folder of \(path)")
            XCTAssertEqual(FilePathText.lastComponent(of: path), last, "last component of \(path)")
        }
        // A one-letter name before the counter (which crashed through NSString).
        XCTAssertEqual(try SnapshotNaming(template: "a%d.jpg").folder, ".")
    }
}
