import XCTest
@testable import FilterCore

/// The confirmation rule and the following of faces across analysed frames.
final class FaceTrackerTests: XCTestCase {
    private func face(_ x: Int, _ y: Int, _ size: Int, neighbors: Int, angle: Int = 0) -> DetectedFace {
        DetectedFace(rect: PixelRect(x: x, y: y, width: size, height: size), angle: angle, neighbors: neighbors)
    }

    /// One frame to confirm (non-live): a sure candidate is drawn at once, a weak one never.
    func testSureCandidateIsDrawnAtOnceAWeakOneNever() {
        var t = FaceTracker(confirmNeighbors: 5)
        let sure = face(100, 100, 80, neighbors: 6), weak = face(300, 50, 40, neighbors: 5)
        XCTAssertEqual(t.update([sure, weak]).map(\.rect), [sure.rect])
        XCTAssertEqual(t.update([sure, weak]).map(\.rect), [sure.rect])
    }

    /// Two frames to confirm (live): drawn on the second consecutive sure sighting only.
    func testLiveFaceIsDrawnOnTheSecondConsecutiveSureSighting() {
        var t = FaceTracker(confirmNeighbors: 5, confirmFrames: 2)
        let sure = face(100, 100, 80, neighbors: 9)
        XCTAssertEqual(t.update([sure]), [])
        XCTAssertEqual(t.update([]), [])            // not consecutive: starts again
        XCTAssertEqual(t.update([sure]), [])
        XCTAssertEqual(t.update([sure]).map(\.rect), [sure.rect])
        // Drawn: a weaker sighting of it keeps the square (no flicker).
        XCTAssertEqual(t.update([face(100, 100, 80, neighbors: 4)]).map(\.rect), [sure.rect])
        // A one-frame pattern, however sure, is not drawn.
        XCTAssertEqual(t.update([sure, face(400, 0, 50, neighbors: 30)]).count, 1)
    }

    func testWeakSightingsInBetweenDoNotConfirm() {
        var t = FaceTracker(confirmNeighbors: 5, confirmFrames: 2)
        let sure = face(10, 10, 40, neighbors: 8), weak = face(10, 10, 40, neighbors: 3)
        XCTAssertEqual(t.update([sure]), [])
        XCTAssertEqual(t.update([weak]), [])
        XCTAssertEqual(t.update([sure]), [])
        XCTAssertEqual(t.update([sure]).count, 1)
    }

    func testConfirmedFaceSurvivesOneMissThenGoes() {
        var t = FaceTracker(confirmNeighbors: 5)
        let f = face(10, 10, 40, neighbors: 20)
        XCTAssertEqual(t.update([f]).count, 1)
        XCTAssertEqual(t.update([]).map(\.rect), [f.rect])   // no flicker on one missed analysis
        XCTAssertEqual(t.update([]), [])
    }

    func testSquareMovesHalfwayWhileOverlappingAndJumpsOtherwise() {
        var t = FaceTracker(confirmNeighbors: 5)
        _ = t.update([face(100, 100, 100, neighbors: 20)])
        // Moved by 10 px (IoU 0.82): halfway.
        XCTAssertEqual(t.update([face(110, 100, 100, neighbors: 20)]).map(\.rect), [PixelRect(x: 105, y: 100, width: 100, height: 100)])
        // Moved by 45 px (IoU 0.38 ≥ 0.3: the same face, but < 0.5): jumps.
        XCTAssertEqual(t.update([face(150, 100, 100, neighbors: 20)]).map(\.rect), [PixelRect(x: 150, y: 100, width: 100, height: 100)])
        // Moved by 80 px (IoU 0.11): another face; the old square stays for its one miss.
        XCTAssertEqual(t.update([face(230, 100, 100, neighbors: 20)]).count, 2)
    }

    func testTwoFacesKeepTheirOwnTracksAndAngle() {
        var t = FaceTracker(confirmNeighbors: 5)
        let a = face(0, 0, 50, neighbors: 10, angle: 90), b = face(200, 0, 50, neighbors: 10, angle: 270)
        XCTAssertEqual(t.update([a, b]), [a, b])
        XCTAssertEqual(t.update([b, a]).map(\.angle), [90, 270])
    }

