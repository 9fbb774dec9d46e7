import XCTest
@testable import FilterCore

/// Roll bookkeeping (which way a face points after each orientation method, which turn
/// stands it upright), the rolls each `face-orientations` mode searches, and the merge of
/// the rolls' answers.
final class FaceRollTests: XCTestCase {
    /// A face's "up" followed through each method with the pixel transform itself: a
    /// picture with one marked pixel above the centre; where the mark lands says the roll.
    func testRollOfEachMethodIsWhereUpLandsInTheTransformedPicture() {
        let n = 5
        for method in OrientationMethod.allCases {
            // Input pixel (2, 0) is "up" from the centre (2, 2); find it in the output.
            var found: (x: Int, y: Int)?
            for y in 0..<n { for x in 0..<n where method.sourcePixel(x: x, y: y, inputWidth: n, inputHeight: n) == (2, 0) { found = (x, y) } }
            let expected: Int
            switch (found!.x - 2, found!.y - 2) {
            case (0, -2): expected = 0
            case (2, 0): expected = 90
            case (0, 2): expected = 180
            default: expected = 270
            }
            XCTAssertEqual(FaceRoll.of(method), expected, method.nick)
        }
        XCTAssertEqual(FaceRoll.of(.rotate90R), 90)   // clockwise
    }

    func testUprightingTurnUndoesTheRoll() {
        for roll in FaceRoll.all {
            XCTAssertEqual(FaceRoll.of(FaceRoll.uprighting(roll)), (360 - roll) % 360)
            // The picture turned by a method with roll r, then by uprighting(r): faces upright.
            let turn = [OrientationMethod.identity, .rotate90R, .rotate180, .rotate90L][roll / 90]
            XCTAssertEqual(FaceRoll.of(turn.then(FaceRoll.uprighting(roll))), 0)
        }
    }

    /// A face carried from one orientation to another (the device turned between two
    /// detections), worked out by hand: where the top of the head points afterwards.
    func testCarriedRollFollowsTheTurnBetweenTwoMethods() {
        // Upright in the input, shown turned 90° clockwise: head to the right (90).
        XCTAssertEqual(FaceRoll.carried(0, from: .identity, to: .rotate90R), 90)
        // Head right in a 90r picture (upright in the input), now shown 180: upside down.
        XCTAssertEqual(FaceRoll.carried(90, from: .rotate90R, to: .rotate180), 180)
        // Head right in the input, mirrored: head left.
        XCTAssertEqual(FaceRoll.carried(90, from: .identity, to: .horizontal), 270)
        // Head right in the input, flipped upside down (vert keeps left and right): still right.
        XCTAssertEqual(FaceRoll.carried(90, from: .identity, to: .vertical), 90)
        // Back through a mirror: head left in a mirrored picture is head right in the input, 90r: down.
        XCTAssertEqual(FaceRoll.carried(270, from: .horizontal, to: .rotate90R), 180)
        for m in OrientationMethod.allCases {
            for roll in FaceRoll.all {
                XCTAssertEqual(FaceRoll.carried(roll, from: m, to: m), roll, "no turn, no change (\(m))")
                XCTAssertEqual(FaceRoll.carried(FaceRoll.carried(roll, from: m, to: .rotate90L), from: .rotate90L, to: m), roll)
            }
        }
    }

