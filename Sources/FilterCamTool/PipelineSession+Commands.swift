import CGStreamer
import CFilterCamShim
import FilterCore
import FilterCamHost
import Foundation

/// Live commands, run on the session's loop: each sets typed properties of the element it
/// names and says what it set, or why not.
extension PipelineSession {
    /// Applies one live command; problems are reported as an error line, never fatal.
    /// The session picks the element (the only filtercam, the named one, the only
    /// filtercamsrc for `camera`); `ControlCommand.run(on:)` changes it, as for a key in
    /// the preview window.
    public func execute(_ command: LiveCommand, reply: Reply? = nil) {
        do {
            let said = try perform(command)
            if let said { errorLine(said) }
            reply?(.success(said))
        } catch {
            errorLine("command error: \(error)")
            reply?(.failure(error))
        }
    }

    /// Runs one command; returns what it changed, as a line to show.
    private func perform(_ command: LiveCommand) throws -> String? {
        switch command {
        case .help:
            errorLine(Keymap.helpText)
            return nil
        case .quit:
            return nil
        case .camera(let argument):
            var sources = pipeline.elements.filter { Pipeline.factoryName(of: $0) == CameraSourceElement.factoryName }
            // `camera ID NAME` aims it at one of several sources, as `snapshot NAME` does.
            var id = argument
            let words = argument.split(separator: " ").map(String.init)
            if words.count == 2, let named = sources.first(where: { GStreamer.name(of: $0) == words[1] }) {
                id = words[0]
                sources = [named]
            }
            guard sources.count == 1 else {
                let names = sources.map { GStreamer.name(of: $0) }.sorted()
                throw ControlError(sources.isEmpty ? "the pipeline has no filtercamsrc"
                    : "the pipeline has several filtercamsrc elements (\(names.joined(separator: ", "))): "
                        + "write 'camera \(id) \(names[0])' or 'set \(names[0]).camera=\(id)'")
            }
            _ = try CameraRequest(parsing: id)   // refused here rather than as a bus warning
            return try run(.camera(id), on: sources[0])
        case .set(let elementName, let property, _):
            let element = try target(elementName, property: property)
            let said = try run(command, on: element)
            if property == "countdown" { noteCountdown(on: element) }
            return said
        case .on(let name, let command):
            let element: UnsafeMutablePointer<GstElement>
            do {
                element = try target(name)
            } catch {
                throw ControlError("\(error) ('\(command.line) NAME' aims the command at a FilterCam element; '\(command.line)' takes no other word)")
            }
            guard filterStages.contains(where: { $0.element == element }) else {
                throw ControlError("'\(command.line)' is for a FilterCam element; \(name.quotedForMessage) is none "
                                   + "(FilterCam elements: \(filterStages.map(\.name).joined(separator: ", ")))")
            }
            let said = try run(command, on: element)
            noteRan(command, on: element)
            // With several elements the answer says whose it is ("b: zoom: 1.25").
            return said.map { filterStages.count > 1 ? "\(name): \($0)" : $0 }
        case .closeGallery, .cancel:
            // Enter closes the gallery, Esc the gallery or else a countdown; with nothing to
            // close they say nothing. With several elements, the one whose gallery is open
            // (for Esc with none, the one counting down).
            var open = filterStages.filter { Pipeline.property($0.element, "gallery") == "true" }
            if open.isEmpty && command == .cancel {
                open = filterStages.filter { (Pipeline.property($0.element, "countdown").flatMap(Double.init) ?? 0) > 0 }
            }
            if filterStages.count == 1 { open = filterStages }
            guard let first = open.first else { return nil }
            guard open.count == 1 else {
                let what = open.contains { Pipeline.property($0.element, "gallery") == "true" } ? "galleries" : "countdowns"
                throw ControlError("the \(what) of \(open.map(\.name).joined(separator: " and ")) are \(what == "galleries" ? "open" : "running"): "
                                   + "name one ('\(command.line) \(first.name)')")
            }
            let said = try run(command, on: first.element)
            noteRan(command, on: first.element)
            return said
        default:
            let element = try target(nil)
            let said = try run(command, on: element)
            noteRan(command, on: element)
            // With several elements the answer names the one that took it, as when named.
            return said.map { filterStages.count > 1 ? "\(GStreamer.name(of: element)): \($0)" : $0 }
        }
    }

