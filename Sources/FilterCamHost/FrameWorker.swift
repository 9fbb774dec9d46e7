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
/// What crosses the gap, and how (each fix was needed; see the design notes in the README):
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
final class FrameWorker: @unchecked Sendable {
    /// Caps for frames in `formats` (RGB first: negotiation prefers them when upstream
    /// offers both, so RGB-only features keep working; YUV-only sources get YUV).
    static func caps(formats: [String] = FrameFormat.allNames) -> String {
        "video/x-raw, format=(string){ \(formats.joined(separator: ", ")) }, width=(int)[ 1, 32767 ], height=(int)[ 1, 32767 ], framerate=(fraction)[ 0/1, 2147483647/1 ]"
    }
    static let caps = caps()

    let element: UnsafeMutablePointer<GstElement>
    private let appsink: UnsafeMutablePointer<GstElement>
    private let appsrc: UnsafeMutablePointer<GstElement>
    private let sinkPad: UnsafeMutablePointer<GstPad>    // the appsink's
    private let srcPad: UnsafeMutablePointer<GstPad>     // the appsrc's
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
    private let mailbox = Mailbox { item in
        switch item {
        case .frame(let frame): gst_sample_unref(frame.sample)
        case .event(let event): gst_event_unref(event)
        case .endOfStream: break
        }
    }
    private weak var stage: FrameStage?

    /// Frames the worker pushed into the appsrc, and frames that left it downstream.
    private let processedCount = Atomic<UInt64>(0)
    private let leftCount = Atomic<UInt64>(0)
    private let liveState = Atomic<Int>(0)          // 0 unknown, 1 live, 2 not live
    /// Latency we add, in ns: the recent processing time (see `noteProcessingTime`).
    private let addedLatency = Atomic<UInt64>(0)
    /// QoS from downstream: frames whose running time is at or before this are late
    /// (UInt64.max: no QoS seen since the last flush).
    private let earliestTime = Atomic<UInt64>(UInt64.max)
    private let qosProportion = Atomic<UInt64>(0)   // Double bit pattern
    private let qosDropped = Atomic<UInt64>(0)
    /// Live frames the worker found too late to reach the sink while a newer one waited.
    private let lateDropped = Atomic<UInt64>(0)
    /// The pipeline's latency from the last LATENCY event (UInt64.max: none seen).
    private let pipelineLatency = Atomic<UInt64>(UInt64.max)
    /// Upstream's minimum latency, from the query that found it live.
    private let upstreamLatency = Atomic<UInt64>(0)
    /// Held while the worker checks a frame's flush generation and pushes it, and while
    /// FLUSH_STOP is sent: a frame taken before a flush never follows its FLUSH_STOP.
    private let pushLock = Locked(())
    /// The worker thread, joined at PAUSED→READY (so no thread outlives the element's stop).
    private var thread: JoinableThread?

    /// What the worker knows of the stream (worker thread only; see `StreamState`).
    private var stream = StreamState()

    /// Frames that went downstream.
    var framesProcessed: UInt64 { leftCount.load(ordering: .relaxed) }
    /// Frames replaced in the mailbox, frames skipped as late (QoS), plus frames pushed
    /// into the appsrc that never left it (refused during a flush).
    var framesDropped: UInt64 {
        let pushed = processedCount.load(ordering: .relaxed), left = leftCount.load(ordering: .relaxed)
        let queued = UInt64(gst_app_src_get_current_level_buffers(appsrc.asAppSrc))
        return mailbox.droppedCount + qosDropped.load(ordering: .relaxed) + lateDropped.load(ordering: .relaxed)
            + (pushed > left + queued ? pushed - left - queued : 0)
    }
    /// Whether upstream is live, as the streaming thread last found it.
    private var receivingLive: Bool { liveState.load(ordering: .relaxed) == 1 }

    /// The element's debug category.
    let log: DebugCategory

