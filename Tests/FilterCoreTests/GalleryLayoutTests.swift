import XCTest
@testable import FilterCore

/// The effects gallery's grid: pages, arrows, page keys, which cell a point hits, and the
/// cells in pixels. The catalog's 15 filters make two pages of 3×3: 0…8 and 9…14 (the
/// second page's last row empty). Expected values worked out by hand.
final class GalleryLayoutTests: XCTestCase {
    let catalog = GalleryLayout(count: 15)

    func testPages() {
        XCTAssertEqual(catalog.pages, 2)
        XCTAssertEqual(catalog.indices(onPage: 0), 0..<9)
        XCTAssertEqual(catalog.indices(onPage: 1), 9..<15)
        XCTAssertEqual(catalog.page(of: 8), 0)
        XCTAssertEqual(catalog.page(of: 9), 1)
        XCTAssertEqual(GalleryLayout(count: 9).pages, 1)
        XCTAssertEqual(GalleryLayout(count: 10).pages, 2)
    }

    func testArrowsStepInTheGridAndPagePastItsEdges() {
        let cases: [(Int, ControlCommand.Direction, Int, String)] = [
            (0, .right, 1, "a step"), (4, .left, 3, "a step"), (0, .down, 3, "a step"), (7, .up, 4, "a step"),
            (2, .right, 9, "past the right edge: the next page, same row"),
            (5, .right, 12, "past the right edge, middle row"),
            (8, .right, 14, "the next page has no bottom row: its last filter"),
            (9, .left, 2, "past the left edge: the previous page, same row, last column"),
            (0, .left, 11, "the previous page of the first is the last"),
            (6, .left, 14, "the last page's bottom row is empty: its last filter"),
            (6, .down, 9, "past the bottom: the next page, same column, top row"),
            (13, .down, 1, "no filter below on a short page: the next page's top"),
            (14, .right, 3, "the last filter: right wraps to the first page, same row"),
            (1, .up, 13, "past the top: the lowest filter of that column on the previous page"),
            (9, .up, 6, "past the top of the second page: the first page's bottom row"),
            (2, .up, 14, "the column's lowest on the short page"),
        ]
        for (from, direction, to, why) in cases {
            XCTAssertEqual(catalog.moved(from, direction), to, "\(from) \(direction): \(why)")
        }
        // One page: past an edge is the same page again.
        let small = GalleryLayout(count: 5)
        XCTAssertEqual(small.moved(2, .right), 0)
        XCTAssertEqual(small.moved(4, .right), 3, "right of the last filter: the start of its row")
        XCTAssertEqual(small.moved(4, .down), 1)
        XCTAssertEqual(small.moved(0, .up), 3)
        XCTAssertEqual(small.moved(2, .up), 2, "a column with nothing below stays on the top row")
    }

    func testPageKeysKeepTheCellAndWrap() {
        XCTAssertEqual(catalog.turned(4, pages: 1), 13)
        XCTAssertEqual(catalog.turned(7, pages: 1), 14, "the next page has no such cell: its last filter")
        XCTAssertEqual(catalog.turned(13, pages: 1), 4, "wraps to the first page")
        XCTAssertEqual(catalog.turned(13, pages: -1), 4)
        XCTAssertEqual(catalog.turned(0, pages: -1), 9)
        XCTAssertEqual(GalleryLayout(count: 5).turned(3, pages: 1), 3, "one page: nowhere to go")
    }