    func testRemapMovesTracksIntoANewPicture() {
        var t = FaceTracker(confirmNeighbors: 5)
        let g1 = FaceGeometry(width: 640, height: 480, method: .identity)
        let g2 = FaceGeometry(width: 480, height: 640, method: .rotate90R)
        let f = face(100, 50, 80, neighbors: 20)
        _ = t.update([f], in: g1)
        let moved = g1.map(f.rect, to: g2)!
        // The track follows into the turned picture (no new sighting needed), and the
        // upright face now has its head to the right there: roll 90.
        let carried = t.update([], in: g2)
        XCTAssertEqual(carried.map(\.rect), [moved])
        XCTAssertEqual(carried.map(\.angle), [90])
        t.reset()
        XCTAssertEqual(t.faces, [])
    }

    /// A box the second cascade did not confirm never starts a square, however many
    /// candidate windows it has; it still follows a square already drawn.
    func testUnverifiedCandidateNeverStartsASquareButFollowsOne() {
        var t = FaceTracker(confirmNeighbors: 5)
        var cheek = face(300, 50, 40, neighbors: 30)
        cheek.verified = false
        XCTAssertEqual(t.update([cheek]), [])
        XCTAssertEqual(t.update([cheek]), [])
        let f = face(10, 10, 40, neighbors: 20)
        var weakF = f
        weakF.verified = false
        XCTAssertEqual(t.update([f]).count, 1)
        XCTAssertEqual(t.update([weakF]).map(\.rect), [f.rect])
    }

    /// Weak candidates hold a drawn square for `staleFrames` analyses after its last sure
    /// one, then it goes, even while they keep coming (a pattern the cascade sees weakly
    /// every frame does not keep a square for seconds).
    func testWeakCandidatesHoldASquareOnlyForStaleFrames() {
        var t = FaceTracker(confirmNeighbors: 5, confirmFrames: 2)
        t.staleFrames = 3
        let sure = face(100, 100, 80, neighbors: 9), weak = face(100, 100, 80, neighbors: 4)
        XCTAssertEqual(t.update([sure]), [])
        XCTAssertEqual(t.update([sure]).count, 1)
        for _ in 0..<3 { XCTAssertEqual(t.update([weak]).count, 1) }
        XCTAssertEqual(t.update([weak]), [])
        XCTAssertEqual(t.update([weak]), [])
        // Sure again: a new track, drawn after two sure sightings as any other.
        XCTAssertEqual(t.update([sure]), [])
        XCTAssertEqual(t.update([sure]).count, 1)
        // A sure sighting in between starts the count again.
        for _ in 0..<3 { _ = t.update([weak]) }
        XCTAssertEqual(t.update([sure]).count, 1)
        for _ in 0..<3 { XCTAssertEqual(t.update([weak]).count, 1) }
        // A miss counts as an analysis without a sure candidate too.
        XCTAssertEqual(t.update([]), [])
    }

    /// A face in a roll the frame did not search is kept as it is, not counted as missed.
    func testFaceOfARollNotSearchedIsKept() {
        var t = FaceTracker(confirmNeighbors: 5, confirmFrames: 2)
        let turned = face(10, 10, 40, neighbors: 20, angle: 90), other = face(200, 10, 40, neighbors: 8, angle: 90)
        XCTAssertEqual(t.update([turned]), [])
        XCTAssertEqual(t.update([turned, other]).count, 1)
        for _ in 0..<5 { XCTAssertEqual(t.update([], searched: [0]).map(\.rect), [turned.rect]) }
        // The other face, sure again on the next search of its roll: consecutive for that roll.
        XCTAssertEqual(t.update([turned, other], searched: [0, 90]).count, 2)
        XCTAssertEqual(t.update([], searched: [0, 90]).count, 2)   // one miss held
        XCTAssertEqual(t.update([], searched: [0, 90]), [])
    }
}
