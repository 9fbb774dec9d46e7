/// The effects gallery's grid, as GNOME Cheese shows it: the catalog's filters as live
/// thumbnails, `columns`×`rows` to a page in catalog order, a strip at the bottom for
/// the page number and the keys. The grid is fixed (not sized to the frame), so a key or
/// a typed command moves the selection the same way whatever the window's size, and a
/// click is placed in fractions of the picture.
///
/// Pure: which cell a point hits, where an arrow or a page key goes, and each cell's
/// rectangle in pixels for a frame size (edges on the chroma grid, every cell the same
/// size, so one thumbnail fits them all).
public struct GalleryLayout: Equatable, Sendable {
    public static let columns = 3
    public static let rows = 3
    public static var perPage: Int { columns * rows }

    /// Gaps between cells and around them, and the strip at the bottom, as fractions of
    /// the frame's width (gaps) and height (gaps, strip).
    static let gapX = 0.016, gapY = 0.02, footer = 0.08

    /// Frames smaller than this on a side get no gallery (its cells would not fit).
    public static let minimumSide = 16

    public static func fits(width: Int, height: Int) -> Bool { min(width, height) >= minimumSide }

    /// How many filters the gallery shows.
    public let count: Int

    public init(count: Int) {
        precondition(count > 0, "a gallery needs at least one filter")
        self.count = count
    }

    public var pages: Int { (count + Self.perPage - 1) / Self.perPage }

    public func page(of index: Int) -> Int { index / Self.perPage }

    /// The first index of `page`.
    func start(of page: Int) -> Int { page * Self.perPage }

    /// The indices shown on `page`.
    public func indices(onPage page: Int) -> Range<Int> {
        start(of: page)..<min(start(of: page) + Self.perPage, count)
    }

    // MARK: Moving the selection

    /// Where an arrow takes the selection from `index`: a step in the grid; past the left
    /// or right edge to the same row of the previous or next page, past the top or bottom
    /// to the same column of the previous or next page (wrapping around the pages). A cell
    /// that a short last page lacks becomes its last filter.
    public func moved(_ index: Int, _ direction: ControlCommand.Direction) -> Int {
        let page = page(of: index), slot = index - start(of: page)
        let column = slot % Self.columns, row = slot / Self.columns
        switch direction {
        case .right where column < Self.columns - 1 && index + 1 < count:
            return index + 1
        case .left where column > 0:
            return index - 1
        case .down where row < Self.rows - 1 && index + Self.columns < count:
            return index + Self.columns
        case .up where row > 0:
            return index - Self.columns
        case .right:
            return clamped(start(of: turned(page, by: 1)) + row * Self.columns)
        case .left:
            return clamped(start(of: turned(page, by: -1)) + row * Self.columns + Self.columns - 1)
        case .down:
            return clamped(start(of: turned(page, by: 1)) + column)
        case .up:
            // The lowest filter of that column on the previous page.
            let first = start(of: turned(page, by: -1))
            var target = first + (Self.rows - 1) * Self.columns + column
            while target >= count && target - Self.columns >= first { target -= Self.columns }
            return clamped(target)
        }
    }

    /// The same cell `step` pages on (PageDown +1, PageUp −1), wrapping.
    public func turned(_ index: Int, pages step: Int) -> Int {
        let page = page(of: index)
        return clamped(start(of: turned(page, by: step)) + index - start(of: page))
    }

    private func turned(_ page: Int, by step: Int) -> Int {
        ((page + step) % pages + pages) % pages
    }

    /// An index inside the catalog (a short last page's missing cells become its last filter).
    private func clamped(_ index: Int) -> Int { min(index, count - 1) }

    // MARK: Where the cells are

    /// The cell's left and top edge and its size, as fractions of the frame.
    static func cellFraction(column: Int, row: Int) -> (x: Double, y: Double, width: Double, height: Double) {
        let w = (1 - Double(columns + 1) * gapX) / Double(columns)
        let h = (1 - footer - Double(rows + 1) * gapY) / Double(rows)
        return (gapX + Double(column) * (w + gapX), gapY + Double(row) * (h + gapY), w, h)
    }

    /// The filter whose cell on `page` holds the point (fractions of the frame); nil in a
    /// gap, in the strip, or on a cell a short page leaves empty.
    public func index(atX x: Double, y: Double, page: Int) -> Int? {
        for row in 0..<Self.rows {
            for column in 0..<Self.columns {
                let c = Self.cellFraction(column: column, row: row)
                guard x >= c.x, x < c.x + c.width, y >= c.y, y < c.y + c.height else { continue }
                let index = start(of: page) + row * Self.columns + column
                return index < count ? index : nil
            }
        }
        return nil
    }

    /// The cells' common size in pixels for a `width`×`height` frame (even, at least 2).
    public static func cellSize(width: Int, height: Int) -> (width: Int, height: Int) {
        let c = cellFraction(column: 0, row: 0)
        return (max(2, evenDown(c.width * Double(width))), max(2, evenDown(c.height * Double(height))))
    }

    /// Cell `slot` (0 top left, row by row) of a page, in pixels.
    public static func cellRect(slot: Int, width: Int, height: Int) -> PixelRect {
        let c = cellFraction(column: slot % columns, row: slot / columns)
        let size = cellSize(width: width, height: height)
        return PixelRect(x: evenDown(c.x * Double(width)), y: evenDown(c.y * Double(height)),
                         width: size.width, height: size.height)
    }

    /// The strip under the cells, for the page and the keys.
    public static func footerRect(width: Int, height: Int) -> PixelRect {
        let top = min(evenDown((1 - footer) * Double(height)), height - 2)
        return PixelRect(x: 0, y: top, width: width, height: height - top)
    }

    /// A picture of `pictureWidth`×`pictureHeight` fitted whole into a cell (aspect kept,
    /// even sides), and where it sits in the cell (centred, on the chroma grid).
    public static func thumbnailRect(pictureWidth: Int, pictureHeight: Int, cell: (width: Int, height: Int)) -> PixelRect {
        var w = cell.width, h = evenDown(Double(cell.width) * Double(pictureHeight) / Double(pictureWidth))
        if h > cell.height {
            h = cell.height
            w = evenDown(Double(cell.height) * Double(pictureWidth) / Double(pictureHeight))
        }
        w = max(2, w); h = max(2, h)
        return PixelRect(x: evenDown(Double(cell.width - w) / 2), y: evenDown(Double(cell.height - h) / 2), width: w, height: h)
    }

    private static func evenDown(_ v: Double) -> Int { Int(v.rounded(.down)) & ~1 }
}
