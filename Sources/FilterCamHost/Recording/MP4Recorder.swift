import CGStreamer
import CFilterCamShim
import FilterCore
import FoundationEssentials

/// One recording: a pipeline of its own that encodes the frames it is handed into an MP4
/// file, so the live stream never waits for the encoder:
///
///     appsrc ! videoconvert ! videoscale ! video/x-raw,format=I420,width=W,height=H
///       ! x264enc ! h264parse ! mp4mux ! filesink
///     SOUND ! queue ! audioconvert ! audioresample ! AAC encoder ! mp4mux
///
/// 4:2:0 H.264 (High profile, I420 into x264enc) with AAC sound in MP4, which every browser
/// and player opens. The file's frame size is the first frame's: frames of another size
/// later (a turn, a lens crop) are letterboxed into it (videoscale's borders), as an MP4
/// cannot change size within a file. With sound the pipeline runs on the element's clock,
/// so the microphone's timestamps and the frames' (`RecordingTimeline`) share one time line.
///
/// The worker thread pushes copies of its frames (`push`); a live stream never blocks on a
/// busy encoder (beyond `queuedSeconds` or `queuedBytes` of waiting frames a frame is
/// dropped and counted),
/// a stream that is not live waits for room, as a `queue` in front of an encoder would.
/// The encoder runs at a lower priority than the preview (`encoderNice`).
final class MP4Recorder: Sendable {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// How much picture may wait for the encoder before a live frame is dropped: a
    /// recording must ride out a load spike (the preview may drop frames, the file should
    /// not). Half a second lost 8-86 frames of a 6 s 720p30 recording on a two-core
    /// machine with two busy processes beside it; two seconds lost none.
    static let queuedSeconds = 2.0
    /// And at most this much memory (a 1080p RGB frame is 8 MB: about a second of it).
    static let queuedBytes = 256 << 20
    /// How far below the preview the encoder's threads run: on busy cores the preview
    /// keeps its rate and the encoder catches up from its queue. Only a little: the
    /// niceness also puts the encoder behind every other program on the machine, and at
    /// 5 it got a third of a busy core's share and fell seconds behind.
    static let encoderNice: Int32 = 2

    let path: String
    /// Whether the file gets a sound track.
    let sound: Bool
    /// The file's frame size.
    let width: Int, height: Int
    /// Frame memory, used again once the encoder lets go of it.
    let memory: StillMemory

    private let ownedPipeline: GstOwned<GstElement>
    private var pipeline: UnsafeMutablePointer<GstElement> { ownedPipeline.pointer }
    private let sourcePointer: GstPointer<GstElement>
    private var source: UnsafeMutablePointer<GstElement> { sourcePointer.pointer }
    private let muxerPointer: GstPointer<GstElement>
    private var muxer: UnsafeMutablePointer<GstElement> { muxerPointer.pointer }
    private let live: Bool
    private let maxQueued: Int
    private let frameDuration: UInt64

    /// The pushing side: the time line, the caps of the last frame, the counts, and whether
    /// the end was sent (no frame after it).
    private struct Feed {
        var timeline: RecordingTimeline
        var caps: (text: String, caps: GstOwned<GstCaps>)?
        var frames = 0
        var dropped = 0
        var closed = false
    }
    private let feed: Locked<Feed>
    /// Set when the sound's first buffer reaches the muxer. Ended before it, mp4mux writes
    /// a sound track without a format (time scale 0, no sample description), and no player
    /// opens the file: a recording stopped right after it started.
    private let soundArrived = Locked(false)

    /// The AAC encoder this machine has (avenc_aac is in gstreamer1.0-libav).
    static let soundEncoder: String? = ["avenc_aac", "voaacenc", "fdkaacenc"].first(where: GStreamer.hasElement)

