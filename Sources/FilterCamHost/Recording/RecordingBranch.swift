import CGStreamer
import CFilterCamShim
import FilterCore
import FoundationEssentials
import Synchronization

/// Recording the live picture to numbered MP4 files while the preview goes on (the key `v`,
/// the `record` command, the `record` property), off the live path.
///
/// The worker copies each finished frame (filter, lens and face squares, but neither the
/// flash nor the on-screen display: those belong to the preview) and hands the copy to
/// the running recording (`MP4Recorder`, a pipeline of its own). A control thread starts
/// and ends recordings: it picks the next free name, checks the folder and the microphone
/// (`SoundCheck`), and reports each recording as `recording-started`, then
/// `recording-saved` (path, duration, size, frames) or `recording-failed` (with a WARNING
/// naming the path and why); the stream runs on either way. EOS and stopping finish the
/// file (its index written, so it plays).
///
/// This file: properties and the worker thread's part; RecordingBranch+Control: the
/// control thread.
final class RecordingBranch: ElementPart, Sendable {
    enum Property: String, PropertyNames {
        case record, location = "record-location", audio = "record-audio", audioSource = "record-audio-source"
        case written = "recordings-written"
    }

    static let defaultLocation = "recording-%05d.mp4"
    /// The default microphone.
    static let defaultAudioSource = "autoaudiosrc"
    /// Frames kept while a live recording starts (the newest; it starts with them): the
    /// sound check's longest wait and a little more, within `pendingBytes` (15 were kept,
    /// and a sound source that started and stayed silent cost the first 2.5 s of picture).
    static func maximumPending(for frame: Frame) -> Int {
        let framesPerSecond = frame.facts.framesPerSecond > 0 ? frame.facts.framesPerSecond : 30
        let wanted = Int(((SoundCheck.timeout + 0.5) * framesPerSecond).rounded(.up))
        let bytesPerPixel = if case .rgb = frame.pixels { 4 } else { 2 }
        let frameBytes = max(frame.pixels.width * frame.pixels.height * bytesPerPixel, 1)
        return max(15, min(wanted, pendingBytes / frameBytes))
    }
    static let pendingBytes = 256 << 20

    static let properties: [ElementProperty] = Property.allCases.map { p in
        switch p {
        case .record:
            return ElementProperty(p.rawValue, nick: "Record",
                blurb: "Record the picture (without the on-screen display or the flash) to a numbered MP4, H.264 4:2:0 that browsers play, while the stream goes on: true starts, false finishes the file (key v); reads whether it records",
                .bool(defaultValue: false))
        case .location:
            return ElementProperty(p.rawValue, nick: "Record location",
                blurb: "File name template with one counter (%05d style) for recordings; the counter never overwrites an existing file",
                .string(defaultValue: defaultLocation))
        case .audio:
            return ElementProperty(p.rawValue, nick: "Record audio",
                blurb: "Record sound from record-audio-source too (AAC), from a live stream; without a microphone the picture is recorded alone, with a warning",
                .bool(defaultValue: false))
        case .audioSource:
            return ElementProperty(p.rawValue, nick: "Record audio source",
                blurb: "Where the sound comes from, as a live GStreamer description: the default microphone (autoaudiosrc), a device (pulsesrc device=…), or a test tone (audiotestsrc is-live=true)",
                .string(defaultValue: defaultAudioSource))
        case .written:
            return ElementProperty(p.rawValue, nick: "Recordings written", blurb: "Recordings finished and complete on disk", .counter)
        }
    }

    struct Settings {
        var naming = try! SnapshotNaming(template: RecordingBranch.defaultLocation, property: Property.location.rawValue,
                                         example: RecordingBranch.defaultLocation)
        var audio = false
        var audioSource = RecordingBranch.defaultAudioSource
    }

    /// Where a frame stands in its stream: what places it in a recording.
    struct FrameFacts {
        let framesPerSecond: Double
        let runningTime: UInt64?
        let duration: UInt64?
        let live: Bool
    }

    /// A frame copied for a recording.
    struct Frame {
        let pixels: StillPixels
        let facts: FrameFacts
    }

    /// What the worker, the control thread and the property calls share.
    struct State {
        /// The `record` property: a recording runs (or starts) while true.
        var wanted = false
        /// The running recording: the worker pushes its frames into it.
        var recorder: MP4Recorder?
        /// Frames copied while no recording runs yet (the newest `maximumPending(for:)`); the
        /// control thread starts one shaped as the first.
        var pending: [Frame] = []
        /// The control thread is starting a recording.
        var starting = false
        /// `record` went false while the stream ran and before the recording asked for had
        /// started (a quick `v v`): it starts with the frames kept for it, or the next one if
        /// none came yet, and is finished at once. So each press acts, as piped `record`
        /// lines do (a start and a stop, each said), and a recording announced leaves a file.
        var finishOnceStarted = false
        /// `record` went false while a recording ran: it is finished even if `record` is
        /// true again before the control thread looks (false then true is two files; the
        /// false was lost in about 1 run of 8).
        var finishRunning = false
        /// The stream ended: the running recording is to be finished (cleared when it is).
        var endRequested = false
        var thread: JoinableThread?
        var stopping = false
        /// Recordings that failed so far (the on-screen display shows each once).
        var failures = 0
    }

