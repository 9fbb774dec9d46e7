import CDisplayLoss
import CFilterCamShim
import CGStreamer
import FilterCamHost
import Foundation
import Synchronization

/// How a session ends after an error (a closed window, a failing source, a display that
/// went away): what was being recorded is finished, so its file plays.
extension PipelineSession {
    /// After an error the sources may no longer push, so an EOS sent to the pipeline would
    /// not reach the muxers: EOS goes straight into every muxer's sink pads, and a
    /// filtercam recording from the preview (key v) is stopped, which finishes its file;
    /// the session waits (bounded) for the sinks and the recordings, so each keeps the
    /// frames up to the error and stays playable.
    func finaliseRecordings() {
        let muxers = pipeline.elements.filter(Pipeline.isMuxer)
        let recording = recordingsRunning > 0 ? filterStages.filter { Pipeline.property($0.element, "record") == "true" } : []
        let count = muxers.count + recordingsRunning
        guard count > 0 else { return }
        errorLine("Finishing \(count == 1 ? "the recording" : "\(count) recordings") after the error…")
        // Each muxer is done when the EOS leaves it (its file's index written before it):
        // the pipeline's own EOS never came when the error was a window sink's (it posts
        // no EOS), and the session waited the whole 10 s for a file done in a moment.
        let finished = FinishedMuxers()
        let watchedPads = muxers.compactMap { muxer -> GstOwned<GstPad>? in
            guard let pad = GstOwned(gst_element_get_static_pad(muxer, "src")) else { return nil }
            gst_pad_add_probe(pad.pointer, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, { _, info, data in
                if let event = fc_probe_info_event(info), event.pointee.type == GST_EVENT_EOS {
                    Unmanaged<FinishedMuxers>.fromOpaque(data!).takeUnretainedValue().count.add(1, ordering: .relaxed)
                }
                return GST_PAD_PROBE_OK
            }, Unmanaged.passRetained(finished).toOpaque(), { data in Unmanaged<FinishedMuxers>.fromOpaque(data!).release() })
            return pad
        }
        for muxer in muxers {
            for pad in GStreamer.objects(of: gst_element_iterate_sink_pads(muxer), as: GstPad.self) {
                _ = gst_pad_send_event(pad, gst_event_new_eos())
            }
        }
        for stage in recording { try? Pipeline.setProperty(stage.element, "record", "false") }
        var muxersDone = muxers.isEmpty
        let wanted = GST_MESSAGE_EOS.rawValue | GST_MESSAGE_ERROR.rawValue | GST_MESSAGE_ELEMENT.rawValue
        let deadline = Date().addingTimeInterval(endOfStreamTimeout)
        while Date() < deadline && !(muxersDone && recordingsRunning <= 0) {
            if finished.count.load(ordering: .relaxed) >= watchedPads.count && watchedPads.count == muxers.count { muxersDone = true }
            guard let m = GstOwned(gst_bus_timed_pop_filtered(pipeline.bus, 20_000_000, GstMessageType(rawValue: wanted))) else {
                continue
            }
            if m.pointer.pointee.type == GST_MESSAGE_EOS { muxersDone = true }
            if m.pointer.pointee.type == GST_MESSAGE_ELEMENT { reportRecording(m.pointer) }   // counts what is saved
        }
    }

    /// Whether the X server of the windows went away (Xvfb stopped: Ctrl-C under
    /// `xvfb-run` stops it with the program; an X session ended). Xlib would have ended
    /// the process on the sink's thread; `CDisplayLoss` turns that into this question.
    /// Said once as an ERROR; the window sinks get no more frames (their display can
    /// only fail now) and are only shut down; the session then ends as for a closed
    /// window: recordings finished, exit status 1.
    func displayWentAway() -> Bool {
        guard let text = Self.displayLoss() else { return false }
        errorLine("ERROR: " + text + ": the window is gone")
        for sink in pipeline.elements where Pipeline.factoryName(of: sink).map(WindowTitles.windowSinks.contains) ?? false {
            guard let pad = gst_element_get_static_pad(sink, "sink") else { continue }
            let frames = GstPadProbeType(rawValue: GST_PAD_PROBE_TYPE_BUFFER.rawValue | GST_PAD_PROBE_TYPE_BUFFER_LIST.rawValue)
            gst_pad_add_probe(pad, frames, { _, _, _ in GST_PAD_PROBE_DROP }, nil, nil)
            gst_object_unref(pad)
        }
        return true
    }
}

extension PipelineSession {
    /// What went wrong with the windows' X server, if anything: it went away, or it
    /// refused a request. A refusal is also the first sign of a server going away (a
    /// sink's other connection lost the window first), so a refusal waits a moment
    /// (at most 0.3 s) for the loss that would explain it.
    private static func displayLoss() -> String? {
        func text(_ read: (UnsafeMutablePointer<CChar>, Int) -> Int32) -> String? {
            var bytes = [CChar](repeating: 0, count: 160)
            guard read(&bytes, bytes.count) != 0 else { return nil }
            return String(decoding: bytes.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        let lost = { text { fc_display_lost($0, $1) }.map { "the display \($0) went away (the X server closed the connection: it ended, or a client such as xkill closed the window)" } }
        if let lost = lost() { return lost }
        guard let refusal = text({ fc_display_refused($0, $1) }) else { return nil }
        let deadline = Date().addingTimeInterval(0.3)
        while Date() < deadline {
            if let lost = lost() { return lost }
            usleep(20_000)
        }
        return "the window's X server refused a request (\(refusal))"
    }
}

extension Pipeline {
    static func isMuxer(_ element: UnsafeMutablePointer<GstElement>) -> Bool {
        guard let factory = gst_element_get_factory(element),
              let klass = gst_element_factory_get_metadata(factory, "klass") else { return false }
        return String(cString: klass).contains("Muxer")
    }
}

/// How many muxers the EOS has left, counted by a probe on each one's src pad.
private final class FinishedMuxers: Sendable {
    let count = Atomic<Int>(0)
}
