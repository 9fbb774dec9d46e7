import CGStreamer
import CFilterCamShim
import FilterCore
import FoundationEssentials
import Glibc
import Synchronization

/// Writes encoded stills (`JPEGEncoder`) atomically: a temporary name in the same folder, then a rename, so a
/// reader never sees a half-written JPEG.
enum JPEGWriter {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The name was taken while the still was written (another element with the same
    /// `snapshot-location`, another program): nothing was overwritten.
    struct NameTaken: Error, CustomStringConvertible {
        let path: String
        var description: String { "cannot write snapshot \(path): \(String(cString: strerror(EEXIST)))" }
    }

    /// Temporary names are the process's and this number's: two elements writing the same
    /// name at once each have their own (the second one's open failed, "File exists").
    private static let sequence = Atomic<Int>(0)

    /// Removes the temporary files of stills a process ended before finishing (SIGKILL, a
    /// power cut: hidden `.NAME.PID.N.partial` files of megabytes stayed for good), when a
    /// folder is first opened for stills: those whose process is gone. Never another
    /// program's files: only names of this pattern, with a PID no process has.
    static func removeLeftovers(in dir: Int32) {
        let copy = dup(dir)
        guard copy >= 0, let listing = fdopendir(copy) else { return }
        defer { closedir(listing) }
        while let entry = readdir(listing) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name.hasPrefix("."), name.hasSuffix(".partial") else { continue }
            let parts = name.dropLast(".partial".count).split(separator: ".")
            guard parts.count >= 3, let pid = Int32(parts[parts.count - 2]), UInt64(parts[parts.count - 1]) != nil, pid > 0,
                  pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            unlinkat(dir, name, 0)
        }
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
        // The still's name in the temporary one says whose it is; a name near the file
        // system's 255-byte limit leaves no room for the rest, and goes without it (a
        // 246-byte still failed "File name too long", a name its folder takes).
        let unique = ".\(getpid()).\(sequence.add(1, ordering: .relaxed).newValue).partial"
        let temporary = name.utf8.count + unique.utf8.count + 1 <= 255 ? ".\(name)\(unique)" : ".filtercam-still\(unique)"
        let fd = openat(dir, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            // ENOENT on an open folder: it was removed while running (no links left), or it
            // is one that takes no new files (/proc, /sys).
            let error = errno
            var info = stat()
            let written = FilePathText.folder(of: path)
            let folder = written.isEmpty ? "." : written   // a bare name: the working folder
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
        // A link, not a rename: a rename replaces a file that took the name meanwhile (two
        // elements chose the same free number at once: one still replaced the other, both
        // said saved). Where links are not made (some file systems), a rename.
        var taken = false
        if failure == nil && linkat(dir, temporary, dir, name, 0) != 0 {
            let error = errno
            if error == EEXIST {
                taken = true
            } else if renameat(dir, temporary, dir, name) != 0 {
                failure = String(cString: strerror(errno))
            }
        }
        unlinkat(dir, temporary, 0)   // the still is under its name now (or failed)
        if taken { throw NameTaken(path: path) }
        if let failure { throw Failure(description: "cannot write snapshot \(path): \(failure)") }
    }
}