    private let elementPointer: GstPointer<GstElement>
    var element: UnsafeMutablePointer<GstElement> { elementPointer.pointer }
    let settings = Locked(Settings())
    let state = Locked(State())
    let writtenCount = Atomic<UInt64>(0)
    /// `state.wanted`, for the worker's look at every frame without the lock.
    let wantedFlag = Atomic<Bool>(false)
    /// Whether frames are copied for a recording: `wanted`, or `finishOnceStarted`.
    let capturingFlag = Atomic<Bool>(false)
    /// EOS went through and no frame has come since: `record=true` now can record nothing.
    let streamEnd = StreamEnd()

    /// The next counter to try, per template (as for stills). Only the control thread takes
    /// the lock (never contended): it keeps the branch Sendable, checked.
    let counter = Locked((next: 0, template: ""))

    init(element: UnsafeMutablePointer<GstElement>) {
        elementPointer = GstPointer(element)
    }

    // MARK: Properties

    func set(_ name: String, _ value: PropertyValue) throws(PropertyProblem) {
        guard let p = Property(rawValue: name) else { throw PropertyProblem.unexpected(value, for: name) }
        switch (p, value) {
        case (.record, .bool(let on)):
            if on && streamEnd.hasEnded {
                // Said at once, and `record` stays false (it was taken silently, and a later
                // seek started a recording nobody saw asked for).
                failUnstarted("record=true, but the stream has ended: no frame will come to record (seek back, or play it again)")
                return
            }
            let running = element.isRunning
            let capturing = state.withLockAndWake { s -> Bool in
                let unstarted = s.wanted && s.recorder == nil && (s.starting || !s.pending.isEmpty || running)
                if !on && s.wanted && s.recorder != nil { s.finishRunning = true }
                s.wanted = on
                // (true again before it started: it is still finished once it has a frame,
                // and the next one starts then.)
                if !on { s.finishOnceStarted = unstarted || (s.finishOnceStarted && s.recorder == nil) }
                if !on && !s.finishOnceStarted { s.pending = [] }
                return on || s.finishOnceStarted
            }
            wantedFlag.store(on, ordering: .relaxed)
            capturingFlag.store(capturing, ordering: .relaxed)
        case (.location, .string(let text)):
            do {
                let naming = try SnapshotNaming(template: text ?? Self.defaultLocation, property: p.rawValue, example: Self.defaultLocation)
                settings.withLock { $0.naming = naming }
            } catch {
                throw PropertyProblem("\(error)")
            }
        case (.audio, .bool(let on)):
            settings.withLock { $0.audio = on }
        case (.audioSource, .string(let text)):
            let source = (text ?? "").trimmingSpaces
            settings.withLock { $0.audioSource = source.isEmpty ? Self.defaultAudioSource : source }
        default:
            throw PropertyProblem.unexpected(value, for: name)
        }
    }

    func get(_ name: String) -> PropertyValue {
        switch Property(rawValue: name)! {
        case .record: return .bool(wantedFlag.load(ordering: .relaxed))
        case .location: return .string(settings.withLock { $0.naming.template })
        case .audio: return .bool(settings.withLock { $0.audio })
        case .audioSource: return .string(settings.withLock { $0.audioSource })
        case .written: return .uint64(writtenCount.load(ordering: .relaxed))
        }
    }

    // MARK: The worker thread

    /// Whether frames are to be copied for a recording (so the worker touches each one).
    var needsFrame: Bool { capturingFlag.load(ordering: .relaxed) }

    /// The running recording's length so far in seconds, nil when none runs.
    var runningSeconds: Double? {
        state.withLock { $0.recorder }?.seconds
    }

    /// Whether a recording asked for (`record` true) has not started yet.
    var isStarting: Bool {
        state.withLock { $0.wanted && $0.recorder == nil || $0.starting }
    }

    /// Recordings that failed since the element was made.
    var failures: Int { state.withLock { $0.failures } }

    /// Called with every finished RGB frame, before the flash and the on-screen display.
    func capture(_ frame: FrameView, facts: FrameFacts) {
        streamEnd.resume()
        guard needsFrame else { return }
        let recorder = state.withLock { $0.recorder }
        let memory = recorder?.memory ?? StillMemory(kept: 0)
        let pixels = memory.rgb(width: frame.width, height: frame.height, format: frame.format)
        pixels.view.copyPixels(from: frame)
        hand(Frame(pixels: .rgb(pixels), facts: facts), to: recorder)
    }

