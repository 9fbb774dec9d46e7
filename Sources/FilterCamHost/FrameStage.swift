import CGStreamer
import FilterCore

/// Everything one frame needs, asked of the element once: the pixels' job (FilterCore)
/// and what the output buffer carries besides them (metas, messages). State a frame
/// passes from its pixels to its decoration (the faces found in it) is captured by the
/// two closures of the same task, never kept in the element.
struct FrameTask {
    var job: FrameJob
    /// Runs on the output buffer (made writable) after the pixels, with the frame's
    /// timestamp; nil when there is nothing to add.
    var decorate: ((UnsafeMutablePointer<GstBuffer>, _ timestamp: UInt64?) -> Void)?

    init(_ job: FrameJob, decorate: ((UnsafeMutablePointer<GstBuffer>, UInt64?) -> Void)? = nil) {
        self.job = job
        self.decorate = decorate
    }
}

/// A frame's task, decided on the worker thread from the settings as they were when the
/// frame arrived: a property set when frame N reaches the element (from a pad probe, or a
/// controlled property at N's time) applies from N on, as in a stock filter, and not to
/// the frames that arrived before it and still wait for the worker. Nil once the element
/// is gone.
struct FrameTaskMaker: Sendable {
    let make: @Sendable (_ input: FrameShape, _ stream: StreamState) -> FrameTask?
}

/// The element behind a `FrameWorker`. Walking a frame from the appsink to the appsrc
/// enters the element twice: its settings are copied as it arrives (`taskMaker`) and its
/// task decided from them when the worker takes it; the worker calls the element otherwise
/// only at the end of the stream and for the preview window's events.
protocol FrameStage: AnyObject, Sendable {
    /// For a frame arriving now (its streaming thread, after controlled properties took
    /// the frame's values): one copy of the settings, in the maker that decides the frame's
    /// task (worker thread) from them and what the worker knows of the stream.
    func taskMaker() -> FrameTaskMaker
    /// EOS arrived, before it goes downstream (worker thread): finish pending work (stills).
    func endOfStream()
    /// FLUSH_STOP arrived (a pad's streaming thread): frames may come again after an EOS.
    func streamFlushed()
    /// A navigation event from the window (the sink's thread): true when the element used it.
    func navigate(_ event: UnsafeMutablePointer<GstEvent>) -> Bool
    /// A pointer position on the output mapped back to the input, for navigation events
    /// that go on upstream.
    func mapPointerToInput(x: Double, y: Double) -> (x: Double, y: Double)
}

extension FrameStage {
    func endOfStream() {}
    func streamFlushed() {}
    func navigate(_ event: UnsafeMutablePointer<GstEvent>) -> Bool { false }
    func mapPointerToInput(x: Double, y: Double) -> (x: Double, y: Double) { (x, y) }
}
