import CFaceDetectAPI
import FilterCore

/// A face cascade that could not be used; the description names the file (the cascade,
/// or the detector's library when `library`).
struct FaceCascadeError: Error, CustomStringConvertible {
    let path: String
    let description: String
    var library = false
}

/// OpenCV's Viola–Jones `CascadeClassifier` (through the CFaceDetect shim, a library
/// loaded with the first detector: `FaceLibrary`), loaded from one cascade file. Detection is serialized per detector (OpenCV keeps scratch state
/// in the classifier: the handle is only reached under its lock); any thread may call it.
final class FaceDetector: Sendable {
    /// Debian's opencv-data: OpenCV's stock frontal face cascade.
    static let defaultCascadePath = "/usr/share/opencv4/haarcascades/haarcascade_frontalface_default.xml"
    /// The confirming cascade (`FaceVerification`), from the same package.
    static let defaultConfirmCascadePath = "/usr/share/opencv4/haarcascades/haarcascade_frontalface_alt.xml"

    /// `detectMultiScale`'s tuning, in the pixels of the image searched. Sizes of 0: no limit.
    struct Parameters: Equatable, Sendable {
        var scaleFactor = 1.1
        var minNeighbors = 3
        var minSize = 0
        var maxSize = 0
        /// > 0: the same cascade pass also returns seed groups (`Detection.seed`): the raw
        /// windows grouped with this similarity (OpenCV's groupRectangles eps; its own
        /// grouping uses 0.2), those of more than `seedMinNeighbors` windows.
        var seedGroupEps = 0.0
        var seedMinNeighbors = 0
    }

    /// One face as OpenCV reports it, in the pixels of the image searched.
    struct Detection: Equatable, Sendable {
        var rect: PixelRect
        /// Candidate windows merged into it (OpenCV's `numDetections`): more is surer.
        var neighbors: Int
        /// A group of the seed grouping (`Parameters.seedGroupEps`), not of OpenCV's own.
        var seed = false
    }

    let cascadePath: String
    private let library: FaceLibrary
    private let handle: Locked<OpaquePointer>

    /// Loads the cascade (and the detector's library, the first time); throws
    /// `FaceCascadeError` naming the path when the file is missing, unreadable or not a
    /// cascade, or naming the library when it cannot be loaded.
    init(cascadePath: String) throws {
        self.cascadePath = cascadePath
        library = try FaceLibrary.shared()
        var error = [CChar](repeating: 0, count: 512)
        guard let h = library.createDetector(cascadePath, &error, error.count) else {
            throw FaceCascadeError(path: cascadePath, description: String(cStringBuffer: error))
        }
        handle = Locked(h)
    }

    deinit { handle.withLock { library.freeDetector($0) } }

    /// Faces in `image`, in its pixels, as OpenCV reports them.
    func detect(_ image: GreyImage, _ p: Parameters) throws -> [Detection] {
        try detect(image, in: PixelRect(x: 0, y: 0, width: image.width, height: image.height), p)
    }

    /// Faces inside `region` of `image` (no copy: OpenCV reads the region in place), in
    /// the image's pixels. `region` must lie inside the image.
    func detect(_ image: GreyImage, in region: PixelRect, _ p: Parameters) throws -> [Detection] {
        precondition(region.x >= 0 && region.y >= 0 && region.width > 0 && region.height > 0
                     && region.x + region.width <= image.width && region.y + region.height <= image.height)
        let params = CFDParams(scale_factor: p.scaleFactor, min_neighbors: Int32(clamping: p.minNeighbors),
                               min_width: Int32(clamping: p.minSize), min_height: Int32(clamping: p.minSize),
                               max_width: Int32(clamping: p.maxSize), max_height: Int32(clamping: p.maxSize),
                               seed_group_eps: p.seedGroupEps, seed_min_neighbors: Int32(clamping: p.seedMinNeighbors))
        var rects: UnsafeMutablePointer<CFDRect>?
        var error = [CChar](repeating: 0, count: 512)
        let n = image.pixels.withUnsafeBufferPointer { px in
            handle.withLock {
                library.detect($0, px.baseAddress! + region.y * image.width + region.x, Int32(region.width),
                           Int32(region.height), Int32(image.width), params, &rects, &error, error.count)
            }
        }
        guard n >= 0 else { throw FaceCascadeError(path: cascadePath, description: String(cStringBuffer: error)) }
        defer { library.freeRects(rects) }
        return (0..<Int(n)).map { i in
            let r = rects![i]
            return Detection(rect: PixelRect(x: region.x + Int(r.x), y: region.y + Int(r.y), width: Int(r.width), height: Int(r.height)),
                             neighbors: Int(r.neighbors), seed: r.seed != 0)
        }
    }

    /// OpenCV's thread count for its parallel loops (process-wide; <= 0: OpenCV's
    /// default), set now if the library is loaded, else when a detector loads it.
    static var openCVThreads: Int {
        get { FaceLibrary.openCVThreads }
        set { FaceLibrary.openCVThreads = newValue }
    }
}
