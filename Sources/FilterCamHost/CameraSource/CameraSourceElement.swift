import FilterCore
import CGStreamer
import CFilterCamShim
import FoundationEssentials
import Synchronization

/// `filtercamsrc`: the camera as a GStreamer source. Finds cameras with the device monitor,
/// opens the back one by default, switches cameras while playing, sets camera controls,
/// and falls back to a live test picture (with a WARNING) when no camera can be opened.
///
///     gst-launch-1.0 filtercamsrc camera=front preset=1280x720 ! filtercam filter=sepia ! autovideosink
///     filtercamsrc camera=test:ball num-buffers=60 ! x264enc ! mp4mux ! filesink location=a.mp4
///
/// Inside the bin:
///
///     [source bin] ! videorate ! videoscale ! videoconvert ! capsfilter(preset) ! (ghost src)
///
/// where the source bin is `v4l2src device=… ! <camera mode caps> [! jpegdec]` or
/// `videotestsrc is-live=true pattern=… ! <preset caps, YUY2>`. The converter is passthrough
/// whenever downstream takes the camera's own format (YUY2, or I420 from `jpegdec`), as
/// FilterCam's elements, encoders and video sinks do; it converts only for a downstream
/// that needs another format. Switching cameras replaces only
/// the source bin: the old one is set to NULL first (its streaming thread stops, so it can
/// never push into an unlinked pad and no blocking probe is needed), then unlinked and
/// removed, and the new one linked and synced to the bin's state. Everything after the
/// source stays, so the output caps (preset size, 30/1) never change and a recording goes
/// on in the same file. The new source's STREAM_START and SEGMENT are dropped once the
/// stream has them (downstream sees only new frames); v4l2src stamps buffers with the
/// pipeline clock's running time, and a test picture added while running gets a
/// `timestamp-offset` of the running time, so timestamps continue monotonically.
/// input-selector was not chosen: it would keep both cameras open (a second camera often
/// cannot stream at the same time on USB) and it forwards each pad's segment on switch.
///
/// `camera`: `back` (default), `front`, a device path, or `test:PATTERN` (a videotestsrc
/// pattern nick, e.g. `test:smpte`, `test:ball`: a pseudo-camera for demos and tests).
/// back/front are chosen among the device monitor's cameras by name or V4L2 card
/// ("back", "rear", "world" / "front", "user"), else the first camera is back and the
/// next one front, else the first camera is used.
///
/// In parts: this file (the type, its inner elements and states),
/// CameraSourceElement+Properties (properties and settings), CameraSourceElement+Switching
/// (opening, switching and the test-picture fallback), CameraSourceElement+Controls
/// (camera controls written to V4L2) and CameraSourceElement+FrameCount (`num-buffers`).
package final class CameraSourceElement: SwiftElement, ElementPart, Sendable {
    enum Property: String, PropertyNames {
        case camera, preset, fallback, numBuffers = "num-buffers", showing
        // Camera controls (`CameraControl`): names as CameraControl.propertyName.
        case torch, focusMode = "focus-mode", focusPosition = "focus-position", exposureBias = "exposure-bias"
        case exposureTime = "exposure-time", iso, whiteBalance = "white-balance", tint, zoom
    }

    package static let factoryName = "filtercamsrc"
    static let outputFormats = "{ BGRx, BGRA, RGBx, RGBA, I420, NV12, YUY2, UYVY }"
    static let srcCaps = "video/x-raw, format=(string)\(outputFormats), width=(int)[ 1, 32767 ], height=(int)[ 1, 32767 ], framerate=(fraction)[ 0/1, 2147483647/1 ]"
    /// The frame rate every preset delivers (videorate duplicates or drops to it).
    static let framerate = "30/1"

    static let elementClass = ElementClass(
        factoryName: factoryName, typeName: "GstFilterCamSrc",
        longName: "FilterCam camera source",
        klass: "Source/Video",
        summary: "Finds, opens, switches and controls cameras (v4l2src), with a test-picture fallback, written in Swift",
        parts: [PartSlot(properties) { (e: CameraSourceElement) in e }],
        sinkCaps: "", srcCaps: srcCaps, isSource: true,
        make: { element, _ in CameraSourceElement(element: element) })

    /// The source in use.
    struct Active {
        var bin: UnsafeMutablePointer<GstElement>
        /// What the camera is, for messages: "/dev/video0 (HD Webcam)", "test:ball", …
        var label: String
        var handle: CameraHandle?
        var controls: [String: V4L2ControlInfo]
        var isFallback: Bool
        /// A camera (not a test picture): an ERROR from it means the camera failed.
        var isCamera: Bool
    }

    /// Test seam: camera paths served by a GStreamer description instead of a V4L2 device
    /// (these machines have none), so that what happens when a running camera fails can be
    /// tested. Empty outside tests.
    nonisolated(unsafe) static var simulatedCameras: [String: String] = [:]

    private let elementPointer: GstPointer<GstElement>
    var element: UnsafeMutablePointer<GstElement> { elementPointer.pointer }
    let log = DebugCategory.filtercamsrc
    let settings = Locked(Settings())
    /// Serialises opening and switching: `active`, `outputSize` and `sourceCount` change
    /// only under it.
    let switching = Locked((), recursive: true)
    /// What `switching` guards, behind a lock of its own (never contended) that keeps the
    /// element Sendable, checked.
    private struct Current {
        var active: Active?
        var outputSize = (width: 640, height: 480)
        var sourceCount = 0
    }
    private let current = Locked(Current())
    var active: Active? {
        get { current.withLock { $0.active } }
        set { current.withLock { $0.active = newValue } }
    }
    var outputSize: (width: Int, height: Int) {
        get { current.withLock { $0.outputSize } }
        set { current.withLock { $0.outputSize = newValue } }
    }
    var sourceCount: Int {
        get { current.withLock { $0.sourceCount } }
        set { current.withLock { $0.sourceCount = newValue } }
    }
    /// What `active` is, readable without `switching` (from streaming threads).
    struct Shown: Sendable {
        private let binPointer: GstPointer<GstElement>
        var bin: UnsafeMutablePointer<GstElement> { binPointer.pointer }
        let label: String, isCamera: Bool, isFallback: Bool

        init(bin: UnsafeMutablePointer<GstElement>, label: String, isCamera: Bool, isFallback: Bool) {
            binPointer = GstPointer(bin)
            self.label = label
            self.isCamera = isCamera
            self.isFallback = isFallback
        }
    }
    let shown = Locked<Shown?>(nil)
    /// Cameras that failed while running, for the fallback thread (the newest wins: the
    /// thread checks that the failed one is still the one shown).
    let failedCameras = WorkQueue<Shown>(policy: .newestWins)
    private let ratePointer: GstPointer<GstElement>
    var rate: UnsafeMutablePointer<GstElement> { ratePointer.pointer }
    private let capsFilterPointer: GstPointer<GstElement>
    var capsFilter: UnsafeMutablePointer<GstElement> { capsFilterPointer.pointer }
    private let rateSinkPadPointer: GstPointer<GstPad>
    var rateSinkPad: UnsafeMutablePointer<GstPad> { rateSinkPadPointer.pointer }
    /// Frames that left the bin since it started, for `num-buffers`.
    let framesOut = Atomic<Int>(0)

    init(element: UnsafeMutablePointer<GstElement>) {
        elementPointer = GstPointer(element)
        let rate = GStreamer.make("videorate", name: "rate")!
        let scale = GStreamer.make("videoscale", name: "scale")!
        let convert = GStreamer.make("videoconvert", name: "convert")!
        let capsFilter = GStreamer.make("capsfilter", name: "preset")!
        for e in [rate, scale, convert, capsFilter] { gst_bin_add(element.asBin, e) }
        GStreamer.link([rate, scale, convert, capsFilter])
        let rateSinkPad = GStreamer.staticPad(rate, "sink")!
        ratePointer = GstPointer(rate)
        capsFilterPointer = GstPointer(capsFilter)
        rateSinkPadPointer = GstPointer(rateSinkPad)
        let target = GStreamer.staticPad(capsFilter, "src")!
        let ghost = gst_ghost_pad_new_from_template("src", target, gst_element_get_pad_template(element, "src"))!
        gst_element_add_pad(element, ghost)
        setOutputCaps(width: 640, height: 480)
        countFramesOut()
    }

    // MARK: Element

    func changeState(_ transition: GstStateChange, after: Bool, result: GstStateChangeReturn) -> GstStateChangeReturn {
        // A camera switch (from another thread) must not add or remove children while the
        // bin changes their states: `switching` is held from before the change to after it
        // (the shim calls both on the same thread).
        if !after {
            switching.lock()
            let r = beforeStateChange(transition, result)
            if r == GST_STATE_CHANGE_FAILURE { switching.unlock() }
            return r
        }
        defer { switching.unlock() }
        let from = fc_transition_current(transition), to = fc_transition_next(transition)
        if from == Int32(GST_STATE_READY.rawValue) && to == Int32(GST_STATE_NULL.rawValue) {
            closeCamera()
        }
        return result
    }

    private func beforeStateChange(_ transition: GstStateChange, _ result: GstStateChangeReturn) -> GstStateChangeReturn {
        let from = fc_transition_current(transition), to = fc_transition_next(transition)
        if from == Int32(GST_STATE_NULL.rawValue) && to == Int32(GST_STATE_READY.rawValue) {
            return openCamera() ? result : GST_STATE_CHANGE_FAILURE
        }
        return result
    }

    // MARK: Run (as a part: the host calls these outside `switching`, which the fallback thread takes)

    /// Before READY→PAUSED: the fallback thread is ready for a camera that fails while running.
    func start() {
        framesOut.store(0, ordering: .relaxed)
        failedCameras.start(thread: "fc-fallback") { [self] in replaceFailedCameras() }
    }

    /// After PAUSED→READY: the fallback thread is joined.
    func stop() {
        failedCameras.stop()
    }
}
