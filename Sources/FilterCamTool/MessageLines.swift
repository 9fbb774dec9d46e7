import FilterCore
import Glibc

/// Where `filtercam launch --messages[=FILE]` writes the elements' messages, one JSON line
/// each. A reader gone (a pipe whose reader ended) loses the lines, said once, without
/// failing the run (`| head -1` is a reader done, not an error); a file that cannot be
/// written (a full disk, a size limit) is said once, with the reason, and makes the exit
/// status non-zero: the lines are lost, and the user who asked for them is told. The lines
/// are written on a thread of their own (`LineWriter`): a reader that stops reading holds
/// that thread, not the session.
public final class MessageLines: @unchecked Sendable {   // the fd is only written; the rest is locked
    /// The file descriptor written to; closed when this goes if `owned`.
    private let fd: Int32
    private let owned: Bool
    /// How the output is named in the error (`'m.json'`, `stdout`).
    public let name: String
    private let failure = Locked<String?>(nil)
    private let readerGone = Locked(false)
    /// Lines queued and lines written (or lost to a reader gone, or to a failing file):
    /// the difference at the end is what a reader that stopped reading never took.
    private let queued = Locked(0)
    private let handled = Locked(0)

    public init(fd: Int32, name: String, owned: Bool) {
        self.fd = fd
        self.name = name
        self.owned = owned
    }

    deinit { if owned { close(fd) } }

    /// Whether the messages go to the same file or pipe as `other` (`2>&1`).
    public func sharesFile(with other: Int32) -> Bool {
        var mine = stat(), theirs = stat()
        return fstat(fd, &mine) == 0 && fstat(other, &theirs) == 0 && mine.st_dev == theirs.st_dev && mine.st_ino == theirs.st_ino
    }

    /// Why writing failed, the first time it did (nil while every line was written).
    public var failed: String? { failure.withLock { $0 } }

    /// Queues one line on `writer` (the session's, so it keeps its place among the
    /// terminal's lines); `say` gets the error the first time lines are lost to the file.
    public func add(_ line: String, on writer: LineWriter, sayingFailure say: @escaping @Sendable (String) -> Void) {
        queued.withLock { $0 += 1 }
        writer.add(line) { [self] line in
            let said = self.write(line)
            self.handled.withLock { $0 += 1 }
            if let said { say(said) }
        }
    }

    /// After the writer finished: how many lines were never written (the reader did not
    /// take them), which fails the run as a failed write does.
    public func unwrittenAtTheEnd() -> Int {
        let unwritten = queued.withLock { $0 } - handled.withLock { $0 }
        if unwritten > 0 {
            failure.withLock { $0 = $0 ?? "\(unwritten) line\(unwritten == 1 ? "" : "s") not written (\(name) was not read)" }
        }
        return unwritten
    }

    /// Writes one line now; returns the error to say when this is the first line lost to it.
    public func write(_ line: String) -> String? { Self.write(line, to: fd, named: name, failure: failure, readerGone: readerGone) }

    private static func write(_ line: String, to fd: Int32, named name: String, failure: Locked<String?>,
                              readerGone: Locked<Bool>) -> String? {
        // Where the line starts in a file (-1: a pipe), to take back a line cut short.
        let start = lseek(fd, 0, SEEK_CUR)
        let (written, error) = Array((line + "\n").utf8).withUnsafeBytes { WholeWrite.write($0, to: fd) }
        if let code = error {
            if code == EPIPE {   // the reader is gone: said once, lost as the rest of the output
                let first = readerGone.withLock { gone -> Bool in
                    defer { gone = true }
                    return !gone
                }
                return first ? "the reader of the messages (\(name)) has gone: the messages from here on are lost" : nil
            }
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
