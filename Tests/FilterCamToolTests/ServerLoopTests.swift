import CRTSPServe
import Foundation
import XCTest

/// The servers' own thread (`server_loop.c`), stopped right after it starts, as `serve`
/// does when a second port is in use: the stop used to be lost when it came before the
/// thread entered its loop, and `serve` hung in the join for good.
final class ServerLoopTests: XCTestCase {
    func testALoopStoppedRightAfterItStartsStops() {
        let done = DispatchSemaphore(value: 0)
        // On a thread of its own, so that a hang fails the test instead of stopping the suite.
        Thread.detachNewThread {
            for _ in 0..<500 {
                let loop = fc_server_loop_new()
                fc_server_loop_start(loop, "test-loop", { _ in 1 }, nil)
                fc_server_loop_free(loop)
            }
            done.signal()
        }
        XCTAssertEqual(done.wait(timeout: .now() + 60), .success, "a loop stopped at its start never ended")
    }
}
