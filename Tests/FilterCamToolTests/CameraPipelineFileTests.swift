import FilterCamHost
import FilterCamTestSupport
import Foundation
import XCTest

/// The camera pipeline files without SOURCE: the fallback picture on a camera-less machine.
final class CameraPipelineFileTests: XCTestCase {
    private let root = Build.packageRoot + "/pipelines/"

    func testRecordPipelineWithoutSource() throws {
        if !CameraDirectory.list().isEmpty { throw XCTSkip("this machine has a camera") }
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("record.mp4").path
        let r = try runCLI(["launch", root + "record.pipeline"], environment: ["FRAMES": "15", "OUT": out], timeout: 60)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("no camera found"), r.stderr)
        // FRAMES counts the frames filtercamsrc gives (after its 30 fps videorate), so
        // passed + dropped is exactly 15. Live: filtercam drops frames while it is busy (a
        // debug build on a loaded machine is slower than the frame interval); every frame
        // it passed is in the file, so with none dropped the file holds exactly FRAMES.
        // The stream is constant-rate, so those frames span the file's duration.
        let count = try XCTUnwrap(try probeFrameCount(out))
        let processed = try XCTUnwrap(r.elementSummary("processed"), r.stderr)
        let dropped = try XCTUnwrap(r.elementSummary("dropped"), r.stderr)
        XCTAssertEqual(count, processed, "frames in the file vs frames filtercam passed")
        XCTAssertEqual(processed + dropped, 15, r.stderr)
        // How many it drops depends on the machine (the conformance suite holds the release
        // element to identity's rate); some frames must get through.
        XCTAssertGreaterThan(count, 0, r.stderr)
        XCTAssertEqual(try XCTUnwrap(try probeDuration(out)), 15.0 / 30, accuracy: 0.1, r.stderr)
    }

    func testPreviewPipelineWithoutSource() throws {
        if !CameraDirectory.list().isEmpty { throw XCTSkip("this machine has a camera") }
        let r = try runCLI(["launch", root + "preview.pipeline"], environment: ["FRAMES": "10", "SINK": "fakesink"], timeout: 30)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("no camera found"), r.stderr)
        XCTAssertTrue(r.stderr.contains("filtercam filtercam0: processed="), r.stderr)
    }

    func testDeviceVariableStillChoosesTheCamera() throws {
        let r = try runCLI(["launch", root + "preview.pipeline"],
                           environment: ["DEVICE": "test:ball", "FRAMES": "5", "SINK": "fakesink"], timeout: 30)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertFalse(r.stderr.contains("WARNING"), r.stderr)
    }
}
