import CGStreamer
import CFilterCamShim
import FoundationEssentials

/// Whether a sound source gives sound, asked before a recording takes it: the source runs
/// alone into an appsink until its first buffer. A machine without a microphone fails
/// here in many ways (pulsesrc cannot connect; autoaudiosrc picks a source that fails
/// only once it streams), and a recording that waited for that sound would never write a
/// frame; asked first, the recording goes on without sound and says why. A source that is
/// not live (`audiotestsrc`, a file) is refused too: it gives its sound as fast as it is
/// taken, so the sound would run ahead of the picture.
enum SoundCheck {
    /// How long a sound source may take to give its first sound.
    static let timeout = 3.0

    /// Nil when `description` is live and gave sound within `timeout` seconds, else why not,
    /// in words that name the source.
    static func problem(with description: String, timeout: Double = timeout) -> String? {
        check(description, timeout: timeout).map { problem in
            switch problem {
            case .notLive:
                "\(description.quotedForMessage) is not a live source: its sound would run ahead of the picture "
                    + "(a microphone, or a live test source: audiotestsrc is-live=true)"
            case .noSound(let why):
                "no sound from \(description.quotedForMessage) (no microphone?): \(why)"
            case .notBuilt(let why):
                // A typo, not a missing microphone.
                "\(description.quotedForMessage) is not a sound source GStreamer can build: \(why)"
            }
        }
    }

    private enum Problem {
        case notLive
        case noSound(String)
        case notBuilt(String)
    }

    private static func check(_ description: String, timeout: Double) -> Problem? {
        let owned: GstOwned<GstElement>
        do {
            owned = try GStreamer.launch("\(description) ! appsink name=fc-ear sync=false max-buffers=1 drop=true")
        } catch {
            return .notBuilt("\(error)")
        }
        let pipeline = owned.pointer
        defer { gst_element_set_state(owned.pointer, GST_STATE_NULL) }
        guard let sink = owned.child(named: "fc-ear"), let bus = owned.bus else {
            return .noSound("'\(description)' could not be built")
        }
        // The most telling words: a source that cannot open its device may say so in an
        // ERROR or only in a WARNING (openalsrc, picked by autoaudiosrc), and GStreamer's
        // generic "Internal data stream error" follows either.
        var warnings: [String] = []
        func failure() -> String? {
            var errors: [String] = []
            let types = GstMessageType(rawValue: GST_MESSAGE_ERROR.rawValue | GST_MESSAGE_WARNING.rawValue)
            while let owned = GstOwned(gst_bus_pop_filtered(bus, types)) {
                let m = owned.pointer
                if m.pointee.type == GST_MESSAGE_ERROR { errors.append(MP4Recorder.text(of: m)) } else { warnings.append(MP4Recorder.text(of: m)) }
            }
            guard !errors.isEmpty else { return nil }
            return errors.first { !$0.hasPrefix("Internal data stream error") } ?? warnings.first ?? errors.first
        }
        // A live source answers NO_PREROLL on the way to PAUSED (it gives nothing before it plays).
        let paused = gst_element_set_state(pipeline, GST_STATE_PAUSED)
        if paused == GST_STATE_CHANGE_FAILURE || gst_element_set_state(pipeline, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE {
            return .noSound(failure() ?? "'\(description)' did not start")
        }
        if paused != GST_STATE_CHANGE_NO_PREROLL { return .notLive }
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if GstOwnedSample(gst_app_sink_try_pull_sample(sink.asAppSink, 50_000_000)) != nil { return nil }
            if let problem = failure() { return .noSound(problem) }
        }
        return .noSound(failure() ?? "no sound from '\(description)' within \(Int(timeout)) s")
    }
}
