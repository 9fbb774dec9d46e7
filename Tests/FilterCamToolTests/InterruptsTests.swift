import Glibc
import XCTest
@testable import FilterCamTool

/// How the signal handlers count stops (`PipelineSession.Interrupts`): one press is one
/// stop however it is delivered; another press is an abort.
final class InterruptsTests: XCTestCase {
    /// SIGTERM and SIGHUP sent together (systemd's `SendSIGHUP=yes`, a logout) are one stop,
    /// also when two threads handle them at the same moment: both found nothing counted yet
    /// and counted twice, an abort and an unplayable recording (1 run in 3 of a test sending
    /// both at once).
    func testATermAndAHangUpHandledAtOnceOnTwoThreadsAreOneStop() {
        for round in 0..<500 {
            let interrupts = PipelineSession.Interrupts()
            DispatchQueue.concurrentPerform(iterations: 2) { i in
                interrupts.record(i == 0 ? SIGTERM : SIGHUP)
            }
            XCTAssertEqual(interrupts.seen, 1, "round \(round)")
            if interrupts.seen != 1 { return }
        }
    }

    func testAnotherPressIsAnAbortAndTheSamePressDeliveredTwiceIsNot() {
        let twice = PipelineSession.Interrupts()
        twice.record(SIGINT)
        twice.record(SIGINT)   // `timeout -s INT`: the program and its group, microseconds apart
        XCTAssertEqual(twice.seen, 1)
        twice.takeIn()
        twice.record(SIGINT)   // after the loop took in the first: pressed again
        XCTAssertEqual(twice.seen, 2)

        let other = PipelineSession.Interrupts()
        other.record(SIGINT)
        other.record(SIGTERM)
        XCTAssertEqual(other.seen, 2)
        XCTAssertEqual(other.first, SIGINT)

        let quit = PipelineSession.Interrupts()
        quit.recordAbort(SIGQUIT)
        XCTAssertEqual(quit.seen, 2)
    }
}
