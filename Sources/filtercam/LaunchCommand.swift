import CGStreamer
import FilterCamHost
import FilterCamTool
import FilterCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `filtercam launch [--messages[=FILE]] [--audio] FILE|DESCRIPTION`
enum LaunchCommand {
    nonisolated(unsafe) static var session: PipelineSession?

    static func run(_ arguments: [String]) -> Int32 {
        var messages: MessageLines? = nil
        var messagesToStdout = false
        var messagesPath: String? = nil   // opened once the command line and the pipeline are good
        var verbose = false
        var audio = false
        var rest: [String] = []
        // `--messages out.json demo` or `--messages out.json 'videotestsrc ! …'`: the file
        // was read as the pipeline's first word (a bare --messages is stdout).
        func hintAtMessagesFile() {
            guard messagesToStdout, rest.count > 1, let first = rest.first, !first.contains("!"), !first.contains("=") else { return }
            printError("  hint: --messages takes its file after '=': --messages=\(first)")
        }
        for (index, a) in arguments.enumerated() {
            if a == "--" && rest.isEmpty {   // the end of the options, as for gst-launch-1.0
                rest = Array(arguments[(index + 1)...])
                break
            } else if a == "--messages" || a == "--messages=-" {   // `-`: stdout, as for most tools
                messages = MessageLines(fd: STDOUT_FILENO, name: "stdout", owned: false)
                messagesPath = nil
                messagesToStdout = true
            } else if a.hasPrefix("--messages=") {
                messagesPath = String(a.dropFirst("--messages=".count))
                messages = nil
                messagesToStdout = false
            } else if a == "--verbose" {
                verbose = true
            } else if a == "--audio" {
                audio = true
            } else if a.hasPrefix("-") && rest.isEmpty {
                let option = String(a.split(separator: "=", maxSplits: 1).first ?? "")
                let hint = NameSuggestion.hint(for: option, among: ["--messages", "--audio", "--verbose", "--help"])
                printError("filtercam launch: unknown option \(a.quotedForMessage)\(hint) (options: --messages[=FILE], --audio, --verbose, --help)")
                return 2
            } else {
                rest.append(a)
            }
        }
        guard !rest.isEmpty else {
            printError("filtercam launch: give a pipeline file (pipelines/*.pipeline) or a description, e.g. 'videotestsrc ! filtercam filter=sepia ! autovideosink'")
            return 2
        }
        let target: PipelineTarget
        do {
            target = try PipelineTarget(rest)
        } catch {
            printError("filtercam launch: \(error)")
            if error is WordsBesidePipeline { hintAtMessagesFile() }
            return 1
        }
        let (argument, description, file) = (target.argument, target.description, target.file)
        if let note = target.note { printError("filtercam launch: " + note) }
        if let file { UnreadVariables.notes(for: file, named: argument).forEach(printError) }
        if let problem = QuoteCheck.problem(in: description, file: file, argument: argument) {
            printError("filtercam launch: \(problem)")
            return 1
        }
        // The words as typed (a name, a path, variables given on the command line).
        let sinkOf = file.flatMap { $0.variablesRead.contains("SINK") ? rest.map(DisplayCheck.shellWord).joined(separator: " ") : nil }
        if let problem = DisplayCheck.problem(with: description, command: "filtercam launch", sinkOf: sinkOf, typed: file == nil) {
            printError(problem)
            return 1
        }
        let pipeline: Pipeline
        do {
            pipeline = try Pipeline(description: description)
        } catch {
            var message = "filtercam launch: "
            if let file {
                message += "\(argument)"
                if let line = ParseHints.line(of: "\(error)", in: file) { message += ":\(line)" }
                message += ": "
            }
            printError(message + "\(error)")
            for hint in ParseHints.hints(for: "\(error)", file: file, description: description) { printError("  " + hint) }
            if let hint = (error as? Pipeline.ParseError)?.linkHint { printError("  hint: " + hint) }
            hintAtMessagesFile()
            // `launch 'videotestsrc ! fakesink' --verbose`: GStreamer said only "syntax error".
            if let option = rest.dropFirst().first(where: { $0.hasPrefix("--") }) {
                printError("  hint: \(option.quotedForMessage) after the description was read as part of it: options go before it")
            }
            return 1
        }
        // The messages and the stream in one stdout: JSON lines went into the raw frames.
        if messagesToStdout, let sink = pipeline.elements.first(where: Self.writesStandardOutput) {
            printError("filtercam launch: --messages writes to stdout, where \(GStreamer.name(of: sink)) writes the stream: "
                       + "give the messages a file of their own (--messages=FILE)")
            return 2
        }
        // `--messages=/dev/stdout`: stdout by another name, into the stream the same way.
        if let path = messagesPath, !messagesToStdout, Self.isStandardOutput(path),
           let sink = pipeline.elements.first(where: Self.writesStandardOutput) {
            printError("filtercam launch: --messages=\(path) writes to stdout, where \(GStreamer.name(of: sink)) writes the stream: "
                       + "give the messages a file of their own")
            return 2
        }
        if let path = messagesPath {
            // The pipeline file itself was emptied, then blamed for holding no pipeline.
            var given = stat(), read = stat()
            if file != nil, stat(path, &given) == 0, stat(argument, &read) == 0,
               given.st_dev == read.st_dev, given.st_ino == read.st_ino {
                printError("filtercam launch: --messages=\(path) is the pipeline file itself: writing the messages would empty it; give them a file of their own")
                return 2
            }
            // Opened as a shell's `>` opens it: a FIFO another program reads, /dev/stderr
            // or /dev/null are written to, not replaced by a new file (FileManager's
            // createFile writes a temporary file and renames it over the path). Only now:
            // a command line or pipeline refused left the file emptied.
            let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard fd >= 0 else {
                printError("filtercam launch: cannot write messages to '\(path)': \(String(cString: strerror(errno)))")
                return 2
            }
            messages = MessageLines(fd: fd, name: path.quotedForMessage, owned: true)
        }
        let session = PipelineSession(pipeline: pipeline)
        session.messagesOutput = messages
        if verbose { session.showsSourceLocations = true }
        // How long quit and Ctrl-C wait for EOS without anything reaching the sinks (10 s).
        if let text = getenv("FILTERCAM_EOS_WAIT").map({ String(cString: $0) }), let seconds = Double(text), seconds > 0, seconds.isFinite {
            session.endOfStreamTimeout = seconds
        }
        if let file { session.sourceFile = (argument, file) }
        if audio { session.recordSound() }
        Self.session = session
        installSignalHandlers()
        let restoreTerminal = startReadingCommands(into: session)
        session.onAborting = { [weak session] report in
            Self.exitIfStopIsStuck(status: session?.interruptingSignal == SIGQUIT ? 128 + SIGQUIT : 130, report: report)
        }
        let outcome = session.run()
        restoreTerminal()
        // Ctrl-\ as a shell reports it; the rest by the outcome.
        if outcome == .aborted && session.interruptingSignal == SIGQUIT { return 128 + SIGQUIT }
        // The wait for EOS ended without it: a failure, not an interrupt (it said 130 after `quit`).
        if outcome == .aborted && session.endOfStreamTimedOut { return 1 }
        // A file written and gone at the end (said) fails a run that went well.
        if outcome.exitStatus == 0, !session.filesGone.isEmpty {
            session.sayAtTheEnd("filtercam launch: \(session.filesGone.count == 1 ? "a file" : "files") written \(session.filesGone.count == 1 ? "is" : "are") lost: exit status 1")
            return 1
        }
        // Stills and recordings asked for and not made (each said when it happened) fail a
        // run that went well: a script checking the status took the status 0 for a still.
        if outcome.exitStatus == 0, session.stillsNotWritten + session.recordingsFailed > 0 {
            let stills = session.stillsNotWritten, recordings = session.recordingsFailed
            let what = [stills > 0 ? "\(stills) still\(stills == 1 ? "" : "s")" : nil,
                        recordings > 0 ? "\(recordings) recording\(recordings == 1 ? "" : "s")" : nil].compactMap { $0 }
            session.sayAtTheEnd("filtercam launch: \(what.joined(separator: " and ")) failed (said above): exit status 1")
            return 1
        }
        // Messages asked for and lost (said when it happened) fail a run that went well.
        if outcome.exitStatus == 0, let failure = messages?.failed {
            session.sayAtTheEnd("filtercam launch: messages were lost (\(failure)): exit status 1")
            return 1
        }
        return outcome.exitStatus
    }

