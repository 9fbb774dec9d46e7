import CGStreamer
import CFilterCamShim
import FilterCore
import Synchronization

/// Live streams: whether upstream is live, which frames are late (the sink cannot get
/// them in time, or QoS says so) and how they are reported, and the latency the worker adds.
extension FrameWorker {
    /// Whether upstream is live, as the streaming thread last found it.
    var receivingLive: Bool { liveState.load(ordering: .relaxed) == 1 }

    /// Frames a video sink still shows when they come this late (basesink's default
    /// `max-lateness` for video sinks): a frame is given up only past it.
    static let sinkTolerance: UInt64 = 20_000_000

    /// How long after its running time a syncing sink renders a frame: the pipeline's
    /// latency plus the sinks' `ts-offset` (playbin's `av-offset`, an A/V-sync tweak), which
    /// the latency leaves out; frames held that much longer were taken for late (a
    /// `ts-offset` of 500 ms let 31 of 150 frames through). UInt64.max: no latency yet.
    var renderDelay: UInt64 {
        let latency = pipelineLatency.load(ordering: .relaxed)
        guard latency != UInt64.max, latency > 0 else { return latency }
        let delay = Int64(latency) + sinkOffset.load(ordering: .relaxed)
        return delay > 0 ? UInt64(delay) : 1
    }

    /// Whether a live frame, processed now, would come to the sink after its render time
    /// (running time plus the pipeline latency) and the sink's tolerance. Where no sink
    /// syncs to the clock (latency 0: an encoder into a file, an appsink) nothing has a
    /// render time; there a frame is late once it has waited a frame's duration more than
    /// upstream's latency, so a slow consumer does not make latency grow by what waits.
    /// Unknown clock, latency or timestamp: not late.
    func cannotReachSinkInTime(_ frame: ReceivedFrame, stream: StreamState) -> Bool {
        var latency = renderDelay
        if latency == 0, let duration = frame.duration { latency = upstreamLatency.load(ordering: .relaxed) + duration }
        guard let runningTime = frame.runningTime, latency != UInt64.max, latency > 0,
              let clock = GstOwned(gst_element_get_clock(element)) else { return false }
        let clockTime = UInt64(gst_clock_get_time(clock.pointer))
        let baseTime = UInt64(gst_element_get_base_time(element))
        guard clockTime >= baseTime else { return false }
        let finished = clockTime - baseTime + stream.recentProcessing.maximum(ignoringLargest: 1)
        return finished > runningTime + latency + Self.sinkTolerance
    }

    /// How far the clock is past `frame`'s render time (negative: before it); nil when the
    /// clock, its running time or the latency is not known.
    func lateness(of frame: ReceivedFrame) -> Int64? {
        let latency = renderDelay
        guard let runningTime = frame.runningTime, latency != UInt64.max,
              let clock = GstOwned(gst_element_get_clock(element)) else { return nil }
        let now = Int64(bitPattern: UInt64(gst_clock_get_time(clock.pointer)) &- UInt64(gst_element_get_base_time(element)))
        return now &- Int64(bitPattern: runningTime &+ latency)
    }

    /// QoS: whether the sink has already declared this frame late (GstBaseTransform's
    /// rule: running time at or before the earliest time it asked for). A late frame is
    /// skipped, counted in `frames-dropped` and reported in a QoS message.
    func isLate(_ timestamp: UInt64, duration: GstClockTime, segment: UnsafeMutablePointer<GstSegment>) -> Bool {
        let earliest = earliestTime.load(ordering: .relaxed)
        guard earliest != UInt64.max, segment.pointee.format == GST_FORMAT_TIME else { return false }
        let runningTime = gst_segment_to_running_time(segment, GST_FORMAT_TIME, guint64(timestamp))
        guard runningTime != GstClockTime.max, UInt64(runningTime) <= earliest else { return false }
        qosDropped.add(1, ordering: .relaxed)
        postQoS(live: false, pts: GstClockTime(timestamp), duration: duration, segment: segment,
                jitter: Int64(bitPattern: earliest) &- Int64(bitPattern: UInt64(runningTime)),   // as GstBaseTransform: positive, late
                proportion: Double(bitPattern: qosProportion.load(ordering: .relaxed)))
        log.debug(element, "QoS: skipping late frame at running time \(runningTime) (earliest \(earliest))")
        return true
    }

    /// The reported latency follows the running maximum of the measured processing time.
    /// It grows at once (a LATENCY message makes the pipeline redistribute it) by at least
    /// half, and shrinks only when it would halve, so a jittery filter does not send a
    /// message per frame (`nextReportedLatency`).
    func noteProcessingTime(_ ns: UInt64, stream: inout StreamState) {
        stream.recentProcessing.add(ns)
        log.log(element, "frame took \(ns / 1_000) µs")
        guard stream.isLive else { return }
        let current = addedLatency.load(ordering: .relaxed)
        // One frame a second may be descheduled on a busy two-core machine (seen: 8 ms for a
        // 0.3 ms filter); it is set aside, a filter slow twice in 30 frames is not.
        let wanted = reportedLatency(forProcessing: stream.recentProcessing.maximum(ignoringLargest: 1))
        guard let next = nextReportedLatency(current: current, wanted: wanted) else { return }
        addedLatency.store(next, ordering: .relaxed)
        log.info(element, "latency \(current / 1_000) µs -> \(next / 1_000) µs (processing took up to \(stream.recentProcessing.maximum / 1_000) µs, one outlier set aside)")
        gst_element_post_message(element, gst_message_new_latency(element.asObject))
    }