    /// The same for a YUV frame: the copy keeps the frame's format (I420 goes into the
    /// encoder as it is; the others through videoconvert, on the recording's thread).
    func capture(_ frame: YUVFrame, facts: FrameFacts) {
        streamEnd.resume()
        guard needsFrame else { return }
        let recorder = state.withLock { $0.recorder }
        let memory = recorder?.memory ?? StillMemory(kept: 0)
        let pixels = memory.yuv(width: frame.width, height: frame.height, format: frame.format)
        pixels.frame.copy(from: frame)
        hand(Frame(pixels: .yuv(pixels, frame.matrix), facts: facts), to: recorder)
    }

    /// Pushes the frame into the running recording; with none running yet, leaves it for
    /// the control thread, which starts one. A stream that is not live waits until it has
    /// (so no frame is lost); a live one never waits.
    private func hand(_ frame: Frame, to running: MP4Recorder?) {
        if let running {
            running.push(frame)
            return
        }
        let (recorder, waits, noThread) = state.withLockAndWake { s -> (MP4Recorder?, Bool, Bool) in
            if let r = s.recorder { return (r, false, false) }   // it started meanwhile
            guard s.wanted || s.finishOnceStarted, !s.stopping else { return (nil, false, false) }
            if s.pending.count >= Self.maximumPending(for: frame) { s.pending.removeFirst() }
            s.pending.append(frame)
            if s.thread == nil {
                s.thread = JoinableThread(name: "fc-record") { [self] in controlLoop() }
                if s.thread == nil { return (nil, false, true) }
            }
            return (nil, !frame.facts.live, false)
        }
        if noThread {
            // A thread limit: said as any recording that cannot start (it ended the process).
            failUnstarted("cannot record: no thread can be started for the recording (\(JoinableThread.whyNotStarted); ulimit -u)")
            return
        }
        recorder?.push(frame)
        if waits {
            _ = state.wait(until: { $0.pending.isEmpty || !($0.wanted || $0.finishOnceStarted) || $0.stopping }, timeout: 30) { _ in }
        }
    }

    // MARK: Runs

    /// End of stream (worker thread): the running recording is finished before EOS goes
    /// downstream, so the file is complete when the application sees EOS. A recording asked
    /// for that never got a frame is said to have recorded nothing, rather than left unsaid.
    func finish(atEndOfStream: Bool = false) {
        let (running, unstarted) = state.withLockAndWake { s -> (Bool, Bool) in
            guard s.thread != nil else { return (false, s.wanted || s.finishOnceStarted) }
            s.endRequested = true
            return (true, false)
        }
        if atEndOfStream {
            streamEnd.mark()
            if unstarted {
                // `record` back to false, notified, with recording-failed: as when a recording
                // cannot start (it read true, with no message but the warning).
                failUnstarted("record=true, but the stream ended before a frame came to record: no file was made")
            }
        }
        guard running else { return }
        _ = state.wait(until: { !$0.endRequested }, timeout: 30) { _ in }
        guard atEndOfStream else { return }
        // The file is finished: `record` reads false, notified. It read true until the
        // pipeline stopped, and a record button bound to it showed "recording" after EOS.
        state.withLock { s in
            s.wanted = false
            s.finishOnceStarted = false
            s.finishRunning = false
        }
        if wantedFlag.exchange(false, ordering: .relaxed) {
            g_object_notify(element.asGObject, Property.record.rawValue)
        }
    }

    /// The element pauses (the pipeline PAUSED) or plays again: a recording with sound
    /// pauses its own pipeline with it, so the sound's running time stands still with the
    /// picture's (the sound ran on: after a 1 s pause it was 1 s off its picture).
    func pause(_ paused: Bool) {
        state.withLock { $0.recorder }?.pause(paused)
    }

    /// The run is over: the running recording is finished, then the control thread ends
    /// and is joined. `record` stays as set: a new run records again.
    func stop() {
        streamEnd.resume()
        finish()
        let thread = state.withLockAndWake { s -> JoinableThread? in
            s.stopping = true
            return s.thread
        }
        thread?.join()   // outside the lock: the thread takes it on its way out
        state.withLock { s in
            s.thread = nil
            s.stopping = false
            s.pending = []
            s.endRequested = false
            s.wanted = false
            s.finishOnceStarted = false
            s.finishRunning = false
        }
        capturingFlag.store(false, ordering: .relaxed)
        // The file is finished: `record` reads false (notified, for a record button), so a
        // pipeline played again does not start a recording nobody asked for.
        if wantedFlag.exchange(false, ordering: .relaxed) {
            g_object_notify(element.asGObject, Property.record.rawValue)
        }
    }
}

extension MP4Recorder {
    func push(_ frame: RecordingBranch.Frame) {
        push(frame.pixels, framesPerSecond: frame.facts.framesPerSecond, runningTime: frame.facts.runningTime,
             duration: frame.facts.duration)
    }
}