    /// The formats this element takes (its pad templates'), for caps and messages.
    private let formats: [String]
    private var formatNames: String { formats.joined(separator: ", ") }

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
            releasePool()
        }
        return result
    }

    /// The inner appsink's EOS is ours, not the pipeline's.
    /// An ERROR or WARNING from the inner appsink/appsrc is re-posted by the element itself,
    /// so the user reads "filtercam0", not "filtercam0-out". (Other inner messages are
    /// dropped by the shell.)
    func filterMessage(_ message: UnsafeMutablePointer<GstMessage>) -> Bool {
        let source = UnsafeMutableRawPointer(message.pointee.src)
        let inner = source == UnsafeMutableRawPointer(appsink) || source == UnsafeMutableRawPointer(appsrc)
        guard inner else { return false }
        switch message.pointee.type {
        case GST_MESSAGE_EOS:
            return source == UnsafeMutableRawPointer(appsink)
        case GST_MESSAGE_ERROR, GST_MESSAGE_WARNING:
            var error: UnsafeMutablePointer<GError>?
            var debug: UnsafeMutablePointer<gchar>?
            let isError = message.pointee.type == GST_MESSAGE_ERROR
            if isError { gst_message_parse_error(message, &error, &debug) } else { gst_message_parse_warning(message, &error, &debug) }
            let text = error.map { String(cString: $0.pointee.message) } ?? "internal error"
            let detail = debug.map { String(cString: $0) }
            if let error { g_error_free(error) }
            g_free(debug)
            let name = GStreamer.name(of: element)
            // A frame format nobody negotiated is the usual cause: say what to do.
            let hint = text.contains("not-negotiated") || (detail ?? "").contains("not-negotiated")
                ? " (the frames' format or size could not be agreed downstream; put videoconvert ! videoscale after \(name))" : ""
            let report = "\(name): \(text)\(hint)"
            if isError { fc_post_error(element, report, detail) } else { fc_post_warning(element, report, detail) }
            return true
        default:
            return false
        }
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

    /// Frames a video sink still shows when they come this late (basesink's default
    /// `max-lateness` for video sinks): a frame is given up only past it.
    static let sinkTolerance: UInt64 = 20_000_000

    /// Whether a live frame, processed now, would come to the sink after its render time
    /// (running time plus the pipeline latency) and the sink's tolerance. Where no sink
    /// syncs to the clock (latency 0: an encoder into a file, an appsink) nothing has a
    /// render time; there a frame is late once it has waited a frame's duration more than
    /// upstream's latency, so a slow consumer does not make latency grow by what waits.
    /// Unknown clock, latency or timestamp: not late.
    private func cannotReachSinkInTime(_ frame: ReceivedFrame) -> Bool {
        var latency = pipelineLatency.load(ordering: .relaxed)
        if latency == 0, let duration = frame.duration { latency = upstreamLatency.load(ordering: .relaxed) + duration }
        guard let runningTime = frame.runningTime, latency != UInt64.max, latency > 0,
              let clock = gst_element_get_clock(element) else { return false }
        let clockTime = UInt64(gst_clock_get_time(clock))
        gst_object_unref(clock)
        let baseTime = UInt64(gst_element_get_base_time(element))
        guard clockTime >= baseTime else { return false }
        let finished = clockTime - baseTime + stream.recentProcessing.maximum(ignoringLargest: 1)
        return finished > runningTime + latency + Self.sinkTolerance
    }

    /// Whether a frame went out since the start (or the last flush).
    private var pushedSinceStart = false
    private var heldEvents: [UnsafeMutablePointer<GstEvent>] = []

    private func sendHeldEvents() {
        pushedSinceStart = true
        for e in heldEvents { gst_element_send_event(appsrc, e) }
        heldEvents.removeAll()
    }

    /// Reads the input format when the caps change; reports caps we cannot use.
    private func adopt(caps: UnsafeMutablePointer<GstCaps>) -> Bool {
        let (usable, changed) = stream.adopt(caps)
        if !usable && changed {
            fc_post_error(element, "\(GStreamer.name(of: element)) cannot process frames in caps \(GStreamer.describe(caps)); it takes progressive raw video in \(formatNames) (put deinterlace or videoconvert in front)", nil)
        }
        return usable
    }

    /// QoS: whether the sink has already declared this frame late (GstBaseTransform's
    /// rule: running time at or before the earliest time it asked for). A late frame is
    /// skipped, counted in `frames-dropped` and reported in a QoS message.
    private func isLate(_ timestamp: UInt64, duration: GstClockTime, segment: UnsafeMutablePointer<GstSegment>) -> Bool {
        let earliest = earliestTime.load(ordering: .relaxed)
        guard earliest != UInt64.max, segment.pointee.format == GST_FORMAT_TIME else { return false }
        let runningTime = gst_segment_to_running_time(segment, GST_FORMAT_TIME, guint64(timestamp))
        guard runningTime != GstClockTime.max, UInt64(runningTime) <= earliest else { return false }
        qosDropped.add(1, ordering: .relaxed)
        postQoS(live: false, pts: GstClockTime(timestamp), duration: duration, segment: segment,
                jitter: Int64(bitPattern: UInt64(runningTime)) &- Int64(bitPattern: earliest),
                proportion: Double(bitPattern: qosProportion.load(ordering: .relaxed)))
        log.debug(element, "QoS: skipping late frame at running time \(runningTime) (earliest \(earliest))")
        return true
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

    /// Writes `work(source, destination)` into a buffer from the output pool; consumes `input`.
    /// Metas follow (`fc_copy_metas`; regions of interest through `geometry`). The frames
    /// are RGB views or YUV views (`view(of:…)`, `yuvView(of:…)`), as the job needs.
    private func render<Frame>(_ input: UnsafeMutablePointer<GstBuffer>, shape: FrameShape, width: Int, height: Int,
                               geometry: GeometryPlan?, timestamp: UInt64?,
                               as frame: (inout GstVideoFrame, FrameShape, UInt64?) -> Frame,
                               _ work: (Frame, Frame) -> Void) -> UnsafeMutablePointer<GstBuffer> {
        render(input, width: width, height: height, geometry: geometry) { src, dst in
            let outShape = FrameShape(width: width, height: height, format: shape.format)
            work(frame(&src, shape, timestamp), frame(&dst, outShape, timestamp))
        }
    }

    /// A buffer from the output pool with `input`'s flags, timestamps and metas, both
    /// mapped for `work`; consumes `input`.
    private func render(_ input: UnsafeMutablePointer<GstBuffer>, width: Int, height: Int, geometry: GeometryPlan?,
                        _ work: (inout GstVideoFrame, inout GstVideoFrame) -> Void) -> UnsafeMutablePointer<GstBuffer> {
        var outInfo = GstVideoInfo()
        gst_video_info_set_format(&outInfo, stream.inputInfo.finfo.pointee.format, guint(width), guint(height))
        let out = acquireOutputBuffer(info: &outInfo)
        gst_buffer_copy_into(out, input, GstBufferCopyFlags(rawValue: GST_BUFFER_COPY_FLAGS.rawValue | GST_BUFFER_COPY_TIMESTAMPS.rawValue), 0, gsize.max)
        fc_copy_metas(input, out, geometry == nil ? 1 : 0)
        if let geometry { RegionOfInterest.map(from: input, to: out, through: geometry) }
        var src = GstVideoFrame(), dst = GstVideoFrame()
        if gst_video_frame_map(&src, &stream.inputInfo, input, GST_MAP_READ) != 0 {
            if gst_video_frame_map(&dst, &outInfo, out, GST_MAP_WRITE) != 0 {
                work(&src, &dst)
                gst_video_frame_unmap(&dst)
            }
            gst_video_frame_unmap(&src)
        }
        gst_buffer_unref(input)
        return out
    }

    /// Output buffers come from a pool sized for the current output, so memory is
    /// reused instead of being allocated (and page-faulted) for every frame.
    private var pool: UnsafeMutablePointer<GstBufferPool>?
    private var poolSize = 0

    private func acquireOutputBuffer(info: inout GstVideoInfo) -> UnsafeMutablePointer<GstBuffer> {
        let size = Int(info.size)
        if pool == nil || poolSize != size {
            releasePool()
            if let caps = gst_video_info_to_caps(&info) {
                pool = fc_buffer_pool_new(caps, guint(size))
                gst_caps_unref(caps)
            }
            poolSize = size
        }
        var buffer: UnsafeMutablePointer<GstBuffer>?
        if let pool, gst_buffer_pool_acquire_buffer(pool, &buffer, nil) == GST_FLOW_OK, let buffer {
            return buffer
        }
        return gst_buffer_new_allocate(nil, gsize(size), nil)!
    }

    private func releasePool() {
        if let pool {
            gst_buffer_pool_set_active(pool, 0)
            gst_object_unref(pool)
        }
        pool = nil
        poolSize = 0
    }

    private func view(of frame: inout GstVideoFrame, shape: FrameShape, timestamp: UInt64?) -> FrameView {
        guard case .rgb(let format) = shape.format else { preconditionFailure("an RGB job for a \(shape.format.name) frame") }
        return FrameView(base: UnsafeMutableRawPointer(fc_video_frame_plane_data(&frame)!),
                         width: shape.width, height: shape.height, stride: Int(fc_video_frame_stride(&frame)),
                         format: format, timestamp: timestamp)
    }

    private func yuvView(of frame: inout GstVideoFrame, shape: FrameShape, timestamp: UInt64?) -> YUVFrame {
        guard case .yuv(let format, let matrix) = shape.format else { preconditionFailure("a YUV job for a \(shape.format.name) frame") }
        let planes = 0..<guint(format.planeCount)
        return YUVFrame(format: format, width: shape.width, height: shape.height,
                        bases: planes.map { UnsafeMutableRawPointer(fc_video_frame_plane_data_n(&frame, $0)!) },
                        strides: planes.map { Int(fc_video_frame_stride_n(&frame, $0)) }, timestamp: timestamp, matrix: matrix)
    }

    /// The reported latency follows the running maximum of the measured processing time.
    /// It grows at once (a LATENCY message makes the pipeline redistribute it) and shrinks
    /// only when it would halve, so a jittery filter does not send a message per frame.
    private func noteProcessingTime(_ ns: UInt64) {
        stream.recentProcessing.add(ns)
        log.log(element, "frame took \(ns / 1_000) µs")
        guard stream.isLive else { return }
        let current = addedLatency.load(ordering: .relaxed)
        // One frame a second may be descheduled on a busy two-core machine (seen: 8 ms for a
        // 0.3 ms filter); it is set aside, a filter slow twice in 30 frames is not.
        let wanted = reportedLatency(forProcessing: stream.recentProcessing.maximum(ignoringLargest: 1))
        guard wanted > current || (wanted < current / 2 && current - wanted >= 2_000_000) else { return }
        addedLatency.store(wanted, ordering: .relaxed)
        log.info(element, "latency \(current / 1_000) µs -> \(wanted / 1_000) µs (processing took up to \(stream.recentProcessing.maximum / 1_000) µs, one outlier set aside)")
        gst_element_post_message(element, gst_message_new_latency(element.asObject))
    }

    // MARK: Pad probes and appsink callbacks

    private var unretained: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    private static func from(_ p: UnsafeMutableRawPointer?) -> FrameWorker {
        Unmanaged<FrameWorker>.fromOpaque(p!).takeUnretainedValue()
    }

    /// Hands a frame that reached the appsink to the worker (streaming thread).
    private func receive(_ sample: OpaquePointer) {
        if liveState.load(ordering: .relaxed) == 0 { detectLiveness() }
        let live = receivingLive
        var runningTime: UInt64?, duration: UInt64?
        if let buffer = gst_sample_get_buffer(sample) {
            if let segment = gst_sample_get_segment(sample), segment.pointee.format == GST_FORMAT_TIME,
               fc_buffer_pts(buffer) != GstClockTime.max {
                let time = gst_segment_to_running_time(segment, GST_FORMAT_TIME, fc_buffer_pts(buffer))
                if time != GstClockTime.max { runningTime = UInt64(time) }
            }
            if fc_buffer_duration(buffer) != GstClockTime.max { duration = UInt64(fc_buffer_duration(buffer)) }
        }
        let frame = ReceivedFrame(sample: sample, live: live, runningTime: runningTime, duration: duration)
        if let dropped = mailbox.put(frame: frame, live: live).dropped {
            reportDropped(dropped.sample, reason: "\(mailbox.maxWaitingFrames) newer ones were waiting for the filter")
            gst_sample_unref(dropped.sample)
        }
    }

    private func installCallbacks() {
        // Frames are taken at the appsink's pad: appsink 1.22 keeps the last pulled
        // buffer in its reused sample object, so a pulled frame always had a second
        // reference and every in-place filter paid a full copy (measured: 3-4 ms per
        // 640x480 frame instead of 0.3). The appsink still ends the stream (its EOS
        // callback) and takes buffer lists through `new_sample`.
        gst_pad_add_probe(sinkPad, GST_PAD_PROBE_TYPE_BUFFER, { pad, info, data in
            let me = FrameWorker.from(data)
            guard let buffer = fc_probe_info_buffer(info), let caps = gst_pad_get_current_caps(pad) else {
                return GST_PAD_PROBE_OK
            }
            defer { gst_caps_unref(caps) }
            var segment: UnsafePointer<GstSegment>?
            let segmentEvent = gst_pad_get_sticky_event(pad, GST_EVENT_SEGMENT, 0)
            if let segmentEvent { gst_event_parse_segment(segmentEvent, &segment) }
            defer { if let segmentEvent { gst_event_unref(segmentEvent) } }
            me.receive(gst_sample_new(buffer, caps, segment, nil)!)
            return GST_PAD_PROBE_DROP
        }, unretained, nil)

        var callbacks = GstAppSinkCallbacks()
        callbacks.new_sample = { sink, data in
            let me = FrameWorker.from(data)
            guard let pulled = gst_app_sink_pull_sample(sink) else { return GST_FLOW_FLUSHING }
            // appsink reuses its sample object, so the mailbox gets its own.
            let sample = gst_sample_new(gst_sample_get_buffer(pulled), gst_sample_get_caps(pulled),
                                        gst_sample_get_segment(pulled), nil)!
            gst_sample_unref(pulled)
            me.receive(sample)
            return GST_FLOW_OK
        }
        callbacks.eos = { _, data in
            FrameWorker.from(data).mailbox.put(.endOfStream)
        }
        gst_app_sink_set_callbacks(appsink.asAppSink, &callbacks, unretained, nil)

        // Serialized events in stream order, and flushes, as they reach the appsink.
        gst_pad_add_probe(sinkPad, GstPadProbeType(rawValue: GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM.rawValue | GST_PAD_PROBE_TYPE_EVENT_FLUSH.rawValue), { _, info, data in
            let me = FrameWorker.from(data)
            guard let event = fc_probe_info_event(info) else { return GST_PAD_PROBE_OK }
            switch event.pointee.type {
            case GST_EVENT_FLUSH_START:
                me.mailbox.setFlushing(true)
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
                me.mailbox.setFlushing(false)
            case GST_EVENT_TAG, GST_EVENT_CUSTOM_DOWNSTREAM, GST_EVENT_SEGMENT_DONE, GST_EVENT_GAP, GST_EVENT_STREAM_START,
                 GST_EVENT_STREAM_GROUP_DONE:
                me.mailbox.put(.event(gst_event_ref(event)))
            default:
                break
            }
            return GST_PAD_PROBE_OK
        }, unretained, nil)

        // Caps queries from upstream: a format we cannot take is named by this element
        // (otherwise the source only says "not-negotiated").
        gst_pad_add_probe(sinkPad, GST_PAD_PROBE_TYPE_QUERY_DOWNSTREAM, { _, info, data in
            let me = FrameWorker.from(data)
            guard let query = fc_probe_info_query(info) else { return GST_PAD_PROBE_OK }
            var offered: UnsafeMutablePointer<GstCaps>?
            switch query.pointee.type {
            case GST_QUERY_CAPS: gst_query_parse_caps(query, &offered)            // what upstream could send
            case GST_QUERY_ACCEPT_CAPS: gst_query_parse_accept_caps(query, &offered)  // what it will send
            default: return GST_PAD_PROBE_OK
            }
            if let offered, let format = FrameWorker.onlyUnsupportedFormat(offered, accepted: me.formats) {
                me.refuseFormat(format)
            }
            return GST_PAD_PROBE_OK
        }, unretained, nil)

        // Frames leaving the element (what `frames-processed` counts).
        gst_pad_add_probe(srcPad, GST_PAD_PROBE_TYPE_BUFFER, { _, _, data in
            FrameWorker.from(data).leftCount.add(1, ordering: .relaxed)
            return GST_PAD_PROBE_OK
        }, unretained, nil)

        // Seeks and navigation from downstream go upstream past the gap.
        gst_pad_add_probe(srcPad, GST_PAD_PROBE_TYPE_EVENT_UPSTREAM, { _, info, data in
            let me = FrameWorker.from(data)
            guard let event = fc_probe_info_event(info) else { return GST_PAD_PROBE_OK }
            switch event.pointee.type {
            case GST_EVENT_LATENCY:
                // What the pipeline settled on: frames later than it are late at the sink.
                // Upstream elements get it too, as through any other element.
                var latency: GstClockTime = 0
                gst_event_parse_latency(event, &latency)
                me.pipelineLatency.store(UInt64(latency), ordering: .relaxed)
                gst_pad_push_event(me.sinkPad, gst_event_ref(event))
                gst_event_unref(event)
                return GST_PAD_PROBE_HANDLED
            case GST_EVENT_SEEK:
                gst_pad_push_event(me.sinkPad, gst_event_ref(event))
                gst_event_unref(event)
                return GST_PAD_PROBE_HANDLED
            case GST_EVENT_NAVIGATION:
                if me.stage?.navigate(event) == true {
                    gst_event_unref(event)
                    return GST_PAD_PROBE_HANDLED
                }
                gst_pad_push_event(me.sinkPad, me.mappedNavigation(event))
                gst_event_unref(event)
                return GST_PAD_PROBE_HANDLED
            case GST_EVENT_QOS:
                var type = GST_QOS_TYPE_UNDERFLOW
                var proportion = 0.0, diff: GstClockTimeDiff = 0, timestamp: GstClockTime = 0
                gst_event_parse_qos(event, &type, &proportion, &diff, &timestamp)
                if timestamp != GstClockTime.max {
                    let earliest = diff > 0 ? UInt64(timestamp) &+ UInt64(diff) : UInt64(timestamp) &- UInt64(-diff)
                    me.earliestTime.store(earliest, ordering: .relaxed)
                    me.qosProportion.store(proportion.bitPattern, ordering: .relaxed)
                }
                gst_pad_push_event(me.sinkPad, gst_event_ref(event))
                gst_event_unref(event)
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
            guard gst_pad_peer_query(me.sinkPad, query) != 0 else { return GST_PAD_PROBE_OK }
            var live: gboolean = 0
            var minLatency: GstClockTime = 0, maxLatency: GstClockTime = 0
            gst_query_parse_latency(query, &live, &minLatency, &maxLatency)
            let ours = GstClockTime(me.addedLatency.load(ordering: .relaxed))
            gst_query_set_latency(query, live, minLatency + ours,
                                  maxLatency == GstClockTime.max ? maxLatency : maxLatency + ours)
            return GST_PAD_PROBE_HANDLED
        }, unretained, nil)
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

    /// When every structure of `caps` is system-memory raw video in formats we do not
    /// take, the first of those formats (upstream can offer nothing we take).
    static func onlyUnsupportedFormat(_ caps: UnsafeMutablePointer<GstCaps>, accepted: [String] = FrameFormat.allNames) -> String? {
        let n = gst_caps_get_size(caps)
        guard n > 0, gst_caps_is_any(caps) == 0 else { return nil }
        var first: String?
        for i in 0..<n {
            guard let structure = gst_caps_get_structure(caps, i),
                  String(cString: gst_structure_get_name(structure)) == "video/x-raw" else { return nil }
            if let features = gst_caps_get_features(caps, i), gst_caps_features_is_any(features) != 0 ||
                (gst_caps_features_get_size(features) > 0 && gst_caps_features_contains(features, "memory:SystemMemory") == 0) {
                return nil
            }
            guard let format = gst_structure_get_string(structure, "format").map({ String(cString: $0) }) else { return nil }
            if accepted.contains(format) { return nil }
            first = first ?? format
        }
        return first
    }

    /// A live frame dropped before processing is reported like a QoS drop (a QoS message
    /// with live=true, as live sources and decoders post), and logged.
    private func reportDropped(_ sample: OpaquePointer, reason: String) {
        guard let buffer = gst_sample_get_buffer(sample), let segment = gst_sample_get_segment(sample) else { return }
        let pts = fc_buffer_pts(buffer)
        postQoS(live: true, pts: pts, duration: fc_buffer_duration(buffer), segment: segment, jitter: nil, proportion: 1)
        log.debug(element, "dropped the frame at \(pts) ns: \(reason)")
    }

    /// A QoS message for a frame this element dropped, with the running counts (as
    /// GstBaseTransform posts them); `jitter` is how late it was, when known.
    private func postQoS(live: Bool, pts: GstClockTime, duration: GstClockTime, segment: UnsafePointer<GstSegment>,
                         jitter: Int64?, proportion: Double) {
        let runningTime = gst_segment_to_running_time(segment, GST_FORMAT_TIME, pts)
        let streamTime = gst_segment_to_stream_time(segment, GST_FORMAT_TIME, pts)
        let message = gst_message_new_qos(element.asObject, live ? 1 : 0, runningTime, streamTime, pts, duration)!
        if let jitter { gst_message_set_qos_values(message, gint64(jitter), proportion, 1_000_000) }
        gst_message_set_qos_stats(message, GST_FORMAT_BUFFERS, guint64(processedCount.load(ordering: .relaxed)), guint64(framesDropped))
        gst_element_post_message(element, message)
    }

    /// Posts (once per stream) the error that names the format and the remedy.
    private func refuseFormat(_ format: String) {
        guard !refusedFormat.exchange(true, ordering: .relaxed) else { return }
        let text = "\(GStreamer.name(of: element)) cannot process \(format) frames; accepted formats: \(formatNames) (put videoconvert in front)"
        log.error(element, text)
        fc_post_error(element, text, nil)
    }
    private let refusedFormat = Atomic<Bool>(false)

    /// A latency query upstream tells whether the source is live (drop) or not (wait).
    private func detectLiveness() {
        let query = gst_query_new_latency()!
        var live: gboolean = 0
        if gst_pad_peer_query(sinkPad, query) != 0 {
            var minLatency: GstClockTime = 0, maxLatency: GstClockTime = 0
            gst_query_parse_latency(query, &live, &minLatency, &maxLatency)
            upstreamLatency.store(minLatency == GstClockTime.max ? 0 : UInt64(minLatency), ordering: .relaxed)
        }
        gst_query_unref(query)
        liveState.store(live != 0 ? 1 : 2, ordering: .relaxed)
        log.info(element, live != 0 ? "upstream is live: late frames are dropped, newest first" : "upstream is not live: every frame is processed")
    }

    /// A navigation event with pointer coordinates mapped from output to input.
    private func mappedNavigation(_ event: UnsafeMutablePointer<GstEvent>) -> UnsafeMutablePointer<GstEvent> {
        guard let stage, let original = gst_event_get_structure(event),
              let structure = gst_structure_copy(original) else { return gst_event_ref(event) }
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

/// The counters every element with a frame worker shows, declared once: the worker is
/// the part of each element that owns them.
extension FrameWorker: ElementPart {
    enum Counter: String, PropertyNames {
        case framesProcessed = "frames-processed", framesDropped = "frames-dropped"
    }

    static let counterProperties = [
        ElementProperty(Counter.framesProcessed.rawValue, nick: "Frames processed",
            blurb: "Frames filtered and pushed downstream since the element started", .counter),
        ElementProperty(Counter.framesDropped.rawValue, nick: "Frames dropped",
            blurb: "Frames dropped because they came late (live sources): too late to reach the sink in time while a newer one waited, more than 3 waiting for a busy filter, or already late for the sink (QoS)", .counter),
    ]

    var properties: [ElementProperty] { Self.counterProperties }

    func set(_ name: String, _ value: PropertyValue) throws(PropertyProblem) {}   // read-only

    func get(_ name: String) -> PropertyValue {
        Counter(rawValue: name) == .framesProcessed ? .uint64(framesProcessed) : .uint64(framesDropped)
    }
}
