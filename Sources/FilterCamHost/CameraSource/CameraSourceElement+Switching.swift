import FilterCore
import CGStreamer
import CFilterCamShim
import FoundationEssentials

/// Opening a camera, switching cameras while playing, and the test picture shown when no
/// camera can be opened or a running one fails (see the type's header for the design).
extension CameraSourceElement {
    /// An ERROR from a camera while running (e.g. it is unplugged or busy at STREAMON)
    /// becomes a WARNING and the test picture, unless fallback=none.
    func filterMessage(_ message: UnsafeMutablePointer<GstMessage>) -> Bool {
        guard message.pointee.type == GST_MESSAGE_ERROR, let src = message.pointee.src else { return false }
        // Not under `switching`: a switch waits for the old source's streaming thread,
        // which may be the one posting this.
        guard let current = shown.withLock({ $0 }), !current.isFallback, current.isCamera,
              gst_object_has_as_ancestor(src, current.bin.asObject) != 0,
              settings.withLock({ $0.fallback }) == .test else { return false }
        let reason = BusProblem(message)?.text(or: "error") ?? "error"
        fc_post_warning(element, "camera \(current.label) failed (\(reason)); showing a test picture instead (fallback=test)", nil)
        // Not from the failing streaming thread: it is stopped by the switch.
        failedCameras.put(current)
        return true
    }

    /// The fallback thread: replaces each failed camera by the test picture.
    func replaceFailedCameras() {
        while let (failed, _) = failedCameras.next() {
            defer { failedCameras.done() }
            switching.lock()
            defer { switching.unlock() }
            guard let now = active, now.bin == failed.bin else { continue }   // already switched
            install(testSource(pattern: "smpte", label: "test picture (\(failed.label) failed)", isFallback: true), syncState: true)
        }
    }

    func openCamera() -> Bool {
        switching.lock()
        defer { switching.unlock() }
        sourceCount = 0
        let request = settings.withLock { $0.camera }
        guard let source = open(request, starting: true) else { return false }
        install(source, syncState: false)   // the bin's own state change takes it along
        return true
    }

    func closeCamera() {
        switching.lock()
        defer { switching.unlock() }
        if let old = active {
            gst_element_set_state(old.bin, GST_STATE_NULL)
            gst_element_unlink(old.bin, rate)
            gst_bin_remove(element.asBin, old.bin)
        }
        active = nil
        shown.withLock { $0 = nil }
        g_object_notify(element.asGObject, Property.showing.rawValue)
    }

    func switchCamera(to request: CameraRequest) {
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
        if let note { fc_post_warning(element, note, nil) }
        let modes = listed?.modes ?? []
        var mode: CameraMode? = nil
        if starting {
            mode = CameraMode.choose(width: s.preset.size?.width, height: s.preset.size?.height, among: modes)
            fixOutputSize(s.preset, mode: mode)
        } else {
            mode = CameraMode.choose(width: outputSize.width, height: outputSize.height, among: modes)
        }
        var description = "v4l2src name=camera device=\"\(path)\""
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
        guard s.fallback == .test else {
            fc_post_error(element, "\(reason) (fallback=none)", nil)
            return nil
        }
        fc_post_warning(element, "\(reason); showing a test picture instead (fallback=test)", nil)
        if starting { fixOutputSize(s.preset, mode: nil) }
        return testSource(pattern: "smpte", label: "test picture (\(reason))", isFallback: true)
    }

    /// A test picture in YUY2, the format a webcam's raw modes give, so that pipelines
    /// tried without a camera negotiate what they will with one (the converter inside
    /// passes it through to any element that takes YUY2).
    private func testSource(pattern: String, label: String, isFallback: Bool) -> Active {
        let bin = makeBin("videotestsrc name=camera is-live=true pattern=\(pattern) ! capsfilter caps=\"video/x-raw,format=YUY2,width=\(outputSize.width),height=\(outputSize.height),framerate=\(Self.framerate)\"")!
        return Active(bin: bin, label: label, handle: nil, controls: [:], isFallback: isFallback, isCamera: false)
    }

    private func makeBin(_ description: String) -> UnsafeMutablePointer<GstElement>? {
        var error: UnsafeMutablePointer<GError>?
        let bin = gst_parse_bin_from_description(description, 1, &error)
        if let error {
            fc_post_warning(element, "cannot make '\(description)': \(GStreamerError(taking: error))", nil)
        }
        return bin
    }

    private func fixOutputSize(_ preset: CameraPreset, mode: CameraMode?) {
        let size = preset.size ?? mode.map { (width: $0.width, height: $0.height) } ?? CameraPreset.photoFallbackSize
        setOutputCaps(width: size.width, height: size.height)
    }