    /// Starts a recording into `path` shaped as `first` (whose copy is then pushed first
    /// by the caller). `sound`: a source description (its sound is checked beforehand,
    /// `SoundCheck`); `clock`: the element's clock and base time, which a recording with
    /// sound shares.
    init(path: String, first: StillPixels, framesPerSecond: Double, live: Bool, sound soundSource: String?,
         clock: (clock: UnsafeMutablePointer<GstClock>, base: UInt64)?) throws(Failure) {
        self.path = path
        self.live = live
        let fps = framesPerSecond > 0 ? framesPerSecond : 30
        frameDuration = UInt64(1e9 / fps)
        let bytesPerPixel = if case .rgb = first { 4 } else { 2 }   // YUV: at most 4:2:2
        maxQueued = Self.maxQueuedFrames(fps: fps, frameBytes: first.width * first.height * bytesPerPixel)
        memory = StillMemory(kept: maxQueued + 4)
        (width, height) = Self.encodedSize(width: first.width, height: first.height)
        // x264enc takes no side over 16384: an 8192×2 strip (65536×16 once scaled up) was
        // announced, then failed "not-negotiated" with no file.
        guard max(width, height) <= Self.largestSide else {
            throw Failure(description: "a \(first.width)x\(first.height) picture is recorded at \(width)x\(height) (no side under 16), "
                          + "over the \(Self.largestSide) pixels a side the H.264 encoder takes: record a lens crop (lens-crop=true) or a smaller picture")
        }
        var sound = soundSource != nil && clock != nil
        let encoder = Self.soundEncoder
        if encoder == nil { sound = false }
        self.sound = sound
        let video = "appsrc name=fc-video ! videoconvert ! videoscale ! capsfilter name=fc-size "
            + "! x264enc speed-preset=superfast tune=zerolatency key-int-max=\(Int(2 * fps)) bitrate=\(Self.bitrate(width: width, height: height, fps: fps)) "
            + "! h264parse ! mp4mux name=fc-mux fragment-duration=\(Self.fragmentMilliseconds) ! filesink name=fc-file"
        let audio = sound ? " \(soundSource!) ! queue ! audioconvert ! audioresample ! \(encoder!) ! fc-mux." : ""
        let owned: GstOwned<GstElement>
        do {
            owned = try GStreamer.launch(video + audio)
        } catch {
            throw Failure(description: "the recording pipeline could not be built: \(error)")
        }
        ownedPipeline = owned
        let parsed = owned.pointer
        guard let source = owned.child(named: "fc-video"), let muxer = owned.child(named: "fc-mux"),
              let file = owned.child(named: "fc-file"), let size = owned.child(named: "fc-size") else {
            throw Failure(description: "the recording pipeline is incomplete")
        }
        sourcePointer = GstPointer(source)
        muxerPointer = GstPointer(muxer)
        let caps = first.caps(framerate: Self.framerate(fps: framesPerSecond))
        for (k, v) in [("caps", caps), ("format", "time"), ("is-live", live ? "true" : "false"), ("block", live ? "false" : "true"),
                       ("max-bytes", "0"), ("max-buffers", "\(maxQueued)"), ("do-timestamp", "false"), ("emit-signals", "false")] {
            GStreamer.set(UnsafeMutableRawPointer(source), k, v)
        }
        GStreamer.set(UnsafeMutableRawPointer(size), "caps", "video/x-raw,format=I420,width=\(width),height=\(height),pixel-aspect-ratio=1/1")
        GStreamer.set(UnsafeMutableRawPointer(file), "location", path)
        if let clock { gst_pipeline_use_clock(UnsafeMutableRawPointer(parsed).assumingMemoryBound(to: GstPipeline.self), clock.clock) }
        // The appsrc's streaming thread encodes (x264enc opens its threads from it).
        fc_run_tasks_in_background(parsed, source, Self.encoderNice)
        feed = Locked(Feed(timeline: RecordingTimeline()))
        if gst_element_set_state(parsed, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE {
            throw Failure(description: takeError() ?? "the recording pipeline did not start")
        }
        if sound {
            let soundPad = GStreamer.objects(of: gst_element_iterate_sink_pads(muxer), as: GstPad.self)
                .first { String(takingGLib: gst_object_get_name(UnsafeMutableRawPointer($0).assumingMemoryBound(to: GstObject.self)))?.hasPrefix("audio") == true }
            if let soundPad { Self.flag(soundArrived, atFirstBufferOn: soundPad) } else { soundArrived.withLock { $0 = true } }
        }
        if sound, let clock {
            // The element's running time at which this pipeline's began: the file's 0.
            let base = UInt64(gst_element_get_base_time(parsed))
            feed.withLock { $0.timeline = RecordingTimeline(origin: base > clock.base ? base - clock.base : 0) }
        }
    }

    deinit {
        gst_element_set_state(pipeline, GST_STATE_NULL)
    }

    /// With sound, this pipeline pauses and plays with the element's, so both running
    /// times stand still together (the frames are placed by the element's running time, the
    /// sound by this pipeline's). Without sound nothing here runs by the clock.
    func pause(_ paused: Bool) {
        guard sound else { return }
        gst_element_set_state(pipeline, paused ? GST_STATE_PAUSED : GST_STATE_PLAYING)
    }

    /// The longest side x264enc encodes.
    static let largestSide = 16384
    /// The file is written in fragments of this length (fragmented MP4, which every player
    /// opens): a recording cut short by a full disk, a crash or a kill keeps every whole
    /// fragment. As one index written at the end, such a file had none and nothing played.
    static let fragmentMilliseconds = 1000

    /// The size a picture of `width`×`height` is encoded at: even sides (4:2:0), and none
    /// under 16 (x264enc refuses a smaller picture: a lens cropped down to 16×12 started a
    /// recording that ended "not-negotiated" with an empty file), scaled up with its shape.
    static func encodedSize(width: Int, height: Int) -> (width: Int, height: Int) {
        let shorter = max(1, min(width, height))
        let scale = shorter < 16 ? 16 / Double(shorter) : 1
        func side(_ n: Int) -> Int { max(16, Int((Double(n) * scale / 2).rounded()) * 2) }
        return shorter < 16 ? (side(width), side(height)) : (width & ~1, height & ~1)
    }

    /// The frames that may wait for the encoder: `queuedSeconds` of them within
    /// `queuedBytes`, at least 8.
    static func maxQueuedFrames(fps: Double, frameBytes: Int) -> Int {
        max(8, min(Int((fps * queuedSeconds).rounded(.up)), queuedBytes / max(1, frameBytes)))
    }

    /// A bitrate (kbit/s) that keeps a camera's picture clear: 0.1 bit per pixel per frame
    /// (2.8 Mbit/s at 720p30), at least 300.
    static func bitrate(width: Int, height: Int, fps: Double) -> Int {
        max(300, min(20_000, Int(Double(width * height) * fps * 0.1 / 1000)))
    }

    /// The caps' framerate for `fps` ("0/1" when not known).
    static func framerate(fps: Double) -> String {
        guard fps > 0 else { return "0/1" }
        if fps == fps.rounded() { return "\(Int(fps))/1" }
        return "\(Int((fps * 1001).rounded()))/1001"
    }

    // MARK: Frames (the worker thread; the control thread for the first ones)

    /// Sends a copied frame at `runningTime` (the element's) into the encoder. Frames from
    /// before the recording's start are left out; a live frame is dropped (and counted)
    /// when the encoder has `queuedSeconds` of picture waiting.
    func push(_ pixels: StillPixels, framesPerSecond: Double, runningTime: UInt64?, duration: UInt64?) {
        let sample = feed.withLock { f -> GstOwnedSample? in
            guard !f.closed else { return nil }
            if live && Int(gst_app_src_get_current_level_buffers(source.asAppSrc)) >= maxQueued {
                f.dropped += 1
                return nil
            }
            let length = duration ?? frameDuration
            guard let time = f.timeline.place(runningTime: runningTime, duration: length) else { return nil }
            let text = pixels.caps(framerate: Self.framerate(fps: framesPerSecond))
            if f.caps?.text != text {
                f.caps = GstOwned(gst_caps_from_string(text)).map { (text, $0) }
            }
            let buffer = GstOwned(pixels.gstBuffer(returningTo: memory))
            buffer.pointer.pointee.pts = GstClockTime(time)
            buffer.pointer.pointee.duration = GstClockTime(length)
            return GstOwnedSample(buffer: buffer.pointer, caps: f.caps?.caps.pointer, segment: nil)
        }
        guard let sample else { return }
        // Outside the lock: from a stream that is not live this waits for room in the queue,
        // and a recording whose pipeline failed meanwhile never makes any; closing the feed
        // (`finishAfterError`) waited on the lock for good, and stopping the pipeline is
        // what frees this wait.
        if gst_app_src_push_sample(source.asAppSrc, sample.pointer) == GST_FLOW_OK { feed.withLock { $0.frames += 1 } }
    }

    /// The picture recorded so far, in seconds; the frames taken, and those dropped.
    var seconds: Double { feed.withLock { $0.timeline.seconds } }
    var frames: Int { feed.withLock { $0.frames } }
    var dropped: Int { feed.withLock { $0.dropped } }

    // MARK: The end (the control thread)

    /// Ends the file: no frame after this one, EOS after the last frame and from the
    /// microphone, then waits (at most `timeout` s) for mp4mux to write the index (moov)
    /// and the file to close. Returns what went wrong, nil when the file is complete.
    func finish(timeout: Double = 10) -> String? {
        feed.withLock { $0.closed = true }
        gst_app_src_end_of_stream(source.asAppSrc)
        if sound {
            // The sound was checked to come within `SoundCheck.timeout` at the start.
            _ = soundArrived.wait(until: { $0 }, timeout: SoundCheck.timeout) { _ in }
            sendEndOfStreamToSoundSources()
        }
        return waitForEndOfStream(timeout: timeout)
    }

    /// Sets `flag` (and wakes its waiters) when the first buffer passes `pad`. The probe
    /// holds its own reference to the flag, released when the probe goes.
    private static func flag(_ flag: Locked<Bool>, atFirstBufferOn pad: UnsafeMutablePointer<GstPad>) {
        gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, { _, _, data in
            Unmanaged<Locked<Bool>>.fromOpaque(data!).takeUnretainedValue().withLockAndWake { $0 = true }
            return GST_PAD_PROBE_REMOVE
        }, Unmanaged.passRetained(flag).toOpaque(), { data in
            Unmanaged<Locked<Bool>>.fromOpaque(data!).release()
        })
    }

