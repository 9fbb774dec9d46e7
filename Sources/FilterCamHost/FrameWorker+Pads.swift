import CGStreamer
import CFilterCamShim
import FilterCore
import Synchronization

/// The inner pair's pads: the probes and appsink callbacks that hand frames and
/// serialized events to the worker (through the mailbox), handle flushes, and pass
/// upstream events and queries back past the gap.
extension FrameWorker {
    private var unretained: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    private static func from(_ p: UnsafeMutableRawPointer?) -> FrameWorker {
        Unmanaged<FrameWorker>.fromOpaque(p!).takeUnretainedValue()
    }

    /// Hands a frame that reached the appsink to the worker (streaming thread).
    private func receive(buffer: GstOwned<GstBuffer>, caps: GstOwned<GstCaps>, segmentEvent: GstOwned<GstEvent>) {
        if liveState.load(ordering: .relaxed) == 0 { detectLiveness() }
        let live = receivingLive
        syncControlledProperties(buffer: buffer, segmentEvent: segmentEvent)
        let frame = ReceivedFrame(buffer: buffer, caps: caps, segmentEvent: segmentEvent, live: live,
                                  taskMaker: stage?.taskMaker())
        refreshSinkOffset()
        let duration = frame.duration ?? interval(before: frame)
        let burst = burstSize(frameDuration: duration)
        let wait = live ? timeWaitingFramesStayOnTime(arriving: frame, duration: duration) : nil
        if let dropped = mailbox.put(frame: frame, live: live, burst: burst, waitAtMost: wait).dropped {
            reportDropped(dropped, reason: "\(max(burst, mailbox.maxWaitingFrames)) newer ones were waiting for the filter")
        }
    }

    /// Controlled properties (GstController) take their values at the frame's stream time
    /// as it arrives, before its settings are copied, as a stock filter's do before its
    /// transform.
    private func syncControlledProperties(buffer: GstOwned<GstBuffer>, segmentEvent: GstOwned<GstEvent>) {
        let pts = fc_buffer_pts(buffer.pointer)
        var segment: UnsafePointer<GstSegment>?
        gst_event_parse_segment(segmentEvent.pointer, &segment)
        // A segment in bytes or buffers (an application's appsrc by default) has no stream
        // time; asking for one was a GStreamer-CRITICAL per frame.
        guard pts != GstClockTime.max, let segment, segment.pointee.format == GST_FORMAT_TIME else { return }
        let streamTime = gst_segment_to_stream_time(segment, GST_FORMAT_TIME, pts)
        if streamTime != GstClockTime.max { gst_object_sync_values(element.asObject, streamTime) }
    }

    /// The frames that may wait here and still be on time: as many as fit in the latency
    /// upstream announced (a jitter buffer releasing what a network stall held, a source
    /// batching captures) or in the pipeline's (the LATENCY event: a syncing sink holds each
    /// frame that long, so behind an audio branch's 250 ms, a sink's processing deadline or
    /// at 240 fps the frames of that time are in flight, and wait here while it holds the
    /// one before), plus one. identity delivers them all; a bound of 3 dropped 10 of 114
    /// frames in 4-frame bursts behind 200 ms, and 42 of 90 on-time frames behind an audio
    /// branch. At most 16 frames wait, whatever the latency.
    private func burstSize(frameDuration: UInt64?) -> Int {
        guard let frameDuration, frameDuration > 0 else { return 0 }
        let settled = renderDelay
        let latency = max(upstreamLatency.load(ordering: .relaxed), settled == UInt64.max ? 0 : settled)
        return Int(min(latency / frameDuration + 1, 16))
    }

    /// The sinks' `ts-offset` read again every 100 ms, as frames come: playbin's
    /// `av-offset` is changed while playing, and no LATENCY event says so.
    private func refreshSinkOffset() {
        let now = Int64(MonotonicClock.nanoseconds)
        let last = sinkOffsetRead.load(ordering: .relaxed)
        guard now - last > 100_000_000, sinkOffsetRead.compareExchange(expected: last, desired: now, ordering: .relaxed).exchanged,
              pipelineLatency.load(ordering: .relaxed) != UInt64.max else { return }
        sinkOffset.store(Int64(fc_downstream_sink_ts_offset(element)), ordering: .relaxed)
    }

