import FilterCore
import XCTest

/// Numbers shown to a person (`lens: …`, `zoom: …`, `set … = …`): as written, without the
/// noise arithmetic leaves in the last bits, and reading back to the value they show.
final class NumberTextTests: XCTestCase {
    func testNumbersAreShownAsAPersonWritesThem() {
        XCTAssertEqual(NumberText.text(2), "2")
        XCTAssertEqual(NumberText.text(-3), "-3")
        XCTAssertEqual(NumberText.text(0.3), "0.3")
        XCTAssertEqual(NumberText.text(0.4 * 0.8), "0.32")          // 0.32000000000000006
        XCTAssertEqual(NumberText.text(8 / 1.25), "6.4")
        XCTAssertEqual(NumberText.text(0.1 + 0.2), "0.3")           // 0.30000000000000004
        XCTAssertEqual(NumberText.text(0.29999999999999999), "0.3")
        XCTAssertEqual(NumberText.text(1.0 / 3), "0.3333333333333333")  // written, not noise
        XCTAssertEqual(NumberText.text(0.3333333333333333333325), "0.3333333333333333")
        XCTAssertEqual(NumberText.text(1234.5678), "1234.5678")
        XCTAssertEqual(NumberText.text(2.0000000000001), "2.0000000000001")  // far from 2 in ulps
        XCTAssertEqual(NumberText.text(2 + 2 * 2.0.ulp), "2")        // noise
        XCTAssertEqual(NumberText.text(1e-7), "1e-07")
        XCTAssertEqual(NumberText.text(.infinity), "inf")
        XCTAssertTrue(NumberText.text(.nan) == "nan")
    }

    func testTheTextReadsBackToTheSameValueButForNoise() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<1000 {
            let v = Double.random(in: -1000...1000, using: &generator)
            let back = try! XCTUnwrap(NumberText.double(NumberText.text(v)))
            XCTAssertTrue(NumberText.sameButForNoise(back, v), "\(v) shown as \(NumberText.text(v)) reads back as \(back)")
        }
    }
}