    /// After an error inside the pipeline the sources may push no more: EOS goes straight
    /// into the muxer, so what it has is written and the file stays playable.
    /// Each pad gets its EOS on a thread of its own: when one branch failed (a sound source
    /// that cannot be converted), the other's streaming thread waits inside mp4mux for it,
    /// holding its pad's stream lock, so an EOS sent to that pad waits too (it held the
    /// control thread and the element's stop for good); the failed branch's pad is free,
    /// and its EOS lets the muxer go on. Past `timeout` the pipeline stops, which frees any
    /// EOS still waiting.
    func finishAfterError(timeout: Double = 5) -> String? {
        feed.withLock { $0.closed = true }
        // A pad whose thread cannot be made gets no EOS: the wait then ends at `timeout`.
        let senders = GStreamer.objects(of: gst_element_iterate_sink_pads(muxer), as: GstPad.self).compactMap { pad in
            gst_object_ref(pad)
            let held = GstPointer(pad)
            let sender = JoinableThread(name: "fc-record-eos") {
                _ = gst_pad_send_event(held.pointer, gst_event_new_eos())
                gst_object_unref(held.pointer)
            }
            if sender == nil { gst_object_unref(pad) }
            return sender
        }
        let outcome = waitForEndOfStream(timeout: timeout)
        if outcome != nil { gst_element_set_state(pipeline, GST_STATE_NULL) }
        senders.forEach { $0.join() }
        return outcome
    }

