import FilterCore
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The folders stills go into, opened once per run (when the run starts, or at the first
/// still of a location set later) and kept open: stills are written relative to the folder
/// as it was then, so a folder renamed or replaced by a symbolic link while running is not
/// looked up again for each still.
final class SnapshotFolders: Sendable {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private let opened = Locked([String: Int32]())

    /// The open folder `folder` ("" is the working folder); opens it the first time.
    func descriptor(for folder: String) throws -> Int32 {
        let folder = folder.isEmpty ? "." : folder
        return try opened.withLock { open in
            if let fd = open[folder] { return fd }
            let fd = Glibc.open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard fd >= 0 else {
                let error = errno
                var info = stat()
                let problem = error == ENOTDIR && stat(folder, &info) == 0 ? "'\(folder)' is not a folder"
                    : error == ENOENT || error == ENOTDIR ? "the folder '\(folder)' does not exist"
                    : "the folder '\(folder)' cannot be opened: \(String(cString: strerror(error)))"
                throw Failure(description: problem)
            }
            open[folder] = fd
            return fd
        }
    }

    /// Opens the folder of `path` now if it can (a failure is reported by the first still).
    func prepare(forPath path: String) {
        _ = try? descriptor(for: FilePathText.folder(of: path))
    }

    func closeAll() {
        opened.withLock { open in
            open.values.forEach { close($0) }
            open = [:]
        }
    }

    deinit { closeAll() }
}
