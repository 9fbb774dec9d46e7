import CGStreamer
import CFilterCamShim
import FilterCore
import Foundation
import Synchronization

/// The inside of every FilterCam filter element: `appsink → Swift worker → appsrc`, a
/// private pair the element's shell (a plain GstElement, `fc_element_adopt_inner`) links to
/// its own pads and runs through its states, so neighbours and tracers see an ordinary
/// filter element.
///
/// What crosses the gap, and how (each fix was needed; see the design notes in docs/architecture.md):
/// - frames: a probe on the appsink's pad hands each frame to a `FrameMailbox`; the
///   worker thread takes the newest, asks its element once for a `FrameTask` (through
///   `FrameStage`; what it knows of the stream is in `StreamState`), and
///   pushes the result with `gst_app_src_push_sample` (caps and segment travel with it);
/// - preroll: the appsink runs (PLAYING, `async=false`) from the element's READY→PAUSED
///   on, so it never holds the preroll frame; downstream prerolls on the first frame the
///   worker pushes;
/// - live or not: decided from a latency query upstream on the first frame. Live: frames
///   queue in the mailbox (at most 3; one more drops the oldest, counted), and the worker
///   drops a frame only when it is late: it could no longer reach the sink in time and a
///   newer one waits. So neither a slow filter nor a slow downstream ever blocks upstream,
///   and frames that arrive together on time are all delivered. Not live: back-pressure,
///   no loss.
///   The appsrc holds one processed frame and blocks the worker while downstream is busy
///   (a leaky appsrc dropped every other frame into a syncing sink: the sink holds a frame
///   until its render time while the next one is already waiting);
/// - latency: upstream's plus the running maximum of the measured processing time;
/// - QoS: events from downstream go upstream, and frames the sink has declared late are
///   skipped before processing (as GstBaseTransform does), counted and reported;
/// - serialized events (tags, custom) go through the mailbox in stream order and are
///   sent into the appsrc; EOS ends the appsrc after the last frame;
/// - flushes: FLUSH_START/STOP seen on the appsink pad are sent to the appsrc and empty
///   the mailbox; a frame in flight during a flush is not pushed after it;
/// - upstream events (seek, navigation) reaching the appsrc pad are pushed upstream from
///   the appsink pad; latency queries are answered with upstream's latency plus ours.
///
/// In parts, one file each, in a frame's order: FrameWorker+Pads (the inner pair's pads:
/// probes and appsink callbacks that hand frames and events over, and pass upstream
/// events back), this file (the type, its state changes and the worker thread that owns
/// the stream state and processes each frame), FrameWorker+Timing (liveness, lateness,
/// QoS and latency), FrameWorker+Render (pooled output buffers and frame views),
/// FrameWorker+Errors (inner errors re-posted, formats refused) and
/// FrameWorker+Counters (`frames-processed`, `frames-dropped`).
final class FrameWorker: @unchecked Sendable {
    /// Caps for frames in `formats` (RGB first: negotiation prefers them when upstream
    /// offers both, so RGB-only features keep working; YUV-only sources get YUV).
    static func caps(formats: [String] = FrameFormat.allNames) -> String {
        "video/x-raw, format=(string){ \(formats.joined(separator: ", ")) }, width=(int)[ 1, 32767 ], height=(int)[ 1, 32767 ], framerate=(fraction)[ 0/1, 2147483647/1 ]"
    }
    static let caps = caps()

    let element: UnsafeMutablePointer<GstElement>
    /// The element's debug category.
    let log: DebugCategory
    weak var stage: FrameStage?
    /// The formats this element takes (its pad templates'), for caps and messages.
    let formats: [String]

    // The inner pair and its pads (probes: FrameWorker+Pads).
    let appsink: UnsafeMutablePointer<GstElement>
    let appsrc: UnsafeMutablePointer<GstElement>
    let sinkPad: UnsafeMutablePointer<GstPad>    // the appsink's
    let srcPad: UnsafeMutablePointer<GstPad>     // the appsrc's

    /// A frame as the streaming thread hands it over: the sample (owned) and whether
    /// upstream was live when it arrived.
    struct ReceivedFrame {
        let sample: OpaquePointer
        let live: Bool
        /// Its running time (nil when not known): when the sink wants it, less the latency.
        let runningTime: UInt64?
        /// Its duration (nil when not known).
        let duration: UInt64?
    }
    /// Frames and serialized events, owned while they wait.
    typealias Mailbox = FrameMailbox<ReceivedFrame, UnsafeMutablePointer<GstEvent>>
    let mailbox = Mailbox { item in
        switch item {
        case .frame(let frame): gst_sample_unref(frame.sample)
        case .event(let event): gst_event_unref(event)
        case .endOfStream: break
        }
    }
    /// Held while the worker checks a frame's flush generation and pushes it, and while
    /// FLUSH_STOP is sent: a frame taken before a flush never follows its FLUSH_STOP.
    let pushLock = Locked(())
    /// The worker thread, joined at PAUSED→READY (so no thread outlives the element's stop).
    private var thread: JoinableThread?

