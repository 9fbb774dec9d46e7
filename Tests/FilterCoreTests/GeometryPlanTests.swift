import XCTest
import FilterCore

/// `GeometryPlan`: sizes, the identity shortcut, rendering against the steps done one at a
/// time (orient, zoom, lens crop), and pointer mapping through all of them.
final class GeometryPlanTests: XCTestCase {
    typealias M = OrientationMethod

    func testSizesAndRectangles() throws {
        let lens = try LensRect(parsing: "0.2,0.1,0.6,0.5")
        let plan = GeometryPlan(inputWidth: 40, inputHeight: 30, method: .rotate90R, zoom: 1, lens: lens, lensCrop: false)
        XCTAssertEqual([plan.orientedWidth, plan.orientedHeight, plan.outputWidth, plan.outputHeight], [30, 40, 30, 40])
        // Lens in the oriented 30×40 picture: x 6..<24, y 4..<24.
        XCTAssertEqual(plan.lensRect, PixelRect(x: 6, y: 4, width: 18, height: 20))
        XCTAssertEqual(plan.lensPixelRect, plan.lensRect)
        XCTAssertEqual(plan.sourceRect, PixelRect(x: 0, y: 0, width: 40, height: 30))
        XCTAssertFalse(plan.isIdentity)

        let crop = GeometryPlan(inputWidth: 40, inputHeight: 30, method: .rotate90R, zoom: 1, lens: lens, lensCrop: true)
        XCTAssertEqual([crop.outputWidth, crop.outputHeight], [18, 20])
        XCTAssertEqual(crop.lensPixelRect, PixelRect(x: 0, y: 0, width: 18, height: 20))
        // 90r: output (x, y) is input (y, 29 - x): columns 6..<24 are input rows 6..<24.
        XCTAssertEqual(crop.sourceRect, PixelRect(x: 4, y: 6, width: 20, height: 18))

        let zoomed = GeometryPlan(inputWidth: 40, inputHeight: 30, method: .identity, zoom: 2, lens: .full, lensCrop: false)
        XCTAssertEqual(zoomed.zoomRect, PixelRect(x: 10, y: 8, width: 20, height: 15))  // round(7.5) = 8, round(22.5) = 23
        XCTAssertEqual([zoomed.outputWidth, zoomed.outputHeight], [40, 30])
        XCTAssertEqual(zoomed.sourceRect, zoomed.zoomRect)
        XCTAssertFalse(zoomed.isIdentity)
    }

    func testIdentity() throws {
        let lens = try LensRect(parsing: "0.25,0.25,0.5,0.5")
        XCTAssertTrue(GeometryPlan(inputWidth: 8, inputHeight: 6, method: .identity, zoom: 1, lens: .full, lensCrop: false).isIdentity)
        XCTAssertTrue(GeometryPlan(inputWidth: 8, inputHeight: 6, method: .identity, zoom: 1, lens: lens, lensCrop: false).isIdentity,
                      "a lens without crop only says where to filter")
        XCTAssertTrue(GeometryPlan(inputWidth: 8, inputHeight: 6, method: .identity, zoom: 1, lens: .full, lensCrop: true).isIdentity)
        XCTAssertTrue(GeometryPlan(inputWidth: 8, inputHeight: 6, method: .identity, zoom: 1.01, lens: .full, lensCrop: false).isIdentity,
                      "a zoom too small to crop a pixel changes nothing")
        XCTAssertFalse(GeometryPlan(inputWidth: 8, inputHeight: 6, method: .identity, zoom: 1, lens: lens, lensCrop: true).isIdentity)
        XCTAssertFalse(GeometryPlan(inputWidth: 8, inputHeight: 6, method: .identity, zoom: 1.5, lens: .full, lensCrop: false).isIdentity)
        XCTAssertFalse(GeometryPlan(inputWidth: 8, inputHeight: 6, method: .horizontal, zoom: 1, lens: .full, lensCrop: false).isIdentity)
    }

