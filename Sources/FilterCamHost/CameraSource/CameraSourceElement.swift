import FilterCore
import CGStreamer
import CFilterCamShim
import Foundation
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
package final class CameraSourceElement: SwiftElement, HasElementClass, ElementPart, @unchecked Sendable {
    enum Property: String, PropertyNames {
        case camera, preset, fallback, numBuffers = "num-buffers"
        // Camera controls (`CameraControl`): names as CameraControl.propertyName.
        case torch, focusMode = "focus-mode", focusPosition = "focus-position", exposureBias = "exposure-bias"
        case exposureTime = "exposure-time", iso, whiteBalance = "white-balance", tint, zoom
    }

    package static let factoryName = "filtercamsrc"
    static let outputFormats = "{ BGRx, BGRA, RGBx, RGBA, I420, NV12, YUY2, UYVY }"
    static let srcCaps = "video/x-raw, format=(string)\(outputFormats), width=(int)[ 1, 32767 ], height=(int)[ 1, 32767 ], framerate=(fraction)[ 0/1, 2147483647/1 ]"
    /// The frame rate every preset delivers (videorate duplicates or drops to it).
    static let framerate = "30/1"

    static let properties: [ElementProperty] = Property.allCases.map { p in
        switch p {
        case .camera:
            return ElementProperty(p.rawValue, nick: "Camera",
                blurb: "back, front, a device path (/dev/videoN) or test:PATTERN (a test picture, e.g. test:ball); changing it while playing switches cameras without stopping",
                .string(defaultValue: "back"))
        case .preset:
            return ElementProperty(p.rawValue, nick: "Preset",
                blurb: "Output size: 640x480, 1280x720, 1920x1080 or photo (the camera's largest; 1920x1080 for a test picture); always at 30 fps",
                .enumeration(typeName: "FilterCamCameraPreset", nicks: CameraPreset.allCases.map(\.rawValue), defaultIndex: 0))
        case .fallback:
            return ElementProperty(p.rawValue, nick: "Fallback",
                blurb: "When no camera can be opened: test (a live test picture and a WARNING) or none (an ERROR: the pipeline does not start)",
                .enumeration(typeName: "FilterCamCameraFallback", nicks: CameraFallback.allCases.map(\.rawValue), defaultIndex: 0))
        case .numBuffers:
            return ElementProperty(p.rawValue, nick: "Number of buffers",
                blurb: "Frames each opened source delivers before EOS (-1 = unlimited)",
                .int(min: -1, max: Int32.max, defaultValue: -1))
        case .torch:
            return ElementProperty(p.rawValue, nick: "Torch", blurb: "Torch (LED) on", .bool(defaultValue: false))
        case .focusMode:
            return ElementProperty(p.rawValue, nick: "Focus mode",
                blurb: "locked, auto (focus once) or continuous autofocus",
                .enumeration(typeName: "FilterCamFocusMode", nicks: FocusMode.allCases.map(\.rawValue), defaultIndex: 2))
        case .focusPosition:
            return ElementProperty(p.rawValue, nick: "Focus position",
                blurb: "Lens position, 0 (nearest) to 1 (farthest); locks focus", .double(min: 0, max: 1, defaultValue: 0.5))
        case .exposureBias:
            return ElementProperty(p.rawValue, nick: "Exposure bias",
                blurb: "Exposure compensation in EV", .double(min: -4, max: 4, defaultValue: 0))
        case .exposureTime:
            return ElementProperty(p.rawValue, nick: "Exposure time",
                blurb: "Custom exposure time in µs (0 = automatic exposure)", .int(min: 0, max: 10_000_000, defaultValue: 0))
        case .iso:
            return ElementProperty(p.rawValue, nick: "ISO", blurb: "Custom ISO (0 = automatic)", .int(min: 0, max: 102_400, defaultValue: 0))
        case .whiteBalance:
            return ElementProperty(p.rawValue, nick: "White balance",
                blurb: "0 = automatic, else the temperature in kelvin (2000–10000)", .int(min: 0, max: 10_000, defaultValue: 0))
        case .tint:
            return ElementProperty(p.rawValue, nick: "Tint", blurb: "White balance tint, -150 (green) to 150 (magenta)",
                .int(min: -150, max: 150, defaultValue: 0))
        case .zoom:
            return ElementProperty(p.rawValue, nick: "Zoom", blurb: "Optical/camera zoom factor", .double(min: 1, max: 10, defaultValue: 1))
        }
    }

    static let elementClass = ElementClass(
        factoryName: factoryName, typeName: "GstFilterCamSrc",
        longName: "FilterCam camera source",
        klass: "Source/Video",
        summary: "Finds, opens, switches and controls cameras (v4l2src), with a test-picture fallback, written in Swift",
        properties: properties, sinkCaps: "", srcCaps: srcCaps, isSource: true,
        make: { element, _ in CameraSourceElement(element: element) })

    var elementClass: ElementClass { Self.elementClass }

    struct Settings {
        var camera = CameraRequest.back
        var cameraText = "back"
        var preset = CameraPreset.vga
        var fallback = CameraFallback.test
        var numBuffers = -1
        /// The camera controls the user set, in the order first set: each held once, here
        /// (only these are ever applied; an unset control reads as its declared default).
        var controls: [CameraControl] = []

        mutating func remember(_ c: CameraControl) {
            if let i = controls.firstIndex(where: { $0.propertyName == c.propertyName }) { controls[i] = c } else { controls.append(c) }
        }
        func control(named name: String) -> CameraControl? { controls.first { $0.propertyName == name } }
        var exposure: CameraControlSettings {
            var e = CameraControlSettings()
            for c in controls {
                if case .exposureTime(let t) = c { e.exposureTime = t }
                if case .iso(let i) = c { e.iso = i }
            }
            return e
        }
    }

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

    let element: UnsafeMutablePointer<GstElement>
    private let settings = Locked(Settings())
    private var parts: ElementParts!
    /// Serialises opening and switching; guards `active` and `outputSize`.
    private let switching = Locked((), recursive: true)
    private var active: Active?
    /// What `active` is, readable without `switching` (from streaming threads).
    struct Shown: @unchecked Sendable { var bin: UnsafeMutablePointer<GstElement>; var label: String; var isCamera: Bool; var isFallback: Bool }
    private let shown = Locked<Shown?>(nil)
    private var outputSize = (width: 640, height: 480)
    private var sourceCount = 0
    private let rate: UnsafeMutablePointer<GstElement>
    private let capsFilter: UnsafeMutablePointer<GstElement>
    private let rateSinkPad: UnsafeMutablePointer<GstPad>

    init(element: UnsafeMutablePointer<GstElement>) {
        self.element = element
        rate = GStreamer.make("videorate", name: "rate")!
        let scale = GStreamer.make("videoscale", name: "scale")!
        let convert = GStreamer.make("videoconvert", name: "convert")!
        capsFilter = GStreamer.make("capsfilter", name: "preset")!
        for e in [rate, scale, convert, capsFilter] { gst_bin_add(element.asBin, e) }
        gst_element_link_many_shim([rate, scale, convert, capsFilter])
        rateSinkPad = gst_element_get_static_pad(rate, "sink")!
        gst_object_unref(UnsafeMutableRawPointer(rateSinkPad))   // the element keeps it
        let target = gst_element_get_static_pad(capsFilter, "src")!
        let ghost = gst_ghost_pad_new_from_template("src", target, gst_element_get_pad_template(element, "src"))!
        gst_object_unref(UnsafeMutableRawPointer(target))
        gst_element_add_pad(element, ghost)
        setOutputCaps(width: 640, height: 480)
        parts = ElementParts(element: element, declared: Self.properties, parts: [self])
    }

    // MARK: Properties

    func setProperty(_ index: Int, _ value: PropertyValue) { parts.set(index, value) }
    func getProperty(_ index: Int) -> PropertyValue { parts.get(index) }

    var properties: [ElementProperty] { Self.properties }

    func set(_ name: String, _ value: PropertyValue) throws(PropertyProblem) {
        guard let property = Property(rawValue: name) else { return }
        switch (property, value) {
        case (.camera, .string(let text)):
            let text = text ?? "back"
            do {
                let request = try CameraRequest(parsing: text)
                settings.withLock { $0.camera = request; $0.cameraText = text }
                if hasSource { switchCamera(to: request) }
            } catch {
                log.warning(element, "refused camera=\(text): \(error.description)")
                throw PropertyProblem(error.description)
            }
        case (.preset, .int(let v)):
            let preset = CameraPreset.allCases[v]
            settings.withLock { $0.preset = preset }
            // Under `switching`: a start or a switch on another thread reads the size.
            switching.lock()
            if hasSource, let size = preset.size { setOutputCaps(width: size.width, height: size.height) }
            switching.unlock()
        case (.fallback, .int(let v)):
            settings.withLock { $0.fallback = CameraFallback.allCases[v] }
        case (.numBuffers, .int(let v)):
            settings.withLock { $0.numBuffers = v }
        default:
            guard let control = CameraControl(property: name, value) else { return }
            if case .whiteBalance(let k) = control, k != 0 && k < 2000 {
                log.warning(element, "refused white-balance=\(k)")
                throw PropertyProblem("0 (automatic) or 2000–10000 kelvin")
            }
            settings.withLock { $0.remember(control) }
            switching.lock()
            defer { switching.unlock() }
            if active != nil { apply([control]) }
        }
    }

    func get(_ name: String) -> PropertyValue {
        let s = settings.withLock { $0 }
        switch Property(rawValue: name)! {
        case .camera: return .string(s.cameraText)
        case .preset: return .int(CameraPreset.allCases.firstIndex(of: s.preset)!)
        case .fallback: return .int(CameraFallback.allCases.firstIndex(of: s.fallback)!)
        case .numBuffers: return .int(s.numBuffers)
        default:
            return s.control(named: name)?.propertyValue
                ?? Self.properties.first { $0.name == name }!.defaultValue
        }
    }

    private var hasSource: Bool {
        switching.lock()
        defer { switching.unlock() }
        return active != nil
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
            if !parts.check(transition) { return GST_STATE_CHANGE_FAILURE }
            return openCamera() ? result : GST_STATE_CHANGE_FAILURE
        }
        return result
    }

    /// An ERROR from a camera while running (e.g. it is unplugged or busy at STREAMON)
    /// becomes a WARNING and the test picture, unless fallback=none.
    func filterMessage(_ message: UnsafeMutablePointer<GstMessage>) -> Bool {
        guard message.pointee.type == GST_MESSAGE_ERROR, let src = message.pointee.src else { return false }
        // Not under `switching`: a switch waits for the old source's streaming thread,
        // which may be the one posting this.
        guard let current = shown.withLock({ $0 }), !current.isFallback, current.isCamera,
              gst_object_has_as_ancestor(src, current.bin.asObject) != 0,
              settings.withLock({ $0.fallback }) == .test else { return false }
        var error: UnsafeMutablePointer<GError>?
        gst_message_parse_error(message, &error, nil)
        let reason = error.map { String(cString: $0.pointee.message) } ?? "error"
        if let error { g_error_free(error) }
        fc_post_warning(element, "\(GStreamer.name(of: element)): camera \(current.label) failed (\(reason)); showing a test picture instead (fallback=test)", nil)
        // Not from the failing streaming thread: it is stopped by the switch.
        Thread.detachNewThread { [self] in
            switching.lock()
            defer { switching.unlock() }
            guard let now = active, now.bin == current.bin else { return }   // already switched
            install(testSource(pattern: "smpte", label: "test picture (\(current.label) failed)", isFallback: true), syncState: true)
        }
        return true
    }

    func action(_ index: Int) {}

    // MARK: Opening and switching

    private func openCamera() -> Bool {
        switching.lock()
        defer { switching.unlock() }
        sourceCount = 0
        let request = settings.withLock { $0.camera }
        guard let source = open(request, starting: true) else { return false }
        install(source, syncState: false)   // the bin's own state change takes it along
        return true
    }

    private func closeCamera() {
        switching.lock()
        defer { switching.unlock() }
        if let old = active {
            gst_element_set_state(old.bin, GST_STATE_NULL)
            gst_element_unlink(old.bin, rate)
            gst_bin_remove(element.asBin, old.bin)
        }
        active = nil
        shown.withLock { $0 = nil }
    }

    private let log = DebugCategory.filtercamsrc

    private func switchCamera(to request: CameraRequest) {
        log.info(element, "switching camera to \(request)")
        switching.lock()
        defer { switching.unlock() }
        guard active != nil, let source = open(request, starting: false) else { return }
        install(source, syncState: true)
    }

    /// Opens what `request` names, or the fallback picture (posting the WARNING), or nil
    /// after posting the ERROR (fallback=none). When starting, the photo preset's size is
    /// fixed from the camera opened.
    private func open(_ request: CameraRequest, starting: Bool) -> Active? {
        let s = settings.withLock { $0 }
        var note: String? = nil
        let path: String
        var listed: CameraDevice? = nil
        switch request {
        case .test(let pattern):
            if starting { fixOutputSize(s.preset, mode: nil) }
            return testSource(pattern: pattern, label: "test:\(pattern)", isFallback: false)
        case .back, .front:
            let devices = CameraDirectory.list()
            guard let chosen = CameraRequest.choose(request == .back ? .back : .front, among: devices) else {
                return fallBack(.noCamera, path: "", settings: s, starting: starting)
            }
            listed = chosen.device
            note = chosen.note
            path = chosen.device.path
        case .path(let p):
            if let simulated = Self.simulatedCameras[p], let bin = makeBin(simulated) {
                if starting { fixOutputSize(s.preset, mode: nil) }
                return Active(bin: bin, label: "\(p) (simulated)", handle: nil, controls: [:], isFallback: false, isCamera: true)
            }
            path = p
            if FileManager.default.fileExists(atPath: p) {
                listed = CameraDirectory.list().first { $0.path == p }
            }
        }
        let handle: CameraHandle
        do {
            handle = try CameraHandle(path: path)
        } catch {
            return fallBack(error, path: path, settings: s, starting: starting)
        }
        if let note { fc_post_warning(element, "\(GStreamer.name(of: element)): \(note)", nil) }
        let modes = listed?.modes ?? []
        var mode: CameraMode? = nil
        if starting {
            mode = CameraMode.choose(width: s.preset.size?.width, height: s.preset.size?.height, among: modes)
            fixOutputSize(s.preset, mode: mode)
        } else {
            mode = CameraMode.choose(width: outputSize.width, height: outputSize.height, among: modes)
        }
        var description = "v4l2src name=camera device=\"\(path)\" num-buffers=\(s.numBuffers)"
        if let mode {
            // (A description ending in bare caps does not parse as a bin: capsfilter.)
            description += mode.isJPEG ? " ! capsfilter caps=\"image/jpeg,width=\(mode.width),height=\(mode.height)\" ! jpegdec"
                                       : " ! capsfilter caps=\"video/x-raw,width=\(mode.width),height=\(mode.height)\""
        }
        let label = listed.map { "\(path) (\($0.name))" } ?? path
        guard let bin = makeBin(description) else {
            return fallBack(.other(errno: ENODEV), path: path, settings: s, starting: starting)
        }
        var controls: [String: V4L2ControlInfo] = [:]
        for c in handle.controls() { controls[c.name] = c }
        return Active(bin: bin, label: label, handle: handle, controls: controls, isFallback: false, isCamera: true)
    }

    private func fallBack(_ problem: CameraProblem, path: String, settings s: Settings, starting: Bool) -> Active? {
        let reason = problem.message(for: path)
        let name = GStreamer.name(of: element)
        guard s.fallback == .test else {
            fc_post_error(element, "\(name): \(reason) (fallback=none)", nil)
            return nil
        }
        fc_post_warning(element, "\(name): \(reason); showing a test picture instead (fallback=test)", nil)
        if starting { fixOutputSize(s.preset, mode: nil) }
        return testSource(pattern: "smpte", label: "test picture (\(reason))", isFallback: true)
    }

    /// A test picture in YUY2, the format a webcam's raw modes give, so that pipelines
    /// tried without a camera negotiate what they will with one (the converter inside
    /// passes it through to any element that takes YUY2).
    private func testSource(pattern: String, label: String, isFallback: Bool) -> Active {
        let n = settings.withLock { $0.numBuffers }
        let bin = makeBin("videotestsrc name=camera is-live=true pattern=\(pattern) num-buffers=\(n) ! capsfilter caps=\"video/x-raw,format=YUY2,width=\(outputSize.width),height=\(outputSize.height),framerate=\(Self.framerate)\"")!
        return Active(bin: bin, label: label, handle: nil, controls: [:], isFallback: isFallback, isCamera: false)
    }

    private func makeBin(_ description: String) -> UnsafeMutablePointer<GstElement>? {
        var error: UnsafeMutablePointer<GError>?
        let bin = gst_parse_bin_from_description(description, 1, &error)
        if let error {
            fc_post_warning(element, "\(GStreamer.name(of: element)): cannot make '\(description)': \(String(cString: error.pointee.message))", nil)
            g_error_free(error)
        }
        return bin
    }

    private func fixOutputSize(_ preset: CameraPreset, mode: CameraMode?) {
        let size = preset.size ?? mode.map { (width: $0.width, height: $0.height) } ?? CameraPreset.photoFallbackSize
        setOutputCaps(width: size.width, height: size.height)
    }

    /// Called with `switching` held (it guards `outputSize`).
    private func setOutputCaps(width: Int, height: Int) {
        outputSize = (width, height)
        log.info(element, "output size \(width)x\(height) at \(Self.framerate)")
        GStreamer.set(UnsafeMutableRawPointer(capsFilter), "caps",
                      "video/x-raw,format=(string)\(Self.outputFormats),width=\(width),height=\(height),framerate=\(Self.framerate),pixel-aspect-ratio=1/1")
    }

    /// Puts `source` in place of the current one (see the file header).
    private func install(_ source: Active, syncState: Bool) {
        log.info(element, "showing \(source.label)\(source.isFallback ? " (fallback)" : "")")
        if active != nil { pinOutputCaps() }
        if let old = active {
            gst_element_set_state(old.bin, GST_STATE_NULL)
            gst_element_unlink(old.bin, rate)
            gst_bin_remove(element.asBin, old.bin)
        }
        gst_bin_add(element.asBin, source.bin)
        let pad = gst_element_get_static_pad(source.bin, "src")!
        // Later sources: downstream already has a stream start and segment.
        gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, { _, info, data in
            guard let event = fc_probe_info_event(info) else { return GST_PAD_PROBE_OK }
            let type = event.pointee.type
            guard type == GST_EVENT_STREAM_START || type == GST_EVENT_SEGMENT else { return GST_PAD_PROBE_OK }
            let downstream = data!.assumingMemoryBound(to: GstPad.self)
            guard let sticky = gst_pad_get_sticky_event(downstream, type, 0) else { return GST_PAD_PROBE_OK }
            gst_event_unref(sticky)
            return GST_PAD_PROBE_DROP
        }, UnsafeMutableRawPointer(rateSinkPad), nil)
        gst_object_unref(UnsafeMutableRawPointer(pad))
        _ = gst_element_link(source.bin, rate)
        sourceCount += 1
        if let test = gst_bin_get_by_name(source.bin.asBin, "camera") {
            if GStreamer.factoryName(of: test) == "videotestsrc", let now = runningTime() {
                GStreamer.set(UnsafeMutableRawPointer(test), "timestamp-offset", String(now))
            }
            gst_object_unref(UnsafeMutableRawPointer(test))
        }
        active = source
        shown.withLock { $0 = Shown(bin: source.bin, label: source.label, isCamera: source.isCamera, isFallback: source.isFallback) }
        StructureBuilder("filtercamsrc-camera").with { m in
            m.set("camera", settings.withLock { $0.cameraText })
            m.set("source", source.label)
            m.set("fallback", source.isFallback ? 1 : 0)
            m.set("width", outputSize.width)
            m.set("height", outputSize.height)
        }.post(from: element)
        apply(settings.withLock { $0.controls })
        if syncState { _ = gst_element_sync_state_with_parent(source.bin) }
    }

    /// Holds the negotiated output caps (format included) for the next source, so that
    /// videoconvert cannot pick another format for it: downstream sees the same caps.
    private func pinOutputCaps() {
        let pad = gst_element_get_static_pad(capsFilter, "src")!
        defer { gst_object_unref(UnsafeMutableRawPointer(pad)) }
        guard let caps = gst_pad_get_current_caps(pad) else { return }
        defer { gst_caps_unref(caps) }
        guard let text = gst_caps_to_string(caps) else { return }
        defer { g_free(text) }
        GStreamer.set(UnsafeMutableRawPointer(capsFilter), "caps", String(cString: text))
    }

    /// The pipeline's running time now, when the element has a clock (it is playing).
    private func runningTime() -> UInt64? {
        guard let clock = gst_element_get_clock(element) else { return nil }
        defer { gst_object_unref(UnsafeMutableRawPointer(clock)) }
        let now = gst_clock_get_time(clock), base = gst_element_get_base_time(element)
        return now >= base ? UInt64(now - base) : nil
    }

    /// Writes controls to the open camera; a missing or refused one is a WARNING naming
    /// the camera and the control, and changes nothing for that property.
    private func apply(_ controls: [CameraControl]) {
        guard let current = active else { return }
        let exposure = settings.withLock { $0.exposure }
        let name = GStreamer.name(of: element)
        for control in controls {
            do {
                let writes = try V4L2ControlMap.writes(for: control, on: current.controls, settings: exposure)
                guard let handle = current.handle else { continue }
                if let (write, code) = handle.apply(writes, controls: current.controls) {
                    fc_post_warning(element, "\(name): camera \(current.label) refused \(control.propertyName) (\(write)): \(String(cString: strerror(code)))", nil)
                }
            } catch {
                fc_post_warning(element, "\(name): camera \(current.label) \(error.description)", nil)
            }
        }
    }
}

/// `preset`: the output size.
enum CameraPreset: String, CaseIterable {
    case vga = "640x480", hd = "1280x720", fullHD = "1920x1080", photo
    var size: (width: Int, height: Int)? {
        switch self {
        case .vga: return (640, 480)
        case .hd: return (1280, 720)
        case .fullHD: return (1920, 1080)
        case .photo: return nil
        }
    }
    /// The photo preset's size when there is no camera to ask.
    static let photoFallbackSize = (width: 1920, height: 1080)
}

/// `fallback`: what happens when no camera can be opened.
enum CameraFallback: String, CaseIterable {
    case test, none
}

private func gst_element_link_many_shim(_ elements: [UnsafeMutablePointer<GstElement>]) {
    for (a, b) in zip(elements, elements.dropFirst()) { _ = gst_element_link(a, b) }
}

extension StructureBuilder {
    func with(_ body: (StructureBuilder) -> Void) -> StructureBuilder {
        body(self)
        return self
    }
}
