import CGStreamer
import CFilterCamShim
import FilterCore
import FoundationEssentials

/// What the worker thread alone knows and holds during one run. The worker makes it when
/// its thread starts and ends it when the thread ends, so no other thread can reach it.
struct WorkerRun {
    /// What the worker knows of the stream (see `StreamState`).
    var stream = StreamState()
    /// Where rendered frames are written (FrameWorker+Render).
    var outputPool = OutputBufferPool()
    /// Whether a frame went out since the start.
    var pushedSinceStart = false
    /// Whether the appsrc was given output caps before the first frame (for events that
    /// downstream needs before any frame: a GAP to preroll on, an EOS).
    var capsAnnounced = false
    /// Events that came before the first frame went out.
    var heldEvents: [FrameWorker.HandedEvent] = []
    /// Frames dropped (every cause) when the last frame went out.
    var droppedAtLastPush: UInt64 = 0

    /// Lets go of what the run holds.
    mutating func end() {
        heldEvents.removeAll()
        stream.reset()
        outputPool.release()
    }
}

/// The worker thread: takes each frame and event from the mailbox in stream order, drops
/// frames that are late, asks the element for each frame's task, runs it and pushes the
/// result into the appsrc.
extension FrameWorker {
    /// The worker thread: takes frames and events in stream order until the mailbox closes.
    func workerLoop() {
        var run = WorkerRun()
        defer { run.end() }
        while let (item, generation) = mailbox.next() {
            switch item {
            case .frame(let frame):
                run.stream.isLive = frame.live
                if frame.live && mailbox.framesWaiting > 0 && cannotReachSinkInTime(frame, stream: run.stream) {
                    lateDropped.add(1, ordering: .relaxed)
                    reportDropped(frame, reason: "it could no longer reach the sink in time and a newer one waits")
                    continue
                }
                process(frame, generation: generation, run: &run)
            case .event(let handed):
                let event = handed.event.pointer
                if event.pointee.type == GST_EVENT_STREAM_START {
                    // A new stream: what its predecessor's tags said no longer holds (as
                    // videoflip). Upstream's STREAM_START replaces the appsrc's own; a later
                    // one follows the frames before it (a marker in the appsrc's queue).
                    run.stream.startNewStream()
                    if let marker = relay.streamStarts(handed.event, midStream: run.pushedSinceStart) {
                        gst_element_send_event(appsrc, marker)
                    }
                    continue
                }
                // A drain before any frame went out has nothing to wait for (held with the
                // events below, it waited for a frame its own query kept from coming).
                if !run.pushedSinceStart && takeDrainMarker(event) { continue }
                if event.pointee.type == GST_EVENT_TAG {
                    var list: UnsafeMutablePointer<GstTagList>?
                    gst_event_parse_tag(event, &list)
                    if let list { run.stream.observe(list) }
                }
                // Before the first frame the appsrc has no caps yet; events sent now would
                // overtake them (sticky-event misordering), so they wait for that frame. A GAP
                // cannot wait (a stream starting with one never prerolled): the appsrc is
                // given the output caps for upstream's now, and what waited goes out before
                // it. (Not for a tag: the caps made then would not know an orientation tag
                // it brings, and the first frame's would change them at once.)
                if run.pushedSinceStart {
                    send(handed)
                } else if event.pointee.type == GST_EVENT_GAP && announceCaps(&run) {
                    sendHeldEvents(&run)   // events go straight in from now on
                    send(handed)
                } else {
                    run.heldEvents.append(handed)
                }
            case .endOfStream:
                if !run.pushedSinceStart { _ = announceCaps(&run) }   // a stream without frames still gets its caps
                sendHeldEvents(&run)
                stage?.endOfStream()
                // As an event in the appsrc's queue, not gst_app_src_end_of_stream: that one leaves
                // the appsrc EOS for good (only a seek on the appsrc itself clears it), so a
                // flushing seek after EOS would play nothing.
                let eos = gst_event_new_eos()!
                let seqnum = upstreamEOSSeqnum.load(ordering: .relaxed)
                if seqnum != 0 { gst_event_set_seqnum(eos, seqnum) }   // upstream's, as through identity
                gst_element_send_event(appsrc, eos)
            }
        }
    }

    /// Before the first frame: the appsrc gets the output caps for upstream's caps now (once);
    /// false when there are none (no caps yet, or none this element can give).
    private func announceCaps(_ run: inout WorkerRun) -> Bool {
        if run.capsAnnounced { return true }
        guard let input = GstOwned(gst_pad_get_current_caps(sinkPad)),
              let output = GstOwned(fc_filter_output_caps(element, input.pointer)) else { return false }
        gst_app_src_set_caps(appsrc.asAppSrc, output.pointer)
        run.capsAnnounced = true
        return true
    }

