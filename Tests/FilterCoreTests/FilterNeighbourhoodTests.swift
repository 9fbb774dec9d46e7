import XCTest
import FilterCore

/// Sharpen, blur, edges and focus peaking against direct `Double` implementations of
/// their documented formulas, with edge pixels repeated outside the frame.
final class FilterNeighbourhoodTests: XCTestCase {
    /// Channel `c` (0 r, 1 g, 2 b) at (x, y) with coordinates clamped to the frame.
    func sample(_ p: Picture, _ x: Int, _ y: Int, _ c: Int) -> Double {
        let q = p[min(max(x, 0), p.width - 1), min(max(y, 0), p.height - 1)]
        return Double(c == 0 ? q.r : c == 1 ? q.g : q.b)
    }

    func boxMean(_ p: Picture, _ x: Int, _ y: Int, _ c: Int, radius r: Int) -> Double {
        var sum = 0.0
        for dy in -r...r { for dx in -r...r { sum += sample(p, x + dx, y + dy, c) } }
        return sum / Double((2 * r + 1) * (2 * r + 1))
    }

    /// |gx| + |gy| of the 3×3 Sobel operator on `grey(x, y)`.
    func sobel(_ grey: (Int, Int) -> Double, _ x: Int, _ y: Int) -> Double {
        func g(_ dx: Int, _ dy: Int) -> Double { grey(x + dx, y + dy) }
        let gx = (g(1, -1) + 2 * g(1, 0) + g(1, 1)) - (g(-1, -1) + 2 * g(-1, 0) + g(-1, 1))
        let gy = (g(-1, 1) + 2 * g(0, 1) + g(1, 1)) - (g(-1, -1) + 2 * g(0, -1) + g(1, -1))
        return abs(gx) + abs(gy)
    }

    func testSharpenIsUnsharpMaskWith3x3Mean() throws {
        let input = Picture.noise(width: 17, height: 9, seed: 3)
        for amount in [0.5, 1.0, 4.0] {
            let got = try apply("sharpen amount=\(amount)", to: input)
            assertChannels(got, input, tolerance: 1, "sharpen \(amount)") { _, x, y in
                let f = { (c: Int) in
                    let v = self.sample(input, x, y, c)
                    return v + amount * (v - self.boxMean(input, x, y, c, radius: 1))
                }
                return Expected(f(0), f(1), f(2))
            }
        }
        XCTAssertEqual(try apply("sharpen amount=0", to: input), input)
        let flat = Picture.filled(width: 5, height: 4, RGBA(r: 10, g: 20, b: 30, a: 40))
        XCTAssertEqual(try apply("sharpen amount=4", to: flat), flat, "a flat picture has nothing to sharpen")
    }

    func testBlurIsClampedBoxMean() throws {
        let input = Picture.noise(width: 17, height: 9, seed: 4)
        for radius in [1, 2, 5, 32] {
            let got = try apply("blur radius=\(radius)", to: input)
            // ±1: each of the two passes rounds its mean.
            assertChannels(got, input, tolerance: 1, "blur \(radius)") { _, x, y in
                Expected(self.boxMean(input, x, y, 0, radius: radius), self.boxMean(input, x, y, 1, radius: radius),
                         self.boxMean(input, x, y, 2, radius: radius))
            }
        }
        XCTAssertEqual(try apply("blur radius=0", to: input), input)
    }

    func testEdgesOnGreyIsExactSobel() throws {
        var input = Picture.noise(width: 17, height: 9, seed: 5)
        for i in input.pixels.indices { let v = input.pixels[i].g; input.pixels[i].r = v; input.pixels[i].b = v }
        let got = try apply("edges", to: input)
        // Grey in, so luma is exact: no tolerance.
        assertChannels(got, input, tolerance: 0, "edges") { _, x, y in
            let m = min(self.sobel({ self.sample(input, $0, $1, 1) }, x, y), 255)
            return Expected(m, m, m)
        }
        // A step from 0 to 10: the columns beside it see 4·10, the rest 0.
        var step = Picture.filled(width: 6, height: 3, RGBA(r: 0, g: 0, b: 0, a: 5))
        for y in 0..<3 { for x in 3..<6 { step[x, y] = RGBA(r: 10, g: 10, b: 10, a: 5) } }
        let edges = try apply("edges", to: step)
        XCTAssertEqual((0..<6).map { edges[$0, 1].r }, [0, 0, 40, 40, 0, 0])
    }

