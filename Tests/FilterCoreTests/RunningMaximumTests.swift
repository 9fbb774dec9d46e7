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

    func testReportedLatencyGrowsByHalfAtLeastAndShrinksWhenItWouldHalve() {
        XCTAssertEqual(nextReportedLatency(current: 0, wanted: 3_000_000), 3_000_000)            // the first: as measured
        XCTAssertEqual(nextReportedLatency(current: 10_000_000, wanted: 11_000_000), 15_000_000) // a millisecond more: half again
        XCTAssertEqual(nextReportedLatency(current: 10_000_000, wanted: 40_000_000), 40_000_000) // far more: at once
        XCTAssertEqual(nextReportedLatency(current: 3_000_000, wanted: 4_000_000), 5_000_000)    // 4.5 ms up to whole ms
        XCTAssertNil(nextReportedLatency(current: 15_000_000, wanted: 14_000_000))               // creeping within: kept
        XCTAssertNil(nextReportedLatency(current: 15_000_000, wanted: 8_000_000))                // not yet half
        XCTAssertEqual(nextReportedLatency(current: 15_000_000, wanted: 7_000_000), 7_000_000)   // halved: follows
        XCTAssertEqual(nextReportedLatency(current: 3_000_000, wanted: 1_000_000), 1_000_000)   // halved, 2 ms down
        // A filter creeping up a millisecond a frame from 10 to 60 ms moves it a few times.
        var current: UInt64 = 10_000_000, moves = 0
        for wanted in stride(from: UInt64(11_000_000), through: 60_000_000, by: 1_000_000) {
            if let next = nextReportedLatency(current: current, wanted: wanted) { current = next; moves += 1 }
        }
        XCTAssertLessThanOrEqual(moves, 5)
        XCTAssertGreaterThanOrEqual(current, 60_000_000)
    }
}
