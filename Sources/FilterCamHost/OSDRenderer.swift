import CPangoCairo
import FilterCore

/// Draws the on-screen display (`OnScreenDisplay.Item`s) onto a frame with Cairo, text
/// laid out by Pango: Cairo paints straight into the frame's memory (BGRx/BGRA rows are
/// Cairo's RGB24/ARGB32 on a little-endian machine). Text boxes and the lens outline are
/// white, black and grey; the recording's dot is red, drawn with red and blue swapped on
/// RGBx/RGBA frames. YUV frames go through `OSDCanvas`, which uses the same drawing.
enum OSDRenderer {
    /// Frames smaller than this on either side get no display.
    static let minimumSide = 16

    static func draw(_ items: [OnScreenDisplay.Item], on frame: FrameView) {
        guard !items.isEmpty, frame.width >= minimumSide, frame.height >= minimumSide, let f = PangoCairo.forDisplay else { return }
        let hasAlpha = frame.format == .bgra || frame.format == .rgba
        guard let surface = f.cairo_image_surface_create_for_data(
            frame.base.assumingMemoryBound(to: UInt8.self), hasAlpha ? CAIRO_FORMAT_ARGB32 : CAIRO_FORMAT_RGB24,
            Int32(frame.width), Int32(frame.height), Int32(frame.stride)) else { return }
        defer { f.cairo_surface_destroy(surface) }
        guard let cr = f.cairo_create(surface) else { return }
        defer { f.cairo_destroy(cr) }
        paint(items, f, cr: cr, width: frame.width, height: frame.height, redFirst: frame.format == .rgbx || frame.format == .rgba)
        f.cairo_surface_flush(surface)
    }

    /// Text sized to the picture: 20 px at 480 lines.
    static func unit(width: Int, height: Int) -> Double { max(10, Double(min(width, height)) / 24) }

    /// Draws `items` for a `width`×`height` picture through `cr` (whose origin may be moved);
    /// `redFirst`: the memory is RGBx/RGBA, whose bytes Cairo writes as B, G, R.
    static func paint(_ items: [OnScreenDisplay.Item], _ f: FcPangoCairo, cr: OpaquePointer, width: Int, height: Int,
                      redFirst: Bool = false) {
        let unit = unit(width: width, height: height)
        for item in items {
            switch item {
            case .outline(let r):
                f.cairo_set_line_width(cr, outlineWidth(unit))
                f.cairo_set_source_rgba(cr, 0, 0, 0, 0.6)
                f.cairo_rectangle(cr, Double(r.x) + 1.5, Double(r.y) + 1.5, Double(r.width) - 1, Double(r.height) - 1)
                f.cairo_stroke(cr)
                f.cairo_set_source_rgba(cr, 1, 1, 1, 0.95)
                f.cairo_rectangle(cr, Double(r.x) + 0.5, Double(r.y) + 0.5, Double(r.width) - 1, Double(r.height) - 1)
                f.cairo_stroke(cr)
            case .banner, .news, .card, .caption, .countdown:
                guard let text = TextBox(item, f, cr: cr, width: width, height: height) else { continue }
                f.cairo_set_source_rgba(cr, 0, 0, 0, 0.6)
                f.cairo_rectangle(cr, text.box.x, text.box.y, text.box.width, text.box.height)
                f.cairo_fill(cr)
                f.cairo_set_source_rgba(cr, 1, 1, 1, 1)
                f.cairo_move_to(cr, text.x, text.y)
                f.pango_cairo_show_layout(cr, text.layout)
            case .recording:
                guard let badge = RecordingBadge(item, f, cr: cr, width: width, height: height) else { continue }
                f.cairo_set_source_rgba(cr, 0, 0, 0, 0.6)
                f.cairo_rectangle(cr, badge.box.x, badge.box.y, badge.box.width, badge.box.height)
                f.cairo_fill(cr)
                let (red, blue) = redFirst ? (recordingRed.b, recordingRed.r) : (recordingRed.r, recordingRed.b)
                f.cairo_set_source_rgba(cr, red, recordingRed.g, blue, 1)
                f.cairo_arc(cr, badge.dot.x, badge.dot.y, badge.dot.radius, 0, 2 * Double.pi)
                f.cairo_fill(cr)
                f.cairo_set_source_rgba(cr, 1, 1, 1, 1)
                f.cairo_move_to(cr, badge.textX, badge.textY)
                f.pango_cairo_show_layout(cr, badge.layout)
            }
        }
    }

