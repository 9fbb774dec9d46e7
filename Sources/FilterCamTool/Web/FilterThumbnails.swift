import FilterCore
import Foundation

/// The filter picker's pictures: the preview photo through each filter (as
/// `filtercam filters --preview` and the gallery show it), as PNG, made on first request
/// (off the web server's thread) and kept.
final class FilterThumbnails: @unchecked Sendable {
    static let width = 96, height = 72

    private let made = Locked([String: [UInt8]]())
    private let queue = DispatchQueue(label: "filtercam.thumbnails")
    private let picture: String?
    private lazy var source: PixelBuffer? = try? FilterPreview.source(picture: picture, width: Self.width, height: Self.height)

    /// `picture`: the photo; nil: GStreamer's test colours.
    init(picture: String?) {
        self.picture = picture
    }

    /// Calls `done` (on another thread) with the PNG of filter `id`, or nil for an unknown id.
    func png(for id: String, _ done: @escaping ([UInt8]?) -> Void) {
        guard FilterRegistry.shared.descriptor(id: id) != nil else { return done(nil) }
        if let png = made.withLock({ $0[id] }) { return done(png) }
        queue.async { [self] in
            let png = source.flatMap { try? FrameIO.png(try FilterPreview.filtered($0, by: id)) }
            if let png { made.withLock { $0[id] = png } }
            done(png)
        }
    }
}