    /// Whether `element` writes to standard output (`fdsink fd=1`, `filesink
    /// location=/dev/stdout`).
    static func writesStandardOutput(_ element: UnsafeMutablePointer<GstElement>) -> Bool {
        switch Pipeline.factoryName(of: element) {
        case "fdsink": return Pipeline.property(element, "fd") == "1"
        case "filesink": return ["/dev/stdout", "/proc/self/fd/1", "/dev/fd/1"].contains(Pipeline.property(element, "location") ?? "")
        default: return false
        }
    }

    /// Whether `path` is this process's standard output (`/dev/stdout`, `/proc/self/fd/1`,
    /// or the file stdout was sent to).
    static func isStandardOutput(_ path: String) -> Bool {
        var named = stat(), out = stat()
        return stat(path, &named) == 0 && fstat(STDOUT_FILENO, &out) == 0 && named.st_dev == out.st_dev && named.st_ino == out.st_ino
    }

    /// The quoted element, property or value a GStreamer parse error names.
    static func offendingToken(in message: String) -> String? {
        let quotes = message.split(separator: "\"", omittingEmptySubsequences: false)
        if quotes.count >= 3 { return String(quotes[1]) }
        let singles = message.split(separator: "'", omittingEmptySubsequences: false)
        if singles.count >= 3 { return String(singles[1]) }
        return nil
    }

