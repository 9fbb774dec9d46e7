import CGStreamer

/// An element handed to another thread (the thread that sends EOS, the web server's):
/// GStreamer's objects and their properties are thread-safe, which Swift cannot see.
struct SendableElement: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<GstElement>
}
