import XCTest
@testable import FilterCore

/// Where the second cascade looks for a candidate, at which sizes, and what confirms it.
final class FaceVerificationTests: XCTestCase {
    private func r(_ x: Int, _ y: Int, _ w: Int, _ h: Int) -> PixelRect { PixelRect(x: x, y: y, width: w, height: h) }

    func testRegionIsTheBoxGrownByAQuarterOfItsSizeClippedToThePicture() {
        let v = FaceVerification()
        XCTAssertEqual(v.region(around: r(100, 100, 80, 80), width: 640, height: 360), r(80, 80, 120, 120))
        XCTAssertEqual(v.region(around: r(10, 300, 80, 80), width: 640, height: 360), r(0, 280, 110, 80))
    }

    func testNoRegionWhenTooLittleOfTheFaceIsLeftForTheSmallestSize() {
        let v = FaceVerification()
        // 80 px face: smallest size searched 48 px; only 30 rows of it inside the picture.
        XCTAssertNil(v.region(around: r(100, -70, 80, 80), width: 640, height: 360))
        XCTAssertNotNil(v.region(around: r(100, -20, 80, 80), width: 640, height: 360))
    }

    func testSizesSpanFromSixTenthsToOneAndSixTenthsOfTheBox() {
        let v = FaceVerification()
        XCTAssertEqual(v.sizes(for: r(0, 0, 50, 50)).smallest, 30)
        XCTAssertEqual(v.sizes(for: r(0, 0, 50, 50)).largest, 80)
    }

    func testConfirmedOnlyByABoxOfTheSameFace() {
        let v = FaceVerification()
        let box = r(100, 100, 80, 80)
        XCTAssertTrue(v.confirms(box, found: [r(300, 0, 40, 40), r(110, 105, 70, 70)]))
        XCTAssertFalse(v.confirms(box, found: [r(300, 0, 40, 40)]))
        XCTAssertFalse(v.confirms(box, found: [r(150, 150, 80, 80)]))   // overlaps a quarter: another place
        XCTAssertFalse(v.confirms(box, found: []))
    }
}
