import FilterCamTestSupport
import Foundation
import XCTest

/// Folders of looks from the command line: `filtercam filters --looks DIR` and the
/// FILTERCAM_LOOKS variable every command and element reads (in `filtercam`, unset means
/// the shipped looks, empty means none).
final class LookCommandTests: XCTestCase {
    private let looks = Build.packageRoot + "/looks"

    func testFiltersListsTheLooksOfAFolder() throws {
        let r = try runCLI(["filters", "--looks", looks])
        XCTAssertEqual(r.status, 0, r.stderr)
        for (id, title) in [("look:teal-orange", "Teal and orange"), ("look:bleach-bypass", "Bleach bypass"),
                            ("look:cross-process", "Cross process"), ("look:day-for-night", "Day for night"),
                            ("look:warm-film", "Warm film"), ("look:cool-film", "Cool film")] {
            XCTAssertTrue(listed(r.stdoutText, id, title), "\(id) in\n\(r.stdoutText)")
        }
        let one = try runCLI(["filters", "--looks", looks, "look:warm-film"])
        XCTAssertTrue(one.stdoutText.contains("intensity") && one.stdoutText.contains("filtercam filter=look:warm-film"), one.stdoutText)
    }

    /// Whether the listing has a line for `id` with `title`.
    private func listed(_ text: String, _ id: String, _ title: String) -> Bool {
        text.split(separator: "\n").contains { $0.hasPrefix(id + " ") && $0.contains(" \(title) — ") }
    }

    func testABadFileInTheFolderIsNamedAndTheRestListed() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("filtercam-looks-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.copyItem(atPath: looks + "/warm-film.cube", toPath: folder + "/My Warm.cube")
        _ = FileManager.default.createFile(atPath: folder + "/broken.cube", contents: Data("LUT_3D_SIZE 2\n0 0 0\n".utf8))
        let r = try runCLI(["filters", "--looks", folder])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(listed(r.stdoutText, "look:my-warm", "Warm film"), r.stdoutText)
        XCTAssertTrue(r.stderr.contains("\(folder)/broken.cube' line 2") && r.stderr.contains("needs 8"), r.stderr)
        let missing = try runCLI(["filters", "--looks", folder + "/nothing"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.contains("nothing") && missing.stderr.contains("folder of .cube files"), missing.stderr)
    }

    func testTheEnvironmentVariableAddsTheLooksForPipelines() throws {
        let description = "videotestsrc num-buffers=2 ! filtercam filter=look:cool-film ! fakesink"
        let r = try runCLI(["launch", description], environment: ["FILTERCAM_LOOKS": looks])
        XCTAssertEqual(r.status, 0, r.stderr)
        let without = try runCLI(["launch", description], environment: ["FILTERCAM_LOOKS": ""])
        XCTAssertNotEqual(without.status, 0)
        XCTAssertTrue(without.stderr.contains("look:cool-film"), without.stderr)
    }

    /// What a user gets with nothing set: the shipped looks, found beside the build.
    func testTheShippedLooksAreInTheCatalogByDefault() throws {
        let r = try runCLI(["filters"], environment: ["FILTERCAM_LOOKS": nil])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(listed(r.stdoutText, "look:teal-orange", "Teal and orange"), r.stdoutText)
        XCTAssertTrue(listed(r.stdoutText, "look:cool-film", "Cool film"), r.stdoutText)
        let off = try runCLI(["filters"], environment: ["FILTERCAM_LOOKS": ""])
        XCTAssertEqual(off.status, 0, off.stderr)
        XCTAssertFalse(listed(off.stdoutText, "look:cool-film", "Cool film"), off.stdoutText)
    }

    /// FILTERCAM_LOOKS=DIR replaces the shipped looks rather than adding to them.
    func testAFolderOfLooksReplacesTheShippedOnes() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("filtercam-looks-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.copyItem(atPath: looks + "/warm-film.cube", toPath: folder + "/mine.cube")
        let r = try runCLI(["filters"], environment: ["FILTERCAM_LOOKS": folder])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(listed(r.stdoutText, "look:mine", "Warm film"), r.stdoutText)
        XCTAssertFalse(listed(r.stdoutText, "look:teal-orange", "Teal and orange"), r.stdoutText)
    }
}
