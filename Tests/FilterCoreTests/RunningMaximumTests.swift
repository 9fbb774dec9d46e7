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

final class OnScreenDisplayTests: XCTestCase {
    let lens = PixelRect(x: 10, y: 10, width: 20, height: 20)

    func testBannerShowsForAMomentAfterAChange() {
        var osd = OnScreenDisplay()
        XCTAssertEqual(osd.items(at: 0, lens: lens, alwaysOutline: false), [])
        osd.filterChanged(to: "Sepia Tone", at: 10)
        XCTAssertEqual(osd.items(at: 10.5, lens: lens, alwaysOutline: false), [.banner("Sepia Tone")])
        XCTAssertEqual(osd.items(at: 11.6, lens: lens, alwaysOutline: false), [], "gone after 1.5 s")
        osd.zoomChanged(to: 2.04, at: 20)
        XCTAssertEqual(osd.items(at: 20.1, lens: nil, alwaysOutline: false), [.banner("zoom 2.0×")])
        osd.snapshotTaken(count: 4, at: 30)
        XCTAssertEqual(osd.items(at: 30, lens: nil, alwaysOutline: false), [.banner("snapshot 4")])
    }

    func testOutlineWhileMovingOrAlways() {
        var osd = OnScreenDisplay()
        XCTAssertEqual(osd.items(at: 0, lens: lens, alwaysOutline: true), [.outline(lens)])
        XCTAssertEqual(osd.items(at: 0, lens: nil, alwaysOutline: true), [], "no lens, no outline")
        osd.lensMoved(at: 5)
        XCTAssertEqual(osd.items(at: 6, lens: lens, alwaysOutline: false), [.outline(lens)])
        XCTAssertEqual(osd.items(at: 7, lens: lens, alwaysOutline: false), [])
    }

    func testHelpCardToggles() {
        var osd = OnScreenDisplay()
        osd.toggleHelp()
        XCTAssertEqual(osd.items(at: 100, lens: nil, alwaysOutline: false), [.card(OnScreenDisplay.helpLines)])
        osd.toggleHelp()
        XCTAssertEqual(osd.items(at: 100, lens: nil, alwaysOutline: false), [])
    }
}


final class PreviewCommandRuleTests: XCTestCase {
    func testLeadingFilterOfAChain() {
        XCTAssertEqual(FilterChain.leadingID(of: "sepia, vignette radius=0.7"), "sepia")
        XCTAssertEqual(FilterChain.leadingID(of: "mono"), "mono")
        XCTAssertEqual(FilterChain.leadingID(of: "none"), "none")
        XCTAssertEqual(FilterChain.leadingID(of: "no-such-filter"), "none")
    }

    func testRotateTurnsAQuarterClockwise() {
        XCTAssertEqual(OrientationMethod.afterRotate("identity"), .rotate90R)
        XCTAssertEqual(OrientationMethod.afterRotate("90r"), .rotate180)
        XCTAssertEqual(OrientationMethod.afterRotate("180"), .rotate90L)
        XCTAssertEqual(OrientationMethod.afterRotate("90l"), .identity)
        XCTAssertEqual(OrientationMethod.afterRotate("auto"), .rotate90R, "auto starts again from identity")
    }
}
