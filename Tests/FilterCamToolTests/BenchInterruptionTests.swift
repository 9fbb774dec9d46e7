import FilterCamTestSupport
import Foundation
import XCTest

/// `filtercam bench` stopped with Ctrl-C leaves nothing behind: the snapshot rows had left
/// thousands of stills (tens of MB) in the temporary folder.
final class BenchInterruptionTests: XCTestCase {
    func testCtrlCRemovesTheStillsAndSaysSo() throws {
        try Build.requireCLI()
        let temporary = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: temporary) }
        let bench = try RunningProcess(Build.cli, ["bench", "--only", "snapshot", "--sizes", "64x48", "--runs", "3"],
                                       environment: ["TMPDIR": temporary.path], stdinNull: true)
        // Interrupted once stills are being written (the event, not a time).
        func stills() -> Int {
            let folders = (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []
            return folders.reduce(0) { $0 + ((try? FileManager.default.contentsOfDirectory(atPath: temporary.path + "/" + $1))?.count ?? 0) }
        }
        let deadline = Date().addingTimeInterval(60)
        while stills() < 20 && Date() < deadline { usleep(20_000) }
        XCTAssertGreaterThanOrEqual(stills(), 20, "the snapshot row never wrote stills")
        bench.interrupt()
        let r = bench.wait(timeout: 30)
        XCTAssertEqual(r.status, 128 + SIGINT, r.summary)
        // The row's pipeline is stopped first: run in this process, its filtercam wrote on
        // into a stills folder it made again (a tester found hundreds left, 7 runs of 8).
        XCTAssertTrue(r.stderr.contains("filtercam bench: interrupted: stopped the run, removed its temporary files (\(temporary.path)/filtercam-bench-stills-"),
                      r.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: temporary.path), [])
    }
}
