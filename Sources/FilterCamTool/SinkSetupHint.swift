import Foundation

/// What to do when a sink that needs something outside FilterCam cannot start: a virtual
/// camera's kernel module, a PipeWire camera's daemon, an SRT listener's passphrase. The
/// sinks' own words ("Cannot identify device", "Failed to connect", "Bad parameters") do
/// not say what is missing.
public enum SinkSetupHint {
    /// The hint for an ERROR message from the element at `source` (its path) with `text`
    /// (its text and debug text).
    public static func hint(source: String, text: String) -> String? {
        if source.contains("GstV4l2Sink"), text.contains("Cannot identify device") || text.contains("not a output device")
            || text.contains("isn't a v4l2 driver") {
            // The number of the device named (OUTPUT=/dev/video11 needs video_nr=11).
            let number = text.range(of: "/dev/video[0-9]+", options: .regularExpression)
                .map { String(text[$0].dropFirst("/dev/video".count)) } ?? "10"
            return "a virtual camera needs the v4l2loopback module: apt-get install v4l2loopback-dkms && "
                + "modprobe v4l2loopback devices=1 video_nr=\(number) card_label=FilterCam exclusive_caps=1 "
                + "(as root; OUTPUT= names the device, a v4l2loopback one)"
        }
        if source.contains("GstPipeWireSink"), text.contains("Failed to connect") {
            return "a PipeWire camera needs PipeWire running in your session (a desktop starts it; elsewhere start pipewire "
                + "and wireplumber on a session bus: packages pipewire, wireplumber, gstreamer1.0-pipewire, dbus); "
                + "without PipeWire, pipelines/virtualcam.pipeline makes a v4l2loopback camera"
        }
        if source.contains("GstSRTSink") || source.contains("GstSRTSrc") {
            // libsrt's words, in the debug text: "failed to set passphrase (reason: … Bad
            // parameters)", "Cannot bind to 127.0.0.1:8888".
            if text.contains("failed to set passphrase") {
                return "an SRT passphrase is 10 to 79 characters (PASSPHRASE= in pipelines/srt.pipeline)"
            }
            if text.contains("Cannot bind") {
                return "another program listens on that port: choose another (PORT= in pipelines/srt.pipeline)"
            }
        }
        return nil
    }
}
