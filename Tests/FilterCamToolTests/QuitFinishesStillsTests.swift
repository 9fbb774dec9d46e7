import FilterCamTestSupport
import Foundation
import XCTest

/// `quit` right after `snapshot` with a bracket set: the set takes consecutive frames, and
/// quit sends EOS only once every still of it is written (EOS after the first still cut
/// the set to one or two).
final class QuitFinishesStillsTests: XCTestCase {
    func testQuitAfterABracketedSnapshotWritesTheWholeSet() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        // 5 frames a second: the set's three frames span 0.4 s, far longer than writing one still.
        let r = try runCLI(["launch", "videotestsrc is-live=true ! video/x-raw,format=I420,width=64,height=48,framerate=5/1 ! "
                            + "filtercam snapshot-bracket=-1,0,1 flash=false snapshot-location=\(dir.path)/b-%d.jpg ! fakesink"],
                           stdin: "snapshot\nquit\n", timeout: 30)
        XCTAssertEqual(r.status, 0, r.summary)
        let written = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        XCTAssertEqual(written, ["b-0-ev+0.jpg", "b-0-ev+1.jpg", "b-0-ev-1.jpg"], r.stderr)
        XCTAssertFalse(r.stderr.contains("failed"), r.stderr)
    }
}
