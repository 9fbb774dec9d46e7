import XCTest
@testable import FilterCore

final class RunningMaximumTests: XCTestCase {
    func testFollowsTheLargestOfTheWindow() {
        var m = RunningMaximum(window: 3)
        XCTAssertEqual(m.maximum, 0)
        m.add(5); m.add(1); m.add(2)
        XCTAssertEqual(m.maximum, 5)
        m.add(1)                       // 5 leaves the window
        XCTAssertEqual(m.maximum, 2)
        m.add(9)
        XCTAssertEqual(m.maximum, 9)
        m.reset()
        XCTAssertEqual(m.maximum, 0)
    }

    func testOneOutlierSetAside() {
        var m = RunningMaximum(window: 5)
        m.add(8)
        XCTAssertEqual(m.maximum(ignoringLargest: 1), 8, "a lone value is the maximum")
        m.add(1); m.add(2); m.add(3)
        XCTAssertEqual(m.maximum(ignoringLargest: 1), 3)
        m.add(7)                        // two slow values in the window: the second counts
        XCTAssertEqual(m.maximum(ignoringLargest: 1), 7)
    }

    func testReportedLatencyIsPaddedWholeMilliseconds() {
        XCTAssertEqual(reportedLatency(forProcessing: 0), 1_000_000)            // at least 1 ms
        XCTAssertEqual(reportedLatency(forProcessing: 300_000), 1_000_000)      // 0.375 ms -> 1 ms
        XCTAssertEqual(reportedLatency(forProcessing: 4_000_000), 5_000_000)    // 5 ms exactly
        XCTAssertEqual(reportedLatency(forProcessing: 4_000_001), 6_000_000)    // just over -> next ms
        XCTAssertEqual(reportedLatency(forProcessing: 100_000_000), 125_000_000)
    }
}
