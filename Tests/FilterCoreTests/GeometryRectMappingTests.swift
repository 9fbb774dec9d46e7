import XCTest
@testable import FilterCore

final class GeometryRectMappingTests: XCTestCase {
    // 8x4 input; a 2x1 rectangle at (1,0) (hand-worked for each transform).
    let rect = PixelRect(x: 1, y: 0, width: 2, height: 1)

    func plan(_ method: OrientationMethod, zoom: Double = 1, lens: LensRect = .full, crop: Bool = false) -> GeometryPlan {
        GeometryPlan(inputWidth: 8, inputHeight: 4, method: method, zoom: zoom, lens: lens, lensCrop: crop)
    }

    func testIdentityKeepsTheRectangle() {
        XCTAssertEqual(plan(.identity).mapRectToOutput(rect), rect)
    }

    func testTurnsLikeThePixels() {
        // 90° clockwise: input (x, y) lands at (H-1-y, x) in a 4x8 picture; columns 1...2 of
        // row 0 become rows 1...2 of column 3.
        XCTAssertEqual(plan(.rotate90R).mapRectToOutput(rect), PixelRect(x: 3, y: 1, width: 1, height: 2))
        // 90° counter-clockwise: (x, y) -> (y, W-1-x): rows 5...6 of column 0.
        XCTAssertEqual(plan(.rotate90L).mapRectToOutput(rect), PixelRect(x: 0, y: 5, width: 1, height: 2))
        // 180°: (x, y) -> (W-1-x, H-1-y): columns 5...6 of row 3.
        XCTAssertEqual(plan(.rotate180).mapRectToOutput(rect), PixelRect(x: 5, y: 3, width: 2, height: 1))
        XCTAssertEqual(plan(.horizontal).mapRectToOutput(rect), PixelRect(x: 5, y: 0, width: 2, height: 1))
    }

    func testLensCropMovesAndClips() {
        // The right half of the picture: the rectangle at x 1...2 is outside it.
        let rightHalf = try! LensRect(x: 0.5, y: 0, w: 0.5, h: 1)
        XCTAssertNil(plan(.identity, lens: rightHalf, crop: true).mapRectToOutput(rect))
        // The left half keeps it where it was.
        let leftHalf = try! LensRect(x: 0, y: 0, w: 0.5, h: 1)
        XCTAssertEqual(plan(.identity, lens: leftHalf, crop: true).mapRectToOutput(rect), rect)
    }

    func testZoomScalesFromTheCentre() {
        // Zoom 2 of 8x4 shows the centre 4x2 (x 2...5, y 1...2) scaled by 2: input x 2...4 -> 0...4.
        XCTAssertEqual(plan(.identity, zoom: 2).mapRectToOutput(PixelRect(x: 2, y: 1, width: 2, height: 1)),
                       PixelRect(x: 0, y: 0, width: 4, height: 2))
    }
}
