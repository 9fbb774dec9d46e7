import CPangoCairo
import FilterCore
import Glibc

/// Pango and Cairo's functions (`CPangoCairo`), loaded by the first on-screen display
/// drawn or PNG look read: a pipeline that never draws text does not load them.
enum PangoCairo {
    /// The functions, or nil when the libraries cannot be loaded.
    static var functions: FcPangoCairo? { fc_pango_cairo_load(nil, 0)?.pointee }

    /// Why they cannot be loaded, naming the library (nil when they can).
    static var failure: String? {
        var error = [CChar](repeating: 0, count: 512)
        return fc_pango_cairo_load(&error, error.count) == nil ? String(cStringBuffer: error) : nil
    }

    /// The functions for the on-screen display; when they cannot be loaded, says so once
    /// on stderr (the picture goes on without the display).
    static var forDisplay: FcPangoCairo? {
        if let functions { return functions }
        if !displayFailureReported.withLock({ r in defer { r = true }; return r }) {
            let line = "filtercam: the on-screen display is not drawn: \(failure ?? "Pango and Cairo cannot be loaded")\n"
            _ = line.withCString { write(2, $0, strlen($0)) }
        }
        return nil
    }
    private static let displayFailureReported = Locked(false)
}
