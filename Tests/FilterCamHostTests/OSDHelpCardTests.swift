@testable import FilterCamHost
@testable import FilterCore
import XCTest

/// The help card (key h) is drawn whole on small pictures too: its dark box lies inside the
/// frame with untouched picture around it, read back from the pixels.
final class OSDHelpCardTests: XCTestCase {
    func testTheHelpCardFitsSmallPictures() throws {
        _ = try XCTUnwrap(PangoCairo.forDisplay, "Pango and Cairo draw the on-screen display")
        for (width, height) in [(160, 120), (176, 144), (320, 240), (640, 480)] {
            let frame = PixelBuffer(width: width, height: height, format: .bgrx)
            let grey: UInt8 = 200
            for y in 0..<height { memset(frame.view.base + y * frame.view.stride, Int32(grey), width * 4) }
            OSDRenderer.draw([.card(OnScreenDisplay.helpLines)], on: frame.view)
            func blue(_ x: Int, _ y: Int) -> UInt8 { frame.view.base.load(fromByteOffset: y * frame.view.stride + x * 4, as: UInt8.self) }
            let middleRow = (0..<width).map { blue($0, height / 2) }
            XCTAssertLessThan(middleRow.min() ?? 255, 120, "\(width)x\(height): the card's dark box is in the middle")
            XCTAssertEqual(blue(width / 2, 0), grey, "\(width)x\(height): the card's top edge is inside the picture")
            XCTAssertEqual(blue(width / 2, height - 1), grey, "\(width)x\(height): its bottom edge too")
            XCTAssertEqual(blue(0, height / 2), grey, "\(width)x\(height): its left edge too")
            XCTAssertEqual(blue(width - 1, height / 2), grey, "\(width)x\(height): its right edge too")
        }
    }
}
