import FilterCore
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The folders stills go into, opened once per run (when the run starts, or at the first
/// still of a location set later) and kept open: stills are written relative to the folder
/// as it was then, so a folder renamed or replaced by a symbolic link while running is not
/// looked up again for each still. A folder removed while running is looked up again: one
/// made again by that name is used, as recordings use it (stills said it did not exist any
/// more while the new folder was there). The `kept` folders used last stay open; an older one is
/// closed (and opened again if it is used again): an application that files stills in a
/// folder per day or per event held one descriptor per folder until the process had none.
final class SnapshotFolders: Sendable {
    /// Folders kept open at most.
    static let kept = 8

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The open folders, the one used last at the end.
    private let opened = Locked([(folder: String, fd: Int32)]())

    /// The open folder `folder` ("" is the working folder); opens it the first time. Only
    /// the files' thread writes through a descriptor, asking for each still's folder here
    /// first, and the folder closed to make room is the one used longest ago: never the
    /// one a still is being written into.
    func descriptor(for folder: String) throws -> Int32 {
        let folder = folder.isEmpty ? "." : folder
        return try opened.withLock { open in
            var removed = false
            if let i = open.firstIndex(where: { $0.folder == folder }) {
                let entry = open.remove(at: i)
                var info = stat()
                if fstat(entry.fd, &info) == 0 && info.st_nlink == 0 {
                    close(entry.fd)   // removed while running: looked up again below
                    removed = true
                } else {
                    open.append(entry)
                    return entry.fd
                }
            }
            let fd = Glibc.open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard fd >= 0 else {
                let error = errno
                var info = stat()
                let inTheWay = error == ENOTDIR ? Self.fileInTheWay(of: folder) : nil
                let problem = error == ENOTDIR && stat(folder, &info) == 0 ? "'\(folder)' is not a folder"
                    : inTheWay.map { "'\($0)' is a file, not a folder: '\(folder)' cannot be under it" }
                    ?? (removed && error == ENOENT ? "the folder '\(folder)' does not exist any more (removed while running)"
                    : error == ENOENT || error == ENOTDIR ? "the folder '\(folder)' does not exist"
                    : "the folder '\(folder)' cannot be opened: \(String(cString: strerror(error)))")
                throw Failure(description: problem)
            }
            if open.count >= Self.kept { close(open.removeFirst().fd) }
            open.append((folder, fd))
            JPEGWriter.removeLeftovers(in: fd)
            return fd
        }
    }

    /// Opens the folder of `path` now if it can (a failure is reported by the first still).
    func prepare(forPath path: String) {
        _ = try? descriptor(for: FilePathText.folder(of: path))
    }

    func closeAll() {
        opened.withLock { open in
            open.forEach { close($0.fd) }
            open = []
        }
    }

    deinit { closeAll() }

    /// The first leading part of `path` that is there and is not a folder (`afile` of
    /// `afile/sub`: open(2) says only ENOTDIR, said as "does not exist").
    static func fileInTheWay(of path: String) -> String? {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for part in path.split(separator: "/") {
            prefix += (prefix.isEmpty || prefix.hasSuffix("/") ? "" : "/") + part
            var info = stat()
            guard stat(prefix, &info) == 0 else { return nil }
            if (info.st_mode & S_IFMT) != S_IFDIR { return prefix }
        }
        return nil
    }
}