    /// Cells are 0.312 of the width (gaps 0.016) and 0.28 of the height (gaps 0.02, the
    /// strip 0.08): columns 0.016–0.328, 0.344–0.656, 0.672–0.984; rows 0.02–0.30,
    /// 0.32–0.60, 0.62–0.90.
    func testTheCellUnderAPoint() {
        XCTAssertEqual(catalog.index(atX: 0.5, y: 0.5, page: 0), 4)
        XCTAssertEqual(catalog.index(atX: 0.02, y: 0.03, page: 0), 0)
        XCTAssertEqual(catalog.index(atX: 0.98, y: 0.89, page: 0), 8)
        XCTAssertEqual(catalog.index(atX: 0.9, y: 0.1, page: 1), 11)
        XCTAssertEqual(catalog.index(atX: 0.5, y: 0.5, page: 1), 13)
        XCTAssertNil(catalog.index(atX: 0.1, y: 0.7, page: 1), "the short page's empty bottom row")
        XCTAssertNil(catalog.index(atX: 0.335, y: 0.5, page: 0), "between two columns")
        XCTAssertNil(catalog.index(atX: 0.5, y: 0.31, page: 0), "between two rows")
        XCTAssertNil(catalog.index(atX: 0.5, y: 0.95, page: 0), "the strip")
        XCTAssertNil(catalog.index(atX: 0.005, y: 0.5, page: 0), "the left margin")
    }

    /// 1280×720: cells 0.312 × 1280 = 399.36 → 398 by 0.28 × 720 = 201.6 → 200 (even, down);
    /// the middle cell at 0.344 × 1280 = 440.32 → 440, 0.32 × 720 = 230.4 → 230. A 16:9
    /// picture fitted in: 200 high, 200 × 16/9 = 355.6 → 354 wide, 22 in from the left.
    func testCellsInPixels() {
        XCTAssertTrue(GalleryLayout.cellSize(width: 1280, height: 720) == (398, 200))
        XCTAssertEqual(GalleryLayout.cellRect(slot: 4, width: 1280, height: 720), PixelRect(x: 440, y: 230, width: 398, height: 200))
        XCTAssertEqual(GalleryLayout.cellRect(slot: 0, width: 1280, height: 720), PixelRect(x: 20, y: 14, width: 398, height: 200))
        XCTAssertEqual(GalleryLayout.footerRect(width: 1280, height: 720), PixelRect(x: 0, y: 662, width: 1280, height: 58))
        XCTAssertEqual(GalleryLayout.thumbnailRect(pictureWidth: 1280, pictureHeight: 720, cell: (398, 200)),
                       PixelRect(x: 22, y: 0, width: 354, height: 200))
        // A turned (portrait) picture: 200 high, 200 × 9/16 = 112.5 → 112 wide, (398 − 112) / 2 = 143 → 142.
        XCTAssertEqual(GalleryLayout.thumbnailRect(pictureWidth: 720, pictureHeight: 1280, cell: (398, 200)),
                       PixelRect(x: 142, y: 0, width: 112, height: 200))
        // A wide cell's limit is its width: 100 wide, 100 × 3/4 = 75 → 74 high, (90 − 74) / 2 = 8.
        XCTAssertEqual(GalleryLayout.thumbnailRect(pictureWidth: 640, pictureHeight: 480, cell: (100, 90)),
                       PixelRect(x: 0, y: 8, width: 100, height: 74))
        // A point in a cell's pixels hits that cell.
        let rect = GalleryLayout.cellRect(slot: 7, width: 1280, height: 720)
        XCTAssertEqual(catalog.index(atX: Double(rect.x + 5) / 1280, y: Double(rect.y + rect.height - 5) / 720, page: 0), 7)
    }

    /// At every frame size the gallery is drawn at (from 16 on a side), in both
    /// orientations of the picture, every thumbnail lies inside the frame, on the chroma
    /// grid, and no two overlap.
    func testEveryCellFitsAtEverySize() {
        XCTAssertFalse(GalleryLayout.fits(width: 15, height: 100))
        for width in stride(from: 16, through: 400, by: 3) {
            for height in stride(from: 16, through: 300, by: 5) {
                for (pw, ph) in [(width, height), (height, width)] {
                    let page = GalleryPage(count: 15, selected: 0, width: width, height: height, pictureWidth: pw, pictureHeight: ph)
                    let rects = page.thumbnails.map(\.rect)
                    for r in rects {
                        XCTAssertTrue(r.x >= 0 && r.y >= 0 && r.x + r.width <= width && r.y + r.height <= height
                                      && r.x % 2 == 0 && r.y % 2 == 0 && r.width >= 2 && r.height >= 2, "\(width)x\(height): \(r)")
                    }
                    for (i, a) in rects.enumerated() {
                        for b in rects[(i + 1)...] {
                            XCTAssertTrue(a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y,
                                          "\(width)x\(height): \(a) and \(b) overlap")
                        }
                    }
                }
            }
        }
    }