    /// What the worker knows of the stream (worker thread only; see `StreamState`).
    var stream = StreamState()
    /// Where rendered frames are written (worker thread only; FrameWorker+Render).
    var outputPool = OutputBufferPool()

    // Counters (FrameWorker+Counters).
    /// Frames the worker pushed into the appsrc, and frames that left it downstream.
    let processedCount = Atomic<UInt64>(0)
    let leftCount = Atomic<UInt64>(0)
    let qosDropped = Atomic<UInt64>(0)
    /// Live frames the worker found too late to reach the sink while a newer one waited.
    let lateDropped = Atomic<UInt64>(0)

    // Liveness, lateness and latency (FrameWorker+Timing).
    let liveState = Atomic<Int>(0)          // 0 unknown, 1 live, 2 not live
    /// Latency we add, in ns: the recent processing time (see `noteProcessingTime`).
    let addedLatency = Atomic<UInt64>(0)
    /// QoS from downstream: frames whose running time is at or before this are late
    /// (UInt64.max: no QoS seen since the last flush).
    let earliestTime = Atomic<UInt64>(UInt64.max)
    let qosProportion = Atomic<UInt64>(0)   // Double bit pattern
    /// The pipeline's latency from the last LATENCY event (UInt64.max: none seen).
    let pipelineLatency = Atomic<UInt64>(UInt64.max)
    /// Upstream's minimum latency, from the query that found it live.
    let upstreamLatency = Atomic<UInt64>(0)

    /// Whether the error naming an unsupported format was posted (FrameWorker+Errors).
    let refusedFormat = Atomic<Bool>(false)

    init(element: UnsafeMutablePointer<GstElement>, stage: FrameStage, log: DebugCategory,
         formats: [String] = FrameFormat.allNames) {
        self.element = element
        self.formats = formats
        self.stage = stage
        self.log = log
        // The element has no name yet; the shell renames them "<name>-in/-out" at NULL→READY.
        appsink = GStreamer.make("appsink", name: "in")!
        appsrc = GStreamer.make("appsrc", name: "out")!
        for (k, v) in [("caps", Self.caps(formats: formats)), ("sync", "false"), ("max-buffers", "1"), ("drop", "false"),
                       ("enable-last-sample", "false"), ("qos", "false"), ("async", "false"),
                       ("emit-signals", "false"), ("wait-on-eos", "false")] {
            GStreamer.set(UnsafeMutableRawPointer(appsink), k, v)
        }
        for (k, v) in [("format", "time"), ("is-live", "false"), ("block", "true"), ("max-buffers", "1"),
                       ("handle-segment-change", "true"), ("do-timestamp", "false"), ("emit-signals", "false")] {
            GStreamer.set(UnsafeMutableRawPointer(appsrc), k, v)
        }
        fc_element_adopt_inner(element, appsink, appsrc)
        sinkPad = gst_element_get_static_pad(appsink, "sink")!
        srcPad = gst_element_get_static_pad(appsrc, "src")!
        gst_object_unref(sinkPad)   // the element keeps the pair, and so them, alive
        gst_object_unref(srcPad)
        installCallbacks()
    }

    // MARK: State

    /// Called by the element around its state change (the shell moves the appsink and
    /// appsrc in between: running from READY→PAUSED, stopped at PAUSED→READY).
    func changeState(_ transition: GstStateChange, after: Bool, result: GstStateChangeReturn) -> GstStateChangeReturn {
        let from = fc_transition_current(transition), to = fc_transition_next(transition)
        if !after && from == Int32(GST_STATE_READY.rawValue) && to == Int32(GST_STATE_PAUSED.rawValue) {
            processedCount.store(0, ordering: .relaxed)
            leftCount.store(0, ordering: .relaxed)
            qosDropped.store(0, ordering: .relaxed)
            lateDropped.store(0, ordering: .relaxed)
            pipelineLatency.store(UInt64.max, ordering: .relaxed)
            refusedFormat.store(false, ordering: .relaxed)
            earliestTime.store(UInt64.max, ordering: .relaxed)
            addedLatency.store(0, ordering: .relaxed)
            stream.reset()   // the worker is not running yet
            liveState.store(0, ordering: .relaxed)
            mailbox.start()
            FrameMemory.keepFramesOutOfThreadArenas()
            startWorker()
        }
        if !after && from == Int32(GST_STATE_PAUSED.rawValue) && to == Int32(GST_STATE_READY.rawValue) {
            mailbox.stop()   // a streaming thread waiting to hand over a frame returns
        }
        if after && from == Int32(GST_STATE_PAUSED.rawValue) && to == Int32(GST_STATE_READY.rawValue) {
            stopWorker()
            stream.reset()
            outputPool.release()
        }
        return result
    }

