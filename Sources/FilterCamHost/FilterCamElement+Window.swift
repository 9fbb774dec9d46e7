import CGStreamer
import CFilterCamShim
import FilterCore
#if canImport(Glibc)
import Glibc
#endif

/// The preview window: navigation events from the sink (on its streaming thread) become
/// `ControlCommand`s, run here as the terminal runs them.
extension FilterCamElement {
    /// Runs a mouse or key event from the window; false when it is not for us.
    func navigate(_ event: UnsafeMutablePointer<GstEvent>) -> Bool {
        let s = settings.withLock { $0 }
        guard s.navigation else { return false }
        if gst_navigation_event_get_type(event) == GST_NAVIGATION_EVENT_KEY_RELEASE {
            // The release of a key taken here stays here too: upstream saw releases of
            // presses it never got.
            var key: UnsafePointer<gchar>?
            return gst_navigation_event_parse_key_event(event, &key) != 0 && key.map { Keymap.command(forKey: String(cString: $0)) != nil } == true
        }
        if s.osd, let closing = cardInput(event), PreviewControl.closesCard(closing),
           display.withLock({ d in defer { d.hideHelp() }; return d.helpShown }) {
            log.info(element, "window: help card closed")
            return true
        }
        guard let input = previewInput(event, gallery: s.gallery) else { return false }
        let commands = preview.withLock { $0.handle(input, lensIsFull: s.lens.isFull, galleryOpen: s.gallery) }
        // A drag says where the lens ended when it is let go, not at every step.
        var dragging = false
        if case .move = input { dragging = true }
        for command in commands { run(command, osd: s.osd, quietly: dragging) }
        if case .release(1) = input {
            if draggedLens.withLock({ d in defer { d = false }; return d }) {
                tellApplication("feedback", "lens: \(settings.withLock { $0.lens.description })")
            }
            return true
        }
        if dragging && !commands.isEmpty { draggedLens.withLock { $0 = true } }
        return !commands.isEmpty
    }

    /// A command from the window, run as the terminal runs it (`ControlCommand.run(on:)`);
    /// what it changed goes to the program that runs the pipeline as `feedback`. While a
    /// still waits for its frame, keys wait behind it (`runKeysAfterStill`).
    private func run(_ command: ControlCommand, osd: Bool, quietly: Bool) {
        let waits = keysAfterStill.withLock { keys -> Bool in
            // Quit waits behind keys held (`s s s q`: it jumped ahead, and the stills still
            // held were lost without a word); behind a still asked for alone it need not:
            // the program waits for that one.
            let holds = command == .quit ? !keys.isEmpty : command.waitsForAStill && (!keys.isEmpty || snapshots.stillIsWaiting)
            guard holds else { return false }
            keys.append((command, osd))
            return true
        }
        if !waits { runNow(command, osd: osd, quietly: quietly) }
    }

