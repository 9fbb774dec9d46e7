import CGStreamer
import CFilterCamShim
import FilterCore
import FoundationEssentials
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
/// - segments: the appsrc never ends a stream itself (GstBaseSrc's automatic EOS is off),
///   so segment seeks loop and backwards playback keeps its last chunk; each frame leaves
///   DISCONT as it came, or after frames dropped here (`markContinuity`);
/// - flushes: FLUSH_START/STOP seen on the appsink pad are sent to the appsrc and empty
///   the mailbox; a frame in flight during a flush is not pushed after it;
/// - upstream events (seek, navigation) reaching the appsrc pad are pushed upstream from
///   the appsink pad; latency queries are answered with upstream's latency plus ours.
///
/// In parts, one file each, in a frame's order: FrameWorker+Pads (the inner pair's pads:
/// probes and appsink callbacks that hand frames and events over, and pass upstream
/// events back), this file (the type, and its run as the element's part: start, unlock,
/// stop), FrameWorker+Loop (the worker thread, which alone owns the run's stream state,
/// and processes each frame), FrameWorker+Timing (liveness, lateness,
/// QoS and latency), FrameWorker+Render (pooled output buffers and frame views),
/// FrameWorker+Errors (inner errors re-posted, formats refused) and
/// FrameWorker+Counters (`frames-processed`, `frames-dropped`).
final class FrameWorker: Sendable {
    /// Caps for frames in `formats` (RGB first: negotiation prefers them when upstream
    /// offers both, so RGB-only features keep working; YUV-only sources get YUV).
    static func caps(formats: [String] = FrameFormat.allNames) -> String {
        "video/x-raw, format=(string){ \(formats.joined(separator: ", ")) }, width=(int)[ 1, 32767 ], height=(int)[ 1, 32767 ], framerate=(fraction)[ 0/1, 2147483647/1 ]"
    }
    static let caps = caps()

    private let elementPointer: GstPointer<GstElement>
    var element: UnsafeMutablePointer<GstElement> { elementPointer.pointer }
    /// The element's debug category.
    let log: DebugCategory
    /// The element behind the worker, set by it right after its init (weak: the element
    /// owns the worker).
    private let stageReference = Locked(WeakStage())
    private struct WeakStage { weak var stage: (any FrameStage)? }
    var stage: (any FrameStage)? { stageReference.withLock { $0.stage } }
    /// The formats this element takes (its pad templates'), for caps and messages.
    let formats: [String]

    // The inner pair and its pads (probes: FrameWorker+Pads).
    private let appsinkPointer: GstPointer<GstElement>
    var appsink: UnsafeMutablePointer<GstElement> { appsinkPointer.pointer }
    private let appsrcPointer: GstPointer<GstElement>
    var appsrc: UnsafeMutablePointer<GstElement> { appsrcPointer.pointer }
    private let sinkPadPointer: GstPointer<GstPad>    // the appsink's
    var sinkPad: UnsafeMutablePointer<GstPad> { sinkPadPointer.pointer }
    private let srcPadPointer: GstPointer<GstPad>     // the appsrc's
    var srcPad: UnsafeMutablePointer<GstPad> { srcPadPointer.pointer }

    /// A frame as the streaming thread hands it over, owned: its buffer (the only
    /// reference once the pad has let go of it, so in-place work needs no copy), caps and
    /// segment, and whether upstream was live when it arrived.
    struct ReceivedFrame: Sendable {
        let buffer: GstOwned<GstBuffer>
        let caps: GstOwned<GstCaps>
        /// The SEGMENT event it came under (the segment is read from it).
        let segmentEvent: GstOwned<GstEvent>
        let live: Bool
        /// Its running time (nil when not known): when the sink wants it, less the latency.
        let runningTime: UInt64?
        /// Its duration (nil when not known).
        let duration: UInt64?
        /// Its task, from the element's settings when it arrived (nil: no element then).
        let taskMaker: FrameTaskMaker?

