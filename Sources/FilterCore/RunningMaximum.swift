/// The largest of the last `window` values: the processing time a live element reports as
/// its latency. It follows the filter up at once (a slower filter must not make frames
/// late) and down once the slow frames have left the window. `maximum(ignoringLargest:)`
/// sets a lone outlier aside (a worker thread descheduled once on a busy machine).
public struct RunningMaximum: Sendable {
    public let window: Int
    private var values: [UInt64] = []
    private var next = 0

    public init(window: Int) {
        precondition(window > 0, "a running maximum needs a window of at least one value")
        self.window = window
    }

    public mutating func add(_ value: UInt64) {
        if values.count < window {
            values.append(value)
        } else {
            values[next] = value
        }
        next = (next + 1) % window
    }

    /// 0 before any value.
    public var maximum: UInt64 { values.max() ?? 0 }

    /// The largest value once the `outliers` largest are set aside (the maximum while the
    /// window holds no more than `outliers` values).
    public func maximum(ignoringLargest outliers: Int) -> UInt64 {
        guard values.count > outliers else { return maximum }
        return values.sorted(by: >)[outliers]
    }

    public mutating func reset() {
        values.removeAll(keepingCapacity: true)
        next = 0
    }
}

/// The latency a live element reports for work that took `maximum` ns: 25 % headroom for
/// jitter, rounded up to whole milliseconds (at least one, so a sink never waits for a
/// frame that is still in the filter).
public func reportedLatency(forProcessing maximum: UInt64) -> UInt64 {
    let padded = maximum + maximum / 4
    return max(1, (padded + 999_999) / 1_000_000) * 1_000_000
}

/// The latency to report next, when `wanted` (`reportedLatency` of the processing now) is
/// measured against `current` (what is reported); nil: keep it. It grows at once, and at
/// least by half (whole milliseconds), so a filter whose time creeps up a millisecond at a
/// time moves it a few times, not once a frame (each LATENCY message makes the pipeline
/// recompute its latency: 11-13 a 720p `sharpen` in 8 s, where a stock filter posts none);
/// it shrinks only when it would halve, by at least 2 ms.
public func nextReportedLatency(current: UInt64, wanted: UInt64) -> UInt64? {
    if wanted > current {
        let halfAgain = (current + current / 2 + 999_999) / 1_000_000 * 1_000_000
        return max(wanted, halfAgain)
    }
    return wanted < current / 2 && current - wanted >= 2_000_000 ? wanted : nil
}
