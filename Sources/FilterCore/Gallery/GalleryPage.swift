/// One frame of the effects gallery: the page the selection is on, where each of its
/// filters' thumbnails goes in a `width`×`height` frame, and what is drawn over them
/// (each filter's title, the selection's outline, the strip with the page and the keys).
public struct GalleryPage: Equatable, Sendable {
    public let layout: GalleryLayout
    /// The current filter's thumbnail; nil when the filter has none (a `lut` of a file
    /// outside the looks folder): the first page, nothing outlined.
    public let selected: Int?
    public let page: Int
    public let width: Int
    public let height: Int
    /// Where the picture sits in every cell (all cells are the same size).
    public let thumbnailInCell: PixelRect

    /// `pictureWidth`×`pictureHeight`: the picture the thumbnails show (turned and zoomed
    /// as the window shows it), fitted whole into each cell.
    public init(count: Int, selected: Int?, width: Int, height: Int, pictureWidth: Int, pictureHeight: Int) {
        layout = GalleryLayout(count: count)
        self.selected = selected.map { min(max($0, 0), count - 1) }
        page = layout.page(of: self.selected ?? 0)
        self.width = width
        self.height = height
        thumbnailInCell = GalleryLayout.thumbnailRect(pictureWidth: pictureWidth, pictureHeight: pictureHeight,
                                                      cell: GalleryLayout.cellSize(width: width, height: height))
    }

    /// The thumbnails' size: the picture is scaled to this once per frame.
    public var thumbnailSize: (width: Int, height: Int) { (thumbnailInCell.width, thumbnailInCell.height) }

    /// The filters on this page with their thumbnails' rectangles in the frame.
    public var thumbnails: [(index: Int, rect: PixelRect)] {
        layout.indices(onPage: page).map { index in
            let cell = GalleryLayout.cellRect(slot: index - page * GalleryLayout.perPage, width: width, height: height)
            return (index, PixelRect(x: cell.x + thumbnailInCell.x, y: cell.y + thumbnailInCell.y,
                                     width: thumbnailInCell.width, height: thumbnailInCell.height))
        }
    }

    /// What the display draws over the thumbnails: `title(index)` at the foot of each, the
    /// selected one outlined just outside its picture, and the strip's line.
    public func items(title: (Int) -> String) -> [OnScreenDisplay.Item] {
        // From the thumbnail's height, and its width for a portrait one (a turned picture):
        // sized by height alone, titles were cut ("Sepia To…") and so was the strip.
        let captionSize = min(max(min(Double(thumbnailInCell.height) * 0.12, Double(thumbnailInCell.width) * 0.09), 8), 28)
        var items: [OnScreenDisplay.Item] = []
        for (index, rect) in thumbnails {
            items.append(.caption(title(index), in: rect, size: captionSize))
            if index == selected {
                items.append(.outline(PixelRect(x: rect.x - 2, y: rect.y - 2, width: rect.width + 4, height: rect.height + 4)))
            }
        }
        let footer = GalleryLayout.footerRect(width: width, height: height)
        items.append(.caption(footerText, in: footer, size: min(max(Double(footer.height) * 0.35, 8), captionSize)))
        return items
    }

    /// "page 1/2 · arrows or a click: choose · PgUp/PgDn: pages · g/Esc: close".
    public var footerText: String {
        let paging = layout.pages > 1 ? "page \(page + 1)/\(layout.pages) · " : ""
        return paging + "arrows or a click: choose" + (layout.pages > 1 ? " · PgUp/PgDn: pages" : "") + " · g/Esc: close"
    }
}
