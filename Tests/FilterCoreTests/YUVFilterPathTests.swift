@testable import FilterCore
import XCTest

/// The YUV paths of noir, vignette, exposure, posterize, sharpen, blur, edges and focus peaking by
/// hand-computed samples.
final class YUVFilterPathTests: XCTestCase {
    /// A frame of `format` with every luma `y` and every chroma `u`, `v`.
    private func flat(_ format: YUVFormat, _ w: Int, _ h: Int, y: UInt8, u: UInt8 = 128, v: UInt8 = 128) -> YUVBuffer {
        let buffer = YUVBuffer(format: format, width: w, height: h)
        buffer.frame.mapLuma([UInt8](repeating: y, count: 256))
        buffer.frame.mapChroma(u: [UInt8](repeating: u, count: 256), v: [UInt8](repeating: v, count: 256))
        return buffer
    }

    private func run(_ chain: String, on frame: YUVFrame) throws {
        let filters = try FilterChain.parse(chain).makeFilters()
        XCTAssertTrue(filters.workOnYUV, chain)
        filters.apply(to: frame)
    }

    private func luma(_ frame: YUVFrame) -> [UInt8] {
        let g = frame.lumaGrid
        return (0..<g.height).flatMap { y in (0..<g.width).map { g.row(y)[$0 * g.step] } }
    }

    private func chroma(_ frame: YUVFrame) -> Set<UInt8> {
        let u = frame.chromaGrid(v: false), v = frame.chromaGrid(v: true)
        return Set((0..<u.height).flatMap { y in (0..<u.width).flatMap { [u.row(y)[$0 * u.step], v.row(y)[$0 * v.step]] } })
    }

    func testNoirTakesLumaThroughTheCurveAndDropsChroma() throws {
        for format in YUVFormat.allCases {
            // Y 60 is grey 51.23 (t = 0.2009): 255 t² (3 − 2t) = 26.74, i.e. Y 16 + 22.97 → 39.
            // Y 126 is grey 128.08, a hair above the middle: 128.37, i.e. Y 126.25 → 126.
            for (y, expected) in [(60, 39), (126, 126), (16, 16), (235, 235)] as [(UInt8, UInt8)] {
                let b = flat(format, 6, 4, y: y, u: 200, v: 40)
                try run("noir", on: b.frame)
                XCTAssertEqual(Set(luma(b.frame)), [expected], "\(format) Y \(y)")
                XCTAssertEqual(chroma(b.frame), [128], "\(format)")
            }
            // Half intensity: Y 60 + (39 − 60)/2 = 49.5 → 50 (half up); chroma halfway to 128.
            let b = flat(format, 6, 4, y: 60, u: 200, v: 40)
            try run("noir intensity=0.5", on: b.frame)
            XCTAssertEqual(Set(luma(b.frame)), [50], "\(format)")
            XCTAssertEqual(chroma(b.frame), [164, 84], "\(format)")
        }
    }

    func testVignetteScalesAroundBlackAndNeutralWithTheGainAtEachSite() throws {
        // 2×2 I420 at radius 2, intensity 1: each pixel centre is 0.5 of the half-diagonal
        // from the middle, t = 0.25, gain 1 − 0.0625 · 2.5 = 0.84375 (216/256): Y 116 becomes
        // 16 + (100 · 216 + 128) >> 8 = 100. The one chroma site's centre is the middle:
        // gain 1, chroma unchanged.
        let b = flat(.i420, 2, 2, y: 116, u: 200, v: 40)
        try run("vignette radius=2 intensity=1", on: b.frame)
        XCTAssertEqual(luma(b.frame), [100, 100, 100, 100])
        XCTAssertEqual(chroma(b.frame), [200, 40])
        // Intensity 0 changes nothing.
        let same = flat(.yuy2, 6, 4, y: 77, u: 90, v: 170)
        try run("vignette intensity=0", on: same.frame)
        XCTAssertEqual(Set(luma(same.frame)), [77])
        XCTAssertEqual(chroma(same.frame), [90, 170])
    }