    /// Into the appsrc's queue, after the frames before it; downstream gets the segment it
    /// came under first.
    private func send(_ handed: HandedEvent) {
        if let segment = handed.segmentEvent {
            relay.remember(upstream: segment)
            if StreamEventRelay.needsOwnSegment(handed.event.pointer.pointee.type) { relay.remember(segment, for: handed.event.pointer) }
        }
        gst_element_send_event(appsrc, handed.event.take())
    }

    private func sendHeldEvents(_ run: inout WorkerRun) {
        run.pushedSinceStart = true
        for e in run.heldEvents { send(e) }
        run.heldEvents.removeAll()
    }

    private func process(_ frame: ReceivedFrame, generation: Int, run: inout WorkerRun) {
        // Drops so far are of frames before this one; those made while it is processed,
        // of frames after it: they mark the next frame pushed, not this one.
        let droppedBefore = framesDropped
        guard adopt(caps: frame.caps.pointer, stream: &run.stream), let shape = run.stream.inputShape else { return }
        let started = MonotonicClock.nanoseconds
        if run.stream.lastWorkStart > 0 { run.stream.workPeriod = started - run.stream.lastWorkStart }
        run.stream.lastWorkStart = started
        // A buffer shorter than its caps say (an application's appsrc): dropped with a
        // warning, as GstVideoFilter says "invalid video buffer received"; it went out
        // unfiltered, or as a frame of zeros, without a word.
        guard fc_buffer_fits_video_info(frame.buffer.pointer, &run.stream.inputInfo) != 0 else {
            let name = GStreamer.name(of: element)
            fc_post_warning(element, "\(name): invalid video buffer received: \(gst_buffer_get_size(frame.buffer.pointer)) bytes, where its caps "
                            + "(\(GStreamer.describe(frame.caps.pointer))) need \(run.stream.inputInfo.size): dropped", nil)
            return
        }
        // The frame holds the only reference, so an in-place job writes without a copy.
        var buffer = frame.buffer
        var segment = frame.segment

        var timestamp: UInt64? = nil
        let pts = fc_buffer_pts(buffer.pointer)
        if pts != GstClockTime.max { timestamp = UInt64(pts) }
        // A segment in bytes or buffers (an application's appsrc by default) has no running
        // or stream time; asking for one was a GStreamer-CRITICAL per frame.
        let timed = segment.format == GST_FORMAT_TIME
        if let timestamp, isLate(timestamp, duration: fc_buffer_duration(buffer.pointer), segment: &segment) { return }
        run.stream.frameRunningTime = timestamp.flatMap { t in
            guard timed else { return nil }
            let running = gst_segment_to_running_time(&segment, GST_FORMAT_TIME, guint64(t))
            return running == GstClockTime.max ? nil : UInt64(running)
        }
        let duration = fc_buffer_duration(buffer.pointer)
        run.stream.frameDuration = duration == GstClockTime.max ? nil : UInt64(duration)
        guard let task = frame.taskMaker?.make(shape, run.stream) else { return }
        let job = task.job
        if case .rgb = shape.format, task.decorate != nil || !job.work.isPassthrough { buffer = packedForRGB(buffer, run: &run) }
        let oneThread = shouldStayOnOneThread(frameDuration: duration, stream: run.stream)
        RowSplitter.withOneThread(oneThread) {
        switch job.work {
        case .passthrough:
            break
        case .inPlace(let inPlace, let copying):
            buffer = buffer.writable()
            if fc_buffer_memory_writable(buffer.pointer) != 0 {
                var frame = GstVideoFrame()
                if gst_video_frame_map(&frame, &run.stream.inputInfo, buffer.pointer, GstMapFlags(rawValue: GST_MAP_READ.rawValue | GST_MAP_WRITE.rawValue)) != 0 {
                    inPlace(view(of: &frame, shape: shape, timestamp: timestamp))
                    gst_video_frame_unmap(&frame)
                }
            } else {
                // Shared memory (e.g. imagefreeze): write the result into a new buffer in one pass.
                buffer = render(buffer, shape: shape, width: shape.width, height: shape.height, geometry: nil,
                                timestamp: timestamp, run: &run, as: view, copying)
            }
        case .render(let work):
            buffer = render(buffer, shape: shape, width: job.outputWidth, height: job.outputHeight, geometry: job.geometry,
                            timestamp: timestamp, run: &run, as: view, work)
        case .yuvInPlace(let work):
            buffer = buffer.writable()
            if fc_buffer_memory_writable(buffer.pointer) == 0 {   // shared memory: filter a copy
                buffer = render(buffer, shape: shape, width: shape.width, height: shape.height, geometry: nil,
                                timestamp: timestamp, run: &run, as: yuvView) { source, destination in destination.copy(from: source); work(destination) }
            } else {
                var frame = GstVideoFrame()
                if gst_video_frame_map(&frame, &run.stream.inputInfo, buffer.pointer, GstMapFlags(rawValue: GST_MAP_READ.rawValue | GST_MAP_WRITE.rawValue)) != 0 {
                    work(yuvView(of: &frame, shape: shape, timestamp: timestamp))
                    gst_video_frame_unmap(&frame)
                }
            }
        case .yuvRead(let work):
            // Stills read the frame as it is: shared memory (e.g. after `imagefreeze`, a
            // `tee`) needs no copy of its own.
            var frame = GstVideoFrame()
            if gst_video_frame_map(&frame, &run.stream.inputInfo, buffer.pointer, GST_MAP_READ) != 0 {
                work(yuvView(of: &frame, shape: shape, timestamp: timestamp))
                gst_video_frame_unmap(&frame)
            }
        case .yuvRender(let work):
            buffer = render(buffer, shape: shape, width: job.outputWidth, height: job.outputHeight, geometry: job.geometry,
                            timestamp: timestamp, run: &run, as: yuvView, work)
        }
        }
        if let decorate = task.decorate {
            buffer = buffer.writable()
            decorate(buffer.pointer, timestamp)
        }
        let elapsed = MonotonicClock.nanoseconds - started
        noteProcessingTime(elapsed, stream: &run.stream)
        run.stream.oneThreadEstimate = oneThread ? elapsed : 2 * elapsed

        let (outCaps, isNew) = run.stream.outputCaps(width: job.outputWidth, height: job.outputHeight, swapsAxes: job.swapsAxes)
        if isNew { log.info(element, "output caps \(GStreamer.describe(outCaps.pointer))") }
        markContinuity(&buffer, droppedBefore: droppedBefore, run: &run)
        let outSample = GstOwnedSample(buffer: buffer.pointer, caps: outCaps.pointer, segment: &segment)
        // The sample holds the buffer now; let go of ours so downstream gets it alone.
        buffer.release()
        pushLock.withLock { _ in
            guard mailbox.isCurrent(generation) else { return }
            relay.remember(upstream: frame.segmentEvent)
            if !run.pushedSinceStart {
                // What came before the first frame (tags) goes before it, after its caps, as
                // through identity: sent after it, a flushing seek made while the first frame
                // prerolled threw them away with the appsrc's queue (a player's start lost
                // every tag). The relay puts the segment before them.
                gst_app_src_set_caps(appsrc.asAppSrc, outCaps.pointer)
                run.capsAnnounced = true
                sendHeldEvents(&run)
            }
            _ = gst_app_src_push_sample(appsrc.asAppSrc, outSample.pointer)
        }
    }

