import XCTest
@testable import FilterCore

/// Geometry on YUV planes: small frames against hand-computed planes, and every method,
/// size and window against a plain model of videoflip (each plane turned with its own
/// size) followed by videocrop (chroma cut from the rounded-down corner), written here
/// from GStreamer's rules and not from the code under test.
final class YUVGeometryTests: XCTestCase {
    private func render(_ format: YUVFormat, _ w: Int, _ h: Int, _ bytes: [UInt8], _ method: OrientationMethod,
                        lens: LensRect = .full, crop: Bool = false) -> [UInt8] {
        let src = YUVBuffer(format: format, width: w, height: h)
        src.load(packed: bytes)
        let plan = GeometryPlan(inputWidth: w, inputHeight: h, method: method, zoom: 1, lens: lens, lensCrop: crop, lensGrid: 2)
        let dst = YUVBuffer(format: format, width: plan.outputWidth, height: plan.outputHeight)
        plan.render(from: src.frame, to: dst.frame)
        return dst.packedBytes
    }

    func testI420TurnedClockwiseByHand() {
        // 3x3: Y 1…9, U 2x2 10…13, V 2x2 20…23.
        let out = render(.i420, 3, 3, Array(1...9) + [10, 11, 12, 13] + [20, 21, 22, 23], .rotate90R)
        XCTAssertEqual(out, [7, 4, 1, 8, 5, 2, 9, 6, 3] + [12, 10, 13, 11] + [22, 20, 23, 21])
        // 4x2 becomes 2x4; the 2x1 chroma planes become 1x2.
        let tall = render(.i420, 4, 2, Array(1...8) + [10, 11] + [20, 21], .rotate90R)
        XCTAssertEqual(tall, [5, 1, 6, 2, 7, 3, 8, 4] + [10, 11] + [20, 21])
    }

    func testNV12MirroredByHand() {
        let out = render(.nv12, 3, 3, Array(1...9) + [10, 20, 11, 21, 12, 22, 13, 23], .horizontal)
        XCTAssertEqual(out, [3, 2, 1, 6, 5, 4, 9, 8, 7] + [11, 21, 10, 20, 13, 23, 12, 22])
    }

    func testYUY2TurnedClockwiseAveragesChromaRoundingDown() {
        // 4x2 YUY2 (Y0 U Y1 V): luma 1…4 / 5…8; row 0 chroma (9,20) (11,21), row 1 (12,22) (13,23).
        let src: [UInt8] = [1, 9, 2, 20, 3, 11, 4, 21,
                            5, 12, 6, 22, 7, 13, 8, 23]
        // Output 2x4: the pair's two pixels come from source rows 1 and 0, so their chroma
        // is the mean of the two rows' macropixels, rounded down: (12+9)/2 = 10.
        XCTAssertEqual(render(.yuy2, 4, 2, src, .rotate90R), [5, 10, 1, 21,
                                                              6, 10, 2, 21,
                                                              7, 12, 3, 22,
                                                              8, 12, 4, 22])
    }

    func testUYVYOddWidthTurnedHalfway() {
        // 3x1 UYVY (U Y0 V Y1): pixels 1 2 3, macropixels (10,20) over 1,2 and (11,21) over 3.
        let out = render(.uyvy, 3, 1, [10, 1, 20, 2, 11, 3, 21, 0], .rotate180)
        // Output pixels 3 2 | 1: each macropixel's chroma from the one holding its first pixel.
        XCTAssertEqual(Array(out[0..<4]), [11, 3, 21, 2])
        XCTAssertEqual([out[4], out[5], out[6]], [10, 1, 20])
    }

    func testLensCropCutsChromaFromTheRoundedDownCorner() throws {
        // 5x5 I420, lens from 0.4: its edges snap to even pixels, 2…5 (the odd picture edge).
        let y = (0..<25).map { UInt8($0) }, u = (0..<9).map { UInt8(100 + $0) }, v = (0..<9).map { UInt8(200 + $0) }
        let lens = try LensRect(x: 0.4, y: 0.4, w: 0.6, h: 0.6)
        let out = render(.i420, 5, 5, y + u + v, .identity, lens: lens, crop: true)
        XCTAssertEqual(out, [12, 13, 14, 17, 18, 19, 22, 23, 24] + [104, 105, 107, 108] + [204, 205, 207, 208])
    }

