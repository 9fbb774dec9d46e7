import CGStreamer
import FilterCamHost
import FilterCamTool
import FilterCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `filtercam serve [options] FILE|DESCRIPTION`: the filtered camera for many viewers over
/// RTSP, on GStreamer's own RTSP server, and with `--web` over WebRTC (WHEP) with a
/// control page, on libsoup.
///
/// The user's pipeline runs under the same session as `launch` (live commands, stills,
/// Ctrl-C, the summary) and ends in an `intervideosink`; one encoder (`EncodedStream`)
/// reads that channel and feeds the RTSP server's shared media and every WebRTC viewer, so
/// the filters run and the picture is encoded once however many watch. The camera runs
/// while someone watches and stops 3 s after the last viewer leaves (`--always-on` keeps it
/// running, e.g. for a recording branch).
enum ServeCommand {
    /// A server holds a socket or two per viewer, and GStreamer 1.22's webrtcbin never lets
    /// go of a WebRTC viewer's ICE agent (its thread and ~7 descriptors stay after the
    /// viewer's pipeline is gone): the soft limit (often 1024) is raised to the hard one (at
    /// most 65536), as servers do, so a day of page loads does not run the server out.
    private static func raiseOpenFileLimit() {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return }
        let wanted = min(limit.rlim_max, 65536)
        if limit.rlim_cur < wanted {
            limit.rlim_cur = wanted
            _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
    }