    /// YUY2 and UYVY go through in one pass over macropixels: each luma sample scaled around
    /// black by its own pixel's gain, each macropixel's chroma around 128 by the gain at its
    /// centre, and the padding luma of an odd width's last macropixel left alone.
    func testVignetteOnPackedFramesScalesEachSampleByItsOwnGain() {
        let vignette = VignetteFilter(radius: 0.6, intensity: 1)
        let (w, h) = (5, 2)
        func scaled(_ c: UInt8, around centre: Int, _ gain: UInt16) -> UInt8 {
            UInt8(truncatingIfNeeded: centre + (((Int(c) - centre) * Int(gain) + 128) >> 8))
        }
        for (format, offsets) in [(YUVFormat.yuy2, (y0: 0, u: 1, y1: 2, v: 3)), (.uyvy, (y0: 1, u: 0, y1: 3, v: 2))] {
            let buffer = YUVBuffer(format: format, width: w, height: h)
            let input = (0..<buffer.packedBytes.count).map { UInt8(truncatingIfNeeded: 37 + $0 * 23) }
            buffer.load(packed: input)
            vignette.apply(to: buffer.frame)
            let out = buffer.packedBytes
            for y in 0..<h {
                for m in 0..<3 {
                    let at = (y * 3 + m) * 4
                    let x0 = 2 * m, centreX = Double(x0 + min(x0 + 2, w)) / 2
                    let site = vignette.gain256(x: centreX, y: Double(y) + 0.5, width: w, height: h)
                    func gain(_ x: Int) -> UInt16 { vignette.gain256(x: Double(x) + 0.5, y: Double(y) + 0.5, width: w, height: h) }
                    XCTAssertEqual(out[at + offsets.y0], scaled(input[at + offsets.y0], around: 16, gain(x0)), "\(format) (\(x0), \(y))")
                    XCTAssertEqual(out[at + offsets.y1], x0 + 1 < w ? scaled(input[at + offsets.y1], around: 16, gain(x0 + 1)) : input[at + offsets.y1],
                                   "\(format) (\(x0 + 1), \(y))")
                    XCTAssertEqual(out[at + offsets.u], scaled(input[at + offsets.u], around: 128, site), "\(format) U \(m), \(y)")
                    XCTAssertEqual(out[at + offsets.v], scaled(input[at + offsets.v], around: 128, site), "\(format) V \(m), \(y)")
                }
            }
            XCTAssertNotEqual(out, input)
        }
    }

    /// Flat greys (Y `input`) through `chain` at 5×3 in every format, whose last column and
    /// row are chroma sites of fewer pixels: every luma `expected`, chroma still 128.
    private func assertGreys(_ chain: String, _ cases: [(input: UInt8, expected: UInt8)]) throws {
        for format in YUVFormat.allCases {
            for (y, expected) in cases {
                let b = flat(format, 5, 3, y: y)
                try run(chain, on: b.frame)
                XCTAssertEqual(Set(luma(b.frame)), [expected], "\(chain) \(format) Y \(y)")
                XCTAssertEqual(chroma(b.frame), [128], "\(chain) \(format)")
            }
        }
    }

    func testPosterizeOfGreysKeepsThemGrey() throws {
        // Two levels: grey 126.9 (Y 125) rounds to 127, level 0 (Y 16); grey 128.08 (Y 126)
        // to 128, level 1 (Y 235).
        try assertGreys("posterize levels=2", [(125, 16), (126, 235)])
    }

    func testExposureOfGreysByHand() throws {
        // ev 1 doubles linear light. Y 126 is grey 128.08, taken at 128: linear 0.2159 →
        // 0.4318 → sRGB 175.6 → 176, i.e. Y 16 + 219 · 176 / 255 = 167.2 → 167. Y 60 is grey
        // 51.23, taken at 51: linear 0.0331 → 0.0662 → sRGB 73, Y 78.7 → 79.
        try assertGreys("exposure ev=1", [(126, 167), (60, 79)])
    }

    func testSharpenOfOneBrightSampleByHand() throws {
        // Luma 100 with 190 at (1, 1); amount 0.5: K = round(0.5 · 65536 / 9) = 3641.
        // At (1, 1): 9 · 190 − 990 = 720, (720 K + 32768) >> 16 = 40 → 230.
        // At (0, 0) (edges repeated, the 190 counted once): 900 − 990 = −90 → −5 → 95.
        for format in YUVFormat.allCases {
            let b = flat(format, 4, 4, y: 100, u: 60, v: 180)
            let g = b.frame.lumaGrid
            g.row(1)[1 * g.step] = 190
            try run("sharpen amount=0.5", on: b.frame)
            let out = luma(b.frame)
            XCTAssertEqual(out[5], 230, "\(format)")
            XCTAssertEqual(out[0], 95, "\(format)")
            XCTAssertEqual(out[15], 100, "\(format): outside the neighbourhood")
            XCTAssertEqual(chroma(b.frame), [60, 180], "\(format): chroma is left")
        }
    }

    func testBlurKernelOfChromaSitesWeighsPairsAsPixelsDo() {
        // radius 2 in pixels: the pairs around a site weigh 0.3, 0.4, 0.3.
        let two = RunningKernel.sites(pixelRadius: 2)
        XCTAssertEqual(two.mean(100, 0), 40)     // 100 in the middle pair: 0.4 · 100
        XCTAssertEqual(two.mean(100, 100), 30)   // 100 in an outer pair: 0.3 · 100
        // radius 1: 1/6, 4/6, 1/6.
        let one = RunningKernel.sites(pixelRadius: 1)
        XCTAssertEqual(one.mean(120, 0), 80)
        XCTAssertEqual(one.mean(0, 120), 20)
        // A plain box of 5 rounds to nearest: 12 / 5 = 2.4 → 2, 13 / 5 = 2.6 → 3.
        XCTAssertEqual(RunningKernel.box(2).mean(12, 0), 2)
        XCTAssertEqual(RunningKernel.box(2).mean(13, 0), 3)
    }