    /// The page the selection is on, its thumbnails, the titles, the outline just outside
    /// the selected picture, and the strip.
    func testAPageAndWhatIsDrawnOverIt() {
        // 320×240: cells 0.312 × 320 = 99.84 → 98 by 0.28 × 240 = 67.2 → 66; a 4:3 picture
        // 66 high, 88 wide, 4 in ((98 − 88) / 2 = 5 → 4). Cell 0 at (4, 4); cell 1 at
        // 0.344 × 320 = 110.08 → 110.
        let page = GalleryPage(count: 15, selected: 10, width: 320, height: 240, pictureWidth: 320, pictureHeight: 240)
        XCTAssertEqual(page.page, 1)
        XCTAssertEqual(page.thumbnailInCell, PixelRect(x: 4, y: 0, width: 88, height: 66))
        XCTAssertEqual(page.thumbnails.map(\.index), Array(9..<15))
        XCTAssertEqual(page.thumbnails[0].rect, PixelRect(x: 8, y: 4, width: 88, height: 66))
        XCTAssertEqual(page.thumbnails[1].rect, PixelRect(x: 114, y: 4, width: 88, height: 66))
        let items = page.items { "title \($0)" }
        let size = 8.0   // 66 × 0.12 = 7.9, at least 8
        XCTAssertEqual(items.filter { if case .caption = $0 { return true }; return false }.count, 7, "6 titles and the strip")
        XCTAssertTrue(items.contains(.caption("title 9", in: PixelRect(x: 8, y: 4, width: 88, height: 66), size: size)))
        XCTAssertTrue(items.contains(.outline(PixelRect(x: 112, y: 2, width: 92, height: 70))), "the selected (10) outlined")
        XCTAssertEqual(items.filter { if case .outline = $0 { return true }; return false }.count, 1)
        XCTAssertEqual(page.footerText, "page 2/2 · arrows or a click: choose · PgUp/PgDn: pages · g/Esc: close")
        XCTAssertEqual(GalleryPage(count: 5, selected: 0, width: 320, height: 240, pictureWidth: 320, pictureHeight: 240).footerText,
                       "arrows or a click: choose · g/Esc: close")
    }

    /// A turned (portrait) picture's titles are sized by the thumbnail's width too: by its
    /// height alone they were cut ("Sepia To…"), and the strip with them.
    func testPortraitThumbnailsGetTitlesSizedByTheirWidth() {
        let landscape = GalleryPage(count: 15, selected: 0, width: 640, height: 480, pictureWidth: 640, pictureHeight: 480)
        let portrait = GalleryPage(count: 15, selected: 0, width: 480, height: 640, pictureWidth: 480, pictureHeight: 640)
        func sizes(_ page: GalleryPage) -> [Double] {
            page.items { "title \($0)" }.compactMap { if case .caption(_, _, let size) = $0 { return size }; return nil }
        }
        // 640×480, by hand as above: cells 0.28 × 480 = 134.4 → 134 high, a 4:3 picture 134
        // high is 178 wide; min(134 × 0.12 = 16.08, 178 × 0.09 = 16.02).
        XCTAssertEqual(landscape.thumbnailInCell.width, 178)
        XCTAssertEqual(sizes(landscape).first!, 16.02, accuracy: 1e-9)
        // 480×640: thumbnails 3:4, width-bound: the title's size is 0.09 of the width, below 0.12 of the height.
        let thumb = portrait.thumbnailInCell
        XCTAssertLessThan(thumb.width, thumb.height)
        XCTAssertEqual(sizes(portrait).first!, Double(thumb.width) * 0.09, accuracy: 1e-9)
        XCTAssertLessThan(sizes(portrait).first!, Double(thumb.height) * 0.12)
    }
}
