import CGStreamer
import CFilterCamShim
import FilterCore
import FoundationEssentials
import Glibc

/// Writes encoded stills (`JPEGEncoder`) atomically: a temporary name in the same folder, then a rename, so a
/// reader never sees a half-written JPEG.
enum JPEGWriter {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Writes `data` to `path` through a temporary file in the same folder and a rename,
    /// both relative to the folder as `folders` opened it (never through a symbolic link).
    /// Nothing is left behind when it fails; the error says why, naming the path.
    static func writeAtomically(_ data: Data, to path: String, in folders: SnapshotFolders) throws {
        let name = FilePathText.lastComponent(of: path)
        let dir: Int32
        do {
            dir = try folders.descriptor(for: FilePathText.folder(of: path))
        } catch {
            throw Failure(description: "cannot write snapshot \(path): \(error)")
        }
        let temporary = ".\(name).\(getpid()).partial"
        let fd = openat(dir, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            // ENOENT on an open folder: it was removed while running (no links left), or it
            // is one that takes no new files (/proc, /sys).
            let error = errno
            var info = stat()
            let folder = FilePathText.folder(of: path)
            let reason = error != ENOENT ? String(cString: strerror(error))
                : fstat(dir, &info) == 0 && info.st_nlink == 0 ? "the folder '\(folder)' does not exist any more (removed while running)"
                : "the folder '\(folder)' takes no new files (\(String(cString: strerror(error))))"
            throw Failure(description: "cannot write snapshot \(path): \(reason)")
        }
        var failure: String? = nil
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n <= 0 {
                    failure = String(cString: strerror(n < 0 ? errno : ENOSPC))
                    return
                }
                offset += n
            }
        }
        if failure == nil && fsync(fd) != 0 { failure = String(cString: strerror(errno)) }
        close(fd)
        if failure == nil && renameat(dir, temporary, dir, name) != 0 { failure = String(cString: strerror(errno)) }
        if let failure {
            unlinkat(dir, temporary, 0)
            throw Failure(description: "cannot write snapshot \(path): \(failure)")
        }
    }
}
