@testable import FilterCamHost
@testable import FilterCamTool
import FilterCamTestSupport
import Foundation
import XCTest

/// Snapshot folders on a real filesystem that fails: made read-only while stills are being
/// taken, and full. Each test mounts a small tmpfs in a private mount namespace
/// (`unshare -m`), so permissions cannot be bypassed by root and nothing outside the test
/// sees the mount. The stills that were written are copied out before the namespace ends,
/// and each must decode with GStreamer's jpegdec: no half-written file may remain.
final class FilesystemFaultTests: XCTestCase {
    override func setUp() {
        GStreamer.initialize()
    }

    /// Runs `script` in bash inside a private mount namespace with `$MNT` a fresh tmpfs of
    /// `size`, `$CLI` the filtercam binary and `$OUT` a folder that outlives the namespace.
    /// The script sets `status`; afterwards the folder's listing and its stills are copied
    /// to `$OUT/listing` and `$OUT/stills`.
    private func runWithSmallFilesystem(size: String, _ script: String) throws -> (ProcessResult, URL) {
        guard let unshare = Build.which("unshare") else { throw XCTSkip("unshare (util-linux) is not installed") }
        try Build.requireCLI()
        let probe = try runProcess(unshare, ["-m", "--propagation", "private", "true"], timeout: 10)
        guard probe.status == 0 else { throw XCTSkip("no private mount namespaces here (needs CAP_SYS_ADMIN): \(probe.stderr)") }
        let out = try makeTempDir()
        let prologue = """
            set -u
            MNT=$(mktemp -d)
            mount -t tmpfs -o size=\(size) tmpfs "$MNT" || exit 97
            """
        let epilogue = """
            ls -A "$MNT" > "$OUT/listing"
            mkdir "$OUT/stills" && cp "$MNT"/*.jpg "$OUT/stills/" 2>/dev/null
            exit $status
            """
        let r = try runProcess(unshare, ["-m", "--propagation", "private", "bash", "-c", [prologue, script, epilogue].joined(separator: "\n")],
                               environment: ["CLI": Build.cli, "OUT": out.path], timeout: 60)
        XCTAssertNotEqual(r.status, 97, "could not mount a tmpfs: \(r.stderr)")
        return (r, out)
    }

    /// Every file copied out is a complete still: it decodes to the frame size.
    private func requireCompleteStills(in dir: URL, width: Int, height: Int, file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        for name in names {
            XCTAssertTrue(name.hasSuffix(".jpg") && !name.hasPrefix("."), "only finished stills remain, found \(name)", file: file, line: line)
            let still = try FrameIO.captureFrame("filesrc location=\"\(dir.path)/\(name)\" ! jpegdec ! videoconvert", format: .rgba)
            XCTAssertEqual([still.width, still.height], [width, height], name, file: file, line: line)
        }
        return names
    }

    private func summaryCount(_ key: String, in stderr: String) -> Int? {
        guard let range = stderr.range(of: "\(key)=") else { return nil }
        return Int(stderr[range.upperBound...].prefix { $0.isNumber })
    }

    /// What every fault must leave: the stream ran to the end (`frames`), the log names
    /// `reason`, no temporary file, only complete stills (some, fewer than `fewerThan`),
    /// and the summary counts exactly those.
    private func requireOutcome(_ r: ProcessResult, _ out: URL, frames: Int, reason: String, width: Int, height: Int,
                                fewerThan: Int, file: StaticString = #filePath, line: UInt = #line) throws {
        let log = (try? String(contentsOf: out.appendingPathComponent("log"), encoding: .utf8)) ?? ""
        // A still or recording asked for that failed fails the run (said, the stream ran on).
        XCTAssertEqual(r.status, 1, "\(r.summary)\n\(log)", file: file, line: line)
        XCTAssertTrue((r.stderr + log).contains("failed (said above): exit status 1"), "\(r.stderr)\n\(log)", file: file, line: line)
        // Live, filtercam may drop frames while busy: every frame was passed or dropped.
        let seen = (summaryCount("processed", in: log) ?? 0) + (summaryCount("dropped", in: log) ?? 0)
        XCTAssertEqual(seen, frames, "the stream ran to the end: \(log)", file: file, line: line)
        XCTAssertTrue(log.contains(reason), "failed stills say why (\(reason)): \(log)", file: file, line: line)
        let listing = (try? String(contentsOf: out.appendingPathComponent("listing"), encoding: .utf8)) ?? ""
        XCTAssertFalse(listing.contains(".partial"), "no temporary file remains: \(listing)", file: file, line: line)
        let stills = try requireCompleteStills(in: out.appendingPathComponent("stills"), width: width, height: height, file: file, line: line)
        XCTAssertGreaterThan(stills.count, 0, "stills before the fault were written: \(log)", file: file, line: line)
        XCTAssertLessThan(stills.count, fewerThan, "stills after the fault were not: \(stills)", file: file, line: line)
        XCTAssertEqual(summaryCount("snapshots", in: log), stills.count, "the summary counts the stills that exist: \(log)", file: file, line: line)
    }

    func testFolderMadeReadOnlyMidRun() throws {
        let (r, out) = try runWithSmallFilesystem(size: "8m", """
            "$CLI" launch "videotestsrc is-live=true num-buffers=90 ! video/x-raw,format=BGRA,width=160,height=120,framerate=30/1 \
              ! filtercam snapshot-every=10 flash=false snapshot-location=$MNT/s-%05d.jpg ! fakesink" 2>"$OUT/log" &
            pid=$!
            sleep 1.3
            mount -o remount,ro "$MNT"
            wait $pid; status=$?
            """)
        defer { try? FileManager.default.removeItem(at: out) }
        // 9 stills are due; those after the remount fail.
        try requireOutcome(r, out, frames: 90, reason: "Read-only file system", width: 160, height: 120, fewerThan: 9)
    }

    func testFullFilesystemLeavesOnlyCompleteStills() throws {
        // 256 kB: a few 320x240 stills of noise (about 60 kB each) fit, then the disk is full.
        let (r, out) = try runWithSmallFilesystem(size: "256k", """
            "$CLI" launch "videotestsrc num-buffers=12 pattern=snow ! video/x-raw,format=BGRA,width=320,height=240 \
              ! filtercam snapshot-every=1 snapshot-location=$MNT/s-%05d.jpg ! fakesink" 2>"$OUT/log"
            status=$?
            """)
        defer { try? FileManager.default.removeItem(at: out) }
        // 12 stills are due; not all fit in 256 kB.
        try requireOutcome(r, out, frames: 12, reason: "No space left on device", width: 320, height: 240, fewerThan: 12)
    }
}