        init(buffer: GstOwned<GstBuffer>, caps: GstOwned<GstCaps>, segmentEvent: GstOwned<GstEvent>, live: Bool,
             taskMaker: FrameTaskMaker?) {
            self.buffer = buffer
            self.caps = caps
            self.segmentEvent = segmentEvent
            self.live = live
            self.taskMaker = taskMaker
            let pts = fc_buffer_pts(buffer.pointer), length = fc_buffer_duration(buffer.pointer)
            var segment = Self.segment(of: segmentEvent)
            let time = pts == GstClockTime.max || segment.format != GST_FORMAT_TIME
                ? GstClockTime.max : gst_segment_to_running_time(&segment, GST_FORMAT_TIME, pts)
            runningTime = time == GstClockTime.max ? nil : UInt64(time)
            duration = length == GstClockTime.max ? nil : UInt64(length)
        }

        /// A copy of its segment.
        var segment: GstSegment { Self.segment(of: segmentEvent) }

        private static func segment(of event: GstOwned<GstEvent>) -> GstSegment {
            var segment: UnsafePointer<GstSegment>?
            gst_event_parse_segment(event.pointer, &segment)
            return segment!.pointee
        }
    }
    /// Frames and serialized events; what waits owns its references, so an item the
    /// mailbox drops gives them back itself.
    /// A serialized event as it reached the appsink, with the segment it came under (nil:
    /// none yet), which downstream gets before it (`StreamEventRelay`).
    struct HandedEvent: Sendable {
        let event: GstOwned<GstEvent>
        let segmentEvent: GstOwned<GstEvent>?
    }
    typealias Mailbox = FrameMailbox<ReceivedFrame, HandedEvent>
    let mailbox = Mailbox { _ in }
    /// Upstream's DRAIN queries waiting for the frames before them (FrameWorker+Drain).
    let drains = Locked(DrainProgress())
    /// Held while the worker checks a frame's flush generation and pushes it, and while
    /// FLUSH_STOP is sent: a frame taken before a flush never follows its FLUSH_STOP.
    let pushLock = Locked(())
    /// Upstream's segment events, sent on instead of the appsrc's own.
    let relay = StreamEventRelay()
    /// The seqnum of upstream's EOS (0: none yet), which the element's EOS carries (an
    /// application matches the EOS message to its seek by it).
    let upstreamEOSSeqnum = Atomic<UInt32>(0)

    // Counters (FrameWorker+Counters).
    /// Frames that left the element downstream (`frames-processed`, and a QoS message's
    /// count: it counted the frames pushed into the appsrc, one ahead of the property).
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
    /// The syncing sinks' `ts-offset` downstream (their smallest), read at each LATENCY
    /// event: a sink renders that much later than running time plus latency.
    let sinkOffset = Atomic<Int64>(0)
    /// When the sinks' `ts-offset` was last read (MonotonicClock ns).
    let sinkOffsetRead = Atomic<Int64>(0)
    /// For frames that carry no duration (RTP depayloaders, `framerate=0/1`): the running
    /// time of the last one, and the gap before it (0: not known yet).
    let lastArrival = Atomic<UInt64>(UInt64.max)
    let arrivalInterval = Atomic<UInt64>(0)

    /// Whether the error naming an unsupported format was posted (FrameWorker+Errors).
    let refusedFormat = Atomic<Bool>(false)