    /// A live frame dropped before processing is reported like a QoS drop (a QoS message
    /// with live=true, as live sources and decoders post), and logged.
    /// Its jitter is how far the clock is past the frame's render time (running time
    /// plus the pipeline's latency) as it is dropped, as a sink's QoS says how late a
    /// frame came (it was always 0: an application could not tell how late).
    func reportDropped(_ frame: ReceivedFrame, reason: String) {
        let pts = fc_buffer_pts(frame.buffer.pointer)
        var segment = frame.segment
        postQoS(live: true, pts: pts, duration: fc_buffer_duration(frame.buffer.pointer), segment: &segment,
                jitter: lateness(of: frame), proportion: 1)
        log.debug(element, "dropped the frame at \(pts) ns: \(reason)")
    }

    /// A QoS message for a frame this element dropped, with the running counts (as
    /// GstBaseTransform posts them); `jitter` is how late it was, when known.
    private func postQoS(live: Bool, pts: GstClockTime, duration: GstClockTime, segment: UnsafePointer<GstSegment>,
                         jitter: Int64?, proportion: Double) {
        let timed = segment.pointee.format == GST_FORMAT_TIME
        let runningTime = timed ? gst_segment_to_running_time(segment, GST_FORMAT_TIME, pts) : GstClockTime.max
        let streamTime = timed ? gst_segment_to_stream_time(segment, GST_FORMAT_TIME, pts) : GstClockTime.max
        let message = gst_message_new_qos(element.asObject, live ? 1 : 0, runningTime, streamTime, pts, duration)!
        if let jitter { gst_message_set_qos_values(message, gint64(jitter), proportion, 1_000_000) }
        gst_message_set_qos_stats(message, GST_FORMAT_BUFFERS, guint64(framesProcessed), guint64(framesDropped))
        gst_element_post_message(element, message)
    }

    /// A latency query upstream tells whether the source is live (drop) or not (wait).
    func detectLiveness() {
        let query = GstOwned(gst_query_new_latency()!)
        var live: gboolean = 0
        if gst_pad_peer_query(sinkPad, query.pointer) != 0 {
            var minLatency: GstClockTime = 0, maxLatency: GstClockTime = 0
            gst_query_parse_latency(query.pointer, &live, &minLatency, &maxLatency)
            upstreamLatency.store(minLatency == GstClockTime.max ? 0 : UInt64(minLatency), ordering: .relaxed)
        }
        liveState.store(live != 0 ? 1 : 2, ordering: .relaxed)
        log.info(element, live != 0 ? "upstream is live: late frames are dropped, newest first" : "upstream is not live: every frame is processed")
    }

    /// The LATENCY event: what the pipeline settled on; frames later than it are late at
    /// the sink.
    func notePipelineLatency(_ event: UnsafeMutablePointer<GstEvent>) {
        var latency: GstClockTime = 0
        gst_event_parse_latency(event, &latency)
        sinkOffset.store(Int64(fc_downstream_sink_ts_offset(element)), ordering: .relaxed)
        pipelineLatency.store(UInt64(latency), ordering: .relaxed)
    }

    /// A QoS event from downstream: the earliest running time it still wants (see `isLate`).
    func noteQoS(_ event: UnsafeMutablePointer<GstEvent>) {
        var type = GST_QOS_TYPE_UNDERFLOW
        var proportion = 0.0, diff: GstClockTimeDiff = 0, timestamp: GstClockTime = 0
        gst_event_parse_qos(event, &type, &proportion, &diff, &timestamp)
        if timestamp != GstClockTime.max {
            let earliest = diff > 0 ? UInt64(timestamp) &+ UInt64(diff) : UInt64(timestamp) &- UInt64(-diff)
            earliestTime.store(earliest, ordering: .relaxed)
            qosProportion.store(proportion.bitPattern, ordering: .relaxed)
        }
    }

    /// Answers a latency query: upstream's latency plus what the worker adds. False when
    /// upstream did not answer (the query goes on as usual).
    func answerLatency(_ query: UnsafeMutablePointer<GstQuery>) -> Bool {
        guard gst_pad_peer_query(sinkPad, query) != 0 else { return false }
        var live: gboolean = 0
        var minLatency: GstClockTime = 0, maxLatency: GstClockTime = 0
        gst_query_parse_latency(query, &live, &minLatency, &maxLatency)
        let ours = GstClockTime(addedLatency.load(ordering: .relaxed))
        gst_query_set_latency(query, live, minLatency + ours,
                              maxLatency == GstClockTime.max ? maxLatency : maxLatency + ours)
        return true
    }
}
