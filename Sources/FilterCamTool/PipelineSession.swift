import CGStreamer
import CFilterCamShim
import FilterCore
import FilterCamHost
import Foundation
import Synchronization

/// Runs one pipeline for `filtercam launch`: drives the bus, applies live commands,
/// turns Ctrl-C into EOS, prints errors with their element, and the summary at the end.
public final class PipelineSession {
    public let pipeline: Pipeline
    /// Where `--messages` writes the elements' messages (nil: not asked for).
    public var messagesOutput: MessageLines?
    /// How long Ctrl-C / quit waits for EOS to finish a recording.
    public var endOfStreamTimeout: TimeInterval = 10
    private let errorOutput: FileHandle
    private let output: FileHandle
    /// The terminal's lines and the messages, written off the loop, in the order said (a
    /// reader that stops reading must not stop it). Made in `init`: other threads say lines
    /// too (a lazy one was made twice at times, and the end waited for the wrong one).
    private let lines = LineWriter(name: "filtercam output")
    /// How a terminal line is written (on the writer's thread).
    private let writeErrorLine: LineWriter.Write
    /// The messages' writer (`run` sets it: `lines`, or one of their own).
    private var messageLines: LineWriter?

    public init(pipeline: Pipeline, output: FileHandle = .standardOutput, errorOutput: FileHandle = .standardError) {
        self.pipeline = pipeline
        self.output = output
        self.errorOutput = errorOutput
        writeErrorLine = { line in
            if errorOutput === FileHandle.standardError {
                TypedLine.standardError.print(line)   // above a command line being typed
            } else {
                try? errorOutput.write(contentsOf: Data((line + "\n").utf8))   // a reader gone loses the line, not the process
            }
        }
        // A window's `q` comes here (the session waits for stills and recordings, then
        // sends EOS); without the mark the element ends the stream itself.
        g_object_set_data(UnsafeMutableRawPointer(pipeline.element).assumingMemoryBound(to: GObject.self),
                          FilterCamPlugin.quitHandlerMark, UnsafeMutableRawPointer(bitPattern: 1))
    }

    public enum Outcome: Equatable {
        case endOfStream, error, stoppedByUser, aborted
    }

    /// What a command said (`filter: mono`), or why it could not run (called on the
    /// session's loop, for a command from any thread).
    public typealias Reply = @Sendable (Result<String?, Error>) -> Void

    /// Requests from other threads (stdin, the web page), handled on the bus loop.
    fileprivate struct Requests {
        var commands: [Request] = []
    }

    /// The signals that stop the session, as their handlers record them: atomics only (a
    /// lock taken in a handler deadlocks if the thread it interrupted holds it).
    final class Interrupts: Sendable {
        /// Everything a handler reads and changes, in one word changed by compare-and-swap:
        /// two signals handled at once on two threads (SIGTERM and SIGHUP, sent together) both
        /// found nothing counted yet, and counted twice: an abort, 1 run in 3.
        /// Bits: count (0-7), last signal counted (8-15), taken in by the loop (16), when the
        /// last was counted (CLOCK_MONOTONIC, ms; 17-63).
        private let word = Atomic<UInt64>(0)
        private let firstSignal = Atomic<Int32>(0)

        private struct Word {
            var count: Int, last: Int32, takenIn: Bool, milliseconds: Int64
            init(_ w: UInt64) {
                count = Int(w & 0xFF); last = Int32((w >> 8) & 0xFF); takenIn = (w >> 16) & 1 == 1
                milliseconds = Int64(bitPattern: w >> 17)
            }
            var packed: UInt64 {
                UInt64(min(count, 0xFF)) | UInt64(UInt8(truncatingIfNeeded: last)) << 8 | (takenIn ? 1 << 16 : 0)
                    | UInt64(bitPattern: milliseconds) << 17
            }
        }

        /// Changes the word by `change` (nil: leave it), atomically.
        private func update(_ change: (Word) -> Word?) {
            var old = word.load(ordering: .sequentiallyConsistent)
            while let new = change(Word(old)) {
                let (exchanged, found) = word.compareExchange(expected: old, desired: new.packed, ordering: .sequentiallyConsistent)
                if exchanged { return }
                old = found
            }
        }

        /// The same signal again before the loop took in the first is the same press
        /// delivered twice: `timeout -s INT` sends its signal to the program and again to its
        /// process group, microseconds apart, and with several programs running that was
        /// taken for Ctrl-C twice (an abort, an MP4 without its index; a tester: 3 of 22
        /// runs). So is a SIGTERM and a SIGHUP within a quarter second, either first:
        /// systemd stops a service with `SendSIGHUP=yes` (and a session's processes at
        /// logout) by SIGTERM and at once SIGHUP, and that was an abort and an unplayable
        /// recording (by time, not by the loop: the kernel may hand the two to different
        /// threads milliseconds apart). Another signal (Ctrl-C, then a SIGTERM) counts.
        func record(_ signal: Int32) {
            _ = firstSignal.compareExchange(expected: 0, desired: signal, ordering: .relaxed)
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)   // async-signal-safe
            let milliseconds = Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
            update { w in
                let repeated = w.last == signal && !w.takenIn
                let stopPair = (w.last == SIGTERM && signal == SIGHUP) || (w.last == SIGHUP && signal == SIGTERM)
                if w.count > 0 && (repeated || (stopPair && milliseconds - w.milliseconds < 250)) { return nil }
                var counted = w
                counted.count += 1
                counted.last = signal
                counted.takenIn = false
                counted.milliseconds = milliseconds
                return counted
            }
        }

        /// The loop read `seen`: a signal after this is another press.
        func takeIn() {
            update { w in
                guard !w.takenIn else { return nil }
                var taken = w
                taken.takenIn = true
                return taken
            }
        }

