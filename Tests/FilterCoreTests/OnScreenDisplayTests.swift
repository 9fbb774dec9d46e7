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
        osd.zoomChanged(to: 1.25 * 1.25 * 1.25, at: 20)
        XCTAssertEqual(osd.items(at: 20.1, lens: nil, alwaysOutline: false), [.banner("zoom 1.95×")], "as the terminal says it")
        osd.zoomChanged(to: 2, at: 20)
        XCTAssertEqual(osd.items(at: 20.1, lens: nil, alwaysOutline: false), [.banner("zoom 2×")])
        osd.snapshotSaved(fileName: "snapshot-00003.jpg", at: 30)
        XCTAssertEqual(osd.items(at: 30, lens: nil, alwaysOutline: false), [.news("saved snapshot-00003.jpg")])
    }

    func testOutlineWhileMovingOrAlways() {
        var osd = OnScreenDisplay()
        XCTAssertEqual(osd.items(at: 0, lens: lens, alwaysOutline: true), [.outline(lens)])
        XCTAssertEqual(osd.items(at: 0, lens: nil, alwaysOutline: true), [], "no lens, no outline")
        osd.lensMoved(at: 5)
        XCTAssertEqual(osd.items(at: 6, lens: lens, alwaysOutline: false), [.outline(lens)])
        XCTAssertEqual(osd.items(at: 7, lens: lens, alwaysOutline: false), [])
    }

    func testCountdownShowsThreeTwoOneThenIsDueOnce() {
        var osd = OnScreenDisplay()
        osd.filterChanged(to: "Sepia Tone", at: 100)
        osd.countdownStarted(seconds: 3, at: 100)
        // Seconds left, rounded up: 3 until 101, 2 until 102, 1 until 103; before any other banner.
        XCTAssertEqual(osd.items(at: 100.2, lens: nil, alwaysOutline: false), [.countdown(3)])
        XCTAssertEqual(osd.items(at: 101.5, lens: nil, alwaysOutline: false), [.countdown(2)])
        XCTAssertEqual(osd.items(at: 102.9, lens: nil, alwaysOutline: false), [.countdown(1)])
        XCTAssertEqual(osd.countdownLeft(at: 102.9), 1)
        XCTAssertFalse(osd.countdownDue(at: 102.9), "not before its end")
        XCTAssertTrue(osd.countdownDue(at: 103.04), "due with the first frame after its end")
        XCTAssertFalse(osd.countdownDue(at: 103.1), "once")
        XCTAssertNil(osd.countdownLeft(at: 103.1))
        XCTAssertEqual(osd.items(at: 103.1, lens: nil, alwaysOutline: false), [])
    }

    /// While recording: the dot and the whole seconds recorded, beside the other items; a
    /// failed recording takes the dot away and says so for a moment.
    func testRecordingShowsItsLengthUntilItEnds() {
        var osd = OnScreenDisplay()
        osd.recording(seconds: 0.4)
        XCTAssertEqual(osd.items(at: 0, lens: nil, alwaysOutline: false), [.recording(seconds: 0)])
        osd.filterChanged(to: "Mono", at: 10)
        osd.recording(seconds: 72.9)
        XCTAssertEqual(osd.items(at: 10.1, lens: lens, alwaysOutline: true), [.outline(lens), .banner("Mono"), .recording(seconds: 72)])
        osd.recording(seconds: nil)
        XCTAssertEqual(osd.items(at: 20, lens: nil, alwaysOutline: false), [])
        osd.recording(seconds: 3)
        osd.recordingFailed(at: 30)
        XCTAssertEqual(osd.items(at: 30.5, lens: nil, alwaysOutline: false), [.news("recording failed")])
        XCTAssertEqual(osd.items(at: 32, lens: nil, alwaysOutline: false), [])
    }

    /// A still that could not be written says so for a moment, as a failed recording does
    /// (the flash had shown: the window looked as if the picture was taken).
    func testAFailedStillIsSaid() {
        var osd = OnScreenDisplay()
        osd.snapshotFailed(at: 5)
        XCTAssertEqual(osd.items(at: 5.5, lens: nil, alwaysOutline: false), [.news("snapshot failed")])
        XCTAssertEqual(osd.items(at: 7, lens: nil, alwaysOutline: false), [])
    }

    func testCountdownZeroCancels() {
        var osd = OnScreenDisplay()
        osd.countdownStarted(seconds: 2, at: 0)
        osd.countdownStarted(seconds: 0, at: 1)
        XCTAssertNil(osd.countdownLeft(at: 1.5))
        XCTAssertFalse(osd.countdownDue(at: 5), "a cancelled countdown takes no still")
    }

    func testHelpCardToggles() {
        var osd = OnScreenDisplay()
        osd.toggleHelp()
        XCTAssertEqual(osd.items(at: 100, lens: nil, alwaysOutline: false), [.card(OnScreenDisplay.helpLines)])
        osd.toggleHelp()
        XCTAssertEqual(osd.items(at: 100, lens: nil, alwaysOutline: false), [])
    }

    /// The lens outline is not drawn under the help card (it showed through its box).
    func testNoLensOutlineUnderTheHelpCard() {
        var osd = OnScreenDisplay()
        let lens = PixelRect(x: 10, y: 10, width: 40, height: 30)
        osd.lensMoved(at: 0)
        XCTAssertEqual(osd.items(at: 0.1, lens: lens, alwaysOutline: false), [.outline(lens)])
        osd.toggleHelp()
        XCTAssertEqual(osd.items(at: 0.1, lens: lens, alwaysOutline: true), [.card(OnScreenDisplay.helpLines)])
        osd.toggleHelp()
        XCTAssertEqual(osd.items(at: 0.1, lens: lens, alwaysOutline: true), [.outline(lens)])
    }

    /// Over the effects gallery: how a still or a recording went, not the filter's title.
    func testOutcomesShowOverTheGalleryAndTheTitleDoesNot() {
        var osd = OnScreenDisplay()
        osd.snapshotFailed(at: 5)
        XCTAssertEqual(osd.items(at: 5.5, lens: nil, alwaysOutline: false).filter(\.showsOverGallery), [.news("snapshot failed")])
        osd.snapshotSaved(fileName: "s-1.jpg", at: 6)
        XCTAssertEqual(osd.items(at: 6.5, lens: nil, alwaysOutline: false).filter(\.showsOverGallery), [.news("saved s-1.jpg")])
        osd.filterChanged(to: "Mono", at: 7)
        XCTAssertEqual(osd.items(at: 7.5, lens: nil, alwaysOutline: false).filter(\.showsOverGallery), [])
    }
}
