/// The effects gallery's commands, run as every other command is (`run(on:)`): the
/// gallery is the element's `gallery` property, and its selection is the element's
/// filter, so a key in the window, a key in the terminal and a typed line all move the
/// same selection, and what was chosen is on the picture when the gallery closes.
extension ControlCommand {
    static func galleryIsOpen(_ target: some ControlTarget) -> Bool {
        target.value("gallery") == "true"
    }

    /// `gallery`, `close-gallery`, `next-page`/`previous-page`, `pick-at`, and an arrow
    /// while the gallery is open (it moves the selection, not the lens).
    func runInGallery(on target: some ControlTarget, registry: FilterRegistry) throws -> String? {
        let open = Self.galleryIsOpen(target)
        switch self {
        case .gallery:
            try target.set("gallery", open ? "false" : "true")
            return open ? "gallery: closed" : "gallery: open (arrows or a click choose, PgUp/PgDn turn pages, g or Esc closes)"
        case .closeGallery, .cancel:
            guard open else { return nil }
            try target.set("gallery", "false")
            return "gallery: closed"
        default:
            guard open else { throw ControlError("the effects gallery is closed: 'g' opens it") }
        }
        let ids = registry.pickable.map(\.id)
        let layout = GalleryLayout(count: max(ids.count, 1))
        // A chain the gallery has no thumbnail for (a `lut` of another file) starts at the first.
        let current = registry.pickableID(ofChain: target.value("filter") ?? "none").flatMap { ids.firstIndex(of: $0) } ?? 0
        // On YUV frames a cell whose filter works on RGB only cannot be chosen (it is
        // refused): an arrow goes on past it, and a page turn takes the page's nearest
        // other cell (PgDn stayed on its page when the kept cell was such a filter).
        let usable = { (i: Int) in target.takesRGBOnlyFilters || Self.worksOnYUV(FilterShowcase.chain(for: ids[i]), registry: registry) }
        switch self {
        case .moveLens(let direction):
            var next = layout.moved(current, direction)
            for _ in 0..<ids.count where !usable(next) && next != current { next = layout.moved(next, direction) }
            return try choose(ids[usable(next) ? next : current], on: target)
        case .turnPage(let step):
            let kept = layout.turned(current, pages: step)
            let page = layout.indices(onPage: layout.page(of: kept))
            let nearest = page.filter(usable).min { abs($0 - kept) < abs($1 - kept) }
            return try choose(ids[nearest ?? kept], on: target)
        case .pickAt(let x, let y):
            guard let index = layout.index(atX: x, y: y, page: layout.page(of: current)) else {
                // Rounded: a click's position came out as 0.7291666666666666.
                let at = [x, y].map { NumberText.text(($0 * 100).rounded() / 100) }.joined(separator: ",")
                throw ControlError("no thumbnail at \(at) of the gallery: nothing picked")
            }
            let chosen = try choose(ids[index], on: target)
            try target.set("gallery", "false")
            return chosen + " (gallery closed)"
        default:
            return nil
        }
    }

    /// The filter as its thumbnail shows it (`FilterShowcase`) becomes the element's filter.
    private func choose(_ id: String, on target: some ControlTarget) throws -> String {
        try change(target, "filter", FilterShowcase.chain(for: id))
    }
}