    func testRollsPerMode() {
        XCTAssertEqual(FaceOrientations.upright.rolls(applied: .rotate90R, deviceUpright: .identity), [0])
        XCTAssertEqual(FaceOrientations.all.rolls(applied: .identity, deviceUpright: nil), [0, 90, 270, 180])
        XCTAssertEqual(FaceOrientations.auto.rolls(applied: .identity, deviceUpright: nil), [0, 90, 270, 180])
        // orientation=auto with the device known: the output is upright.
        XCTAssertEqual(FaceOrientations.auto.rolls(applied: .rotate90R, deviceUpright: .rotate90R), [0])
        XCTAssertEqual(FaceOrientations.device.rolls(applied: .rotate90R, deviceUpright: .rotate90R), [0])
        // A fixed identity while the device (portrait) needs 90r: faces lie with their tops left.
        XCTAssertEqual(FaceOrientations.device.rolls(applied: .identity, deviceUpright: .rotate90R), [270])
        XCTAssertEqual(FaceOrientations.all.rolls(applied: .identity, deviceUpright: .rotate90R), [270, 0, 180, 90])
        // The front camera held in portrait with orientation=auto: upright.
        XCTAssertEqual(FaceOrientations.device.rolls(applied: .rotate90R.then(.horizontal), deviceUpright: .rotate90R.then(.horizontal)), [0])
        // Only its mirror applied: the sensor's picture (tops left), mirrored: tops right.
        XCTAssertEqual(FaceOrientations.device.rolls(applied: .horizontal, deviceUpright: .rotate90R.then(.horizontal)), [90])
        XCTAssertEqual(FaceOrientations.device.rolls(applied: .identity, deviceUpright: nil), [0])
        // A device that never said how it is held is taken as upright: the orientation
        // applied gives the expected roll, searched first (a webcam turned with 90r, or
        // turned and mirrored with ul-lr / ur-ll).
        XCTAssertEqual(FaceOrientations.auto.rolls(applied: .rotate90R, deviceUpright: nil), [90, 180, 0, 270])
        XCTAssertEqual(FaceOrientations.auto.rolls(applied: .upperLeftDiagonal, deviceUpright: nil).first, 270)
        XCTAssertEqual(FaceOrientations.auto.rolls(applied: .upperRightDiagonal, deviceUpright: nil).first, 90)
        XCTAssertEqual(FaceOrientations.device.rolls(applied: .rotate180, deviceUpright: nil), [180])
    }

    private func face(_ x: Int, _ size: Int, _ angle: Int, _ n: Int) -> DetectedFace {
        DetectedFace(rect: PixelRect(x: x, y: 0, width: size, height: size), angle: angle, neighbors: n)
    }

    func testMergeKeepsSurerRollOfTheSameFaceAndDropsWeakOtherRolls() {
        let merge = FaceOrientationMerge()
        // The same face upright (40) and upside down (12): one face, upright.
        XCTAssertEqual(merge.merge([face(0, 100, 0, 40), face(5, 95, 180, 12)], expectedRoll: 0), [face(0, 100, 0, 40)])
        // A weak box in another roll beside a sure face: dropped (below a third).
        XCTAssertEqual(merge.merge([face(0, 100, 0, 40), face(300, 60, 180, 12)], expectedRoll: 0), [face(0, 100, 0, 40)])
        // Alone in another roll, with no more than 10 candidates: dropped; with 11: kept.
        XCTAssertEqual(merge.merge([face(300, 60, 90, 10)], expectedRoll: 0), [])
        XCTAssertEqual(merge.merge([face(300, 60, 90, 11)], expectedRoll: 0), [face(300, 60, 90, 11)])
        // The expected roll keeps weak boxes (the tracker decides) unless another roll dominates.
        XCTAssertEqual(merge.merge([face(300, 60, 0, 3)], expectedRoll: 0), [face(300, 60, 0, 3)])
        XCTAssertEqual(merge.merge([face(0, 100, 180, 40), face(300, 60, 0, 6)], expectedRoll: 0), [face(0, 100, 180, 40)])
        // Two surely found faces of different rolls are both kept.
        XCTAssertEqual(merge.merge([face(0, 100, 0, 40), face(300, 100, 90, 30)], expectedRoll: 0).count, 2)
    }

    func testWithinARollTheLargerDuplicateStays() {
        let big = DetectedFace(rect: PixelRect(x: 12, y: 161, width: 91, height: 91), neighbors: 4)
        let inner = DetectedFace(rect: PixelRect(x: 15, y: 173, width: 61, height: 61), neighbors: 5)
        XCTAssertEqual(FaceOrientationMerge().merge([inner, big], expectedRoll: 0), [big])
    }
}
