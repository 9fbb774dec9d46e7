import CFaceDetectAPI
import CFilterCamShim
import FilterCore
import Glibc

/// OpenCV's face detector, loaded from its own shared library (`libfiltercamfaces.so`) on
/// the first face search. Linked into the plugin, OpenCV and what it pulls in (dnn,
/// protobuf, BLAS, TBB) cost every pipeline ~45 ms of CPU at start, faces or not.
///
/// The library is looked for beside the file holding this code (the plugin or the
/// program that links FilterCam, in a build folder), then where `make install` puts it:
/// PREFIX/lib/filtercam, found from the plugin in PREFIX/share/gstreamer-1.0/plugins or
/// the program in PREFIX/bin. Not in the plugin folder: GStreamer tries every .so there
/// as a plugin and lists this one as a blacklist entry. Loaded once per process; a
/// failure is kept and names the files tried.
struct FaceLibrary: @unchecked Sendable {   // C function pointers into a library never unloaded
    static let fileName = "libfiltercamfaces.so"

    let path: String
    let createDetector: cfd_detector_create_fn
    let freeDetector: cfd_detector_free_fn
    let detect: cfd_detect_fn
    let freeRects: cfd_rects_free_fn
    let setThreads: cfd_set_num_threads_fn

    /// The library, loading it on first use.
    static func shared() throws(FaceCascadeError) -> FaceLibrary { try loaded.get() }

    private static let loaded: Result<FaceLibrary, FaceCascadeError> = load()

    /// OpenCV's thread count (process-wide; <= 0: its default): set at once when the
    /// library is loaded, else as it loads. One lock for both, so no setting is lost.
    static var openCVThreads: Int {
        get { threads.withLock { $0.wanted } }
        set {
            threads.withLock { t in
                t.wanted = newValue
                t.library?.setThreads(Int32(clamping: newValue))
            }
        }
    }
    private static let threads = Locked<(wanted: Int, library: FaceLibrary?)>((-1, nil))

    /// Where `make install` puts it, under the installation prefix.
    static let installedFolder = "lib/filtercam"
    /// Where the plugin and the program are installed, under the prefix.
    private static let installedHomes = ["/share/gstreamer-1.0/plugins", "/bin"]

    /// Where it is looked for, in order.
    static var candidates: [String] {
        guard let own = fc_own_file_path() else { return [] }
        defer { free(own) }
        return candidates(besideFile: String(cString: own))
    }

    /// The same for code in the file at `path`.
    static func candidates(besideFile path: String) -> [String] {
        let folder = parent(path)
        var paths = [folder + "/" + fileName]
        if let home = installedHomes.first(where: { folder.hasSuffix($0) }) {
            paths.append(String(folder.dropLast(home.count)) + "/" + installedFolder + "/" + fileName)
        }
        return paths
    }

    /// The folder holding `path` (`.` for a bare file name, which dladdr can give).
    private static func parent(_ path: String) -> String {
        let folder = FilePathText.folder(of: path)
        return folder.isEmpty ? "." : folder
    }

    private static func load() -> Result<FaceLibrary, FaceCascadeError> {
        var tried: [String] = []
        for path in candidates {
            guard access(path, F_OK) == 0 else {
                // A folder on the way that may not be entered is not "not there".
                let why = errno
                tried.append("\(path): " + (why == ENOENT || why == ENOTDIR ? "not there" : String(cString: strerror(why))))
                continue
            }
            guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
                if access(path, R_OK) != 0 {
                    return .failure(failure(path: path, "cannot be read: \(String(cString: strerror(errno)))"))
                }
                // dlerror starts with the path already; OpenCV is named only when one of
                // its libraries is what is missing.
                var said = lastError()
                if said.hasPrefix(path + ": ") { said.removeFirst(path.count + 2) }
                let hint = said.contains("libopencv") ? "; it needs OpenCV (Debian: libopencv-objdetect406)" : ""
                return .failure(failure(path: path, said + hint))
            }
            func symbol<T>(_ name: String, as: T.Type) -> T? {
                dlsym(handle, name).map { unsafeBitCast($0, to: T.self) }
            }
            guard let create = symbol("cfd_detector_create", as: cfd_detector_create_fn.self),
                  let free = symbol("cfd_detector_free", as: cfd_detector_free_fn.self),
                  let detect = symbol("cfd_detect", as: cfd_detect_fn.self),
                  let freeRects = symbol("cfd_rects_free", as: cfd_rects_free_fn.self),
                  let threads = symbol("cfd_set_num_threads", as: cfd_set_num_threads_fn.self) else {
                return .failure(failure(path: path, "\(lastError()) (a library from another FilterCam build?)"))
            }
            let library = FaceLibrary(path: path, createDetector: create, freeDetector: free, detect: detect,
                                      freeRects: freeRects, setThreads: threads)
            Self.threads.withLock { t in
                t.library = library
                if t.wanted > 0 { library.setThreads(Int32(clamping: t.wanted)) }
            }
            return .success(library)
        }
        return .failure(failure(path: fileName, "not found (\(tried.joined(separator: "; "))); "
            + "build it with `swift build -c release --product filtercamfaces` (`make install` installs it in PREFIX/\(installedFolder))"))
    }

    private static func lastError() -> String {
        dlerror().map { String(cString: $0) } ?? "unknown error"
    }

    private static func failure(path: String, _ why: String) -> FaceCascadeError {
        FaceCascadeError(path: path, description: "face detector library \(path): \(why)", library: true)
    }
}