    /// The steps one at a time, each through its own public API: orient the whole frame,
    /// scale the zoom crop to the oriented size, cut out the lens.
    private func stepByStep(_ input: Words, _ plan: GeometryPlan) -> Words {
        var oriented = transformed(input, plan.method)
        if plan.zoomRect != PixelRect(x: 0, y: 0, width: oriented.width, height: oriented.height) {
            let src = PaddedFrame(oriented), dst = PaddedFrame(width: oriented.width, height: oriented.height)
            Zoom.scale(from: src.view, sourceRect: plan.zoomRect, to: dst.view)
            oriented = dst.words
        }
        return plan.lensCrop ? oriented.cropped(plan.lensRect) : oriented
    }

    private func rendered(_ input: Words, _ plan: GeometryPlan) -> Words {
        let src = PaddedFrame(input, padding: 12)
        let dst = PaddedFrame(width: plan.outputWidth, height: plan.outputHeight, padding: 8)
        plan.render(from: src.view, to: dst.view)
        XCTAssertTrue(dst.paddingIntact, "render wrote into row padding")
        return dst.words
    }

    func testRenderMatchesTheStepsDoneSeparately() throws {
        let input = Words.noise(width: 23, height: 14, seed: 12)
        let lenses = [LensRect.full, try LensRect(parsing: "0.2,0.3,0.5,0.4"), try LensRect(parsing: "0.9,0,0.1,1")]
        for m in M.allCases {
            for zoom in [1.0, 1.5, 2.5] {
                for lens in lenses {
                    for lensCrop in [false, true] {
                        let plan = GeometryPlan(inputWidth: 23, inputHeight: 14, method: m, zoom: zoom, lens: lens, lensCrop: lensCrop)
                        let expected = stepByStep(input, plan)
                        XCTAssertEqual([plan.outputWidth, plan.outputHeight], [expected.width, expected.height])
                        XCTAssertEqual(rendered(input, plan), expected, "\(m) zoom \(zoom) lens \(lens) crop \(lensCrop)")
                    }
                }
            }
        }
    }

    func testRenderWithoutZoomIsExactlyVideoflipThenCrop() throws {
        let input = Words.distinct(width: 17, height: 11)
        let lens = try LensRect(parsing: "0.25,0.1,0.5,0.7")
        for m in M.allCases {
            let plan = GeometryPlan(inputWidth: 17, inputHeight: 11, method: m, zoom: 1, lens: lens, lensCrop: true)
            XCTAssertEqual(rendered(input, plan), input.reference(m).cropped(plan.lensRect), m.nick)
        }
    }

    /// Without zoom the pointer lands on the very pixel shown; with zoom, the output's edges
    /// land on the edges of the zoom crop.
    func testPointerMappingThroughLensAndZoom() throws {
        let input = Words.distinct(width: 19, height: 12)
        let lens = try LensRect(parsing: "0.1,0.2,0.6,0.7")
        var rng = SystemRandomNumberGenerator()
        for m in M.allCases {
            for lensCrop in [false, true] {
                let plan = GeometryPlan(inputWidth: 19, inputHeight: 12, method: m, zoom: 1, lens: lens, lensCrop: lensCrop)
                let out = rendered(input, plan)
                for _ in 0..<100 {
                    let x = Int.random(in: 0..<out.width, using: &rng), y = Int.random(in: 0..<out.height, using: &rng)
                    let (sx, sy) = plan.mapPointToSource(x: Double(x) + 0.3, y: Double(y) + 0.6)
                    XCTAssertEqual(out[x, y], input[Int(sx), Int(sy)], "\(m) crop \(lensCrop) at (\(x), \(y))")
                }
            }
            let zoomed = GeometryPlan(inputWidth: 19, inputHeight: 12, method: m, zoom: 3, lens: .full, lensCrop: false)
            let a = zoomed.mapPointToSource(x: 0, y: 0)
            let b = zoomed.mapPointToSource(x: Double(zoomed.outputWidth), y: Double(zoomed.outputHeight))
            let s = zoomed.sourceRect
            XCTAssertEqual(min(a.0, b.0), Double(s.x), m.nick)
            XCTAssertEqual(max(a.0, b.0), Double(s.x + s.width), m.nick)
            XCTAssertEqual(min(a.1, b.1), Double(s.y), m.nick)
            XCTAssertEqual(max(a.1, b.1), Double(s.y + s.height), m.nick)
        }
    }
}