    /// What a command that ran (here, or as a key in the window) asked for that quit waits
    /// for: a still, a countdown's still, a recording's start.
    func noteRan(_ command: LiveCommand, on element: UnsafeMutablePointer<GstElement>) {
        switch command {
        case .snapshot:
            // Sets begun without a request (a countdown's, snapshot-every's) are not this
            // one's: after a countdown's still, `snapshot` then `quit` counted that set as
            // this still begun, and EOS went out before its frame (the still was lost).
            stillsRequested = max(stillsRequested, setsStarted) + 1
            lastStillRequest = Date()
            // A countdown running: this still's set comes before its one (a `s` during the
            // countdown then `q` took the `s` still as the countdown's and lost the countdown's).
            if let c = countdown, setsStarted <= c.setsBefore { countdown = (c.due, c.setsBefore + 1) }
        case .countdown, .cancel:
            noteCountdown(on: element)
        case .record:
            // A recording starts with the next frame: quit waits until it has. One stopped
            // is saved a moment later: a next `record` waits for that.
            let on = Pipeline.property(element, "record") == "true"
            recordingAsked = on && recordingsRunning == 0 ? Date() : nil
            recordingStopAsked = !on && recordingsRunning > 0 ? Date() : nil
        default:
            break
        }
    }

    /// A countdown started (its still is taken when it ends: quit waits for it), restarted
    /// or cancelled (`countdown` 0).
    private func noteCountdown(on element: UnsafeMutablePointer<GstElement>) {
        let seconds = Pipeline.property(element, "countdown").flatMap(Double.init) ?? 0
        countdown = seconds > 0 ? (due: Date().addingTimeInterval(seconds), setsBefore: setsStarted) : nil
    }

    private func run(_ command: LiveCommand, on element: UnsafeMutablePointer<GstElement>) throws -> String? {
        try command.run(on: ElementControl(element, set: { element, property, value in
            try self.refuseSizeChangeIntoAFile(element, property, value)
            try Pipeline.setProperty(element, property, value)
        }))
    }

    /// The element a command goes to: the one named, else the only FilterCam element that
    /// can take it (`set PROP` the only one with PROP; other commands the only `filtercam`:
    /// an `fc<id>` element beside it cannot turn, zoom or take stills, and the command was
    /// refused as aimed at several elements).
    private func target(_ name: String?, property: String? = nil) throws -> UnsafeMutablePointer<GstElement> {
        if let name {
            guard let e = pipeline.element(named: name) else {
                // The pipeline's own elements, not those inside them (filtercamsrc's camera,
                // a filter's inner pair); GStreamer names fcchannel-mix's fcchannelmix0.
                let names = GStreamer.objects(of: gst_bin_iterate_elements(pipeline.element.asBin), as: GstElement.self)
                    .map { GStreamer.name(of: $0) }.reversed()
                throw ControlError("no element \(name.quotedForMessage) in the pipeline\(NameSuggestion.hint(for: name, among: Array(names))); "
                                   + "elements: \(names.joined(separator: ", "))")
            }
            return e
        }
        var cams = filterStages
        if cams.count > 1 {
            let able = cams.filter { stage in
                property.map { Pipeline.hasProperty(stage.element, $0) } ?? (Pipeline.factoryName(of: stage.element) == "filtercam")
            }
            if able.count == 1 { cams = able }
        }
        if property == nil, !cams.isEmpty, !cams.contains(where: { Pipeline.factoryName(of: $0.element) == "filtercam" }) {
            throw ControlError("the pipeline's FilterCam elements (\(cams.map(\.name).joined(separator: ", "))) are fc<id> filters, "
                               + "which take only 'set \(cams[0].name).PROP=VALUE': the command needs a filtercam element")
        }
        guard cams.count == 1 else {
            throw ControlError(cams.isEmpty
                ? (property == nil ? "the pipeline has no FilterCam element to take the command"
                                   : "the pipeline has no filtercam element; name one with ELEMENT.PROP")
                : "the pipeline has several FilterCam elements (\(cams.map(\.name).joined(separator: ", "))); "
                  + "name one: 'set ELEMENT.PROP=VALUE', or a command and the element "
                  + "('snapshot \((cams.first { Pipeline.factoryName(of: $0.element) == "filtercam" } ?? cams[0]).name)')")
        }
        return cams[0].element
    }

    /// The FilterCam elements that filter (filtercamsrc, a source, is not one of them).
    var filterStages: [(name: String, element: UnsafeMutablePointer<GstElement>)] {
        pipeline.filterCamElements.filter { Pipeline.factoryName(of: $0.element) != CameraSourceElement.factoryName }
    }
}
