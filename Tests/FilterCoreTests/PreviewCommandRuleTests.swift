import XCTest
@testable import FilterCore

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
