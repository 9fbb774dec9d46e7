import CPangoCairo
import FilterCore

/// PNG pictures read with Cairo (also the on-screen display's): what looks stored as
/// Hald CLUT pictures need, given to FilterCore as its image reader.
enum PNGPicture {
    /// The picture at `path` as 8-bit RGBA, rows packed; 16-bit PNGs come as 8 bits.
    static func read(_ path: String) throws(LookError) -> (width: Int, height: Int, rgba: [UInt8]) {
        guard let f = PangoCairo.functions else {
            throw LookError(file: path, "cannot be read: PNG pictures are read with Cairo, which cannot be loaded: \(PangoCairo.failure ?? "")")
        }
        guard let surface = f.cairo_image_surface_create_from_png(path) else {
            throw LookError(file: path, "cannot be read as a PNG picture")
        }
        defer { f.cairo_surface_destroy(surface) }
        let status = f.cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw LookError(file: path, "cannot be read as a PNG picture: \(f.cairo_status_to_string(status).map { String(cString: $0) } ?? "status \(status.rawValue)")")
        }
        let format = f.cairo_image_surface_get_format(surface)
        guard format == CAIRO_FORMAT_ARGB32 || format == CAIRO_FORMAT_RGB24, let data = f.cairo_image_surface_get_data(surface) else {
            throw LookError(file: path, "is a PNG picture without colour (grey or a mask); a Hald CLUT is RGB")
        }
        let width = Int(f.cairo_image_surface_get_width(surface)), height = Int(f.cairo_image_surface_get_height(surface))
        let stride = Int(f.cairo_image_surface_get_stride(surface))
        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            // Native-endian 0xAARRGGBB words; premultiplied, which changes nothing where opaque.
            let row = UnsafeRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<width {
                let p = row[x], o = 4 * (y * width + x)
                rgba[o] = UInt8(truncatingIfNeeded: p >> 16)
                rgba[o + 1] = UInt8(truncatingIfNeeded: p >> 8)
                rgba[o + 2] = UInt8(truncatingIfNeeded: p)
                rgba[o + 3] = format == CAIRO_FORMAT_RGB24 ? 255 : UInt8(truncatingIfNeeded: p >> 24)
            }
        }
        return (width, height, rgba)
    }
}
