import FilterCamTestSupport
import XCTest

/// The fuzz seeds, among them every input that once found a bug, replayed through the
/// plain build of `filtercam-fuzz` (scripts/fuzz.sh runs the fuzzer itself).
final class FuzzSeedTests: XCTestCase {
    func testEverySeedKeepsItsTargetsChecks() throws {
        let fuzz = Build.directory + "/filtercam-fuzz"
        guard FileManager.default.isExecutableFile(atPath: fuzz) else {
            return XCTFail("no filtercam-fuzz at \(fuzz): run `swift build` first")
        }
        let seeds = Build.packageRoot + "/Fuzz/seeds"
        let targets = try FileManager.default.contentsOfDirectory(atPath: seeds).sorted()
        XCTAssertEqual(targets, ["chain", "command", "cube", "frame", "lens", "pipeline-file", "property"])
        for target in targets {
            let count = try FileManager.default.contentsOfDirectory(atPath: "\(seeds)/\(target)").count
            let r = try runProcess(fuzz, ["--target=\(target)", "\(seeds)/\(target)"],
                                   environment: ["SWIFT_BACKTRACE": "enable=no"], timeout: 120)
            XCTAssertEqual(r.status, 0, "\(target): \(r.stderr)")
            XCTAssertTrue(r.stdoutText.contains("\(target): \(count) inputs replayed, all checks held"), r.stdoutText)
        }
    }

    /// An unknown target is refused with the list of targets.
    func testAnUnknownTargetIsRefusedWithTheList() throws {
        let fuzz = Build.directory + "/filtercam-fuzz"
        guard FileManager.default.isExecutableFile(atPath: fuzz) else { return XCTFail("no filtercam-fuzz at \(fuzz)") }
        let r = try runProcess(fuzz, ["--target=nonsense", Build.packageRoot + "/Fuzz/seeds/chain"], timeout: 60)
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.contains("targets: chain, lens, command, pipeline-file, frame, property, cube"), r.stderr)
    }
}