    private func sendEndOfStreamToSoundSources() {
        for element in GStreamer.objects(of: gst_bin_iterate_sources(pipeline.asBin), as: GstElement.self) where element != source {
            _ = gst_element_send_event(element, gst_event_new_eos())
        }
    }

    private func waitForEndOfStream(timeout: Double) -> String? {
        guard let bus = ownedPipeline.bus else { return "the recording pipeline has no bus" }
        let types = GstMessageType(rawValue: GST_MESSAGE_EOS.rawValue | GST_MESSAGE_ERROR.rawValue)
        guard let m = GstOwned(gst_bus_timed_pop_filtered(bus, GstClockTime(timeout * 1e9), types)) else {
            return "the encoder did not finish the file within \(Int(timeout)) s"
        }
        if m.pointer.pointee.type == GST_MESSAGE_EOS {
            gst_element_set_state(pipeline, GST_STATE_NULL)   // the file is closed when this returns
            return nil
        }
        return Self.text(of: m.pointer)
    }

    /// An ERROR the recording pipeline posted since the last look, as text (nil: none).
    func takeError() -> String? {
        guard let bus = ownedPipeline.bus, let m = GstOwned(gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR)) else { return nil }
        return Self.text(of: m.pointer)
    }

    /// "MESSAGE (DETAIL)" of an ERROR or a WARNING, the detail's last line only (not its C
    /// source location).
    static func text(of m: UnsafeMutablePointer<GstMessage>) -> String {
        let problem = BusProblem(m)
        let text = problem?.text(or: "unknown error") ?? "unknown error"
        let detail = problem?.detail?.split(separator: "\n").last.map(String.init) ?? ""
        return detail.isEmpty || detail.contains("()") ? text : "\(text) (\(detail.trimmingSpaces))"
    }
}