    static func run(_ arguments: [String]) -> Int32 {
        let options: Options
        do {
            options = try parse(arguments)
        } catch {
            printError("filtercam serve: \(error)")
            return 2
        }
        raiseOpenFileLimit()
        // The user's pipeline, as `launch` reads it, into a channel the server reads.
        let target: PipelineTarget
        do {
            target = try PipelineTarget(options.target, command: "serve")
        } catch {
            printError("filtercam serve: \(error)")
            return 1
        }
        let (description, file) = (target.description, target.file)
        if let note = target.note { printError("filtercam serve: " + note) }
        let channel = "filtercam-serve-\(getpid())"
        let pipeline: Pipeline
        do {
            // I420 preferred, as the encoder takes it: where the user's pipeline could give any
            // format (a test source, a `videoconvert`, FilterCam's elements) it gives that one
            // and the encoder converts nothing; a format fixed upstream still passes.
            pipeline = try Pipeline(description: "\(description) ! capsfilter name=filtercam-serve-out caps=\"video/x-raw,format=I420;video/x-raw\" "
                                    + "! intervideosink name=filtercam-serve-sink channel=\(channel) sync=false")
        } catch {
            // A pipeline file's error names its line, as launch says it.
            let place = file.map { "\(target.argument)\(ParseHints.line(of: "\(error)", in: $0).map { ":\($0)" } ?? ""): " } ?? ""
            printError("filtercam serve: \(place)\(error)")
            if "\(error)".contains("filtercam-serve-out") || "\(error)".contains("intervideosink") {
                // A shipped file that ends in a window (preview.pipeline) chooses it with SINK.
                if let file, file.variablesRead.contains("SINK") {
                    // Its on-screen display would be in every viewer's picture (it is drawn
                    // into the frames the window shows): off where the file lets it be.
                    let settings = file.variablesRead.contains("OSD") ? "SINK=identity OSD=false" : "SINK=identity"
                    printError("  this file ends in a sink of its own: serve it with \(settings), e.g. \(settings) filtercam serve \(options.target.joined(separator: " "))")
                } else {
                    printError("  the description ends where the picture is ready to serve (raw video, e.g. after the last filter): "
                               + "leave out the sink or encoder at its end, serve adds the encoder and the viewers")
                }
            }
            for hint in ParseHints.hints(for: "\(error)", file: file, description: description) { printError("  " + hint) }
            if let hint = (error as? Pipeline.ParseError)?.linkHint { printError("  hint: " + hint) }
            return 1
        }
        let stream: EncodedStream
        do {
            stream = try EncodedStream(channel: channel)
        } catch {
            printError("filtercam serve: \(error)")
            return 1
        }
        if let out = pipeline.element(named: "filtercam-serve-out") { stream.watchCamera(out) }
        var configuration = options.configuration
        // SPS/PPS once a second (config-interval=1), not with each key frame (-1): through
        // rtph264depay, -1 leaves openh264dec (the decoder a player without gstreamer1.0-libav
        // picks) unable to decode a single frame; avdec_h264 takes either.
        configuration.launch = "( appsrc name=encoded is-live=true format=time ! rtph264pay name=pay0 pt=96 config-interval=1 )"
        let server: RTSPServer
        do {
            server = try RTSPServer(configuration, stream: stream)
        } catch {
            printError("filtercam serve: \(error) (address \(configuration.address), port \(configuration.port))")
            if "\(error)".contains("in use") {
                printError("  hint: something else listens on port \(configuration.port) (another server, or an earlier filtercam serve): choose another with --port N, or --port 0 for any free port")
            }
            return 1
        }
        let session = PipelineSession(pipeline: pipeline)
        // Whether the camera runs: set on the session's loop (it pauses while nobody
        // watches), read by the web page's thread too.
        let cameraRunning = Locked(true)
        var web: WebServer?
        var pageOfTheServer: ControlPage?
        if let webConfiguration = options.web {
            let page = ControlPage(session: session, previewPicture: PipelineLookup.shippedFile(package: "docs/filters/photo.jpg",
                                                                                               installed: "preview-photo.jpg"),
                                   pictureFlows: { cameraRunning.withLock { $0 } })
            do {
                web = try WebServer(webConfiguration, stream: stream) { page.handle($0) }
                pageOfTheServer = page
            } catch {
                printError("filtercam serve: the web side: \(error) (address \(webConfiguration.address), port \(webConfiguration.port))")
                if "\(error)".contains("in use") {
                    printError("  hint: something else listens on port \(webConfiguration.port): choose another with --web-port N, or --web-port 0 for any free port")
                }
                return 1
            }
        }
        session.onStarted = { [web, weak session] in
            // A source that is not live (a test picture without is-live=true, a file) ran as
            // fast as it could into the unsynced sink: both cores busy, viewers saw the
            // picture race (a ball 200 px a frame), recordings ran 40x long and a file ended
            // in a moment. It is paced by the clock, as a window paces it (set before the
            // pipeline reaches PLAYING: the sink is still waiting for its preroll frame). A
            // live one (a camera) keeps the sink unsynced: its frames come at their own
            // pace, and waiting for their time would add the latency to every viewer's.
            if session?.isLive == false, let sink = pipeline.element(named: "filtercam-serve-sink") {
                try? Pipeline.setProperty(sink, "sync", "true")
            }
            var lines = ServeInstructions.lines(scheme: configuration.tlsCertificate == nil ? "rtsp" : "rtsps", address: configuration.address,
                                                port: server.port, path: configuration.path, user: configuration.users.first?.0)
            if let web { lines.append("  in a browser: \(web.url) (WebRTC; WHEP players: \(web.url)whep)") }
            // Straight to the file, unbuffered: a reader waits for these lines. (fflush(nil)
            // would block on stdin, whose lock the command reader holds while it waits.)
            FileHandle.standardOutput.write(lines.map { $0 + "\n" }.joined())
        }

        session.pictureIsPaused = { !cameraRunning.withLock { $0 } }
        LaunchCommand.session = session
        LaunchCommand.installSignalHandlers()
        let restoreTerminal = LaunchCommand.startReadingCommands(into: session)
        var lastViewer = Date.distantPast
        var keptFor: String?   // what the camera runs on for with nobody watching
        session.onTick = { [unowned session] in
            stream.tick()
            guard !options.alwaysOn else { return }
            // Said on stderr, so whoever runs the server sees why the camera light goes off.
            if server.viewers + (web?.watching ?? 0) > 0 {
                lastViewer = Date()
                keptFor = nil
                if !cameraRunning.withLock({ $0 }) {
                    pipeline.setPlaying(true)
                    cameraRunning.withLock { $0 = true }
                    session.say("filtercam serve: camera running for a viewer")
                }
            } else if cameraRunning.withLock({ $0 }) && Date().timeIntervalSince(lastViewer) > 3 && stream.cameraSeen
                        && !pipeline.isChangingState {
                // Not before the camera's first frame: the channel learns the picture's size
                // from it (a first viewer's stream was set up at 320x240 otherwise). Not while
                // the start still settles: a source that is not live has its first frame in the
                // sink before the pipeline carries on to PLAYING, and a pause asked for in
                // between left it stuck half-way for good (GStreamer drops the carry-on, and
                // waits for a preroll that already came): the first viewer's picture froze on
                // that frame and Ctrl-C's EOS never got through. Not during a recording
                // either: its file would stall, the time lost without a word; nor while a
                // still asked for (a countdown's) waits for its frame: it was taken when the
                // next viewer came, minutes later, with that moment's filter.
                let needed = session.recordingIsOn ? "the recording" : session.stillIsPending ? "the still asked for" : nil
                if let needed {
                    if keptFor != needed { session.say("filtercam serve: nobody watches; the camera runs on for \(needed)") }
                    keptFor = needed
                    return
                }
                keptFor = nil
                stream.cameraPausing()
                pipeline.setPlaying(false)
                cameraRunning.withLock { $0 = false }
                session.say(lastViewer == .distantPast ? "filtercam serve: camera paused until a viewer comes"
                                                      : "filtercam serve: camera paused: nobody has watched for 3 s")
            }
        }
        let outcome = session.run()
        let sourceEnded = outcome == .endOfStream && !session.endOfStreamAsked
        if sourceEnded {
            printError("filtercam serve: the source ended (end of stream): stopped serving")
        }
        pageOfTheServer?.serverEnds(sourceEnded ? "the source ended (end of stream): the server stopped serving"
                                    : outcome == .error ? "the server stopped on an error (its terminal says which)"
                                    : "the server was stopped")
        let waited = endForViewers(stream: stream, server: server, web: web, unless: { session.interruptedAgain })
        web?.sayViewersTurnedAway()
        restoreTerminal()
        withExtendedLifetime((server, web)) {}
        if !waited {
            // "Ctrl-C again aborts", as the first Ctrl-C said: the viewers are cut off.
            printError("Interrupted again: not waiting for the viewers to leave.")
            return PipelineSession.Outcome.aborted.exitStatus
        }
        return outcome.exitStatus
    }

