import XCTest
import FilterCore

/// The lens rectangle (parsing, errors, pixel rounding) and zoom (clamp, crop, bilinear).
final class GeometryLensZoomTests: XCTestCase {
    // MARK: Lens

    func testParsingAndDescriptionRoundTrip() throws {
        let lens = try LensRect(parsing: "0.25,0.25,0.5,0.5")
        XCTAssertEqual([lens.x, lens.y, lens.w, lens.h], [0.25, 0.25, 0.5, 0.5])
        XCTAssertEqual(lens.description, "0.25,0.25,0.5,0.5")
        XCTAssertEqual(LensRect.full.description, "0,0,1,1")
        XCTAssertEqual(try LensRect(parsing: " 0 , 0,1 ,1 "), .full)
        XCTAssertTrue(try LensRect(parsing: "0,0,1,1").isFull)
        for text in ["0.1,0.2,0.3,0.4", "0.7,0.3,0.3,0.7", "0.123456789,0,0.876543211,1e-3", "0,0,1,1"] {
            let a = try LensRect(parsing: text)
            XCTAssertEqual(try LensRect(parsing: a.description), a, text)
        }
        XCTAssertEqual(try LensRect(x: 0.1, y: 0.2, w: 0.3, h: 0.4), try LensRect(parsing: "0.1,0.2,0.3,0.4"))
    }

    func testDecimalSlackAtTheEdge() throws {
        // 0.7 + 0.3 is 1.0000000000000002 in binary: still inside.
        XCTAssertNoThrow(try LensRect(parsing: "0.7,0.1,0.3,0.9"))
        XCTAssertThrowsError(try LensRect(parsing: "0.7,0,0.30001,1"))
    }

    func testErrorsNameTheValueAndTheRule() {
        func message(_ text: String) -> String {
            do {
                _ = try LensRect(parsing: text)
                return "(accepted)"
            } catch {
                return error.message
            }
        }
        let cases: [(String, [String])] = [
            ("0.5,0.5,0.5", ["3 values", "x,y,w,h"]),
            ("0,0,1,1,0", ["5 values"]),
            ("", ["1 value;"]),
            ("0,zero,1,1", ["y", "'zero'", "not a number"]),
            ("0,0,nan,1", ["w", "'nan'", "not a number"]),
            ("0,0,inf,1", ["w", "not a number"]),
            ("1.5,0,0.1,0.1", ["x=1.5", "0…1"]),
            ("0,-0.1,0.5,0.5", ["y=-0.1", "0…1"]),
            ("0,0,0,0.5", ["w=0", "greater than 0"]),
            ("0,0,0.5,0", ["h=0", "greater than 0"]),
            ("0.6,0,0.5,1", ["x+w", "0.6+0.5", "≤ 1"]),
            ("0,0.75,1,0.5", ["y+h", "0.75+0.5", "≤ 1"]),
            // The sum in the inputs' decimals (it said 1.0899999999999999).
            ("0.48,0.06,0.61,0.65", ["x+w = 0.48+0.61 = 1.09 exceeds 1"]),
        ]
        for (text, parts) in cases {
            let m = message(text)
            for part in parts {
                XCTAssertTrue(m.contains(part), "lens '\(text)': message \"\(m)\" lacks \"\(part)\"")
            }
        }
        XCTAssertThrowsError(try LensRect(x: 0, y: 0, w: 1.2, h: 1))
        XCTAssertEqual("\(GeometryError("why"))", "why")
    }

    func testPixelRounding() throws {
        func rect(_ text: String, _ w: Int, _ h: Int) throws -> PixelRect { try LensRect(parsing: text).pixelRect(width: w, height: h) }
        // Halves round away from zero: 2.5 → 3, 7.5 → 8.
        XCTAssertEqual(try rect("0.25,0.25,0.5,0.5", 10, 10), PixelRect(x: 3, y: 3, width: 5, height: 5))
        XCTAssertEqual(try rect("0.25,0.25,0.5,0.5", 1920, 1080), PixelRect(x: 480, y: 270, width: 960, height: 540))
        // 641: left round(160.25) = 160, right round(480.75) = 481.
        XCTAssertEqual(try rect("0.25,0,0.5,1", 641, 3), PixelRect(x: 160, y: 0, width: 321, height: 3))
        XCTAssertEqual(try rect("0,0,1,1", 7, 5), PixelRect(x: 0, y: 0, width: 7, height: 5))
        // Smaller than a pixel: one pixel, inside the frame.
        XCTAssertEqual(try rect("0.5,0.5,0.01,0.01", 10, 10), PixelRect(x: 5, y: 5, width: 1, height: 1))
        XCTAssertEqual(try rect("0.99,0.99,0.01,0.01", 10, 10), PixelRect(x: 9, y: 9, width: 1, height: 1))
        XCTAssertEqual(try rect("0,0,0.01,1", 1, 1), PixelRect(x: 0, y: 0, width: 1, height: 1))
        // Everything stays inside for many sizes and lenses.
        for text in ["0.1,0.2,0.3,0.4", "0.999,0,0.001,1", "0,0.3333,0.6667,0.6667"] {
            for (w, h) in [(1, 1), (2, 3), (17, 9), (1920, 1080)] {
                let r = try rect(text, w, h)
                XCTAssert(r.x >= 0 && r.y >= 0 && r.width >= 1 && r.height >= 1
                          && r.x + r.width <= w && r.y + r.height <= h, "\(text) at \(w)x\(h): \(r)")
            }
        }
    }