    init(element: UnsafeMutablePointer<GstElement>, log: DebugCategory,
         formats: [String] = FrameFormat.allNames) {
        elementPointer = GstPointer(element)
        self.formats = formats
        self.log = log
        // The element has no name yet; the shell renames them "<name>-in/-out" at NULL→READY.
        let appsink = GStreamer.make("appsink", name: "in")!
        let appsrc = GStreamer.make("appsrc", name: "out")!
        for (k, v) in [("caps", Self.caps(formats: formats)), ("sync", "false"), ("max-buffers", "1"), ("drop", "false"),
                       ("enable-last-sample", "false"), ("qos", "false"), ("async", "false"),
                       ("emit-signals", "false"), ("wait-on-eos", "false")] {
            GStreamer.set(UnsafeMutableRawPointer(appsink), k, v)
        }
        for (k, v) in [("format", "time"), ("is-live", "false"), ("block", "true"), ("max-buffers", "1"),
                       ("handle-segment-change", "true"), ("do-timestamp", "false"), ("emit-signals", "false")] {
            GStreamer.set(UnsafeMutableRawPointer(appsrc), k, v)
        }
        // The stream's end is upstream's to say (EOS, SEGMENT_DONE): GstBaseSrc would end it
        // itself at the segment's stop (start, playing backwards), and a task paused there
        // stays paused through a seek without a flush (a looping segment seek).
        gst_base_src_set_automatic_eos(UnsafeMutableRawPointer(appsrc).assumingMemoryBound(to: GstBaseSrc.self), 0)
        fc_element_adopt_inner(element, appsink, appsrc)
        // The element keeps the pair, and so their pads, alive.
        let sinkPad = GStreamer.staticPad(appsink, "sink")!
        let srcPad = GStreamer.staticPad(appsrc, "src")!
        appsinkPointer = GstPointer(appsink)
        appsrcPointer = GstPointer(appsrc)
        sinkPadPointer = GstPointer(sinkPad)
        srcPadPointer = GstPointer(srcPad)
        installCallbacks()
    }

    func attach(stage: any FrameStage) {
        stageReference.withLock { $0.stage = stage }
    }

    // MARK: Run (as the element's part: its host calls these around the shell's state
    // change, which runs the appsink and appsrc from READY→PAUSED and stops them at PAUSED→READY)

    /// Before READY→PAUSED: counters and timing reset; the worker thread starts with the
    /// first frame or event.
    func start() {
        leftCount.store(0, ordering: .relaxed)
        qosDropped.store(0, ordering: .relaxed)
        lateDropped.store(0, ordering: .relaxed)
        pipelineLatency.store(UInt64.max, ordering: .relaxed)
        lastArrival.store(UInt64.max, ordering: .relaxed)
        sinkOffset.store(0, ordering: .relaxed)
        arrivalInterval.store(0, ordering: .relaxed)
        refusedFormat.store(false, ordering: .relaxed)
        earliestTime.store(UInt64.max, ordering: .relaxed)
        addedLatency.store(0, ordering: .relaxed)
        liveState.store(0, ordering: .relaxed)
        FrameMemory.settleAllocator()
        startDrains()
        mailbox.start(thread: "\(GStreamer.name(of: element)):work", worker: { [unowned self] in
            self.workerLoop()
        }, threadFailure: { [unowned self] why in
            // Said as the element's error: frames would otherwise wait for a worker that
            // never comes (a thread limit held a file's stream for good).
            let name = GStreamer.name(of: self.element)
            fc_post_error(self.element, "\(name) cannot start its worker thread: \(why) (the process or user is at its thread limit: ulimit -u)", nil)
        })
    }

    /// Before PAUSED→READY: a streaming thread waiting to hand over a frame returns.
    func unlock() {
        mailbox.close()
        relay.stopWaiting(elementStops: true)
        // A drain waiting holds upstream's thread in the query, and with it the stream
        // locks the stop takes (it hung for good).
        callOffDrains(stopping: true)
    }

    /// After PAUSED→READY: the worker thread is joined once the appsrc has stopped (a push
    /// blocked in it has returned), so no thread outlives the element's stop.
    func stop() {
        mailbox.stop()
        // The next run's STREAM_START is its own (the old one went out after READY → PLAYING).
        relay.forgetStream()
        upstreamEOSSeqnum.store(0, ordering: .relaxed)
    }

}