    /// Ctrl-C, SIGTERM and SIGHUP (the terminal or the ssh session closed) finish the
    /// recordings first; Ctrl-\ aborts at once (the Swift runtime's own handler waited on
    /// the terminal for a key, leaving it raw and the process alive).
    static func installSignalHandlers() {
        // Before a session runs there is nothing to finish: the signal ends the process as
        // its default would. Installed first thing (main.swift): a script's background job
        // starts with SIGINT and SIGQUIT ignored, and one sent while GStreamer scanned its
        // plugins (seconds, after an update) was lost: the pipeline then ran on.
        let handler: @convention(c) (Int32) -> Void = { signal in
            guard let session = LaunchCommand.session else { _exit(128 + signal) }
            session.interrupt(by: signal)
            // The last resort, which needs no thread (SIGALRM, below): the session's loop
            // stuck for 10 s after an interrupt (a source's task that could not start, under
            // a thread limit, held the start in GStreamer for good), or the process still
            // there 5 s after an abort asked for (its own stop ends it within a second, from a
            // thread of its own, which may be the one that could not be made). Two TERMs and
            // two Ctrl-C left it alive until SIGKILL.
            lastResortStatus = signal == SIGQUIT ? 128 + SIGQUIT : 130
            abortAsked = session.interruptedAgain
            roundsAtAlarm = PipelineSession.loopRounds.load(ordering: .relaxed)
            alarm(abortAsked ? 5 : 10)
        }
        for s in [SIGINT, SIGTERM, SIGQUIT] { signal(s, handler) }
        signal(SIGALRM, { _ in
            let rounds = PipelineSession.loopRounds.load(ordering: .relaxed)
            if !abortAsked && rounds != roundsAtAlarm {   // the loop runs: it finishes the stop itself
                roundsAtAlarm = rounds
                alarm(10)
                return
            }
            if terminalLineMode.saved { _ = tcsetattr(STDIN_FILENO, TCSANOW, &terminalLineMode.termios) }
            // Static text: nothing allocated in a signal handler.
            let said: StaticString = abortAsked ? "\nfiltercam: still running 5 s after the abort: ended here\n"
                : "\nfiltercam: the pipeline has not answered for 10 s since the interrupt (stuck in GStreamer): ended here, without finishing\n"
            _ = write(STDERR_FILENO, said.utf8Start, said.utf8CodeUnitCount)
            _exit(lastResortStatus)
        })
        // Under `nohup` (SIGHUP ignored from the start) a closed terminal or ssh session
        // must not end the recording: ignored it stays, as nohup's users count on.
        let hangUp = signal(SIGHUP, handler)
        if let hangUp, unsafeBitCast(hangUp, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) {
            signal(SIGHUP, SIG_IGN)
        }
        // SIGXFSZ and SIGPIPE are ignored from the start (main.swift).
    }

