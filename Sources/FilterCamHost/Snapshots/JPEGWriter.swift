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

    /// What marks a temporary still's name as FilterCam's: `.NAME.filtercam-PID-N.partial`.
    private static let temporaryMark = "filtercam"

    /// Removes the temporary files of stills a process ended before finishing (SIGKILL, a
    /// power cut: hidden files of megabytes stayed for good), when a folder is first opened
    /// for stills. Only FilterCam's names (`.NAME.filtercam-PID-N.partial`), older than a
    /// minute, that no process holds locked (a writer locks its file: this holds across PID
    /// namespaces, where a PID says nothing) and whose PID is not a process here.
    static func removeLeftovers(in dir: Int32) {
        let copy = dup(dir)
        guard copy >= 0, let listing = fdopendir(copy) else {
            if copy >= 0 { close(copy) }
            return
        }
        defer { closedir(listing) }
        while let entry = readdir(listing) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name.hasPrefix("."), name.hasSuffix(".partial"),
                  let mark = name.dropLast(".partial".count).split(separator: ".").last else { continue }
            let parts = mark.split(separator: "-")
            guard parts.count == 3, parts[0] == temporaryMark, let pid = Int32(parts[1]), UInt64(parts[2]) != nil, pid > 0,
                  pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            let fd = openat(dir, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
            guard fd >= 0 else { continue }
            defer { close(fd) }
            var info = stat()
            guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG,
                  time(nil) - info.st_mtim.tv_sec > 60, flock(fd, LOCK_EX | LOCK_NB) == 0 else { continue }
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
        let unique = ".\(Self.temporaryMark)-\(getpid())-\(sequence.add(1, ordering: .relaxed).newValue).partial"
        let temporary = name.utf8.count + unique.utf8.count + 1 <= 255 ? ".\(name)\(unique)" : ".filtercam-still\(unique)"
        let fd = openat(dir, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        // Locked while written: another run's clean-up takes only files nobody holds (see
        // `removeLeftovers`); the lock goes with the process, whatever ends it.
        if fd >= 0 { _ = flock(fd, LOCK_EX) }
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
        var failure = data.withUnsafeBytes { WholeWrite.write($0, to: fd) }.error.map { String(cString: strerror($0)) }
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