    // MARK: Zoom

    func testClamp() {
        XCTAssertEqual(Zoom.clamp(0.5, max: 8), 1)
        XCTAssertEqual(Zoom.clamp(3, max: 8), 3)
        XCTAssertEqual(Zoom.clamp(20, max: 8), 8)
        XCTAssertEqual(Zoom.clamp(.infinity, max: 8), 8)
        XCTAssertEqual(Zoom.clamp(.nan, max: 8), 1)
        XCTAssertEqual(Zoom.clamp(4, max: 0.5), 1, "a maximum below 1 allows no zoom")
    }

    func testCropRect() throws {
        XCTAssertEqual(Zoom.cropRect(width: 1920, height: 1080, zoom: 1), PixelRect(x: 0, y: 0, width: 1920, height: 1080))
        XCTAssertEqual(Zoom.cropRect(width: 1920, height: 1080, zoom: 2), PixelRect(x: 480, y: 270, width: 960, height: 540))
        XCTAssertEqual(Zoom.cropRect(width: 1920, height: 1080, zoom: 4), PixelRect(x: 720, y: 405, width: 480, height: 270))
        // 5 wide at zoom 2: left round(1.25) = 1, right round(3.75) = 4.
        XCTAssertEqual(Zoom.cropRect(width: 5, height: 5, zoom: 2), PixelRect(x: 1, y: 1, width: 3, height: 3))
        XCTAssertEqual(Zoom.cropRect(width: 10, height: 10, zoom: 1000), PixelRect(x: 5, y: 5, width: 1, height: 1))
        XCTAssertEqual(Zoom.cropRect(width: 10, height: 10, zoom: 0.5), PixelRect(x: 0, y: 0, width: 10, height: 10))
        // The same borders as a centred lens of 1/z.
        for (w, h) in [(1920, 1080), (641, 479), (33, 17)] {
            for (z, lens) in [(2.0, "0.25,0.25,0.5,0.5"), (4.0, "0.375,0.375,0.25,0.25")] {
                XCTAssertEqual(Zoom.cropRect(width: w, height: h, zoom: z),
                               try LensRect(parsing: lens).pixelRect(width: w, height: h), "\(w)x\(h) zoom \(z)")
            }
        }
    }

    private func scaled(_ input: Words, _ rect: PixelRect, to w: Int, _ h: Int, padding: Int = 0) -> Words {
        let src = PaddedFrame(input, padding: padding)
        let dst = PaddedFrame(width: w, height: h, padding: padding)
        Zoom.scale(from: src.view, sourceRect: rect, to: dst.view)
        XCTAssertTrue(dst.paddingIntact, "scale wrote into row padding")
        XCTAssertEqual(src.words, input, "scale changed its source")
        return dst.words
    }

    func testEqualSizeIsAnExactCopy() {
        let input = Words.noise(width: 13, height: 9, seed: 4)
        XCTAssertEqual(scaled(input, PixelRect(x: 0, y: 0, width: 13, height: 9), to: 13, 9, padding: 8), input)
        let r = PixelRect(x: 2, y: 3, width: 7, height: 5)
        XCTAssertEqual(scaled(input, r, to: 7, 5), input.cropped(r))
    }

    func testConstantStaysConstantAlphaIncluded() {
        for c: UInt32 in [0x80FF_0102, 0x0000_0000, 0xFFFF_FFFF, 0x7F80_81FE] {
            let input = Words(width: 9, height: 7, pixels: Array(repeating: c, count: 63))
            let out = scaled(input, PixelRect(x: 1, y: 2, width: 5, height: 3), to: 17, 11)
            XCTAssertEqual(Set(out.pixels), [c], String(c, radix: 16))
        }
    }