    func testEdgesOnColourUsesRec601Luma() throws {
        let input = Picture.noise(width: 17, height: 9, seed: 6)
        let got = try apply("edges", to: input)
        // ±10: the kernel rounds luma to an integer (±0.57 each) before the 8 Sobel taps.
        assertChannels(got, input, tolerance: 10, "edges colour") { _, x, y in
            let m = min(self.sobel({ luma601(input[min(max($0, 0), 16), min(max($1, 0), 8)]) }, x, y), 255)
            return Expected(m, m, m)
        }
        for p in got.pixels { XCTAssertTrue(p.r == p.g && p.g == p.b, "edges are grey") }
    }

    func testFocusPeakingPaintsAboveThresholdOnly() throws {
        var input = Picture.noise(width: 17, height: 9, seed: 8)
        for i in input.pixels.indices {
            let v = input.pixels[i].g / 4 + (i % 17 > 8 ? 150 : 0)   // soft noise and one hard vertical edge
            input.pixels[i].r = v; input.pixels[i].b = v; input.pixels[i].g = v
        }
        for threshold in [0, 60, 100, 254] {
            let got = try apply("focus-peaking threshold=\(threshold) color=0x8000FF00", to: input)
            var painted = 0
            for y in 0..<9 {
                for x in 0..<17 {
                    let m = min(sobel({ self.sample(input, $0, $1, 1) }, x, y), 255)
                    let p = input[x, y]
                    let expected = m > Double(threshold) ? RGBA(r: 0, g: 255, b: 0, a: p.a) : p
                    XCTAssertEqual(got[x, y], expected, "threshold \(threshold) at (\(x),\(y)), magnitude \(m)")
                    if m > Double(threshold) { painted += 1 }
                }
            }
            if threshold == 100 { XCTAssertGreaterThan(painted, 0, "the hard edge is painted") }
        }
        // Default colour is red; a flat picture is never painted.
        let flat = Picture.filled(width: 4, height: 4, RGBA(r: 9, g: 9, b: 9))
        XCTAssertEqual(try apply("focus-peaking threshold=0", to: flat), flat)
        let red = try apply("focus-peaking", to: input)
        XCTAssertTrue(red.pixels.contains { $0.r == 255 && $0.g == 0 && $0.b == 0 }, "painted red")
    }

    /// Frames large enough for the rows to be split between both cores: the rows next to
    /// the split must still see their neighbours as they were before filtering.
    func testLargeFramesSplitAcrossThreadsMatchReference() throws {
        let input = Picture.noise(width: 200, height: 121, seed: 9)
        let blurred = try apply("blur radius=3", to: input, padding: 8)
        let sharpened = try apply("sharpen amount=2", to: input)
        let edges = try apply("edges", to: input)
        for y in 55..<66 {   // around the middle, where the split is
            for x in [0, 1, 57, 198, 199] {
                for c in 0..<3 {
                    let ch = { (p: RGBA) in Double(c == 0 ? p.r : c == 1 ? p.g : p.b) }
                    XCTAssertEqual(ch(blurred[x, y]), boxMean(input, x, y, c, radius: 3).rounded(), accuracy: 1)
                    let v = sample(input, x, y, c)
                    let s = min(max(v + 2 * (v - boxMean(input, x, y, c, radius: 1)), 0), 255)
                    XCTAssertEqual(ch(sharpened[x, y]), s.rounded(), accuracy: 1)
                }
                let m = min(sobel({ luma601(input[min(max($0, 0), 199), min(max($1, 0), 120)]) }, x, y), 255)
                XCTAssertEqual(Double(edges[x, y].r), m, accuracy: 10)
            }
        }
        XCTAssertEqual(blurred.pixels.map(\.a), input.pixels.map(\.a))
    }

    func testScratchFollowsFrameSizeChanges() throws {
        // One filter instance across frames of different sizes (the host reuses it).
        for chain in ["blur radius=2", "sharpen amount=1", "edges", "focus-peaking threshold=30", "vignette"] {
            let filter = try FilterChain.parse(chain).makeFilters()
            for (w, h, seed) in [(17, 9, 1), (40, 30, 2), (3, 2, 3), (17, 9, 4)] {
                let input = Picture.noise(width: w, height: h, seed: UInt32(seed))
                let fresh = try apply(chain, to: input)
                XCTAssertEqual(applyFilters(filter, on: input), fresh, "\(chain) at \(w)x\(h) after other sizes")
            }
        }
    }
}