    // MARK: Worker

    private func startWorker() {
        thread = JoinableThread(name: "\(GStreamer.name(of: element)):work") { [unowned self] in
            self.workerLoop()
        }
    }

    private func stopWorker() {
        guard let thread else { return }
        mailbox.stop()
        thread.join()
        self.thread = nil
    }

    private func workerLoop() {
        pushedSinceStart = false
        defer {
            heldEvents.forEach { gst_event_unref($0) }
            heldEvents.removeAll()
        }
        while let (item, generation) = mailbox.next() {
            switch item {
            case .frame(let frame):
                stream.isLive = frame.live
                if frame.live && mailbox.framesWaiting > 0 && cannotReachSinkInTime(frame) {
                    lateDropped.add(1, ordering: .relaxed)
                    reportDropped(frame.sample, reason: "it could no longer reach the sink in time and a newer one waits")
                    gst_sample_unref(frame.sample)
                    continue
                }
                process(frame.sample, generation: generation)
            case .event(let event):
                if event.pointee.type == GST_EVENT_STREAM_START {
                    // A new stream: what its predecessor's tags said no longer holds (as
                    // videoflip). The appsrc makes its own STREAM_START.
                    stream.startNewStream()
                    gst_event_unref(event)
                    continue
                }
                if event.pointee.type == GST_EVENT_TAG {
                    var list: UnsafeMutablePointer<GstTagList>?
                    gst_event_parse_tag(event, &list)
                    if let list { stream.observe(list) }
                }
                // Before the first frame the appsrc has no caps yet; events sent now would
                // overtake them (sticky-event misordering), so they wait for that frame.
                if pushedSinceStart {
                    gst_element_send_event(appsrc, event)
                } else {
                    heldEvents.append(event)
                }
            case .endOfStream:
                sendHeldEvents()
                stage?.endOfStream()
                // As an event in the appsrc's queue, not gst_app_src_end_of_stream: that one leaves
                // the appsrc EOS for good (only a seek on the appsrc itself clears it), so a
                // flushing seek after EOS would play nothing.
                gst_element_send_event(appsrc, gst_event_new_eos())
            }
        }
    }

    /// Whether a frame went out since the start (or the last flush).
    private var pushedSinceStart = false
    private var heldEvents: [UnsafeMutablePointer<GstEvent>] = []

    private func sendHeldEvents() {
        pushedSinceStart = true
        for e in heldEvents { gst_element_send_event(appsrc, e) }
        heldEvents.removeAll()
    }