        /// Ctrl-\: counted as a second interrupt at once (it aborts).
        func recordAbort(_ signal: Int32) {
            _ = firstSignal.compareExchange(expected: 0, desired: signal, ordering: .relaxed)
            update { w in
                var aborted = w
                aborted.count += 2
                return aborted
            }
        }
        var seen: Int { Word(word.load(ordering: .relaxed)).count }
        /// The first signal (0: none): what the terminal is told.
        var first: Int32 { firstSignal.load(ordering: .relaxed) }
    }

    /// A line of commands as it came: a command to run, or why a line is none (said in
    /// its turn, after what the lines before it said).
    fileprivate enum Request {
        case run(LiveCommand, Reply?)
        /// A command that needs no picture (a property change from the web page): it runs
        /// before the first frame too, unless something waits ahead of it.
        case runWithoutPicture(LiveCommand, Reply?)
        case refused(String)

        var command: (LiveCommand, Reply?)? {
            switch self {
            case .run(let c, let reply), .runWithoutPicture(let c, let reply): (c, reply)
            case .refused: nil
            }
        }
    }
    private let requests = Locked(Requests())
    private let interrupts = Interrupts()

    /// Called once the pipeline has taken the order to play (a value an element refused at
    /// its start makes it refuse, and then this is not called): where a server says where
    /// to watch, so no URL is printed for a pipeline that never runs.
    public var onStarted: (() -> Void)?

    /// Called on the session's loop about every 20 ms (e.g. to run an RTSP server's requests).
    public var onTick: (() -> Void)?
    /// Rounds of the session's loop, in every session of the process: a watchdog (the CLI's,
    /// after an interrupt) tells a loop still running from one stuck, e.g. in a state
    /// change that never ends.
    public static let loopRounds = Atomic<Int>(0)
    /// Called when a second Ctrl-C or Ctrl-\ aborts, just before the pipeline is stopped
    /// (stopping waits for every streaming thread: an element stuck for 20 s held the
    /// "abort" that long), with what to say if the process ends before the stop does.
    public var onAborting: ((AbortReport) -> Void)?

    /// Whether the picture is stopped on purpose (serve's camera while nobody watches):
    /// then commands run without waiting for a frame, and those that need one
    /// (`needsAPicture`) are refused instead of acting whenever a viewer comes.
    public var pictureIsPaused: (() -> Bool)?

    /// Whether `command` needs a frame now: `record` while a recording runs is its stop,
    /// which finishes the file without one (as Ctrl-C does), camera paused or not.
    func needsAPictureNow(_ command: LiveCommand) -> Bool {
        command.needsAPicture && !(command == .record && recordingsRunning > 0)
    }

    /// Why `command`, which needs a frame, was not run while the camera is paused.
    static func refusalWhilePaused(_ command: LiveCommand) -> String {
        "\(command.line.quotedForMessage) needs the live picture, and the camera is paused until someone watches "
            + "(a browser page, a WHEP or an RTSP player): nothing was done"
    }

    /// Where other threads (signal handlers, stdin readers, the web page) leave their
    /// requests: all they may reach of the session.
    public struct Inbox: Sendable {
        fileprivate let requests: Locked<Requests>
        fileprivate let interrupts: Interrupts

        /// Runs `command` on the session's loop; `reply`, if given, is called there with
        /// what the command said or its error.
        public func enqueue(_ command: LiveCommand, reply: Reply? = nil) {
            // `quit` needs no picture: before the first frame it stops at once, as Ctrl-C
            // does (it waited for a frame that a camera slow to start may never give).
            requests.withLock { $0.commands.append(command == .quit ? .runWithoutPicture(command, reply) : .run(command, reply)) }
        }

        /// Runs `command`, which needs no picture, at once, even before the first frame
        /// (or with the camera paused): commands that wait for a frame hold it only when
        /// they came before it.
        public func enqueueNeedingNoPicture(_ command: LiveCommand, reply: Reply? = nil) {
            requests.withLock { $0.commands.append(.runWithoutPicture(command, reply)) }
        }

        /// A line that is no command (`why` names it and the commands there are): said as
        /// `command error: …` in its turn, after the commands before it.
        public func refuse(_ why: String) {
            requests.withLock { $0.commands.append(.refused(why)) }
        }

        /// Ctrl-C, SIGTERM or SIGHUP (its number): the first sends EOS, the second aborts;
        /// SIGQUIT (Ctrl-\\) aborts at once. Safe in a signal handler.
        public func interrupt(by signal: Int32 = SIGINT) {
            if signal == SIGQUIT { interrupts.recordAbort(signal) } else { interrupts.record(signal) }
        }
    }
    public var inbox: Inbox { Inbox(requests: requests, interrupts: interrupts) }

    public func enqueue(_ command: LiveCommand, reply: Reply? = nil) { inbox.enqueue(command, reply: reply) }
    public func interrupt(by signal: Int32 = SIGINT) { inbox.interrupt(by: signal) }

    /// The first signal that stopped the session (0: none).
    public var interruptingSignal: Int32 { interrupts.first }

    /// Whether a second Ctrl-C (or SIGTERM, SIGHUP) came, or SIGQUIT: the user asked not to wait.
    public var interruptedAgain: Bool { interrupts.seen >= 2 }

    /// A still written or failed (`snapshot-saved` / `snapshot-failed`), on the session's loop.
    public struct Still {
        public let path: String
        public let saved: Bool
        public let reason: String?
    }
    public var onStill: ((Still) -> Void)?

    /// A recording started, saved or failed, in the words the terminal shows (`ok` false:
    /// it failed, `line` says why), on the session's loop.
    public struct RecordingNews {
        public let ok: Bool
        public let line: String
    }
    public var onRecording: ((RecordingNews) -> Void)?

    /// Whether the pipeline is live (known once started, when `onStarted` is called).
    public private(set) var isLive = false
    /// Whether quit or a signal sent the EOS (otherwise an EOS came from the source: a file's end).
    public private(set) var endOfStreamAsked = false

    /// Runs until EOS, an error, quit, or a second interrupt. Returns the outcome.
    public func run() -> Outcome {
        // The messages share the terminal's writer when they go where its lines go (`2>&1`:
        // a still's "saved" came before its JSON), and have their own otherwise (a file or
        // pipe nobody reads then holds only them, not the terminal's lines).
        if let messages = messagesOutput {
            messageLines = messages.sharesFile(with: (errorOutput === FileHandle.standardError ? STDERR_FILENO : errorOutput.fileDescriptor))
                ? lines : LineWriter(name: "filtercam messages")
        }
        let outcome = runUntilStopped()
        // Every line said is written before the caller says more (a reader that stopped
        // reading is waited for while it takes lines, then given up on).
        messageLines?.finish()
        lines.finish()
        let unwritten = messagesOutput?.unwrittenAtTheEnd() ?? 0
        if unwritten > 0 {
            sayAtTheEnd("filtercam launch: \(unwritten) message line\(unwritten == 1 ? " was" : "s were") not written: "
                        + "\(messagesOutput!.name) was not read")
        }
        return outcome
    }

    /// Says `line` after the run (the caller's last words): written as the run's lines are,
    /// so a terminal nobody reads holds nobody (a direct write waited for good, SIGTERM
    /// and all), and waited for as they are.
    public func sayAtTheEnd(_ line: String) {
        lines.add(line, writeErrorLine)
        lines.finish()
    }

    private func runUntilStopped() -> Outcome {
        let bus = pipeline.bus
        // FilterCam's elements start first: one holding a value it refused fails its start,
        // and the pipeline stops before a sink downstream has opened its file (filesink
        // truncates it: a typo in FILTER would empty the last good recording).
        let refusing = pipeline.filterCamElements.contains { gst_element_set_state($0.element, GST_STATE_READY) == GST_STATE_CHANGE_FAILURE }
        let started = refusing ? GST_STATE_CHANGE_FAILURE : pipeline.setState(GST_STATE_PLAYING)
        // Live sources give frames only while PLAYING: nothing to preroll.
        isLive = started == GST_STATE_CHANGE_NO_PREROLL
        if started == GST_STATE_CHANGE_FAILURE {
            // The reason is on the bus; print it.
            while let m = GstOwned(gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR)) { report(m.pointer) }
            errorLine("ERROR: pipeline refused to start")
            return .error
        }
        onStarted?()
        noteFileSinks()   // their files opened by the sinks on the way to PAUSED
        var eosDeadline: Date? = nil
        var quitWaitingSince: Date? = nil   // when a quit began waiting behind commands that need a frame
        var abortedByUser = false           // a second interrupt
        var outcome: Outcome? = nil
        while outcome == nil {
            // 20 ms: live commands (stdin, keys) are picked up within a frame.
            if let m = GstOwned(gst_bus_timed_pop(bus, 20_000_000)) {
                outcome = handle(m.pointer)
                if outcome == .endOfStream && eosDeadline != nil {
                    outcome = .stoppedByUser
                    endOfStreamSent.withLock { $0 = true }   // it came through, whether or not its sender has returned yet
                }
            }
            if outcome == nil && displayWentAway() { outcome = .error }
            onTick?()
            Self.loopRounds.add(1, ordering: .relaxed)
            // Commands wait for the first frame (a piped `snapshot` must find one), and run
            // in order; `quit` waits (bounded) for the stills asked for before it.
            let ready = outcome == nil && firstFrameHasPassed()
            if ready {
                windowTitles.refresh(pipeline)
                noteStages()
            }
            let paused = outcome == nil && pictureIsPaused?() == true
            let takeCommands = ready || outcome != nil || paused
            let interrupts = self.interrupts.seen
            if interrupts > 0 { self.interrupts.takeIn() }
            var quitStopsWaiting = false
            let commands = requests.withLock { r -> [Request] in
                // Before the first frame, only the commands needing none at the head;
                // a `quit` behind ones that need a frame waits for it at most 5 s.
                var taken = takeCommands ? r.commands.count
                    : r.commands.prefix { if case .runWithoutPicture = $0 { true } else { false } }.count
                if !takeCommands, let quit = r.commands.firstIndex(where: { $0.command?.0 == .quit }), quit >= taken {
                    let since = quitWaitingSince ?? Date()
                    quitWaitingSince = since
                    if Date().timeIntervalSince(since) > 5 { taken = quit + 1; quitStopsWaiting = true }
                }
                defer { r.commands.removeFirst(taken) }
                return Array(r.commands.prefix(taken))
            }
            var saidNotRun = false
            if outcome != nil { sayNotRun(commands.compactMap(\.command), "the pipeline ended first", "the pipeline has ended") }
            inOrder: for (i, request) in commands.enumerated() where outcome == nil {
                // The commands quit stopped waiting for, said in one line where the first
                // of them was (a refusal of a line before it is said before it).
                if quitStopsWaiting, let (command, _) = request.command, command != .quit {
                    if !saidNotRun {
                        sayNotRun(commands.compactMap(\.command).filter { $0.0 != .quit }, "no frame came within 5 s of quit", "no frame came before quit")
                        saidNotRun = true
                    }
                    continue
                }
                switch request {
                case .refused(let why):
                    errorLine("command error: \(why)")
                case .run(let command, let reply) where paused && needsAPictureNow(command),
                     .runWithoutPicture(let command, let reply) where paused && needsAPictureNow(command):
                    let why = Self.refusalWhilePaused(command)
                    if let reply { reply(.failure(ControlError(why))) } else { errorLine("command error: \(why)") }
                case .run(let command, let reply), .runWithoutPicture(let command, let reply):
                    // `quit` waits for the stills and the recording asked for before it;
                    // `record` behind a `record` waits for that one to start or be saved
                    // (a start then a stop, each said, not two toggles within a frame);
                    // any other command waits for the frames of the stills asked for before
                    // it (`filter mono; snapshot; filter invert` gives a mono still), and for
                    // the recording asked for before it to start (`record; filter invert`
                    // opened the file inverted, `record; set record-location=B` named it B).
                    let waits = command == .quit ? !stillsRequestedAreDone() || recordingIsStarting()
                        : command == .record ? recordingIsStarting() || recordingIsStopping() || !stillsRequestedHaveBegun()
                        : !stillsRequestedHaveBegun() || recordingIsStarting()
                    if waits {
                        requests.withLock { $0.commands.insert(contentsOf: commands[i...], at: 0) }
                        break inOrder   // the rest wait with it
                    }
                    if command != .quit {
                        execute(command, reply: reply)
                    } else if eosDeadline == nil {
                        eosDeadline = beginEndOfStream("quit")
                    }
                }
            }
            if interrupts >= 2 {
                // Two Ctrl-C seen at once (a few ms apart) never had their first's EOS sent.
                errorLine(self.interrupts.first == SIGQUIT ? "Quit (Ctrl-\\): aborting without waiting for EOS."
                          : eosDeadline == nil ? "Interrupted twice: aborting without waiting for EOS."
                          : "Interrupted again: aborting without waiting for EOS.")
                outcome = .aborted
                abortedByUser = true
            } else if interrupts == 1 && eosDeadline == nil && outcome == nil && stillsRequestedAreDone() && !recordingIsStarting() {
                eosDeadline = beginEndOfStream("interrupt")
            } else if interrupts == 1 && eosDeadline == nil && outcome == nil && !saidInterruptWaits {
                // Said at once: a countdown's still can be seconds away, and Ctrl-C seemed ignored.
                saidInterruptWaits = true
                errorLine("\(Self.signalWords[self.interrupts.first] ?? "Interrupt"): waiting for "
                          + (recordingIsStarting() ? "the recording asked for to start" : "the stills asked for")
                          + ", then sending EOS (Ctrl-C again aborts)…")
            }
            if let d = eosDeadline, Date() > d, outcome == nil {
                if stoppingARecording, let drain = drainWatch, drain.buffers > drainSeen, endOfStreamSent.withLock({ $0 }) {
                    // Still draining (frames still reach the sinks, the EOS in): the wait goes
                    // on. (Frames from a source that never took the EOS are no drain.)
                    drainSeen = drain.buffers
                    eosDeadline = Date().addingTimeInterval(endOfStreamTimeout)
                    if !saidDraining {
                        saidDraining = true
                        errorLine("EOS is still on its way: the pipeline is still writing what it holds; waiting while it does (Ctrl-C again aborts)…")
                    }
                } else if stoppingARecording {
                    errorLine(saidDraining ? "EOS did not arrive, and nothing reached the sinks for \(Int(endOfStreamTimeout)) s; stopping anyway (a recording may be incomplete)."
                              : "EOS did not arrive within \(Int(endOfStreamTimeout)) s; stopping anyway (a recording may be incomplete).")
                    endOfStreamTimedOut = true
                    outcome = .aborted
                } else {
                    outcome = .stoppedByUser   // nothing to finalise
                }
            }
        }
        if outcome == .error { finaliseRecordings() }
        if eosDeadline != nil && !endOfStreamSent.withLock({ $0 }) {
            // The EOS never got in (see `sendEndOfStreamAside`), and stopping the pipeline
            // would wait on the same lock: the process ends with it as it is.
            printSummary()
            printFilesWritten(aborted: outcome == .aborted)
            // (Aborted by a second Ctrl-C while the EOS was on its way: said above, not blamed on the pipeline.)
            if !abortedByUser {
                errorLine("The pipeline never took the EOS (an element still waits for its first frame): stopped without it.")
            }
            return outcome!
        }
        // Stopping finishes a recording still running (aborted, or its stop not yet seen):
        // its line, and the summary's count, come from what the elements say then (the
        // bus is flushed only on the way to NULL).
        if outcome == .aborted {
            let unfinished = recordingPaths.map { "recording \($0) unfinished: aborted before it was finished (no index), it may not play" }
            onAborting?(AbortReport(lines: summaryLines() + unfinished + filesWrittenLines(aborted: true), said: closingReportSaid))
        }
        noteStages(now: true)   // the last elements playbin linked, before it unlinks them
        pipeline.setState(GST_STATE_READY)
        reportWhatStoppingSaid()
        let saysTheEnd = closingReportSaid.setFirst()
        if saysTheEnd { printSummary() }
        pipeline.setState(GST_STATE_NULL)   // the file sinks close their files: their sizes are final
        if saysTheEnd { printFilesWritten(aborted: outcome == .aborted) }
        return outcome!
    }

    private var stoppingARecording = true
    /// The buffers reaching the sinks after EOS was sent (while stopping a recording), and
    /// how many had come at the last deadline: a drain still moving extends the wait.
    private var drainWatch: DrainWatch?
    private var drainSeen = 0
    private var saidDraining = false
    /// Whether the wait for EOS ended without it (not a second Ctrl-C): the run failed
    /// (exit status 1), its recordings said unfinished.
    public private(set) var endOfStreamTimedOut = false
    /// Whether an interrupt's wait for stills or a recording's start has been said.
    private var saidInterruptWaits = false
    /// Recordings from the preview started and not yet saved or failed.
    var recordingsRunning = 0
    /// The files of the recordings running (started, not yet saved or failed): an abort whose
    /// stop never ends leaves them without their index.
    private var recordingPaths: [String] = []
    /// When `record` asked for a recording that has not started yet (it starts with the
    /// next frame); cleared when it starts or fails.
    var recordingAsked: Date?
    /// When a running recording was asked to stop (nil once saved or failed).
    var recordingStopAsked: Date?
    /// Whether a recording runs or is about to start (`serve` keeps its camera running for it).
    public var recordingIsOn: Bool { recordingsRunning > 0 || recordingAsked != nil }

    /// Whether a recording asked for has yet to start (quit and Ctrl-C wait at most 5 s
    /// for it, so that `record` then `quit` leaves a file).
    private func recordingIsStarting() -> Bool {
        guard let asked = recordingAsked else { return false }
        return Date().timeIntervalSince(asked) <= 5
    }

    /// Whether a recording asked to stop has yet to be saved (at most 10 s): a `record`
    /// right behind a `record` waits for it, or the two would cancel out unseen.
    private func recordingIsStopping() -> Bool {
        guard let asked = recordingStopAsked else { return false }
        return Date().timeIntervalSince(asked) <= 10
    }

    /// With several FilterCam elements, the name of the one that posted `m` before its line
    /// (`b: saved …`), as a command's answer names it (`b: zoom: 1.25`): two windows of a
    /// tee each said `window: filter: noir`, and which one changed could not be told.
    private func whose(_ m: UnsafeMutablePointer<GstMessage>) -> String {
        guard let source = m.pointee.src, filterStages.count > 1 else { return "" }
        return GStreamer.name(of: UnsafeMutableRawPointer(source).assumingMemoryBound(to: GstElement.self)) + ": "
    }

    /// How the terminal names each signal that stops the session.
    private static let signalWords: [Int32: String] = [SIGINT: "Interrupt", SIGTERM: "Terminated (SIGTERM)",
                                                         SIGHUP: "Hang-up (the terminal closed)"]

    /// EOS first, so recordings are finalised; with nothing recording (no muxer or file
    /// sink, no filtercam recording from the preview) the wait is short (1.5 s): a live
    /// source that never ends must not hold a quit.
    /// Commands taken but not run: one line saying `why`, and each reply the `error`.
    private func sayNotRun(_ unrun: [(LiveCommand, Reply?)], _ why: String, _ error: String) {
        guard !unrun.isEmpty else { return }
        errorLine("not run (\(why)): \(unrun.map(\.0.line).joined(separator: ", "))")
        for (_, reply) in unrun { reply?(.failure(ControlError(error))) }
    }

    private func beginEndOfStream(_ why: String) -> Date {
        endOfStreamAsked = true
        let recording = pipeline.elements.contains { e in
            Pipeline.isMuxer(e) || Pipeline.factoryName(of: e) == "filesink" || Pipeline.factoryName(of: e) == "multifilesink"
        } || filterStages.contains { Pipeline.property($0.element, "record") == "true" }
        stoppingARecording = recording
        let cause = why == "quit" ? "Quit" : Self.signalWords[interrupts.first] ?? "Interrupt"
        // "so recordings are finalised" only where something records (it was said for a
        // pipeline with no muxer, file sink or recording, as if one were).
        let finishing = recording ? " so recordings are finalised" : ""
        errorLine(why == "quit" ? "Quit: sending EOS\(finishing)…"
                                : "\(cause): sending EOS\(finishing) (Ctrl-C again aborts)…")
        if pipeline.isPausedOnPurpose {
            // Serve's camera while nobody watches: a source that is not live waits in the
            // sink's preroll there, where no EOS gets past; playing, it flows. Also while the
            // pause is still settling (the sink not yet prerolled): the EOS would wait for good.
            pipeline.setPlaying(true)
        }
        if recording { drainWatch = DrainWatch(elements: pipeline.elements) }
        sendEndOfStreamAside()
        return Date().addingTimeInterval(recording ? endOfStreamTimeout : min(1.5, endOfStreamTimeout))
    }

    /// Sends EOS from a thread of its own. Sending waits for the sources' streaming threads,
    /// and one that waits in a sink for a preroll that never completes (a pipeline still
    /// starting, a branch that never gets a frame) holds it for good: the session's loop must
    /// go on, so the deadline and a second Ctrl-C still end the run.
    private func sendEndOfStreamAside() {
        let sent = endOfStreamSent, element = SendableElement(pointer: pipeline.element)
        Thread.detachNewThread {
            gst_element_send_event(element.pointer, gst_event_new_eos())
            sent.withLock { $0 = true }
        }
    }
    private let endOfStreamSent = Locked(false)

    private func handle(_ m: UnsafeMutablePointer<GstMessage>) -> Outcome? {
        switch m.pointee.type {
        case GST_MESSAGE_EOS:
            return .endOfStream
        case GST_MESSAGE_ERROR:
            report(m)
            return .error
        case GST_MESSAGE_WARNING:
            report(m)
        case GST_MESSAGE_ELEMENT:
            writeMessageLine(for: m)
            reportStill(m)
            reportRecording(m)
        case GST_MESSAGE_LATENCY:
            gst_bin_recalculate_latency(pipeline.element.asBin)
        case GST_MESSAGE_APPLICATION:
            // Keys pressed in the preview window (FilterCamElement.navigate, which ran the
            // command): `h` and `q` act here; what another key changed is echoed, as for
            // the same key here.
            if let structure = gst_message_get_structure(m),
               String(cString: gst_structure_get_name(structure)) == "filtercam-command",
               let command = gst_structure_get_string(structure, "command").map({ String(cString: $0) }) {
                switch command {
                case "quit": enqueue(.quit)
                case "help": errorLine(TerminalKeys.shortHelp)   // the window shows its own card
                case "feedback":
                    if let text = gst_structure_get_string(structure, "text") { errorLine(whose(m) + "window: " + String(cString: text)) }
                    // What the key asked for (a still, a countdown, a recording), noted as
                    // for a command typed here.
                    if let line = gst_structure_get_string(structure, "line").flatMap({ try? LiveCommand(line: String(cString: $0)) }),
                       let source = m.pointee.src {
                        noteRan(line, on: UnsafeMutableRawPointer(source).assumingMemoryBound(to: GstElement.self))
                    }
                default: break
                }
            }
        default:
            break
        }
        return nil
    }

    /// Whether the debug detail keeps GStreamer's first line, the C source location that
    /// raised the message (`file.c(123): function (): /pipeline/element`): for developers
    /// (`launch --verbose`, or GST_DEBUG set), noise for everyone else.
    public var showsSourceLocations = !(ProcessInfo.processInfo.environment["GST_DEBUG"] ?? "").isEmpty
    /// The pipeline file run (its name as given), so an element's error names its line.
    public var sourceFile: (name: String, file: PipelineFile)?

    /// The debug detail without its source-location lines unless asked for.
    static func detailForUser(_ detail: String, withSourceLocation: Bool) -> String {
        guard !withSourceLocation else { return detail }
        // Each message that was re-posted on the way adds such a line.
        let lines = detail.split(separator: "\n").map(String.init)
            .filter { $0.range(of: #"^\S+\(\d+\): .*\(\)"#, options: .regularExpression) == nil }
        return lines.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The element that posted `m` (nil: a pad, the pipeline's bus, …).
    private static func element(_ m: UnsafeMutablePointer<GstMessage>) -> UnsafeMutablePointer<GstElement>? {
        guard let src = m.pointee.src, fc_is_element(UnsafeMutableRawPointer(src)) != 0 else { return nil }
        return UnsafeMutableRawPointer(src).assumingMemoryBound(to: GstElement.self)
    }

    /// Prints an ERROR or WARNING with the element that raised it and the debug detail.
    private func report(_ m: UnsafeMutablePointer<GstMessage>) {
        guard let problem = BusProblem(m) else { return }
        let isError = problem.isError, text = problem.text(or: "?"), detail = problem.detail ?? ""
        let source = m.pointee.src.flatMap { String(takingGLib: gst_object_get_path_string($0)) } ?? "?"
        // A sink on a busy machine repeats "A lot of buffers are being dropped" every few
        // seconds: each warning is shown once, and how often it came at the end.
        // A recording that could not start is said by `reportRecording`, each time (the
        // warnings' once-only rule would hide a second `record` into a missing folder).
        if !isError && text.hasPrefix(Self.recordingFailurePrefix) { return }
        if !isError {
            let key = source + "\n" + text
            repeatedWarnings[key, default: 0] += 1
            if repeatedWarnings[key]! > 1 { return }
        } else {
            // GStreamer's own follow-up to an element's error at start ("state change failed
            // and some element failed to post a proper error message") says nothing more.
            if text.hasPrefix(Self.genericStateChangeError) && erroredSources.contains(source) { return }
            erroredSources.insert(source)
        }
        errorLine("\(isError ? "ERROR" : "WARNING") from element \(source): \(text)")
        let shownDetail = Self.detailForUser(detail, withSourceLocation: showsSourceLocations)
        if !shownDetail.isEmpty { errorLine("  debug: \(shownDetail)") }
        if isError, let (name, file) = sourceFile, let line = file.line(forError: text) ?? Self.element(m).flatMap({ e in
            Pipeline.factoryName(of: e).flatMap { file.line(forElement: GStreamer.name(of: e), factory: $0) }
        }) {
            errorLine("  in \(name):\(line.number): \(line.text)")
        }
        if isError, let hint = SinkSetupHint.hint(source: source, text: text + "\n" + detail) { errorLine("  hint: \(hint)") }
        if isError, detail.contains("not-negotiated") || text.contains("not negotiated") {
            for (name, element) in filterStages {
                if let hint = FormatProblem.inputHint(name, element) { errorLine("  hint: \(hint)") }
            }
        }
    }


    /// Each warning shown (element path and text) and how often it came.
    private var repeatedWarnings: [String: Int] = [:]
    /// The elements that have posted an error.
    private var erroredSources: Set<String> = []
    /// How a FilterCam element's recording failure begins (its WARNING and `reason`).
    static let recordingFailurePrefix = "cannot record to "
    static let genericStateChangeError = "GStreamer error: state change failed and some element failed to post a proper error message"

    /// Whether the summary and the files' lines have been said (by the end of `run`, or by
    /// an abort's `AbortReport` when the stop never ended): said once.
    private let closingReportSaid = Locked(false)

    /// `filtercam NAME: processed=N dropped=M` per FilterCam element, on stderr.
    func printSummary() { summaryLines().forEach(errorLine) }

    /// The FilterCam elements seen while running, each kept (a reference) for the summary:
    /// one inside playbin (`video-filter=`) leaves the bin as the pipeline stops, and its
    /// line was missing.
    private var stagesSeen: [(name: String, element: GstOwned<GstElement>)] = []
    private var stagesLastLooked = Date.distantPast

    /// Adds the FilterCam elements not seen before (at most once a second unless `now`).
    private func noteStages(now: Bool = false) {
        guard now || Date().timeIntervalSince(stagesLastLooked) > 1 else { return }
        stagesLastLooked = Date()
        for stage in filterStages where !stagesSeen.contains(where: { $0.element.pointer == stage.element }) {
            stagesSeen.append((stage.name, GstOwned(retaining: stage.element)))
        }
        noteFileSinks()
    }

    private func summaryLines() -> [String] {
        noteStages(now: true)
        var lines: [String] = []
        for (key, count) in repeatedWarnings.sorted(by: { $0.key < $1.key }) where count > 1 {
            let parts = key.split(separator: "\n", maxSplits: 1)
            lines.append("(the WARNING from \(parts[0]) \"\(parts.count > 1 ? String(parts[1]) : "")\" came \(count) times)")
        }
        for (name, owned) in stagesSeen {
            let element = owned.pointer
            var line = "filtercam \(name): processed=\(Pipeline.property(element, "frames-processed") ?? "0") dropped=\(Pipeline.property(element, "frames-dropped") ?? "0")"
            if let snapshots = Pipeline.property(element, "snapshots-written") { line += " snapshots=\(snapshots)" }
            if let recordings = Pipeline.property(element, "recordings-written") { line += " recordings=\(recordings)" }
            if let faces = Pipeline.property(element, "frames-with-faces") { line += " faces=\(faces)" }
            lines.append(line)
        }
        return lines
    }

    /// What each file sink wrote, so a recording's file and size are named (a newcomer
    /// running `launch record` otherwise had to look for it), and whether it may not play.
    func printFilesWritten(aborted: Bool) { filesWrittenLines(aborted: aborted).forEach(errorLine) }

    /// Each file sink's file, held open from the start (a regular file's only): at
    /// the end it tells a file moved (renamed, its folder renamed: its data is kept) from one
    /// removed (lost).
    private var sinkFiles: [String: Int32] = [:]

    deinit { sinkFiles.values.forEach { close($0) } }

    /// The file sinks seen while running, each kept (a reference) for the end's lines: one
    /// inside playbin (`video-sink=`) is added once playbin links it and leaves the bin as
    /// the pipeline stops, and its `wrote` line was missing.
    private var fileSinksSeen: [GstOwned<GstElement>] = []

    /// Notes the file sinks not seen before and holds their files.
    private func noteFileSinks() {
        for sink in pipeline.elements where Pipeline.factoryName(of: sink) == "filesink"
            && !fileSinksSeen.contains(where: { $0.pointer == sink }) {
            fileSinksSeen.append(GstOwned(retaining: sink))
        }
        holdSinkFiles()
    }

    private func holdSinkFiles() {
        for sink in fileSinksSeen.map(\.pointer) {
            guard let location = Pipeline.property(sink, "location"), sinkFiles[location] == nil else { continue }
            var info = stat()
            guard stat(location, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
            let fd = open(location, O_RDONLY | O_CLOEXEC)
            if fd >= 0 { sinkFiles[location] = fd }
        }
    }

    /// Files the file sinks wrote that were gone at the end (the run fails: they are lost).
    public private(set) var filesGone: [String] = []
    /// Stills asked for and not written (`snapshot-failed`), recordings that failed
    /// (`recording-failed`): each said as it happened; they fail a run that went well.
    public private(set) var stillsNotWritten = 0
    public private(set) var recordingsFailed = 0

    private func filesWrittenLines(aborted: Bool) -> [String] {
        var lines: [String] = []
        for sink in fileSinksSeen.map(\.pointer) {
            guard let location = Pipeline.property(sink, "location") else { continue }
            var info = stat()   // through a symbolic link: the file written, not the link
            guard stat(location, &info) == 0 else {
                // Moved (renamed, or its folder renamed): its data is there still, elsewhere.
                var held = stat()
                if let fd = sinkFiles[location], fstat(fd, &held) == 0, held.st_nlink > 0 {
                    lines.append("\(location) was moved or renamed while it was written (\(RecordingReport.size(UInt64(held.st_size)))): it is no longer at that path")
                    continue
                }
                // Said, as the element's own recording says it: the line was left out, and
                // a recording whose folder was removed ended with exit status 0 and no word.
                lines.append("\(location) is no longer there: removed, or its folder removed, while it was written")
                if !filesGone.contains(location) { filesGone.append(location) }
                continue
            }
            let failed = String(takingGLib: gst_object_get_path_string(sink.asObject)).map(erroredSources.contains) ?? false
            // A pipe or a device (/dev/stdout, a FIFO) has no size to say; one whose writes
            // failed (/dev/full) was not written ("wrote /dev/full" read as a success).
            guard (info.st_mode & S_IFMT) == S_IFREG else {
                lines.append(failed ? "writing to \(location) failed (above)" : "wrote \(location)")
                continue
            }
            let bytes = UInt64(info.st_size)
            // An element before the sink that failed at its start (x264enc at an odd size)
            // left the file empty: "wrote record.mp4 (0 B)" read as a recording.
            guard bytes > 0 else {
                let why = failed || !erroredSources.isEmpty ? " (the error above)" : aborted ? " (stopped before the EOS reached it)" : ""
                lines.append("nothing was written to \(location): it is empty" + why)
                continue
            }
            // A write that failed (a full disk, a file-size limit) or an abort (a second
            // Ctrl-C: no EOS) leaves a recording without its index: it may not play.
            let unfinished = failed ? ", unfinished: writing it failed (above), it may not play"
                : aborted ? ", unfinished: aborted before EOS reached it, it may not play" : ""
            lines.append("wrote \(location) (\(RecordingReport.size(bytes)))" + unfinished)
        }
        return lines
    }

    // MARK: Stills and the first frame

    /// Whether a frame went through: any FilterCam stage has processed one (or, with none,
    /// the pipeline is PLAYING).
    private func firstFrameHasPassed() -> Bool {
        if firstFramePassed { return true }
        let stages = filterStages
        if stages.isEmpty {
            var state = GST_STATE_NULL, pending = GST_STATE_NULL
            gst_element_get_state(pipeline.element, &state, &pending, 0)
            firstFramePassed = state == GST_STATE_PLAYING
        } else {
            firstFramePassed = stages.contains { (Pipeline.property($0.element, "frames-processed").flatMap { UInt64($0) } ?? 0) > 0 }
        }
        return firstFramePassed
    }
    private var firstFramePassed = false
    private let windowTitles = WindowTitles()

    /// Stills asked for by `snapshot`, and when the last was asked or began (quit waits
    /// at most 5 s after that).
    var stillsRequested = 0
    var lastStillRequest = Date.distantPast
    /// Sets of stills begun (`snapshot-started`, from any cause: a command, a key in the
    /// window, `snapshot-every`), the stills they hold (a bracket is one per bias), and
    /// the stills written or failed.
    var setsStarted = 0
    private var stillsStarted = 0
    private var stillsFinished = 0

    /// A countdown running from a command: when its still is due, and the sets begun
    /// before it (the next one is its still).
    var countdown: (due: Date, setsBefore: Int)?

    /// Whether a countdown's still has yet to begin (quit waits at most 5 s past its end).
    private func countdownIsPending() -> Bool {
        guard let c = countdown, setsStarted <= c.setsBefore else { return false }
        return Date() < c.due.addingTimeInterval(5)
    }

    /// Whether every still asked for has begun and every still begun is written (a
    /// bracket's set takes consecutive frames: EOS before its last frame would cut it).
    private func stillsRequestedAreDone() -> Bool {
        ((setsStarted >= stillsRequested && stillsFinished >= stillsStarted) || Date().timeIntervalSince(lastStillRequest) > 5)
            && !countdownIsPending()
    }

    /// Whether a still asked for (a countdown's too) has yet to be written: `serve` keeps
    /// its camera running for it.
    public var stillIsPending: Bool { !stillsRequestedAreDone() }

    /// Whether every still asked for has its frames (its set began, and a bracketed set has
    /// taken a frame for each bias), so that what a command after it changes is not in it:
    /// `snapshot` then `rotate` gave a set of one turned and two upright stills. Bounded,
    /// as `quit`'s wait.
    private func stillsRequestedHaveBegun() -> Bool {
        (setsStarted >= stillsRequested && !filterStages.contains { ElementControl($0.element).stillIsWaiting })
            || Date().timeIntervalSince(lastStillRequest) > 5
    }

    /// One line per still written (`snapshot-saved`); each written or failed (`snapshot-failed`) is counted.
    private func reportStill(_ m: UnsafeMutablePointer<GstMessage>) {
        guard let structure = gst_message_get_structure(m) else { return }
        let name = String(cString: gst_structure_get_name(structure))
        if name == "snapshot-started" {
            var stills: gint = 1
            gst_structure_get_int(structure, "stills", &stills)
            setsStarted += 1
            stillsStarted += Int(stills)
            lastStillRequest = Date()
            return
        }
        guard name == "snapshot-saved" || name == "snapshot-failed" else { return }
        stillsFinished += 1
        let path = gst_structure_get_string(structure, "path").map { String(cString: $0) } ?? ""
        let reason = gst_structure_get_string(structure, "reason").map { String(cString: $0) }
        // A countdown called off by the user lost nothing (it failed the run: t then Esc).
        if name == "snapshot-failed" && !(reason ?? "").hasSuffix(countdownCalledOff) { stillsNotWritten += 1 }
        onStill?(Still(path: path, saved: name == "snapshot-saved", reason: reason))
        if name == "snapshot-saved" {
            var width: gint = 0, height: gint = 0
            gst_structure_get_int(structure, "width", &width)
            gst_structure_get_int(structure, "height", &height)
            // The path as given (SNAPDIR, a location with a folder), as recordings name theirs.
            errorLine(whose(m) + "saved \(Self.asGiven(path)) \(width)x\(height)")
        }
        // A failure needs no line of its own: the element's WARNING, shown already, names
        // the still and why (requests no frame came for: one WARNING for them all).
    }

    // MARK: Recordings

    /// `launch --audio`: every filtercam records sound from its `record-audio-source` (the
    /// default microphone) with the picture.
    public func recordSound() {
        for (_, element) in filterStages where Pipeline.property(element, "record-audio") != nil {
            try? Pipeline.setProperty(element, "record-audio", "true")
        }
    }

    /// A file's path as the user would name it: `./recording-00000.mp4` (a folder
    /// variable's default in a pipeline file) is the file in this folder.
    static func asGiven(_ path: String) -> String {
        path.hasPrefix("./") ? String(path.dropFirst(2)) : path
    }

    /// The message's line for `--messages`; a file that cannot be written is said once.
    private func writeMessageLine(for m: UnsafeMutablePointer<GstMessage>) {
        guard let out = messagesOutput, let line = MessageJSON.line(for: m) else { return }
        out.add(line, on: messageLines ?? lines) { [writeErrorLine] failure in writeErrorLine("filtercam launch: " + failure) }
    }

    /// What the elements said as the pipeline stopped (recordings finished or given up,
    /// stills called off, their warnings), said as while it ran.
    private func reportWhatStoppingSaid() {
        let types = GstMessageType(rawValue: GST_MESSAGE_ELEMENT.rawValue | GST_MESSAGE_WARNING.rawValue)
        while let message = GstOwned(gst_bus_pop_filtered(pipeline.bus, types)) {
            // Stills the stop called off (window keys held behind a still) are said too.
            if message.pointer.pointee.type == GST_MESSAGE_WARNING {
                report(message.pointer)
                continue
            }
            writeMessageLine(for: message.pointer)   // as while running
            guard let structure = gst_message_get_structure(message.pointer) else { continue }
            let name = String(cString: gst_structure_get_name(structure))
            if name == "recording-saved" || name == "recording-failed" { reportRecording(message.pointer) }
            // Stills written while the pipeline stopped (a window closed just after `s s s`)
            // are said as those written while it ran.
            if name == "snapshot-failed" || name == "snapshot-saved" { reportStill(message.pointer) }
        }
    }

    /// One line when a recording from the preview starts, and one when its file is
    /// complete: the file, its length and its size (`recording-started`, `recording-saved`;
    /// a failure, `recording-failed`, is said each time instead of the element's WARNING).
    func reportRecording(_ m: UnsafeMutablePointer<GstMessage>) {
        guard let structure = gst_message_get_structure(m) else { return }
        let name = String(cString: gst_structure_get_name(structure))
        let path = Self.asGiven(gst_structure_get_string(structure, "path").map { String(cString: $0) } ?? "?")
        var sound: gboolean = 0
        gst_structure_get_boolean(structure, "sound", &sound)
        switch name {
        case "recording-started":
            recordingsRunning += 1
            recordingPaths.append(path)
            recordingAsked = nil
            var width: gint = 0, height: gint = 0
            gst_structure_get_int(structure, "width", &width)
            gst_structure_get_int(structure, "height", &height)
            let line = "recording \(path) (\(width)x\(height), \(sound != 0 ? "with sound" : "no sound"))"
            errorLine(whose(m) + line + "; v or 'record' again stops it")
            // The page says how its own button stops it (it has no v key).
            onRecording?(RecordingNews(ok: true, line: line + "; Record again stops it"))
        case "recording-failed":
            recordingsFailed += 1
            var started: gboolean = 1
            gst_structure_get_boolean(structure, "started", &started)
            if started != 0 { recordingsRunning -= 1 }
            recordingPaths.removeAll { $0 == path }
            recordingAsked = nil
            recordingStopAsked = nil
            // One that could not start is said here, each time (its WARNING is not printed);
            // the others (cut short, not finished cleanly) are said by their WARNING.
            let reason = gst_structure_get_string(structure, "reason").map { String(cString: $0) } ?? "cannot record to \(path)"
            if reason.hasPrefix(Self.recordingFailurePrefix) { errorLine(whose(m) + "recording failed: " + reason) }
            onRecording?(RecordingNews(ok: false, line: reason))
        case "recording-saved":
            recordingsRunning -= 1
            recordingPaths.removeAll { $0 == path }
            recordingStopAsked = nil
            var seconds = 0.0, frames: gint = 0, dropped: gint = 0
            var size: guint64 = 0
            gst_structure_get_double(structure, "duration", &seconds)
            gst_structure_get_uint64(structure, "size", &size)
            gst_structure_get_int(structure, "frames", &frames)
            gst_structure_get_int(structure, "dropped", &dropped)
            let line = RecordingReport.saved(path: path, seconds: seconds, bytes: UInt64(size), frames: Int(frames),
                                             dropped: Int(dropped), sound: sound != 0)
            errorLine(whose(m) + line)
            onRecording?(RecordingNews(ok: true, line: line))
        default:
            break
        }
    }

    func errorLine(_ s: String) { lines.add(s, writeErrorLine) }

    /// Says a line on the terminal in its turn among the session's (from its loop's
    /// callbacks: a direct write there held the loop when nobody read the terminal).
    public func say(_ line: String) { errorLine(line) }
}