    func testBlurKeepsAFlatFrame() throws {
        for format in YUVFormat.allCases {
            let b = flat(format, 7, 5, y: 99, u: 30, v: 220)
            try run("blur radius=3", on: b.frame)
            XCTAssertEqual(Set(luma(b.frame)), [99], "\(format)")
            XCTAssertEqual(chroma(b.frame), [30, 220], "\(format)")
        }
    }

    func testEdgesOfAFlatFrameAreBlackAndGrey() throws {
        for format in YUVFormat.allCases {
            for full in [false, true] {
                let b = flat(format, 6, 4, y: 150, u: 20, v: 230)
                var frame = b.frame
                frame.matrix = YUVMatrix.bt601.withFullRange(full)
                try run("edges", on: frame)
                XCTAssertEqual(Set(luma(frame)), [full ? 0 : 16], "\(format)")
                XCTAssertEqual(chroma(frame), [128], "\(format)")
            }
        }
    }

    func testEdgesOfAStepByHand() throws {
        // Columns 0–1 at Y 16, 2–3 at Y 36: at columns 1 and 2, |gx| = 4 · 20 = 80 → 16 + 80.
        let b = flat(.i420, 4, 2, y: 16)
        let g = b.frame.lumaGrid
        for y in 0..<2 { g.row(y)[2] = 36; g.row(y)[3] = 36 }
        try run("edges", on: b.frame)
        XCTAssertEqual(luma(b.frame), [16, 96, 96, 16, 16, 96, 96, 16])
    }

    func testFocusPeakingPaintsStrongEdgesAndMovesSiteChromaByTheirShare() throws {
        // The same step of 20 luma samples: 80 in samples is 80 · 255/219 = 93.2 grey levels.
        // Threshold 93 paints columns 1 and 2, 94 nothing. Red is Y 81, U 90, V 240.
        for (threshold, painted) in [(93, true), (94, false)] {
            let b = flat(.i420, 4, 2, y: 16, u: 128, v: 128)
            let g = b.frame.lumaGrid
            for y in 0..<2 { g.row(y)[2] = 36; g.row(y)[3] = 36 }
            try run("focus-peaking threshold=\(threshold) color=0xFFFF0000", on: b.frame)
            XCTAssertEqual(luma(b.frame), painted ? [16, 81, 81, 36, 16, 81, 81, 36] : [16, 16, 36, 36, 16, 16, 36, 36])
            // Each site has 2 of its 4 pixels painted: chroma halfway, 128 + (90 − 128)/2 = 109, (128 + 240)/2 = 184.
            let u = b.frame.chromaGrid(v: false), v = b.frame.chromaGrid(v: true)
            XCTAssertEqual([u.row(0)[0], u.row(0)[1], v.row(0)[0], v.row(0)[1]], painted ? [109, 109, 184, 184] : [128, 128, 128, 128])
        }
    }

    func testFocusPeakingOnPackedFramesPaintsPixelsAndMovesEachMacropixelsChromaByItsShare() throws {
        // Luma 16 16 16 16 36 on each row (the edge repeated beyond it): Sobel gives 4 · 20 =
        // 80 samples (93.2 grey levels) at columns 3 and 4, 0 elsewhere. Red is Y 81, U 90, V 240.
        for format in [YUVFormat.yuy2, .uyvy] {
            let b = flat(format, 5, 2, y: 16)
            let g = b.frame.lumaGrid
            for y in 0..<2 { g.row(y)[4 * g.step] = 36 }
            try run("focus-peaking threshold=93 color=0xFFFF0000", on: b.frame)
            XCTAssertEqual(luma(b.frame), [16, 16, 16, 81, 81, 16, 16, 16, 81, 81], "\(format)")
            // Macropixel (0, 1): none painted. (2, 3): one of two, halfway: (128 + 90 + 1) >> 1
            // = 109, (128 + 240 + 1) >> 1 = 184. The last one, pixel 4 and padding: all of it.
            let u = b.frame.chromaGrid(v: false), v = b.frame.chromaGrid(v: true)
            for y in 0..<2 {
                XCTAssertEqual((0..<3).map { u.row(y)[$0 * u.step] }, [128, 109, 90], "\(format) U row \(y)")
                XCTAssertEqual((0..<3).map { v.row(y)[$0 * v.step] }, [128, 184, 240], "\(format) V row \(y)")
            }
        }
    }
}
