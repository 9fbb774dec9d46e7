import FilterCore
import Glibc

/// Where `filtercam launch --messages[=FILE]` writes the elements' messages, one JSON line
/// each. A reader gone (a pipe whose reader ended) loses the lines quietly, as for the
/// rest of the output; a file that cannot be written (a full disk, a size limit) is said
/// once, with the reason, and makes the exit status non-zero: the lines are lost, and the
/// user who asked for them is told.
public final class MessageLines: @unchecked Sendable {   // the fd is only written; the failure is locked
    /// The file descriptor written to; closed when this goes if `owned`.
    private let fd: Int32
    private let owned: Bool
    /// How the output is named in the error (`'m.json'`, `stdout`).
    public let name: String
    private let failure = Locked<String?>(nil)

    public init(fd: Int32, name: String, owned: Bool) {
        self.fd = fd
        self.name = name
        self.owned = owned
    }

    deinit { if owned { close(fd) } }

    /// Why writing failed, the first time it did (nil while every line was written).
    public var failed: String? { failure.withLock { $0 } }

    /// Writes one line; returns the error to say when this is the first line lost to it.
    public func write(_ line: String) -> String? {
        var bytes = Array((line + "\n").utf8)
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.write(fd, $0.baseAddress! + written, $0.count - written) }
            if n > 0 { written += n; continue }
            if n < 0 && errno == EINTR { continue }
            let code = n < 0 ? errno : ENOSPC
            if code == EPIPE { return nil }   // the reader is gone: lost, as the rest of the output
            let reason = "cannot write messages to \(name): \(String(cString: strerror(code)))"
            let first = failure.withLock { held -> Bool in
                guard held == nil else { return false }
                held = reason
                return true
            }
            return first ? reason + "; the messages from here on are lost" : nil
        }
        return nil
    }
}