    /// The keys that waited for a still, in order, once no still waits (a frame's
    /// streaming thread, as it arrives, before its settings are copied); a `snapshot` among
    /// them holds the rest back again.
    func runKeysAfterStill() {
        guard !keysAfterStill.withLock({ $0.isEmpty }) else { return }   // (every frame: nothing more then)
        while !snapshots.stillIsWaiting, let (command, osd) = keysAfterStill.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) {
            runNow(command, osd: osd, quietly: false)
        }
    }

    private func runNow(_ command: ControlCommand, osd: Bool, quietly: Bool) {
        switch command {
        case .help:
            // The terminal's key list goes with the card's opening, not again as it closes.
            let opened = osd ? display.withLock { d in d.toggleHelp(); return d.helpShown } : true
            if opened { tellApplication("help") }
        case .quit:
            tellApplication("quit")
            if !Self.programHandlesQuit(of: element) { endStreamForQuit() }
        default:
            do {
                let text = try command.run(on: ElementControl(element))
                // The line too, so the program knows a still, countdown or recording was asked
                // for here (quit waits for those as for the terminal's).
                tellApplication("feedback", quietly ? nil : text, line: command.line)
            } catch {
                // Esc with no gallery open says nothing, as in the terminal.
                if ![.closeGallery, .cancel].contains(command) { tellApplication("feedback", "command error: \(error)") }   // as the terminal says a refusal
            }
        }
        log.info(element, "window: \(command.line)")
    }

    private static func programHandlesQuit(of element: UnsafeMutablePointer<GstElement>) -> Bool {
        let top = topLevel(of: element)
        return g_object_get_data(UnsafeMutableRawPointer(top.pointer).assumingMemoryBound(to: GObject.self), FilterCamPlugin.quitHandlerMark) != nil
    }

    /// The pipeline `element` is in (itself when in none).
    private static func topLevel(of element: UnsafeMutablePointer<GstElement>) -> GstOwned<GstObject> {
        var top = GstOwned<GstObject>(retaining: UnsafeMutableRawPointer(element).assumingMemoryBound(to: GstObject.self))
        while let parent = GstOwned<GstObject>(gst_object_get_parent(top.pointer)) { top = parent }
        return top
    }

    /// `q` where no program takes `quit`: EOS to the whole pipeline, as gst-launch-1.0 -e
    /// sends on Ctrl-C, so recordings are finished and gst-launch-1.0 ends (`q` did nothing
    /// there; the card says "q quit"). First, as `filtercam launch` waits: a still asked for
    /// gets its frame, a countdown its still (its seconds and 2 more at most), a recording
    /// asked for its start (`v q` made no file, `t q` lost the still). Not on the sink's
    /// thread that brought the key: the EOS goes through the pipeline.
    private func endStreamForQuit() {
        let pipeline = Self.topLevel(of: element)
        let snapshots = self.snapshots, recording = self.recording, display = self.display
        let countdown = UInt64(ControlCommand.countdownSeconds) * 1_000_000_000
        let quitting = JoinableThread(name: "fc-quit") {
            let deadline = MonotonicClock.nanoseconds + countdown + 2_000_000_000
            while MonotonicClock.nanoseconds < deadline
                    && (snapshots.stillIsWaiting || recording.isStarting || display.withLock({ $0.countdownPending })) {
                usleep(10_000)
            }
            _ = gst_element_send_event(UnsafeMutableRawPointer(pipeline.pointer).assumingMemoryBound(to: GstElement.self), gst_event_new_eos())
        }
        if quitting == nil {
            fc_post_warning(element, "\(GStreamer.name(of: element)): q cannot quit: no thread can be started to send EOS (\(JoinableThread.whyNotStarted))", nil)
        }
    }

    /// The event as the help card takes it: a key, or a press wherever it is. A click
    /// anywhere closes the card, on the bars around a letterboxed picture too (a tap beside
    /// an overlay dismisses it), where `previewInput` places nothing.
    private func cardInput(_ event: UnsafeMutablePointer<GstEvent>) -> PreviewControl.Input? {
        var button: gint = 0, x = 0.0, y = 0.0
        var key: UnsafePointer<gchar>?
        switch gst_navigation_event_get_type(event) {
        case GST_NAVIGATION_EVENT_KEY_PRESS:
            guard gst_navigation_event_parse_key_event(event, &key) != 0, let key else { return nil }
            return .key(String(cString: key))
        case GST_NAVIGATION_EVENT_MOUSE_BUTTON_PRESS:
            guard gst_navigation_event_parse_mouse_button_event(event, &button, &x, &y) != 0 else { return nil }
            return .press(x: x, y: y, button: Int(button))
        default:
            return nil
        }
    }

    /// The event as a PreviewControl input, pointers as fractions of the displayed picture
    /// (with the gallery open, of the whole output, where the gallery is drawn).
    private func previewInput(_ event: UnsafeMutablePointer<GstEvent>, gallery: Bool) -> PreviewControl.Input? {
        var x = 0.0, y = 0.0
        switch gst_navigation_event_get_type(event) {
        case GST_NAVIGATION_EVENT_KEY_PRESS:
            var key: UnsafePointer<gchar>?
            guard gst_navigation_event_parse_key_event(event, &key) != 0, let key else { return nil }
            return .key(String(cString: key))
        case GST_NAVIGATION_EVENT_MOUSE_BUTTON_PRESS:
            var button: gint = 0
            guard gst_navigation_event_parse_mouse_button_event(event, &button, &x, &y) != 0 else { return nil }
            // The wheel (X11's buttons 4 and 5; glimagesink sends it as presses) zooms about
            // the centre or turns the gallery's page wherever the pointer is: over the bars
            // of a letterboxed picture too.
            if button == 4 || button == 5 { return .press(x: 0.5, y: 0.5, button: Int(button)) }
            // A press in the window's bars around the picture (letterboxing) is not on the
            // picture: it places nothing, as a tap beside a camera's preview.
            guard isOnOutput(x, y), let (fx, fy) = gallery ? outputFraction(x, y) : pictureFraction(x, y) else { return nil }
            return .press(x: fx, y: fy, button: Int(button))
        case GST_NAVIGATION_EVENT_MOUSE_BUTTON_RELEASE:
            var button: gint = 0
            guard gst_navigation_event_parse_mouse_button_event(event, &button, &x, &y) != 0 else { return nil }
            return .release(button: Int(button))
        case GST_NAVIGATION_EVENT_MOUSE_MOVE:
            guard gst_navigation_event_parse_mouse_move_event(event, &x, &y) != 0,
                  let (fx, fy) = gallery ? outputFraction(x, y) : pictureFraction(x, y) else { return nil }
            return .move(x: fx, y: fy)
        case GST_NAVIGATION_EVENT_MOUSE_SCROLL:
            var dx = 0.0, dy = 0.0
            guard gst_navigation_event_parse_mouse_scroll_event(event, &x, &y, &dx, &dy) != 0 else { return nil }
            return .scroll(dy: dy)
        default:
            return nil
        }
    }

    /// An output position as a fraction of the displayed (oriented, zoomed) picture: with
    /// lens-crop the output is only the lens, so its origin is added back.
    private func pictureFraction(_ x: Double, _ y: Double) -> (Double, Double)? {
        guard let plan = activePlan.withLock({ $0 }) else { return nil }
        let ox = plan.lensCrop ? Double(plan.lensRect.x) + x : x
        let oy = plan.lensCrop ? Double(plan.lensRect.y) + y : y
        return (ox / Double(plan.orientedWidth), oy / Double(plan.orientedHeight))
    }

    /// Whether an output position is on the output frame. glimagesink clamps a position in
    /// its bars to the picture's edge (0, or the width or height itself), so those are off
    /// it too; only a press on the very first pixel column or row of the picture is lost.
    private func isOnOutput(_ x: Double, _ y: Double) -> Bool {
        guard let plan = activePlan.withLock({ $0 }) else { return false }
        return x > 0 && y > 0 && x < Double(plan.outputWidth) && y < Double(plan.outputHeight)
    }

    /// An output position as a fraction of the output frame, kept inside it.
    private func outputFraction(_ x: Double, _ y: Double) -> (Double, Double)? {
        guard let plan = activePlan.withLock({ $0 }) else { return nil }
        return (min(max(x / Double(plan.outputWidth), 0), 1), min(max(y / Double(plan.outputHeight), 0), 1))
    }

    /// An application message `filtercam-command, command=…[, text=…][, line=…]` for the program
    /// that runs the pipeline: `filtercam launch` prints the help, quits cleanly, and
    /// echoes what a key in the window changed, as for the same key in the terminal.
    private func tellApplication(_ command: String, _ text: String? = nil, line: String? = nil) {
        let structure = gst_structure_new_empty("filtercam-command")!
        var value = GValue()
        g_value_init(&value, fc_type_string())
        g_value_set_string(&value, command)
        gst_structure_set_value(structure, "command", &value)
        if let text {
            g_value_set_string(&value, text)
            gst_structure_set_value(structure, "text", &value)
        }
        if let line {
            g_value_set_string(&value, line)
            gst_structure_set_value(structure, "line", &value)
        }
        g_value_unset(&value)
        gst_element_post_message(element, gst_message_new_application(element.asObject, structure))
    }
}

private extension ControlCommand {
    /// Whether a window key with this command waits behind a still asked for before it: the
    /// ones that change the picture, and stills. Not help, quit, record or countdown (the
    /// still's picture stays as it is), nor faces (its cascade loads on the caller's thread,
    /// which a waiting key's is not: never the video's).
    var waitsForAStill: Bool { ![.help, .quit, .record, .countdown, .faces].contains(self) }
}
