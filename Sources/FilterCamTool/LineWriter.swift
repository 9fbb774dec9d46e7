import FilterCore
import Foundation

/// Lines written in order on a thread of their own, so a reader that stops reading blocks
/// only this thread. The session's loop wrote its messages and terminal lines itself: a
/// `--messages` FIFO or a pipe nobody read (a wrapper busy elsewhere) held the loop in
/// `write` once the 64 KiB pipe was full, and with it the commands, the bus (memory
/// grew) and the signals: SIGTERM, two Ctrl-C and Ctrl-\\ were all ignored until the
/// reader read again.
///
/// What waits is bounded (`maximumWaiting` bytes): past it lines are dropped and counted,
/// and `finish` says how many, rather than memory growing for as long as the reader sleeps.
public final class LineWriter: @unchecked Sendable {   // the state is only reached under its lock
    public static let maximumWaiting = 16 << 20

    /// A line and how it is written (to the terminal, to the messages' file).
    public typealias Write = @Sendable (String) -> Void

    private struct Waiting {
        var lines: [(text: String, write: Write)] = []
        var bytes = 0
        var dropped = 0
        /// A line is being written (taken off `lines`, not yet done).
        var writing = false
        var closed = false
        /// Lines written so far, and how many had been when a `finish` last gave up waiting:
        /// while none more is written, a later `finish` does not wait again (the end's
        /// lines each waited their 3 s for a reader that had stopped).
        var written = 0
        var gaveUpAt: Int?
    }

    private let waiting = Locked(Waiting())

    /// One thread, named `name`, writes every line in the order added, whatever it goes
    /// to: the messages on stdout and the terminal's lines on stderr stay in the order they
    /// were said (`2>&1` showed a still's "saved" before its JSON).
    public init(name: String) {
        let thread = Thread { [waiting] in
            while let line = waiting.wait(until: { !$0.lines.isEmpty || $0.closed }, then: { w -> (text: String, write: Write)? in
                guard !w.lines.isEmpty else { return nil }
                w.writing = true
                w.bytes -= w.lines[0].text.utf8.count
                return w.lines.removeFirst()
            }) ?? nil {
                line.write(line.text)
                waiting.withLockAndWake { w in
                    w.writing = false
                    w.written += 1
                }
            }
        }
        thread.name = name
        thread.start()
    }

    deinit { waiting.withLockAndWake { $0.closed = true } }

    /// Queues `line`, written by `write`; never waits for the reader.
    public func add(_ line: String, _ write: @escaping Write) {
        waiting.withLockAndWake { w in
            guard w.bytes + line.utf8.count <= Self.maximumWaiting else { return w.dropped += 1 }
            w.bytes += line.utf8.count
            w.lines.append((line, write))
        }
    }

    /// Waits until every line queued so far is written, for as long as the reader takes
    /// them (`stall` seconds without one line written ends the wait); returns how many lines
    /// were not written: dropped while the queue was full, and still waiting.
    @discardableResult
    public func finish(stall: Double = 3) -> Int {
        var left = waiting.withLock { w in w.gaveUpAt == w.written ? 0 : w.lines.count + (w.writing ? 1 : 0) }
        while left > 0 {
            let now = waiting.wait(until: { $0.lines.count + ($0.writing ? 1 : 0) < left }, timeout: stall) {
                $0.lines.count + ($0.writing ? 1 : 0)
            }
            guard let now else {
                waiting.withLock { $0.gaveUpAt = $0.written }
                break
            }
            left = now
        }
        return waiting.withLock { $0.dropped + $0.lines.count + ($0.writing ? 1 : 0) }
    }
}