    /// The recording dot's colour (R′G′B′, 0…1), a camera's red.
    static let recordingRed = (r: 0.92, g: 0.1, b: 0.1)

    /// The pixels `item` may touch (a rectangle outline as four strips), for drawing only
    /// there: text is measured through `cr`.
    static func areas(of item: OnScreenDisplay.Item, _ f: FcPangoCairo, cr: OpaquePointer, width: Int, height: Int) -> [PixelRect] {
        switch item {
        case .outline(let r):
            // Both strokes' half width, and a pixel of antialiasing.
            return OverlayAreas.outline(r, margin: Int((outlineWidth(unit(width: width, height: height)) / 2).rounded(.up)) + 1)
        case .banner, .news, .card, .caption, .countdown:
            guard let text = TextBox(item, f, cr: cr, width: width, height: height) else { return [] }
            return [text.bounds]
        case .recording:
            guard let badge = RecordingBadge(item, f, cr: cr, width: width, height: height) else { return [] }
            return [badge.bounds]
        }
    }

    private static func outlineWidth(_ unit: Double) -> Double { max(2, unit / 8) }

    /// A banner's, card's, caption's or countdown's lines laid out: in a translucent dark
    /// box, centred horizontally; a banner at the top, the card and the countdown's large
    /// digit centred, a caption at the foot of its rectangle (shortened with an ellipsis to
    /// its width).
    private struct TextBox {
        /// The Pango layout (a GObject), given back with the box.
        private let ownedLayout: GstOwned<GObject>
        var layout: OpaquePointer { OpaquePointer(ownedLayout.pointer) }
        let x: Double, y: Double
        let box: (x: Double, y: Double, width: Double, height: Double)
        /// The box and the glyphs' ink, rounded out to whole pixels.
        let bounds: PixelRect

