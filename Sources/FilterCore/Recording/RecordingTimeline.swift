/// Where a recorded frame goes in its file: the running time it has in the element's
/// pipeline, less the recording's origin, so the file starts at 0.
///
/// The origin is the first frame's running time, unless it was set when the recording
/// started: with sound, the recording runs as a pipeline of its own on the same clock,
/// and its microphone stamps sound with that pipeline's running time, so the origin is
/// the element's running time at which the recording pipeline's began (the difference of
/// their base times). Of the frames from before that origin (captured while the recording
/// started) the first opens the file at 0: it is the picture that was showing when the
/// recording was asked for, and a recording stopped at once still has a frame. The others
/// have no place in the file. Without sound, a frame whose running time goes back (a seek
/// in a file, a new segment) follows the last one instead: the file goes on.
public struct RecordingTimeline: Sendable, Equatable {
    /// The running time at file time 0 (negative after a jump back), once known.
    private var shift: Int64?
    /// The origin was given (the sound's clock): frames keep their places.
    private let fixed: Bool
    /// The file time of the last frame placed (-1: none yet).
    private var last: Int64 = -1
    /// The end of the last frame placed (its file time plus its duration), in ns.
    public private(set) var end: UInt64 = 0

    /// `origin`: the running time at which the file starts; nil takes the first frame's.
    public init(origin: UInt64? = nil) {
        shift = origin.map { Int64($0) }
        fixed = origin != nil
    }

    /// The file time (ns) of a frame at `runningTime` lasting `duration`, or nil when it
    /// has no place (before a given origin). A frame without a running time follows the last.
    public mutating func place(runningTime: UInt64?, duration: UInt64) -> UInt64? {
        guard let running = runningTime.map({ Int64($0) }) else { return commit(Int64(end), duration) }
        let shift = self.shift ?? running
        self.shift = shift
        var time = running - shift
        if fixed {
            if time < 0 && last < 0 { time = 0 }
            guard time >= 0, time > last else { return nil }
        } else if time <= last {
            time = Int64(end)   // went back in time: right after the last frame
            self.shift = running - time
        }
        return commit(time, duration)
    }

    private mutating func commit(_ time: Int64, _ duration: UInt64) -> UInt64 {
        last = time
        end = max(end, UInt64(time) + duration)
        return UInt64(time)
    }

    /// How long the file is so far, in seconds.
    public var seconds: Double { Double(end) / 1e9 }
}