    /// Called with `switching` held (it guards `outputSize`).
    /// The output caps: `width`×`height` at 30 fps (nil: any size, for a camera not yet opened
    /// whose size is its largest).
    func setOutputCaps(width: Int?, height: Int?) {
        var size = ""
        if let width, let height {
            outputSize = (width, height)
            size = ",width=\(width),height=\(height)"
            log.info(element, "output size \(width)x\(height) at \(Self.framerate)")
        }
        GStreamer.set(UnsafeMutableRawPointer(capsFilter), "caps",
                      "video/x-raw,format=(string)\(Self.outputFormats)\(size),framerate=\(Self.framerate),pixel-aspect-ratio=1/1")
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
        let pad = GstOwned(gst_element_get_static_pad(source.bin, "src")!)
        // Later sources: downstream already has a stream start and segment.
        gst_pad_add_probe(pad.pointer, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, { _, info, data in
            guard let info, let event = fc_probe_info_event(info) else { return GST_PAD_PROBE_OK }
            let type = event.pointee.type
            let downstream = data!.assumingMemoryBound(to: GstPad.self)
            if type == GST_EVENT_EOS {
                // Its EOS carries the segment seqnum downstream has (its own segment was
                // dropped: after a switch, an application could not match EOS to the segment).
                if let segment = GstOwned(gst_pad_get_sticky_event(downstream, GST_EVENT_SEGMENT, 0)),
                   gst_event_get_seqnum(segment.pointer) != gst_event_get_seqnum(event) {
                    let raw = gst_mini_object_make_writable(UnsafeMutableRawPointer(event).assumingMemoryBound(to: GstMiniObject.self))!
                    let writable = UnsafeMutableRawPointer(raw).assumingMemoryBound(to: GstEvent.self)
                    gst_event_set_seqnum(writable, gst_event_get_seqnum(segment.pointer))
                    info.pointee.data = UnsafeMutableRawPointer(writable)
                }
                return GST_PAD_PROBE_OK
            }
            guard type == GST_EVENT_STREAM_START || type == GST_EVENT_SEGMENT else { return GST_PAD_PROBE_OK }
            return GstOwned(gst_pad_get_sticky_event(downstream, type, 0)) == nil ? GST_PAD_PROBE_OK : GST_PAD_PROBE_DROP
        }, UnsafeMutableRawPointer(rateSinkPad), nil)
        if gst_element_link(source.bin, rate) == 0 { refuseSize(of: source) }
        sourceCount += 1
        if let test = GstOwned(gst_bin_get_by_name(source.bin.asBin, "camera")),
           GStreamer.factoryName(of: test.pointer) == "videotestsrc", let now = runningTime() {
            GStreamer.set(UnsafeMutableRawPointer(test.pointer), "timestamp-offset", String(now))
        }
        active = source
        shown.withLock { $0 = Shown(bin: source.bin, label: source.label, isCamera: source.isCamera, isFallback: source.isFallback) }
        // A read-only property that changes by itself is notified, as `record` is: an
        // application followed it only through the `filtercamsrc-camera` message.
        g_object_notify(element.asGObject, Property.showing.rawValue)
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

    /// The source's picture fits nothing what follows takes (a preset size before a fixed
    /// size, or before a lens crop that asks for another): an error naming both sizes,
    /// instead of the camera's bare "not-linked" from inside the bin.
    private func refuseSize(of source: Active) {
        let name = GStreamer.name(of: element)
        let takes = GStreamer.staticPad(element, "src").flatMap { GstOwned(gst_pad_peer_query_caps($0, nil)) }
            .flatMap { FormatProblem.frameShape($0.pointer) }
        log.error(element, "cannot link \(source.label) to what follows")
        fc_post_error(element, "\(name) gives \(outputSize.width)x\(outputSize.height)"
                      + (takes.map { " and what follows it takes \($0)" } ?? " and nothing after it takes that")
                      + ": put videoconvert ! videoscale after \(name), or choose a preset that fits", nil)
    }

    /// Holds the negotiated output caps (format included) for the next source, so that
    /// videoconvert cannot pick another format for it: downstream sees the same caps.
    private func pinOutputCaps() {
        guard let pad = GStreamer.staticPad(capsFilter, "src"), let caps = GstOwned(gst_pad_get_current_caps(pad)) else { return }
        GStreamer.set(UnsafeMutableRawPointer(capsFilter), "caps", GStreamer.describe(caps.pointer))
    }

    /// The pipeline's running time now, when the element has a clock (it is playing).
    private func runningTime() -> UInt64? {
        guard let clock = GstOwned(gst_element_get_clock(element)) else { return nil }
        let now = gst_clock_get_time(clock.pointer), base = gst_element_get_base_time(element)
        return now >= base ? UInt64(now - base) : nil
    }
}