    /// A frame's duration when it carries none: the gap since the one before (an RTP
    /// depayloader's frames have only a PTS), so the bound above still knows how many
    /// frames fit in the latency.
    private func interval(before frame: ReceivedFrame) -> UInt64? {
        guard let time = frame.runningTime else { return nil }
        let last = lastArrival.exchange(time, ordering: .relaxed)
        if last != UInt64.max, time > last { arrivalInterval.store(time - last, ordering: .relaxed) }
        let gap = arrivalInterval.load(ordering: .relaxed)
        return gap > 0 ? gap : nil
    }

    /// How long a full mailbox may hold upstream (seconds; nil: not at all, the oldest
    /// frame goes at once). While the frames waiting are on time (the sink holds each until
    /// its render time, the pipeline's latency after its running time, and even the oldest,
    /// processed after those ahead of it, reaches the sink before then or within the sink's
    /// tolerance after it, as the worker judges lateness), downstream, not the filter, is
    /// what they wait for, and a full mailbox waits for room, as `identity` or `queue` hold
    /// upstream, instead of dropping frames that are on time: behind a jitter buffer's 2 s
    /// (rtspsrc's default) or an application's pipeline latency of a second, 2–7 frames a
    /// second of 30 reached the sink. It waits no longer than the oldest stays on time: a
    /// stalled branch (an appsink nobody pulls) held the camera, and every other branch of
    /// its tee, for good; now once, until its frames are late, and they go from then on.
    private func timeWaitingFramesStayOnTime(arriving frame: ReceivedFrame, duration: UInt64?) -> Double? {
        // Before the pipeline's LATENCY event (a jitter buffer's first burst can come
        // first), upstream's latency: the pipeline's is never less.
        let settled = renderDelay
        var latency = settled != UInt64.max ? settled : upstreamLatency.load(ordering: .relaxed)
        // A pipeline latency of 0 (a live appsrc announcing none, or no syncing sink): late
        // as the worker judges it there, a frame's duration beyond upstream's latency. A
        // burst of on-time frames from such a source lost 4-6 of its 10 frames.
        if latency == 0, let duration { latency = upstreamLatency.load(ordering: .relaxed) &+ duration }
        guard let runningTime = frame.runningTime, let duration, latency != UInt64.max, latency > 0,
              let clock = GstOwned(gst_element_get_clock(element)) else { return nil }
        let now = Int64(bitPattern: UInt64(gst_clock_get_time(clock.pointer)) &- UInt64(gst_element_get_base_time(element)))
        let waiting = Int64(mailbox.framesWaiting)
        let processing = Int64(addedLatency.load(ordering: .relaxed))
        // Late is past the render time by more than the sink's tolerance. The oldest waiting
        // frame (about `waiting` frames before this one) is filtered next; this one after
        // all of them (a filter slower than the frames makes the newest late first).
        let render = Int64(bitPattern: runningTime &+ latency), tolerance = Int64(Self.sinkTolerance)
        let oldestRender = render - waiting * Int64(duration)
        let slack = min(oldestRender + tolerance - now - processing, render + tolerance - now - (waiting + 1) * processing)
        guard slack > 0 else { return nil }
        // Frames stamped ahead of the clock (a source's lead, a timestamp jump forward) stay
        // on time that much longer, and identity holds upstream all that time: capped at the
        // latency, a 300 ms lead dropped 15 of 60 frames the sink would have shown.
        return Double(slack) / 1e9
    }