    /// An abort (a second Ctrl-C, Ctrl-\\) ends the process within a second even when an
    /// element does not let the pipeline stop (the stop waits for its streaming thread:
    /// 16 s behind an element stuck for 20 s, where gst-launch-1.0 ends at once); the
    /// terminal's line mode is put back first, and the summary and the files written said
    /// (unfinished) as the stop would have said them.
    static func exitIfStopIsStuck(status: Int32, report: AbortReport) {
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: 1)
            // The report is said from a thread of its own, waited for at most 2 s: a
            // terminal nobody reads held its write, and the process, for good.
            let over = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                // Said by the session already: it is past the stop and about to end by itself.
                if !report.sayUnlessSaid() { Thread.sleep(forTimeInterval: 1) }
                over.signal()
            }
            _ = over.wait(timeout: .now() + 2)
            restoreLineMode()
            _exit(status)
        }
    }

    /// Reads commands from stdin on a background thread: single keys in a terminal,
    /// lines otherwise. The end of stdin does not stop the pipeline.
    static func startReadingCommands(into session: PipelineSession) -> () -> Void {
        let inbox = session.inbox
        if isatty(STDIN_FILENO) != 0 {
            // A job in the background (`filtercam launch … &`) may neither change the
            // terminal's modes (SIGTTOU) nor read it (SIGTTIN): either stopped the process
            // for good, before the pipeline started. Reads there fail instead (EIO), and
            // key mode waits until the job is in the foreground (`fg`).
            signal(SIGTTIN, SIG_IGN)
            // After Ctrl-Z and fg the shell has put its line mode back: single keys echoed
            // and waited for Enter. Key mode again when the job goes on, in the foreground.
            // The half-typed command line is drawn again too, by a thread the handler wakes
            // (a signal handler may not take the line's lock).
            _ = continuedPipe   // made here: a global's first use is not for a signal handler
            signal(SIGCONT) { _ in
                if terminalLineMode.saved && tcgetpgrp(STDIN_FILENO) == getpgrp() {
                    _ = tcsetattr(STDIN_FILENO, TCSANOW, &terminalKeyMode)
                }
                var wake: UInt8 = 1
                _ = write(continuedPipe.writeEnd, &wake, 1)
            }
            Thread.detachNewThread {
                var wake: UInt8 = 0
                while read(continuedPipe.readEnd, &wake, 1) == 1 {
                    if terminalLineMode.saved && isInForeground { TypedLine.standardError.drawAgain() }
                }
            }
            if isInForeground {
                enterKeyMode(inbox: inbox)
            } else {
                printError("filtercam: in the background: keys are read once it is in the foreground (fg)")
            }
            // In the foreground again without a SIGCONT (bash's `fg` of a job running in the
            // background sends none), or with the shell's line mode set meanwhile (`bg` then
            // `fg`): seen by looking, four times a second.
            Thread.detachNewThread {
                while !keysEnded.withLock({ $0 }) {
                    usleep(250_000)
                    guard isInForeground else { continue }
                    guard terminalLineMode.saved else { enterKeyMode(inbox: inbox); continue }
                    let setAgain = keysEnded.withLock { ended -> Bool in   // not after the line mode is back
                        var current = termios()
                        guard !ended, tcgetattr(STDIN_FILENO, &current) == 0, current.c_lflag & tcflag_t(ICANON | ECHO) != 0 else { return false }
                        return tcsetattr(STDIN_FILENO, TCSANOW, &terminalKeyMode) == 0
                    }
                    if setAgain { TypedLine.standardError.drawAgain() }
                }
            }
            return {
                if terminalLineMode.saved { TypedLine.standardError.abandon() }
                restoreLineMode()
            }
        }
        Thread.detachNewThread {
            while let line = readLine() {
                if line.trimmingCharacters(in: .whitespaces).isEmpty { continue }
                do {
                    inbox.enqueue(try LiveCommand(line: line))
                } catch {
                    inbox.refuse("\(error)")   // said in its turn, after the lines before it
                }
            }
        }
        return {}
    }
}

extension LaunchCommand {
    /// Whether this process's group has the terminal (a job in the foreground).
    static var isInForeground: Bool { tcgetpgrp(STDIN_FILENO) == getpgrp() }