    func testLensEdgesSnapToTheChromaGrid() throws {
        let lens = try LensRect(x: 0.3, y: 0.1, w: 0.45, h: 0.5)
        // 10 px: 3 → 4 (nearest even), 7.5 → 8; 9 rows: 0.9 → 0, 5.4 → 6.
        XCTAssertEqual(lens.pixelRect(width: 10, height: 9, grid: 2), PixelRect(x: 4, y: 0, width: 4, height: 6))
        // Without the grid: 3…8 (7.5 rounds away from zero), 1…5.
        XCTAssertEqual(lens.pixelRect(width: 10, height: 9), PixelRect(x: 3, y: 1, width: 5, height: 4))
        // A lens narrower than the grid keeps one chroma sample; at an odd edge it ends there.
        let thin = try LensRect(x: 0.9, y: 0, w: 0.1, h: 1)
        XCTAssertEqual(thin.pixelRect(width: 5, height: 4, grid: 2), PixelRect(x: 4, y: 0, width: 1, height: 4))
    }

    // MARK: Every method, size and window against the model

    /// Output (x, y) of each method reads input (table in gst-plugins-good's gstvideoflip.c).
    private static func modelSource(_ m: Int, _ x: Int, _ y: Int, _ w: Int, _ h: Int) -> (Int, Int) {
        [(x, y), (y, h - 1 - x), (w - 1 - x, h - 1 - y), (w - 1 - y, x),
         (w - 1 - x, y), (x, h - 1 - y), (y, x), (w - 1 - y, h - 1 - x)][m]
    }

    /// videoflip then videocrop on planes given as [rows][elements][bytes].
    private static func model(_ planes: [[[[UInt8]]]], method m: Int, window: PixelRect, subsampled: [Bool]) -> [UInt8] {
        var out: [UInt8] = []
        for (plane, sub) in zip(planes, subsampled) {
            let h = plane.count, w = plane[0].count
            let (tw, th) = [1, 3, 6, 7].contains(m) ? (h, w) : (w, h)
            let s = sub ? 2 : 1
            let x0 = window.x / s, y0 = window.y / s
            let cw = (window.width + s - 1) / s, ch = (window.height + s - 1) / s
            precondition(x0 + cw <= tw && y0 + ch <= th)
            for y in y0..<(y0 + ch) {
                for x in x0..<(x0 + cw) {
                    let (sx, sy) = modelSource(m, x, y, w, h)
                    out += plane[sy][sx]
                }
            }
        }
        return out
    }

    /// A `w`×`h` frame of distinct samples through `method` (and the lens, cut out when
    /// `crop`), against the model.
    private func assertMatchesModel(_ format: YUVFormat, _ w: Int, _ h: Int, _ method: OrientationMethod,
                                    lens: LensRect = .full, crop: Bool = false, line: UInt = #line) {
        let cw = (w + 1) / 2, ch = (h + 1) / 2
        var n: UInt8 = 0
        func plane(_ pw: Int, _ ph: Int, _ e: Int) -> [[[UInt8]]] {
            (0..<ph).map { _ in (0..<pw).map { _ in (0..<e).map { _ in n &+= 37; return n } } }
        }
        let planes = format == .i420 ? [plane(w, h, 1), plane(cw, ch, 1), plane(cw, ch, 1)]
                                     : [plane(w, h, 1), plane(cw, ch, 2)]
        let bytes = planes.flatMap { $0.flatMap { $0.flatMap { $0 } } }
        let plan = GeometryPlan(inputWidth: w, inputHeight: h, method: method, zoom: 1, lens: lens, lensCrop: crop, lensGrid: 2)
        let expected = Self.model(planes, method: method.rawValue, window: plan.lensRect,
                                  subsampled: [false] + Array(repeating: true, count: planes.count - 1))
        XCTAssertEqual(render(format, w, h, bytes, method, lens: lens, crop: crop), expected,
                       "\(format.rawValue) \(w)x\(h) \(method.nick) lens \(lens)", line: line)
    }

    func testPlanarFormatsMatchFlipThenCropForEveryMethodAndSize() throws {
        let lenses = [LensRect.full, try LensRect(x: 0.2, y: 0.3, w: 0.6, h: 0.5), try LensRect(x: 0.5, y: 0, w: 0.5, h: 0.7)]
        var checked = 0
        for format in [YUVFormat.i420, .nv12] {
            for w in 1...6 { for h in 1...5 { for method in OrientationMethod.allCases { for lens in lenses {
                assertMatchesModel(format, w, h, method, lens: lens, crop: true)
                checked += 1
            }}}}
        }
        XCTAssertEqual(checked, 2 * 6 * 5 * 8 * 3)
    }