    func installCallbacks() {
        // Frames are taken at the appsink's pad: appsink 1.22 keeps the last pulled
        // buffer in its reused sample object, so a pulled frame always had a second
        // reference and every in-place filter paid a full copy (measured: 3-4 ms per
        // 640x480 frame instead of 0.3). The appsink still ends the stream (its EOS
        // callback) and takes buffer lists through `new_sample`.
        gst_pad_add_probe(sinkPad, GST_PAD_PROBE_TYPE_BUFFER, { pad, info, data in
            let me = FrameWorker.from(data)
            guard let buffer = fc_probe_info_buffer(info), let caps = GstOwned(gst_pad_get_current_caps(pad)),
                  let segment = GstOwned(gst_pad_get_sticky_event(pad, GST_EVENT_SEGMENT, 0)) else {
                return GST_PAD_PROBE_OK
            }
            // HANDLED hands the pad's reference to this probe, and the worker gets it: no
            // other is left. (With DROP the pad let go only after `receive`; a worker that
            // got there first found the buffer shared and copied the whole frame before
            // filtering it in place.)
            me.receive(buffer: GstOwned(buffer), caps: caps, segmentEvent: segment)
            return GST_PAD_PROBE_HANDLED
        }, unretained, nil)

        var callbacks = GstAppSinkCallbacks()
        callbacks.new_sample = { sink, data in
            let me = FrameWorker.from(data)
            guard let pulled = GstOwnedSample(gst_app_sink_pull_sample(sink)) else { return GST_FLOW_FLUSHING }
            // appsink reuses its sample object, so the mailbox gets the parts.
            guard let buffer = pulled.buffer, let caps = pulled.caps, let segment = pulled.segment else { return GST_FLOW_OK }
            me.receive(buffer: GstOwned(retaining: buffer), caps: GstOwned(retaining: caps),
                       segmentEvent: GstOwned(gst_event_new_segment(segment)!))
            return GST_FLOW_OK
        }
        callbacks.eos = { _, data in
            FrameWorker.from(data).mailbox.put(.endOfStream)
        }
        // appsink keeps every serialized event (caps, segment, tag, …) in its queue until a
        // sample is pulled past it, and a caps event twice (its own copy too); frames never
        // enter that queue (the probe above takes them), so each stayed for good: ~1.5 kB a
        // caps change, without end. The queue is emptied as each comes (false: appsink
        // still handles the event as a sink does). A buffer list's sample is pulled by
        // `new_sample` as it comes, so only events are here.
        callbacks.new_event = { sink, _ in
            while let object = gst_app_sink_try_pull_object(sink, 0) { gst_mini_object_unref(object) }
            return 0
        }
        gst_app_sink_set_callbacks(appsink.asAppSink, &callbacks, unretained, nil)

        // Serialized events in stream order, and flushes, as they reach the appsink.
        gst_pad_add_probe(sinkPad, GstPadProbeType(rawValue: GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM.rawValue | GST_PAD_PROBE_TYPE_EVENT_FLUSH.rawValue), { pad, info, data in
            let me = FrameWorker.from(data)
            guard let pad, let event = fc_probe_info_event(info) else { return GST_PAD_PROBE_OK }
            switch event.pointee.type {
            case GST_EVENT_FLUSH_START:
                me.mailbox.setFlushing(true)
                me.callOffDrains()
                me.relay.stopWaiting()
                let copy = gst_event_new_flush_start()!
                gst_event_set_seqnum(copy, gst_event_get_seqnum(event))
                gst_element_send_event(me.appsrc, copy)
            case GST_EVENT_FLUSH_STOP:
                var reset: gboolean = 1
                gst_event_parse_flush_stop(event, &reset)
                let copy = gst_event_new_flush_stop(reset)!
                gst_event_set_seqnum(copy, gst_event_get_seqnum(event))
                me.pushLock.withLock { _ in _ = gst_element_send_event(me.appsrc, copy) }
                me.earliestTime.store(UInt64.max, ordering: .relaxed)
                me.liveState.store(0, ordering: .relaxed)
                me.stage?.streamFlushed()
                me.mailbox.setFlushing(false)
            case GST_EVENT_TAG, GST_EVENT_CUSTOM_DOWNSTREAM, GST_EVENT_SEGMENT_DONE, GST_EVENT_GAP, GST_EVENT_STREAM_START,
                 GST_EVENT_STREAM_GROUP_DONE, GST_EVENT_TOC, GST_EVENT_CUSTOM_DOWNSTREAM_STICKY, GST_EVENT_SINK_MESSAGE,
                 GST_EVENT_PROTECTION, GST_EVENT_STREAM_COLLECTION, GST_EVENT_CUSTOM_BOTH:
                me.mailbox.put(.event(HandedEvent(event: GstOwned(retaining: event),
                                                  segmentEvent: GstOwned(gst_pad_get_sticky_event(pad, GST_EVENT_SEGMENT, 0)))))
            case GST_EVENT_EOS:
                me.upstreamEOSSeqnum.store(gst_event_get_seqnum(event), ordering: .relaxed)
                // An EOS with no STREAM_START before it (an application's first event): none
                // will come for the appsrc's own to wait for (it held the EOS 2 s).
                if let started = gst_pad_get_sticky_event(pad, GST_EVENT_STREAM_START, 0) {
                    gst_event_unref(started)
                } else {
                    me.relay.stopWaiting()
                }
            case GST_EVENT_INSTANT_RATE_CHANGE, GST_EVENT_CUSTOM_DOWNSTREAM_OOB, GST_EVENT_CUSTOM_BOTH_OOB:
                // Out of band, as through identity: straight out of the element's src pad
                // (an instant-rate seek reaches the sinks; the appsink would keep it).
                me.pushOutOfBand(event)
                return GST_PAD_PROBE_DROP
            default:
                break
            }
            return GST_PAD_PROBE_OK
        }, unretained, nil)

        // Caps queries from upstream: a format we cannot take is named by this element
        // (otherwise the source only says "not-negotiated"). A DRAIN waits for the frames
        // before it (FrameWorker+Drain).
        gst_pad_add_probe(sinkPad, GST_PAD_PROBE_TYPE_QUERY_DOWNSTREAM, { _, info, data in
            let me = FrameWorker.from(data)
            guard let query = fc_probe_info_query(info) else { return GST_PAD_PROBE_OK }
            var offered: UnsafeMutablePointer<GstCaps>?
            switch query.pointee.type {
            case GST_QUERY_CAPS: gst_query_parse_caps(query, &offered)            // what upstream could send
            case GST_QUERY_ACCEPT_CAPS:   // what it will send
                // Asked of a bin's ghost pad, upstream's answer can wait for good: playsink
                // holds a lock of its own while it sends the caps (a player's video-sink
                // starting with the element, a 4:2:2 or 10-bit file, hung in preroll). There
                // the refusal is left to the bin's negotiation (playsink converts).
                guard !me.upstreamIsABin else { return GST_PAD_PROBE_OK }
                gst_query_parse_accept_caps(query, &offered)
            case GST_QUERY_DRAIN: return me.drain(query) ? GST_PAD_PROBE_HANDLED : GST_PAD_PROBE_DROP
            default: return GST_PAD_PROBE_OK
            }
            if let offered {
                // Interlacing is found when the caps arrive (`adopt`): the query allows any mode.
                let accepted = me.acceptedCaps
                if let problem = FormatProblem(offered: offered, accepted: accepted.pointer), problem != .interlaced,
                   !me.upstreamCanOffer(accepted.pointer) {
                    me.refuse(problem)
                }
            }
            return GST_PAD_PROBE_OK
        }, unretained, nil)

        // Frames leaving the element (what `frames-processed` counts), with DISCONT as the
        // worker decided (`markContinuity`).
        gst_pad_add_probe(srcPad, GST_PAD_PROBE_TYPE_BUFFER, { pad, info, data in
            let me = FrameWorker.from(data)
            if let pad { me.relay.beforeFrame(on: pad) }
            fc_probe_info_keep_continuous(info)
            me.leftCount.add(1, ordering: .relaxed)
            return GST_PAD_PROBE_OK
        }, unretained, nil)

        // STREAM_START and SEGMENT leave as upstream sent them (`StreamEventRelay`).
        gst_pad_add_probe(srcPad, GstPadProbeType(rawValue: GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM.rawValue | GST_PAD_PROBE_TYPE_EVENT_FLUSH.rawValue), { pad, info, data in
            guard let pad, let info, let event = fc_probe_info_event(info) else { return GST_PAD_PROBE_OK }
            let me = FrameWorker.from(data)
            if me.takeDrainMarker(event) { return GST_PAD_PROBE_DROP }
            switch me.relay.handle(event, on: pad) {
            case .pass: return GST_PAD_PROBE_OK
            case .taken: return GST_PAD_PROBE_HANDLED
            case .drop: return GST_PAD_PROBE_DROP
            case .replaced(let replacement):
                info.pointee.data = UnsafeMutableRawPointer(replacement)
                return GST_PAD_PROBE_OK
            }
        }, unretained, nil)

        // Navigation, QoS and latency from downstream go upstream past the gap (seeks and
        // the events the worker has no part in go straight up: `filter_element.c`).
        gst_pad_add_probe(srcPad, GST_PAD_PROBE_TYPE_EVENT_UPSTREAM, { _, info, data in
            let me = FrameWorker.from(data)
            guard let event = fc_probe_info_event(info) else { return GST_PAD_PROBE_OK }
            // HANDLED: the probe owns the event, and pushing it on hands that reference over.
            // The element's src pad returns what upstream said (`fc_note_upstream_event_result`).
            switch event.pointee.type {
            case GST_EVENT_LATENCY:
                // Upstream elements get it too, as through any other element.
                me.notePipelineLatency(event)
                fc_note_upstream_event_result(gst_pad_push_event(me.sinkPad, event))
                return GST_PAD_PROBE_HANDLED
            case GST_EVENT_NAVIGATION:
                let handled = GstOwned(event)
                if me.stage?.navigate(event) == true {
                    fc_note_upstream_event_result(1)
                    return GST_PAD_PROBE_HANDLED
                }
                fc_note_upstream_event_result(gst_pad_push_event(me.sinkPad, me.mappedNavigation(event) ?? handled.take()))
                return GST_PAD_PROBE_HANDLED
            case GST_EVENT_QOS:
                me.noteQoS(event)
                fc_note_upstream_event_result(gst_pad_push_event(me.sinkPad, event))
                return GST_PAD_PROBE_HANDLED
            default:
                return GST_PAD_PROBE_OK
            }
        }, unretained, nil)

        // Latency: upstream's plus what the worker adds.
        gst_pad_add_probe(srcPad, GST_PAD_PROBE_TYPE_QUERY_UPSTREAM, { _, info, data in
            let me = FrameWorker.from(data)
            guard let query = fc_probe_info_query(info), query.pointee.type == GST_QUERY_LATENCY else {
                return GST_PAD_PROBE_OK
            }
            return me.answerLatency(query) ? GST_PAD_PROBE_HANDLED : GST_PAD_PROBE_OK
        }, unretained, nil)
    }