        init?(_ item: OnScreenDisplay.Item, _ f: FcPangoCairo, cr: OpaquePointer, width: Int, height: Int) {
            let unit = OSDRenderer.unit(width: width, height: height)
            var area = (x: 0.0, width: Double(width)), bottom: Double?
            let (lines, font, naturalSize, top): ([String], String, Double, Double?) = switch item {
            case .banner(let text), .news(let text): ([text], "Sans Bold", unit, unit)
            case .card(let lines): (lines, "Monospace", unit * 0.7, nil)
            case .caption(let text, _, let size): ([text], "Sans Bold", size, nil)
            case .countdown(let left): (["\(left)"], "Sans Bold", Double(min(width, height)) * 0.3, nil)
            case .outline, .recording: ([], "", 0, nil)
            }
            if case .caption(_, let rect, _) = item {
                area = (Double(rect.x), Double(rect.width))
                bottom = Double(rect.y + rect.height)
            }
            guard !lines.isEmpty, let layout = f.pango_cairo_create_layout(cr) else { return nil }
            let description = f.pango_font_description_from_string(font)
            defer { f.pango_font_description_free(description) }
            f.pango_font_description_set_absolute_size(description, naturalSize * Double(PANGO_SCALE))
            f.pango_layout_set_font_description(layout, description)
            f.pango_layout_set_text(layout, lines.joined(separator: "\n"), -1)
            var size = naturalSize
            if case .card = item {
                // The card fits the picture whole (a small window, a 160×120 stream): smaller
                // type rather than keys cut off. Its box is the text and a pad of half the size
                // around it; hinted type grows in steps, hence rounds of at least 5 % less.
                for _ in 0..<16 where size > 3 {
                    var natural = PangoRectangle()
                    f.pango_layout_get_pixel_extents(layout, nil, &natural)
                    let fit = min(Double(width) / (Double(natural.width) + size), Double(height) / (Double(natural.height) + size / 2))
                    guard fit < 1 else { break }
                    size *= min(fit * 0.97, 0.95)
                    f.pango_font_description_set_absolute_size(description, size * Double(PANGO_SCALE))
                    f.pango_layout_set_font_description(layout, description)
                }
            }
            let pad = size / 2
            if bottom != nil {
                let room = max(1, area.width - 2 * pad)
                // A title a little too wide for its thumbnail is drawn smaller (down to 70 %)
                // before it is cut short: "Temperature and Tint" whole rather than "Temperature an…".
                var natural = PangoRectangle()
                f.pango_layout_get_pixel_extents(layout, nil, &natural)
                if Double(natural.width) > room {
                    let smaller = size * max(0.7, room / Double(natural.width))
                    f.pango_font_description_set_absolute_size(description, smaller * Double(PANGO_SCALE))
                    f.pango_layout_set_font_description(layout, description)
                }
                f.pango_layout_set_width(layout, Int32(room * Double(PANGO_SCALE)))
                f.pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
            }
            var ink = PangoRectangle(), logical = PangoRectangle()
            f.pango_layout_get_pixel_extents(layout, &ink, &logical)
            // With a width set, a line is placed at the left of it (logical.x 0): centred here.
            let w = Double(logical.width), h = Double(logical.height)
            ownedLayout = GstOwned(UnsafeMutablePointer<GObject>(layout))
            x = area.x + (area.width - w) / 2 - Double(logical.x)
            // A caption stands a pad above its rectangle's foot, clear of an outline around it.
            y = bottom.map { $0 - h - pad * 1.5 } ?? top ?? (Double(height) - h) / 2
            box = (x + Double(logical.x) - pad, y - pad / 2, w + 2 * pad, h + pad)
            let x0 = min(box.x, x + Double(ink.x)).rounded(.down), y0 = min(box.y, y + Double(ink.y)).rounded(.down)
            let x1 = max(box.x + box.width, x + Double(ink.x + ink.width)).rounded(.up)
            let y1 = max(box.y + box.height, y + Double(ink.y + ink.height)).rounded(.up)
            bounds = PixelRect(x: Int(x0) - 1, y: Int(y0) - 1, width: Int(x1 - x0) + 2, height: Int(y1 - y0) + 2)
        }
    }

    /// The recording's badge laid out, top left: in a translucent dark box, a red dot and
    /// the length so far (m:ss).
    private struct RecordingBadge {
        /// The Pango layout (a GObject), given back with the box.
        private let ownedLayout: GstOwned<GObject>
        var layout: OpaquePointer { OpaquePointer(ownedLayout.pointer) }
        let textX: Double, textY: Double
        let dot: (x: Double, y: Double, radius: Double)
        let box: (x: Double, y: Double, width: Double, height: Double)
        /// The box, rounded out to whole pixels (the dot and the text lie inside it).
        let bounds: PixelRect

        init?(_ item: OnScreenDisplay.Item, _ f: FcPangoCairo, cr: OpaquePointer, width: Int, height: Int) {
            guard case .recording(let seconds) = item, let layout = f.pango_cairo_create_layout(cr) else { return nil }
            let size = OSDRenderer.unit(width: width, height: height) * 0.8
            let description = f.pango_font_description_from_string("Sans Bold")
            defer { f.pango_font_description_free(description) }
            f.pango_font_description_set_absolute_size(description, size * Double(PANGO_SCALE))
            f.pango_layout_set_font_description(layout, description)
            f.pango_layout_set_text(layout, RecordingReport.clock(Double(seconds)), -1)
            var ink = PangoRectangle(), logical = PangoRectangle()
            f.pango_layout_get_pixel_extents(layout, &ink, &logical)
            let pad = size / 2, radius = size * 0.4
            let x = pad, y = pad   // the box's corner, a margin from the picture's
            let h = max(Double(logical.height), 2 * radius) + pad
            ownedLayout = GstOwned(UnsafeMutablePointer<GObject>(layout))
            box = (x, y, pad + 2 * radius + pad / 2 + Double(logical.width) + pad, h)
            dot = (x + pad + radius, y + h / 2, radius)
            textX = x + pad + 2 * radius + pad / 2
            textY = y + (h - Double(logical.height)) / 2
            bounds = PixelRect(x: Int(box.x.rounded(.down)) - 1, y: Int(box.y.rounded(.down)) - 1,
                               width: Int(box.width.rounded(.up)) + 3, height: Int(box.height.rounded(.up)) + 3)
        }
    }
}

