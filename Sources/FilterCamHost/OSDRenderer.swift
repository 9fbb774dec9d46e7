import CPangoCairo
import FilterCore

/// Draws the on-screen display (`OnScreenDisplay.Item`s) onto a frame with Cairo, text
/// laid out by Pango: Cairo paints straight into the frame's memory (BGRx/BGRA rows are
/// Cairo's RGB24/ARGB32 on a little-endian machine). Only white, black and greys are
/// used, so RGBx/RGBA frames (red and blue swapped) look the same.
enum OSDRenderer {
    static func draw(_ items: [OnScreenDisplay.Item], on frame: FrameView) {
        guard !items.isEmpty, frame.width >= 16, frame.height >= 16 else { return }
        let hasAlpha = frame.format == .bgra || frame.format == .rgba
        guard let surface = cairo_image_surface_create_for_data(
            frame.base.assumingMemoryBound(to: UInt8.self), hasAlpha ? CAIRO_FORMAT_ARGB32 : CAIRO_FORMAT_RGB24,
            Int32(frame.width), Int32(frame.height), Int32(frame.stride)) else { return }
        defer { cairo_surface_destroy(surface) }
        guard let cr = cairo_create(surface) else { return }
        defer { cairo_destroy(cr) }
        // Text sized to the picture: 20 px at 480 lines.
        let unit = max(10, Double(min(frame.width, frame.height)) / 24)
        for item in items {
            switch item {
            case .outline(let r):
                cairo_set_line_width(cr, max(2, unit / 8))
                cairo_set_source_rgba(cr, 0, 0, 0, 0.6)
                cairo_rectangle(cr, Double(r.x) + 1.5, Double(r.y) + 1.5, Double(r.width) - 1, Double(r.height) - 1)
                cairo_stroke(cr)
                cairo_set_source_rgba(cr, 1, 1, 1, 0.95)
                cairo_rectangle(cr, Double(r.x) + 0.5, Double(r.y) + 0.5, Double(r.width) - 1, Double(r.height) - 1)
                cairo_stroke(cr)
            case .banner(let text):
                drawText([text], cr: cr, font: "Sans Bold", size: unit, frame: frame, top: unit)
            case .card(let lines):
                drawText(lines, cr: cr, font: "Monospace", size: unit * 0.7, frame: frame, top: nil)
            }
        }
        cairo_surface_flush(surface)
    }

    /// Lines in a translucent dark box, centred horizontally; at `top`, or centred.
    private static func drawText(_ lines: [String], cr: OpaquePointer, font: String, size: Double,
                                 frame: FrameView, top: Double?) {
        guard let layout = pango_cairo_create_layout(cr) else { return }
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        let description = pango_font_description_from_string(font)
        defer { pango_font_description_free(description) }
        pango_font_description_set_absolute_size(description, size * Double(PANGO_SCALE))
        pango_layout_set_font_description(layout, description)
        pango_layout_set_text(layout, lines.joined(separator: "\n"), -1)
        var w: Int32 = 0, h: Int32 = 0
        pango_layout_get_pixel_size(layout, &w, &h)
        let pad = size / 2
        let x = (Double(frame.width) - Double(w)) / 2
        let y = top ?? (Double(frame.height) - Double(h)) / 2
        cairo_set_source_rgba(cr, 0, 0, 0, 0.6)
        cairo_rectangle(cr, x - pad, y - pad / 2, Double(w) + 2 * pad, Double(h) + pad)
        cairo_fill(cr)
        cairo_set_source_rgba(cr, 1, 1, 1, 1)
        cairo_move_to(cr, x, y)
        pango_cairo_show_layout(cr, layout)
    }
}