    /// Sends an out-of-band event on downstream from the element's own src pad.
    private func pushOutOfBand(_ event: UnsafeMutablePointer<GstEvent>) {
        guard let pad = GstOwned(gst_element_get_static_pad(element, "src")) else { return }
        gst_pad_push_event(pad.pointer, gst_event_ref(event))
    }

    /// A new navigation event with pointer coordinates mapped from output to input (nil:
    /// nothing to map).
    private func mappedNavigation(_ event: UnsafeMutablePointer<GstEvent>) -> UnsafeMutablePointer<GstEvent>? {
        guard let stage, let original = gst_event_get_structure(event),
              let structure = gst_structure_copy(original) else { return nil }
        var x = 0.0, y = 0.0
        if gst_structure_get_double(structure, "pointer_x", &x) != 0,
           gst_structure_get_double(structure, "pointer_y", &y) != 0 {
            let (nx, ny) = stage.mapPointerToInput(x: x, y: y)
            var v = GValue()
            g_value_init(&v, fc_type_double())
            g_value_set_double(&v, nx)
            gst_structure_set_value(structure, "pointer_x", &v)
            g_value_set_double(&v, ny)
            gst_structure_set_value(structure, "pointer_y", &v)
            g_value_unset(&v)
        }
        return gst_event_new_navigation(structure)
    }
}