/// The on-screen display on YUV frames: the items are drawn with `OSDRenderer`'s Cairo
/// calls into ARGB32 scratch covering only the areas they touch (disjoint rectangles on
/// the chroma grid, `OverlayAreas`), then blended into the planes (`YUVFrame.blend`).
/// The scratch memory is kept between frames and grows only when an area needs more.
/// One per element, used on its worker thread only.
final class OSDCanvas {
    private final class Scratch {
        let f: FcPangoCairo
        var memory: UnsafeMutableRawPointer?
        var capacity = 0
        var surface: OpaquePointer?
        var size = (width: 0, height: 0)

        init(_ f: FcPangoCairo) { self.f = f }

        /// A cleared `width`×`height` ARGB32 surface over this scratch memory.
        func surface(width: Int, height: Int) -> (OpaquePointer, stride: Int)? {
            let stride = Int(f.cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, Int32(width)))
            if surface == nil || size != (width, height) {
                if let surface { f.cairo_surface_destroy(surface) }
                surface = nil
                if stride * height > capacity {
                    memory?.deallocate()
                    capacity = stride * height
                    memory = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
                }
                surface = f.cairo_image_surface_create_for_data(memory!.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32,
                                                              Int32(width), Int32(height), Int32(stride))
                size = (width, height)
            }
            guard let surface, f.cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else { return nil }
            f.cairo_surface_flush(surface)
            memory!.initializeMemory(as: UInt8.self, repeating: 0, count: stride * height)
            f.cairo_surface_mark_dirty(surface)
            return (surface, stride)
        }

        deinit {
            if let surface { f.cairo_surface_destroy(surface) }
            memory?.deallocate()
        }
    }

    private var scratch: [Scratch] = []
    /// A 1×1 surface to measure text on, made with the first display drawn (Pango and
    /// Cairo are loaded then, not when the element is made), with the functions.
    private var measure: (f: FcPangoCairo, surface: OpaquePointer, cr: OpaquePointer)?

    deinit {
        if let measure {
            measure.f.cairo_destroy(measure.cr)
            measure.f.cairo_surface_destroy(measure.surface)
        }
    }

    func draw(_ items: [OnScreenDisplay.Item], on frame: YUVFrame) {
        guard !items.isEmpty, frame.width >= OSDRenderer.minimumSide, frame.height >= OSDRenderer.minimumSide else { return }
        if measure == nil, let f = PangoCairo.forDisplay, let surface = f.cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1) {
            measure = (f, surface, f.cairo_create(surface)!)
        }
        guard let (f, _, measuringContext) = measure else { return }
        let touched = items.map { OSDRenderer.areas(of: $0, f, cr: measuringContext, width: frame.width, height: frame.height) }
        let areas = OverlayAreas.disjoint(touched.flatMap { $0 }, width: frame.width, height: frame.height)
        while scratch.count < areas.count { scratch.append(Scratch(f)) }
        for (area, scratch) in zip(areas, scratch) {
            // Only the items that reach this area are drawn into it.
            let here = zip(items, touched).filter { _, rects in rects.contains { OverlayAreas.overlap($0, area) } }.map(\.0)
            guard !here.isEmpty, let (surface, stride) = scratch.surface(width: area.width, height: area.height),
                  let cr = f.cairo_create(surface) else { continue }
            f.cairo_translate(cr, Double(-area.x), Double(-area.y))
            OSDRenderer.paint(here, f, cr: cr, width: frame.width, height: frame.height)

            f.cairo_destroy(cr)
            f.cairo_surface_flush(surface)
            frame.blend(ARGBOverlay(pixels: scratch.memory!, width: area.width, height: area.height, stride: stride),
                        x: area.x, y: area.y)
        }
    }
}
