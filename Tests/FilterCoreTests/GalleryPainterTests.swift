import XCTest
@testable import FilterCore

/// The gallery's pixels: each cell shows its filter's result on the picture scaled down,
/// the rest is grey 32. A 320×240 picture, red (200, 40, 40) on the left half and blue
/// (40, 40, 200) on the right: its thumbnails are 88×66 (`GalleryLayoutTests`), cell 0's
/// (none) at (8, 4), cell 2's (mono) at 0.672 × 320 = 215.04 → 214, + 4 = 218.
final class GalleryPainterTests: XCTestCase {
    let red = RGBA(r: 200, g: 40, b: 40), blue = RGBA(r: 40, g: 40, b: 200)
    let chains = FilterRegistry.shared.ids.map(FilterShowcase.chain(for:))
    let none = (x: 8, y: 4), mono = (x: 218, y: 4)

    func page(_ plan: GeometryPlan) -> GalleryPage {
        GalleryPage(count: chains.count, selected: 0, width: plan.outputWidth, height: plan.outputHeight,
                    pictureWidth: plan.orientedWidth, pictureHeight: plan.orientedHeight)
    }

    func halves() -> PixelBuffer {
        let picture = PixelBuffer(width: 320, height: 240, format: .bgrx)
        for y in 0..<240 { for x in 0..<320 { picture.view.setPixel(x: x, y: y, x < 160 ? red : blue) } }
        return picture
    }

    func testRGBCellsShowTheirFiltersOnTheScaledPicture() {
        let source = halves(), out = PixelBuffer(width: 320, height: 240, format: .bgrx)
        let plan = GeometryPlan(inputWidth: 320, inputHeight: 240, method: .identity, zoom: 1, lens: .full, lensCrop: false)
        GalleryPainter().paint(page(plan), chains: chains, from: source.view, plan: plan, to: out.view)
        let v = out.view
        // none: the picture, its halves where they were (away from the middle, where scaling blends them).
        XCTAssertEqual(v.pixel(x: none.x + 5, y: none.y + 30), red)
        XCTAssertEqual(v.pixel(x: none.x + 82, y: none.y + 30), blue)
        // mono: R = G = B = Rec.601 luma: 0.299·200 + 0.587·40 + 0.114·40 = 87.84 (red), 51.96 (blue), ±1.
        for (dx, colour) in [(5, red), (82, blue)] {
            let p = v.pixel(x: mono.x + dx, y: mono.y + 30)
            XCTAssertTrue(p.r == p.g && p.g == p.b, "mono cell \(p)")
            XCTAssertEqual(Double(p.r), 0.299 * Double(colour.r) + 0.587 * Double(colour.g) + 0.114 * Double(colour.b), accuracy: 1)
        }
        // Around and between the cells: grey 32.
        for (x, y) in [(2, 2), (104, 30), (160, 236), (319, 239)] {
            XCTAssertEqual(v.pixel(x: x, y: y), RGBA(r: 32, g: 32, b: 32), "(\(x), \(y))")
        }
    }

    /// Turned a quarter clockwise the left half comes on top: the 240×320 output shows a
    /// 240×320 picture in cells of 0.312 × 240 = 74.88 → 74 by 0.28 × 320 = 89.6 → 88, so
    /// 66 × 88 (66 = 88 × 3/4), 4 in, cell 0 at (even(3.84) = 2, even(6.4) = 6) → (6, 6).
    func testThumbnailsAreTheTurnedPicture() {
        let source = halves(), out = PixelBuffer(width: 240, height: 320, format: .bgrx)
        let plan = GeometryPlan(inputWidth: 320, inputHeight: 240, method: .rotate90R, zoom: 1, lens: .full, lensCrop: false)
        let page = page(plan)
        XCTAssertEqual(page.thumbnails[0].rect, PixelRect(x: 6, y: 6, width: 66, height: 88))
        GalleryPainter().paint(page, chains: chains, from: source.view, plan: plan, to: out.view)
        XCTAssertEqual(out.view.pixel(x: 6 + 33, y: 6 + 5), red, "top")
        XCTAssertEqual(out.view.pixel(x: 6 + 33, y: 6 + 82), blue, "bottom")
    }

    /// I420: the none cell holds the picture's samples, the mono cell the same luma with
    /// U = V = 128 (neutral), the background grey 32's samples: Y 16 + 32 × 219/255 = 43.48 → 43.
    func testI420CellsShowTheirFilters() {
        let matrix = YUVMatrix.bt601
        let (ry, ru, rv) = matrix.samples(r: 200, g: 40, b: 40), (by, bu, bv) = matrix.samples(r: 40, g: 40, b: 200)
        let source = YUVBuffer(format: .i420, width: 320, height: 240), out = YUVBuffer(format: .i420, width: 320, height: 240)
        let s = source.frame
        for y in 0..<240 { for x in 0..<320 { s.planes[0].row(y).storeBytes(of: x < 160 ? ry : by, toByteOffset: x, as: UInt8.self) } }
        for y in 0..<120 {
            for x in 0..<160 {
                s.planes[1].row(y).storeBytes(of: x < 80 ? ru : bu, toByteOffset: x, as: UInt8.self)
                s.planes[2].row(y).storeBytes(of: x < 80 ? rv : bv, toByteOffset: x, as: UInt8.self)
            }
        }
        let plan = GeometryPlan(inputWidth: 320, inputHeight: 240, method: .identity, zoom: 1, lens: .full, lensCrop: false, lensGrid: 2)
        GalleryPainter().paint(page(plan), chains: chains, from: s, plan: plan, to: out.frame)
        func sample(_ x: Int, _ y: Int) -> (UInt8, UInt8, UInt8) {
            let f = out.frame
            return (f.planes[0].row(y).load(fromByteOffset: x, as: UInt8.self),
                    f.planes[1].row(y / 2).load(fromByteOffset: x / 2, as: UInt8.self),
                    f.planes[2].row(y / 2).load(fromByteOffset: x / 2, as: UInt8.self))
        }
        XCTAssertTrue(sample(none.x + 6, none.y + 30) == (ry, ru, rv), "none, red: \(sample(none.x + 6, none.y + 30))")
        XCTAssertTrue(sample(none.x + 80, none.y + 30) == (by, bu, bv), "none, blue")
        XCTAssertTrue(sample(mono.x + 6, mono.y + 30) == (ry, 128, 128), "mono, red: \(sample(mono.x + 6, mono.y + 30))")
        XCTAssertTrue(sample(mono.x + 80, mono.y + 30) == (by, 128, 128), "mono, blue")
        XCTAssertTrue(sample(104, 30) == (43, 128, 128), "between cells: \(sample(104, 30))")
    }
}