    /// Viewers are told the stream ended before the server goes, as gst-rtsp-server tells
    /// them when its media ends: cut off, an RTSP viewer's player reported an error and a
    /// file it recorded (`gst-launch-1.0 -e … ! mp4mux`) was left without its index. RTSP
    /// viewers are given a moment to leave: until their connections close, not only until
    /// they stop playing (the server went at a player's PAUSE, and its PAUSE or TEARDOWN
    /// then failed: "Could not send message", an error at the end); WebRTC ones
    /// get the end on their track, and the page says why at its next look at /state
    /// (every 1.5 s; it then leaves, as a viewer does).
    /// False when `interrupted` said to stop waiting (a second Ctrl-C).
    private static func endForViewers(stream: EncodedStream, server: RTSPServer, web: WebServer?,
                                      unless interrupted: () -> Bool) -> Bool {
        guard !interrupted() else { return false }
        // An encoder that works ends in milliseconds; 3 s leaves room for a loaded machine
        // (with 1 s the end could go out just as the server went, and a recording viewer's
        // PAUSE then found it gone).
        guard stream.finish(within: 3) else {
            printError("filtercam serve: the encoder did not finish within 3 s: the viewers are cut off")
            return true
        }
        // rtspsrc's jitter buffer holds the end its latency long (2 s by default: playbin,
        // a plain gst-launch-1.0 viewer) and a syncing sink then shows it before the player
        // tears down: with 2 s such a viewer found the server gone and reported an error.
        let deadline = Date().addingTimeInterval(5)
        let stillThere = { server.viewersStillConnected + (web?.watching ?? 0) }
        let watching = stillThere()
        // Said: the terminal showed only the EOS line while the server waited 5 s.
        if watching > 0 {
            printError("filtercam serve: waiting up to 5 s for \(watching == 1 ? "the viewer" : "\(watching) viewers") to leave (Ctrl-C again stops at once)…")
        }
        while stillThere() > 0 {
            if interrupted() { return false }
            if Date() >= deadline {
                let left = stillThere()
                printError("filtercam serve: \(left == 1 ? "a viewer" : "\(left) viewers") still connected after 5 s: cut off")
                break
            }
            usleep(20_000)
        }
        return true
    }

}
