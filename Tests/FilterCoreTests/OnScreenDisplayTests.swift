import XCTest
@testable import FilterCore

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