    /// The terminal's line mode back (from the background too: SIGTTOU ignored for it), for
    /// good: the look for the foreground stops first (it would set key mode again, and the
    /// shell would get a terminal that echoes nothing).
    static func restoreLineMode() {
        keysEnded.withLock { ended in
            ended = true
            guard terminalLineMode.saved else { return }
            terminalLineMode.saved = false   // SIGCONT's handler sets key mode only while saved
            let before = signal(SIGTTOU, SIG_IGN)
            _ = tcsetattr(STDIN_FILENO, TCSANOW, &terminalLineMode.termios)
            signal(SIGTTOU, before)
        }
    }

    /// Single keys from the terminal (the job is in the foreground): its modes saved and
    /// set, and a thread that reads the keys into `inbox`. Once.
    private static func enterKeyMode(inbox: PipelineSession.Inbox) {
        let entered = keysEnded.withLock { ended -> Bool in
            guard !ended, !terminalLineMode.saved else { return false }
            var original = termios()
            tcgetattr(STDIN_FILENO, &original)
            var raw = original
            raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
            terminalKeyMode = raw
            terminalLineMode = (true, original)
            tcsetattr(STDIN_FILENO, TCSANOW, &raw)
            return true
        }
        guard entered else { return }
        Thread.detachNewThread {
            var keys = TerminalKeys()
            while true {
                var byte: UInt8 = 0
                // After an Esc, a moment's silence makes it the Esc key (not a sequence's start).
                var outcome = TerminalKeys.Outcome.none
                if keys.awaitsSequence {
                    var ready = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
                    if poll(&ready, 1, TerminalKeys.escapeWaitMilliseconds) == 0 { outcome = keys.escapeAlone() }
                }
                let wasEditing = keys.isEditing
                if outcome == .none {
                    let n = read(STDIN_FILENO, &byte, 1)
                    if n < 0 && errno == EIO && !isInForeground {   // sent to the background (Ctrl-Z, bg)
                        while !isInForeground { usleep(250_000) }
                        continue
                    }
                    if n < 0 && errno == EINTR { continue }
                    guard n == 1 else { return }
                    outcome = keys.feed(byte)
                }
                switch outcome {
                case .none: break
                case .command(let command):
                    // The typed command line stays as it is; what it did goes on the next line.
                    if wasEditing { TypedLine.standardError.finish() }
                    inbox.enqueue(command)
                // The command line is redrawn in place on stderr while it is typed (lines
                // printed meanwhile go above it).
                case .show(let text): TypedLine.standardError.redraw(text, editing: keys.isEditing)
                case .error(let text):
                    // As for a command that ran: the typed line stays, the error goes below it.
                    if wasEditing { TypedLine.standardError.finish() }
                    TypedLine.standardError.finish(with: text)
                }
            }
        }
        printError(TerminalKeys.shortHelp)
    }
}

extension PipelineSession.Outcome {
    /// The process's exit status: 0 at the end of the stream or on quit, 1 after an error,
    /// 130 when a second Ctrl-C aborted (as a shell reports SIGINT).
    var exitStatus: Int32 {
        switch self {
        case .endOfStream, .stoppedByUser: return 0
        case .error: return 1
        case .aborted: return 130
        }
    }
}

/// The terminal's modes, for the signal handler (SIGCONT) and an abort that cannot wait:
/// set once before either can use them.
nonisolated(unsafe) private var terminalKeyMode = termios()
/// The last resort after an interrupt (SIGALRM): its exit status, whether an abort was
/// asked for, and the session loop's rounds when the alarm was set.
nonisolated(unsafe) private var lastResortStatus: Int32 = 130
nonisolated(unsafe) private var abortAsked = false
nonisolated(unsafe) private var roundsAtAlarm = 0
nonisolated(unsafe) private var terminalLineMode: (saved: Bool, termios: termios) = (false, termios())
/// Set once the terminal's line mode is back for good (the run is over); held while the
/// modes change, so key mode is never set after that.
private let keysEnded = Locked<Bool>(false)
/// Wakes the thread that redraws the command line after SIGCONT (made before the handler).
private let continuedPipe: (readEnd: Int32, writeEnd: Int32) = {
    var ends: [Int32] = [-1, -1]
    _ = pipe(&ends)
    return (ends[0], ends[1])
}()