    /// horiz and 180 reverse rows 32 and 16 bytes at a time in registers and the rest one
    /// element at a time: every width up to 80 takes each path, for 1-byte samples (I420,
    /// NV12's luma) and 2-byte pairs (NV12's chroma), against the model.
    func testReversedRowsMatchTheModelAtEveryWidthUpTo80() {
        var checked = 0
        for format in [YUVFormat.i420, .nv12] {
            for w in 1...80 { for method in [OrientationMethod.horizontal, .rotate180] {
                assertMatchesModel(format, w, 3, method)
                checked += 1
            }}
        }
        XCTAssertEqual(checked, 2 * 80 * 2)
    }

    func testZoomScalesEachPlaneBilinearlyByHand() {
        // 4x4 I420, Y = 10x + 40y; zoom 2 shows Y(1…2, 1…2) = 50 60 / 90 100, sampled at
        // −0.25 (edge), 0.25, 0.75, 1.25 (edge): weights 0, 64, 192, 0 of 256, each pass
        // rounding half up. The 2x2 chroma planes' zoom crop is their sample (0, 0).
        let y: [UInt8] = (0..<16).map { (i: Int) -> UInt8 in UInt8(10 * (i % 4) + 40 * (i / 4)) }
        let chroma: [UInt8] = [11, 22, 33, 44, 55, 66, 77, 88]
        let src = YUVBuffer(format: .i420, width: 4, height: 4)
        src.load(packed: y + chroma)
        let plan = GeometryPlan(inputWidth: 4, inputHeight: 4, method: .identity, zoom: 2, lens: .full, lensCrop: false, lensGrid: 2)
        let dst = YUVBuffer(format: .i420, width: 4, height: 4)
        plan.render(from: src.frame, to: dst.frame)
        let luma: [UInt8] = [50, 53, 58, 60, 60, 63, 68, 70, 80, 83, 88, 90, 90, 93, 98, 100]
        let flat: [UInt8] = [11, 11, 11, 11, 55, 55, 55, 55]
        XCTAssertEqual(dst.packedBytes, luma + flat)
    }

    func testZoomOfAFlatFrameStaysFlatAndKeepsItsSize() {
        for format in YUVFormat.allCases {
            let src = YUVBuffer(format: format, width: 7, height: 5)
            let count = src.packedBytes.count
            src.load(packed: Array(repeating: 77, count: count))
            let plan = GeometryPlan(inputWidth: 7, inputHeight: 5, method: .rotate90L, zoom: 2, lens: .full, lensCrop: false, lensGrid: 2)
            let dst = YUVBuffer(format: format, width: plan.outputWidth, height: plan.outputHeight)
            plan.render(from: src.frame, to: dst.frame)
            XCTAssertEqual(Set(dst.packedBytes), [77], format.rawValue)
        }
    }
}

/// Colour matrices carried into YUV samples, against hand-computed coefficients.
final class YUVAffineTests: XCTestCase {
    func testRec601LumaBecomesKeepLumaDropChroma() {
        // Grey from Rec.601 luma on a BT.601 frame: Y stays, U and V become 128.
        let k = YUVAffine(.luma, .bt601).k
        let expected: [Int32] = [1024, 0, 0, 512, 0, 0, 0, 128 * 1024 + 512, 0, 0, 0, 128 * 1024 + 512]
        for (a, b) in zip(k, expected) { XCTAssertLessThanOrEqual(abs(a - b), 2, "\(k)") }
    }

    func testIdentityStaysIdentityInEveryRange() {
        for m in [YUVMatrix.bt601, .bt709, .bt709.withFullRange(true)] {
            let k = YUVAffine(.identity, m).k
            // Y' = Y; U' = (U − 128) + 128; V' likewise (× 1024, offsets + 512 for rounding).
            let expected: [Int32] = [1024, 0, 0, 512, 0, 1024, 0, 128 * 1024 + 512, 0, 0, 1024, 128 * 1024 + 512]
            for (a, b) in zip(k, expected) { XCTAssertLessThanOrEqual(abs(a - b), 1, "\(m) \(k)") }
        }
    }

    func testBrightnessLiftsOnlyLuma() throws {
        // +0.1 on R, G and B: a grey step of 25.5, i.e. 25.5 · 219/255 = 21.9 luma samples.
        let k = YUVAffine(ColorMatrix([1, 0, 0, 0.1, 0, 1, 0, 0.1, 0, 0, 1, 0.1]), .bt601).k
        XCTAssertEqual(Double(k[3] - 512) / 1024, 21.9, accuracy: 0.01)
        XCTAssertEqual(Double(k[7] - 512) / 1024, 128 - 128, accuracy: 0.01 + 128)  // chroma rows keep their centring
        XCTAssertLessThanOrEqual(abs(k[7] - (128 * 1024 + 512)), 1)
    }
}
