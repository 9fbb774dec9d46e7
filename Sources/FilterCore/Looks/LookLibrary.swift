#if canImport(Glibc)
import Glibc
#endif

/// Reads looks from files once: `.cube` text (`CubeFile`) and Hald CLUT pictures
/// (`HaldImage`, PNG, read by the host's image reader). The last few looks read stay, by
/// path; a file is read again only when its modification time or size changes, so setting
/// the same look again costs one `stat`.
public enum LookLibrary {
    /// Larger than any look: a 65³ `.cube` is about 9 MB.
    static let largestFile = 64 << 20
    static let keptLooks = 8

    /// Reads a PNG picture as 8-bit RGBA, rows packed. FilterCore reads no picture formats
    /// itself: the host that shows frames provides one (`FilterCamPlugin`: Cairo's).
    public typealias ImageReader = @Sendable (_ path: String) throws(LookError) -> (width: Int, height: Int, rgba: [UInt8])

    private static let imageReader = Locked<ImageReader?>(nil)

    public static func setImageReader(_ reader: @escaping ImageReader) {
        imageReader.withLock { $0 = reader }
    }

    private struct Stamp: Equatable {
        let modified: Int
        let size: Int
    }

    private struct Kept {
        let path: String
        let stamp: Stamp
        let look: ColorLookup
    }

    /// Most recently read first.
    private static let cache = Locked<[Kept]>([])

    /// The look in the file at `path`, read (and checked) unless it is read already and
    /// unchanged.
    public static func load(_ path: String) throws(LookError) -> ColorLookup {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw LookError(file: path, "cannot be read: \(String(cString: strerror(errno)))")
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw LookError(file: path, "is not a regular file (a folder, a device or a pipe); a look is a .cube file or a Hald CLUT .png")
        }
        guard Int(info.st_size) <= largestFile else {
            throw LookError(file: path, "is \(Int(info.st_size) >> 20) MB; look files are at most \(largestFile >> 20) MB (a 65³ .cube is about 9 MB)")
        }
        let stamp = Stamp(modified: Int(info.st_mtim.tv_sec) &* 1_000_000_000 &+ Int(info.st_mtim.tv_nsec), size: Int(info.st_size))
        if let kept = cache.withLock({ $0.first { $0.path == path && $0.stamp == stamp } }) {
            remember(kept)
            return kept.look
        }
        let look = try read(path)
        remember(Kept(path: path, stamp: stamp, look: look))
        return look
    }

    /// The look in `.cube` text already in memory; `file` names it in messages.
    public static func parse(cube bytes: [UInt8], file: String) throws(LookError) -> ColorLookup {
        try CubeFile.parse(bytes, file: file)
    }

    /// The look last read from `path`, without touching the file (for a frame's thread,
    /// after `load` checked it where it was set).
    public static func loaded(_ path: String) -> ColorLookup? {
        cache.withLock { $0.first { $0.path == path }?.look }
    }

    private static func remember(_ kept: Kept) {
        cache.withLock { list in
            list.removeAll { $0.path == kept.path }
            list.insert(kept, at: 0)
            if list.count > keptLooks { list.removeLast(list.count - keptLooks) }
        }
    }

    private static func read(_ path: String) throws(LookError) -> ColorLookup {
        let bytes = try contents(of: path)
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            guard let reader = imageReader.withLock({ $0 }) else {
                throw LookError(file: path, "is a PNG picture, and this program has no PNG reader; use a .cube file")
            }
            let image = try reader(path)
            return try HaldImage.lookup(width: image.width, height: image.height, rgba: image.rgba, file: path)
        }
        if let kind = pictureKind(bytes) {
            throw LookError(file: path, "is a \(kind) picture; Hald CLUTs are read from PNG (save it as PNG, without loss), other looks from .cube files")
        }
        // Named as a picture but not one: what the user meant is a Hald CLUT, not .cube text.
        if path.lowercased().hasSuffix(".png") {
            throw LookError(file: path, "is named .png but is not a PNG picture (it lacks PNG's signature): a Hald CLUT must be a PNG file")
        }
        return try CubeFile.parse(bytes, file: path)
    }

    /// The kind of a picture file other than PNG, from its first bytes (nil: not one).
    static func pictureKind(_ bytes: [UInt8]) -> String? {
        let signatures: [([UInt8], String)] = [
            ([0xFF, 0xD8, 0xFF], "JPEG"), ([0x49, 0x49, 0x2A, 0x00], "TIFF"), ([0x4D, 0x4D, 0x00, 0x2A], "TIFF"),
            (Array("GIF8".utf8), "GIF"), (Array("BM".utf8), "BMP"),
        ]
        if let match = signatures.first(where: { bytes.starts(with: $0.0) }) { return match.1 }
        if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) { return "WebP" }
        return nil
    }

    private static func contents(of path: String) throws(LookError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw LookError(file: path, "cannot be read: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw LookError(file: path, "cannot be read: \(String(cString: strerror(errno)))")
            }
            if n == 0 { return bytes }
            bytes += chunk[0..<n]
            if bytes.count > largestFile {
                throw LookError(file: path, "is larger than \(largestFile >> 20) MB; look files are at most that")
            }
        }
    }
}
