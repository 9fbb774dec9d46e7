import XCTest
@testable import FilterCore

/// The preview window's pointer and keys as commands, without a window: a click places the
/// lens, a drag moves it, the wheel zooms, keys are the keymap's; with the gallery open a
/// click picks and the wheel turns pages.
final class PreviewControlTests: XCTestCase {
    func testPointerAndKeysInTheWindow() {
        var preview = PreviewControl()
        XCTAssertEqual(preview.handle(.move(x: 0.5, y: 0.5), lensIsFull: false), [], "no button held")
        XCTAssertEqual(preview.handle(.press(x: 0.2, y: 0.3, button: 1), lensIsFull: true), [.lensAt(x: 0.2, y: 0.3)])
        XCTAssertEqual(preview.handle(.move(x: 0.4, y: 0.5), lensIsFull: false), [.lensAt(x: 0.4, y: 0.5)])
        XCTAssertEqual(preview.handle(.release(button: 1), lensIsFull: false), [])
        XCTAssertEqual(preview.handle(.move(x: 0.6, y: 0.5), lensIsFull: false), [])
        XCTAssertEqual(preview.handle(.press(x: 0, y: 0, button: 4), lensIsFull: false), [.zoomIn])
        XCTAssertEqual(preview.handle(.press(x: 0, y: 0, button: 5), lensIsFull: false), [.zoomOut])
        XCTAssertEqual(preview.handle(.press(x: 0, y: 0, button: 3), lensIsFull: false), [])
        XCTAssertEqual(preview.handle(.scroll(dy: -1), lensIsFull: false), [.zoomIn])
        XCTAssertEqual(preview.handle(.scroll(dy: 0), lensIsFull: false), [])
        XCTAssertEqual(preview.handle(.key("Left"), lensIsFull: false), [.moveLens(.left)])
        XCTAssertEqual(preview.handle(.key("space"), lensIsFull: false), [.snapshot])
        XCTAssertEqual(preview.handle(.key("Escape"), lensIsFull: false), [.cancel])
        XCTAssertEqual(preview.handle(.key("no-such-key"), lensIsFull: false), [], "a key the keymap lacks does nothing")
    }

    /// A drag moves the lens only while button 1 is held and a lens is placed.
    func testADragFollowsButtonOneOnlyAndNeedsALens() {
        var preview = PreviewControl()
        XCTAssertEqual(preview.handle(.press(x: 0.5, y: 0.5, button: 1), lensIsFull: true), [.lensAt(x: 0.5, y: 0.5)])
        XCTAssertEqual(preview.handle(.move(x: 0.6, y: 0.6), lensIsFull: true), [], "no lens placed: nothing to move")
        XCTAssertEqual(preview.handle(.release(button: 3), lensIsFull: false), [])
        XCTAssertEqual(preview.handle(.move(x: 0.7, y: 0.7), lensIsFull: false), [.lensAt(x: 0.7, y: 0.7)],
                       "releasing another button does not end the drag")
        XCTAssertEqual(preview.handle(.release(button: 1), lensIsFull: false), [])
        XCTAssertEqual(preview.handle(.move(x: 0.8, y: 0.8), lensIsFull: false), [])
    }

    /// With the gallery open a click chooses (no drag follows), the wheel turns pages, keys are as ever.
    func testPointerInTheGallery() {
        var preview = PreviewControl()
        XCTAssertEqual(preview.handle(.press(x: 0.2, y: 0.3, button: 1), lensIsFull: true, galleryOpen: true), [.pickAt(x: 0.2, y: 0.3)])
        XCTAssertEqual(preview.handle(.move(x: 0.4, y: 0.5), lensIsFull: false, galleryOpen: true), [])
        XCTAssertEqual(preview.handle(.release(button: 1), lensIsFull: false, galleryOpen: true), [])
        XCTAssertEqual(preview.handle(.press(x: 0, y: 0, button: 5), lensIsFull: false, galleryOpen: true), [.turnPage(1)])
        XCTAssertEqual(preview.handle(.scroll(dy: -1), lensIsFull: false, galleryOpen: true), [.turnPage(-1)])
        XCTAssertEqual(preview.handle(.press(x: 0, y: 0, button: 3), lensIsFull: false, galleryOpen: true), [])
        XCTAssertEqual(preview.handle(.key("Right"), lensIsFull: false, galleryOpen: true), [.moveLens(.right)])
        XCTAssertEqual(preview.handle(.key("g"), lensIsFull: false, galleryOpen: true), [.gallery])
        // Closed again: a press places the lens.
        XCTAssertEqual(preview.handle(.press(x: 0.2, y: 0.3, button: 1), lensIsFull: true), [.lensAt(x: 0.2, y: 0.3)])
    }

    /// With the help card shown, a click and Esc/Enter only close it; the rest acts as always.
    func testAClickOrEscClosesTheHelpCard() {
        for input in [PreviewControl.Input.press(x: 0.5, y: 0.5, button: 1), .key("Escape"), .key("Return"), .key("KP_Enter")] {
            XCTAssertTrue(PreviewControl.closesCard(input), "\(input)")
        }
        for input in [PreviewControl.Input.press(x: 0.5, y: 0.5, button: 4), .key("n"), .key("g"), .key("h"), .move(x: 0.1, y: 0.1),
                      .release(button: 1), .scroll(dy: 1)] {
            XCTAssertFalse(PreviewControl.closesCard(input), "\(input)")
        }
        var display = OnScreenDisplay()
        display.toggleHelp()
        display.hideHelp()
        XCTAssertEqual(display.items(at: 0, lens: nil, alwaysOutline: false), [])
    }
}