    func testBilinearWorkedOutByHand() {
        // Two pixels (0 and 100 in every channel) to four: samples at -0.25, 0.25, 0.75,
        // 1.25 → edge, 1/4, 3/4, edge → 0, 25, 75, 100.
        let input = Words(width: 2, height: 1, pixels: [0, 0x6464_6464])
        let out = scaled(input, PixelRect(x: 0, y: 0, width: 2, height: 1), to: 4, 1)
        XCTAssertEqual(out.pixels, [0, 0x1919_1919, 0x4B4B_4B4B, 0x6464_6464])
        // Vertically the same.
        let column = Words(width: 1, height: 2, pixels: [0, 0x6464_6464])
        XCTAssertEqual(scaled(column, PixelRect(x: 0, y: 0, width: 1, height: 2), to: 1, 4).pixels,
                       [0, 0x1919_1919, 0x4B4B_4B4B, 0x6464_6464])
    }

    /// Against bilinear interpolation in real numbers, per channel (alpha too): within 2
    /// (weights are 1/256 steps and each of the two passes rounds).
    func testBilinearMatchesRealArithmetic() {
        let input = Words.noise(width: 12, height: 10, seed: 8)
        for (r, w, h) in [(PixelRect(x: 3, y: 2, width: 6, height: 5), 17, 13),
                          (PixelRect(x: 0, y: 0, width: 12, height: 10), 24, 20),
                          (PixelRect(x: 5, y: 1, width: 4, height: 8), 9, 8),
                          (PixelRect(x: 2, y: 2, width: 8, height: 8), 8, 5)] {
            let out = scaled(input, r, to: w, h, padding: 4)
            var worst = 0.0
            for y in 0..<h {
                for x in 0..<w {
                    let sx = min(max((Double(x) + 0.5) * Double(r.width) / Double(w) - 0.5, 0), Double(r.width - 1))
                    let sy = min(max((Double(y) + 0.5) * Double(r.height) / Double(h) - 0.5, 0), Double(r.height - 1))
                    let x0 = Int(sx), y0 = Int(sy), x1 = min(x0 + 1, r.width - 1), y1 = min(y0 + 1, r.height - 1)
                    let fx = sx - Double(x0), fy = sy - Double(y0)
                    for shift in stride(from: 0, to: 32, by: 8) {
                        func c(_ px: Int, _ py: Int) -> Double { Double((input[r.x + px, r.y + py] >> UInt32(shift)) & 0xFF) }
                        let top = c(x0, y0) * (1 - fx) + c(x1, y0) * fx
                        let bottom = c(x0, y1) * (1 - fx) + c(x1, y1) * fx
                        let expected = top * (1 - fy) + bottom * fy
                        let got = Double((out[x, y] >> UInt32(shift)) & 0xFF)
                        worst = max(worst, abs(got - expected))
                    }
                }
            }
            XCTAssertLessThanOrEqual(worst, 2, "\(r) → \(w)x\(h)")
        }
    }

    func testWindowIsACropOfTheFullScale() {
        let input = Words.noise(width: 20, height: 14, seed: 2)
        let src = PaddedFrame(input)
        let r = PixelRect(x: 5, y: 3, width: 10, height: 7)
        let full = scaled(input, r, to: 20, 14)
        for window in [PixelRect(x: 4, y: 3, width: 9, height: 6), PixelRect(x: 0, y: 13, width: 20, height: 1),
                       PixelRect(x: 19, y: 0, width: 1, height: 14)] {
            let dst = PaddedFrame(width: window.width, height: window.height, padding: 4)
            Zoom.scale(from: src.view, sourceRect: r, fullWidth: 20, fullHeight: 14, window: window, to: dst.view)
            XCTAssertEqual(dst.words, full.cropped(window), "\(window)")
            XCTAssertTrue(dst.paddingIntact)
        }
    }

    func testLargeFrameSplitBetweenThreadsMatchesOneThread() {
        // 321×239 goes through RowSplitter's second thread; row halves must agree with the
        // same rows scaled alone (windows below the split size run on one thread).
        let input = Words.noise(width: 200, height: 120, seed: 6)
        let r = PixelRect(x: 50, y: 30, width: 100, height: 60)
        let full = scaled(input, r, to: 321, 239)
        let src = PaddedFrame(input)
        for window in [PixelRect(x: 0, y: 0, width: 321, height: 30), PixelRect(x: 100, y: 200, width: 50, height: 39)] {
            let dst = PaddedFrame(width: window.width, height: window.height)
            Zoom.scale(from: src.view, sourceRect: r, fullWidth: 321, fullHeight: 239, window: window, to: dst.view)
            XCTAssertEqual(dst.words, full.cropped(window))
        }
    }
}
