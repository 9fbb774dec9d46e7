import FilterCore
import Glibc

/// Where `filtercam launch --messages[=FILE]` writes the elements' messages, one JSON line
/// each. A reader gone (a pipe whose reader ended) loses the lines quietly, as for the
/// rest of the output; a file that cannot be written (a full disk, a size limit) is said
/// once, with the reason, and makes the exit status non-zero: the lines are lost, and the
/// user who asked for them is told. The lines are written on a thread of their own
/// (`LineWriter`): a reader that stops reading holds that thread, not the session.
public final class MessageLines: @unchecked Sendable {   // the fd is only written; the rest is locked
    /// The file descriptor written to; closed when this goes if `owned`.
    private let fd: Int32
    private let owned: Bool
    /// How the output is named in the error (`'m.json'`, `stdout`).
    public let name: String
    private let failure = Locked<String?>(nil)
    /// Who is told the first time lines are lost (the session's terminal).
    private let sayFailure = Locked<(@Sendable (String) -> Void)?>(nil)
    private var writer: LineWriter!

    public init(fd: Int32, name: String, owned: Bool) {
        self.fd = fd
        self.name = name
        self.owned = owned
        writer = LineWriter(name: "filtercam messages") { [fd, name, failure, sayFailure] line in
            guard let said = Self.write(line, to: fd, named: name, failure: failure) else { return }
            sayFailure.withLock { $0 }?(said)
        }
    }

    deinit { if owned { close(fd) } }

    /// Why writing failed, the first time it did (nil while every line was written).
    public var failed: String? { failure.withLock { $0 } }

    /// Queues one line; `say` gets the error the first time lines are lost to the file.
    public func add(_ line: String, sayingFailure say: @escaping @Sendable (String) -> Void) {
        sayFailure.withLock { $0 = say }
        writer.add(line)
    }

    /// Writes what is queued (see `LineWriter.finish`); returns how many lines were not
    /// written, which fails the run as a failed write does.
    public func finish() -> Int {
        let unwritten = writer.finish()
        if unwritten > 0 {
            failure.withLock { $0 = $0 ?? "\(unwritten) line\(unwritten == 1 ? "" : "s") not written (\(name) was not read)" }
        }
        return unwritten
    }

    /// Writes one line now; returns the error to say when this is the first line lost to it.
    public func write(_ line: String) -> String? { Self.write(line, to: fd, named: name, failure: failure) }

    private static func write(_ line: String, to fd: Int32, named name: String, failure: Locked<String?>) -> String? {
        var bytes = Array((line + "\n").utf8)
        var written = 0
        // Where the line starts in a file (-1: a pipe), to take back a line cut short.
        let start = lseek(fd, 0, SEEK_CUR)
        while written < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.write(fd, $0.baseAddress! + written, $0.count - written) }
            if n > 0 { written += n; continue }
            if n < 0 && errno == EINTR { continue }
            let code = n < 0 ? errno : ENOSPC
            if code == EPIPE { return nil }   // the reader is gone: lost, as the rest of the output
            // A full disk cut the line: the file ends with the last whole one (a reader of JSON
            // lines found half an object, `{"…","path":"/tm`).
            if written > 0 && start >= 0 && ftruncate(fd, start) == 0 { _ = lseek(fd, start, SEEK_SET) }
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
