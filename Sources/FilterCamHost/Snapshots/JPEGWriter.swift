import CGStreamer
import CFilterCamShim
import FilterCore
import Foundation

/// Writes encoded stills (`JPEGEncoder`) atomically: a temporary name in the same folder, then a rename, so a
/// reader never sees a half-written JPEG.
enum JPEGWriter {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Writes `data` to `path` through a temporary file in the same folder and a rename.
    /// Nothing is left behind when it fails; the error says why, naming the path.
    static func writeAtomically(_ data: Data, to path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        let dir = folder.isEmpty ? "." : folder
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDir), isDir.boolValue else {
            throw Failure(description: "cannot write snapshot \(path): folder '\(dir)' does not exist")
        }
        let temporary = (dir as NSString).appendingPathComponent(".\((path as NSString).lastPathComponent).\(getpid()).partial")
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard fd >= 0 else {
            throw Failure(description: "cannot write snapshot \(path): \(String(cString: strerror(errno)))")
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
        if failure == nil && rename(temporary, path) != 0 { failure = String(cString: strerror(errno)) }
        if let failure {
            unlink(temporary)
            throw Failure(description: "cannot write snapshot \(path): \(failure)")
        }
    }
}
