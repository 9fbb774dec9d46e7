import XCTest
@testable import FilterCore

/// `LookTable`'s blocked layout: every colour gets its own entry, and colours that differ
/// only in the two low bits of each byte share a block of 64 entries.
final class LookTableLayoutTests: XCTestCase {
    /// Each of the 24 colour bits moves to a bit of its own, and a colour's position is
    /// the union of its bits' positions: a permutation of the 2²⁴ entries.
    func testEveryColourHasItsOwnEntry() {
        let bits = (0..<24).map { LookTable.position(1 << UInt32($0)) }
        XCTAssertTrue(bits.allSatisfy { $0.nonzeroBitCount == 1 && $0 < 1 << 24 }, "\(bits)")
        XCTAssertEqual(Set(bits).count, 24)
        var state: UInt32 = 12345
        for _ in 0..<1000 {
            state = state &* 1_664_525 &+ 1_013_904_223
            let colour = state & 0xFF_FFFF
            let union = (0..<24).reduce(UInt32(0)) { colour >> UInt32($1) & 1 == 1 ? $0 | bits[$1] : $0 }
            XCTAssertEqual(LookTable.position(colour), union)
            XCTAssertEqual(LookTable.position(colour | 0xFF00_0000), union, "the fourth byte is ignored")
        }
    }

    /// Positions worked out by hand: low bits first (first byte, second, third), then the
    /// high six bits of each byte.
    func testNeighboursShareABlock() {
        XCTAssertEqual(LookTable.position(0x03_0201), 0b11_10_01)
        XCTAssertEqual(LookTable.position(0x00_0004), 1 << 6)
        XCTAssertEqual(LookTable.position(0x00_0400), 1 << 12)
        XCTAssertEqual(LookTable.position(0x04_0000), 1 << 18)
        XCTAssertEqual(LookTable.position(0xFF_FFFF), 0xFF_FFFF)
        XCTAssertEqual(LookTable.position(0x0F_0B07) >> 6, LookTable.position(0x0C_0804) >> 6)
        XCTAssertNotEqual(LookTable.position(0x0C_0808) >> 6, LookTable.position(0x0C_0804) >> 6)
    }
}