    private func process(_ sample: OpaquePointer, generation: Int) {
        guard let caps = gst_sample_get_caps(sample), let inBuffer = gst_sample_get_buffer(sample),
              adopt(caps: caps), let shape = stream.inputShape, let stage
        else {
            gst_sample_unref(sample)
            return
        }
        let started = DispatchTime.now().uptimeNanoseconds
        // Hold the buffer alone so an in-place job can write without a copy.
        var buffer = gst_buffer_ref(inBuffer)!
        let segment = gst_segment_copy(gst_sample_get_segment(sample))
        gst_sample_unref(sample)
        defer { gst_segment_free(segment) }
        Self.openReverseSegmentStart(segment!)

        var timestamp: UInt64? = nil
        let pts = fc_buffer_pts(buffer)
        if pts != GstClockTime.max { timestamp = UInt64(pts) }
        if let timestamp, isLate(timestamp, duration: fc_buffer_duration(buffer), segment: segment!) {
            gst_buffer_unref(buffer)
            return
        }
        // Controlled properties (GstController) take their values at this frame's stream time.
        if let timestamp {
            let streamTime = gst_segment_to_stream_time(segment, GST_FORMAT_TIME, guint64(timestamp))
            if streamTime != GstClockTime.max { gst_object_sync_values(element.asObject, streamTime) }
        }
        stream.frameRunningTime = timestamp.flatMap { t in
            let running = gst_segment_to_running_time(segment, GST_FORMAT_TIME, guint64(t))
            return running == GstClockTime.max ? nil : UInt64(running)
        }
        let duration = fc_buffer_duration(buffer)
        stream.frameDuration = duration == GstClockTime.max ? nil : UInt64(duration)
        let task = stage.task(for: shape, stream: stream)
        let job = task.job
        let oneThread = shouldStayOnOneThread(frameDuration: fc_buffer_duration(buffer))
        RowSplitter.withOneThread(oneThread) {
        switch job.work {
        case .passthrough:
            break
        case .inPlace(let inPlace, let copying):
            buffer = fc_buffer_make_writable(buffer)
            if fc_buffer_memory_writable(buffer) != 0 {
                var frame = GstVideoFrame()
                if gst_video_frame_map(&frame, &stream.inputInfo, buffer, GstMapFlags(rawValue: GST_MAP_READ.rawValue | GST_MAP_WRITE.rawValue)) != 0 {
                    inPlace(view(of: &frame, shape: shape, timestamp: timestamp))
                    gst_video_frame_unmap(&frame)
                }
            } else {
                // Shared memory (e.g. imagefreeze): write the result into a new buffer in one pass.
                buffer = render(buffer, shape: shape, width: shape.width, height: shape.height, geometry: nil,
                                timestamp: timestamp, as: view, copying)
            }
        case .render(let work):
            buffer = render(buffer, shape: shape, width: job.outputWidth, height: job.outputHeight, geometry: job.geometry,
                            timestamp: timestamp, as: view, work)
        case .yuvInPlace(let work):
            buffer = fc_buffer_make_writable(buffer)
            if fc_buffer_memory_writable(buffer) == 0 {   // shared memory: filter a copy
                buffer = render(buffer, shape: shape, width: shape.width, height: shape.height, geometry: nil,
                                timestamp: timestamp, as: yuvView) { source, destination in destination.copy(from: source); work(destination) }
            } else {
                var frame = GstVideoFrame()
                if gst_video_frame_map(&frame, &stream.inputInfo, buffer, GstMapFlags(rawValue: GST_MAP_READ.rawValue | GST_MAP_WRITE.rawValue)) != 0 {
                    work(yuvView(of: &frame, shape: shape, timestamp: timestamp))
                    gst_video_frame_unmap(&frame)
                }
            }
        case .yuvRender(let work):
            buffer = render(buffer, shape: shape, width: job.outputWidth, height: job.outputHeight, geometry: job.geometry,
                            timestamp: timestamp, as: yuvView, work)
        }
        }
        if let decorate = task.decorate {
            buffer = fc_buffer_make_writable(buffer)
            decorate(buffer, timestamp)
        }
        let elapsed = DispatchTime.now().uptimeNanoseconds - started
        noteProcessingTime(elapsed)
        stream.oneThreadEstimate = oneThread ? elapsed : 2 * elapsed

        let (outCaps, isNew) = stream.outputCaps(width: job.outputWidth, height: job.outputHeight, swapsAxes: job.swapsAxes)
        if isNew { log.info(element, "output caps \(GStreamer.describe(outCaps))") }
        let outSample = gst_sample_new(buffer, outCaps, segment, nil)!
        gst_buffer_unref(buffer)
        pushLock.withLock { _ in
            guard mailbox.isCurrent(generation) else { return }
            processedCount.add(1, ordering: .relaxed)
            _ = gst_app_src_push_sample(appsrc.asAppSrc, outSample)
            if !pushedSinceStart { sendHeldEvents() }
        }
        gst_sample_unref(outSample)
    }

    /// Whether this frame's pixel work runs on the worker thread alone instead of being
    /// split with the second core (`RowSplitter`). A live stream's frames come a frame's
    /// duration apart; while one thread's work takes under a quarter of that, splitting
    /// only shortens an already short wait and costs CPU: both threads spin while they
    /// hand over, +50 % CPU for sepia at 720p30. Frames of streams that are not live (as
    /// fast as possible) and slow work on live streams are still split.
    private func shouldStayOnOneThread(frameDuration: GstClockTime) -> Bool {
        guard stream.isLive, frameDuration != GstClockTime.max, frameDuration > 0 else { return false }
        return stream.oneThreadEstimate < UInt64(frameDuration) / 4
    }

    /// In reverse playback the appsrc (GstBaseSrc) ends the stream as soon as it pushes a
    /// frame at the segment's start, but demuxers play reverse in chunks, each forward
    /// from a key frame, so the rest of the last chunk was lost. The pushed segment
    /// starts at 0 instead, with the same stream time for every frame (time − start),
    /// running time (reverse running time counts from `stop`) and stop.
    static func openReverseSegmentStart(_ segment: UnsafeMutablePointer<GstSegment>) {
        let s = segment.pointee
        guard s.format == GST_FORMAT_TIME, s.rate < 0, s.start > 0, s.applied_rate == 1.0,
              s.time != GstClockTime.max, s.time >= s.start else { return }
        segment.pointee.time = s.time - s.start
        segment.pointee.start = 0
    }

}
