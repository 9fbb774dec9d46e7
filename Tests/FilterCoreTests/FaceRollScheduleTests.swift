import XCTest
@testable import FilterCore

/// Which rolls each analysed frame of a video searches.
final class FaceRollScheduleTests: XCTestCase {
    func testFirstFrameSearchesEveryRollThenTheExpectedOneAndTheOthersInTurn() {
        var s = FaceRollSchedule(period: 3)
        let all = [0, 90, 270, 180]
        XCTAssertEqual(s.rolls(requested: all, drawn: []), all)
        let next = (1...9).map { _ in s.rolls(requested: all, drawn: []) }
        XCTAssertEqual(next, [[0], [0], [0, 90], [0], [0], [0, 270], [0], [0], [0, 180]])
        // Every other roll came up once in 9 frames: 12 searches instead of 36.
        XCTAssertEqual(next.map(\.count).reduce(0, +), 12)
    }

    func testRollsOfDrawnFacesAreSearchedEveryFrame() {
        var s = FaceRollSchedule(period: 3)
        let all = [0, 90, 270, 180]
        _ = s.rolls(requested: all, drawn: [])
        XCTAssertEqual(s.rolls(requested: all, drawn: [90]), [0, 90])
        XCTAssertEqual(s.rolls(requested: all, drawn: [90]), [0, 90])
        XCTAssertEqual(s.rolls(requested: all, drawn: [90]), [0, 90, 270])
    }

    func testOneRollOrANewRequestSearchesEverything() {
        var s = FaceRollSchedule()
        XCTAssertEqual(s.rolls(requested: [0], drawn: []), [0])
        XCTAssertEqual(s.rolls(requested: [0], drawn: []), [0])
        XCTAssertEqual(s.rolls(requested: [270, 0, 180, 90], drawn: []), [270, 0, 180, 90])   // another mode: a first frame again
        XCTAssertEqual(s.rolls(requested: [270, 0, 180, 90], drawn: []), [270])
        s.reset()
        XCTAssertEqual(s.rolls(requested: [270, 0, 180, 90], drawn: []), [270, 0, 180, 90])
    }
}
