import FilterCore

/// What an abort (a second Ctrl-C, Ctrl-\) leaves to say when the process must end before
/// the pipeline's stop does (an element's streaming thread stuck, x264enc flushing a long
/// look-ahead): the summary and each file written so far, said unfinished. Worked out as
/// the abort begins, said at most once between it and the end of the session's run.
public struct AbortReport: Sendable {
    let lines: [String]
    let said: Locked<Bool>

    /// Says the lines on stderr unless the session has said its own; whether they were said.
    public func sayUnlessSaid() -> Bool {
        guard said.setFirst() else { return false }
        for line in lines { TypedLine.standardError.print(line) }
        return true
    }
}
