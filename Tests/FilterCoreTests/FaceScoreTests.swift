import XCTest
@testable import FilterCore

/// The port of shared/fixtures/faces/score.py: the same counts on hand-made cases.
final class FaceScoreTests: XCTestCase {
    private func r(_ x: Int, _ y: Int, _ w: Int, _ h: Int) -> PixelRect { PixelRect(x: x, y: y, width: w, height: h) }

    func testHitsDuplicatesIgnoreRegionsAndFalseAlarms() {
        let faces = [r(0, 0, 100, 100), r(200, 0, 100, 100)]
        // A hit, a duplicate of it (neither), a miss of the second face, a false alarm,
        // and a box touching the ignore region (neither).
        let found = [r(5, 5, 100, 100), r(0, 0, 90, 90), r(500, 500, 50, 50), r(410, 0, 20, 20)]
        XCTAssertEqual(FaceScore(found, faces: faces, ignore: [r(400, 0, 30, 30)]), FaceScore(hits: 1, falseAlarms: 1, misses: 1))
    }

    func testIoUThresholdIsInclusive() {
        // 40×100 inside 100×100: IoU exactly 0.4.
        XCTAssertEqual(FaceScore([r(0, 0, 40, 100)], faces: [r(0, 0, 100, 100)]), FaceScore(hits: 1))
        XCTAssertEqual(FaceScore([r(0, 0, 39, 100)], faces: [r(0, 0, 100, 100)]), FaceScore(falseAlarms: 1, misses: 1))
    }

    func testLargestDetectionIsMatchedFirst() {
        // Both overlap the face; the larger one takes it, the smaller is a duplicate.
        let face = r(0, 0, 100, 100)
        XCTAssertEqual(FaceScore([r(10, 10, 80, 80), r(0, 0, 100, 100)], faces: [face]), FaceScore(hits: 1))
        // One that does not reach IoU 0.4 with the face is a false alarm even inside it.
        XCTAssertEqual(FaceScore([r(20, 20, 60, 60), r(0, 0, 100, 100)], faces: [face]), FaceScore(hits: 1, falseAlarms: 1))
        XCTAssertEqual(FaceScore([], faces: [face]) + FaceScore([r(0, 0, 5, 5)], faces: []), FaceScore(falseAlarms: 1, misses: 1))
    }
}