    /// A frame leaves DISCONT as it came (as through identity: GstBaseSrc would mark every
    /// frame of backwards playback), or after frames this element dropped (as GstBaseTransform
    /// marks the frame after a QoS drop). `dropped`: the drop count when the frame was taken
    /// (counted at its push, the frames dropped while it was processed, newer than it,
    /// marked it instead of the frame after the hole).
    private func markContinuity(_ buffer: inout GstOwned<GstBuffer>, droppedBefore dropped: UInt64, run: inout WorkerRun) {
        defer { run.droppedAtLastPush = dropped }
        let discont = dropped != run.droppedAtLastPush
        if fc_buffer_is_discont(buffer.pointer) != 0 { return }
        buffer = buffer.writable()
        if discont { fc_buffer_set_discont(buffer.pointer) } else { fc_buffer_mark_continuous(buffer.pointer) }
    }

    /// Whether this frame's pixel work runs on the worker thread alone instead of being
    /// split with the second core (`RowSplitter`). While one thread's work takes under a
    /// quarter of the time between frames, splitting only shortens an already short wait
    /// and costs CPU: both threads spin while they hand over (+50 % CPU for sepia at
    /// 720p30; a 720p turn, 0.4–0.8 ms more a frame). A live stream's frames come a frame's
    /// duration apart. A stream that is not live comes as fast as its slowest part takes
    /// it: when that is this element (the next frame waits as soon as the last is done),
    /// the work is split; when it is something else (a syncing sink playing a file, an
    /// encoder) frames come further apart, measured from the last two frames' starts.
    private func shouldStayOnOneThread(frameDuration: GstClockTime, stream: StreamState) -> Bool {
        if stream.isLive, frameDuration != GstClockTime.max, frameDuration > 0 {
            return stream.oneThreadEstimate < UInt64(frameDuration) / 4
        }
        guard !stream.isLive, stream.workPeriod > 0, stream.oneThreadEstimate > 0 else { return false }
        return stream.oneThreadEstimate < stream.workPeriod / 4
    }
}
