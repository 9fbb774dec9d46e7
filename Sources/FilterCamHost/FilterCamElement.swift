import CGStreamer
import CFilterCamShim
import FilterCore
import FoundationEssentials
import Synchronization

/// `filtercam`: the FilterCam camera filter as a GStreamer element.
///
///     gst-launch-1.0 videotestsrc ! filtercam filter=sepia intensity=1 ! videoconvert ! autovideosink
///
/// Its own properties are declared in `FilterCamElement.ownProperties`, its parts' in
/// theirs (the element class lists them, as `inspect` shows);
/// each frame's task is made in FilterCamElement+Frames;
/// settings live in `FilterCamSettings`; frames cross `FrameWorker`.
final class FilterCamElement: SwiftElement, FrameStage, ElementPart, Sendable {
    enum Property: String, PropertyNames {
        case filter, intensity
        case lens, lensCrop = "lens-crop", orientation, deviceOrientation = "device-orientation"
        case cameraFacing = "camera-facing", zoom, maxZoom = "max-zoom"
        case navigation, osd, lensOutline = "lens-outline", countdown, gallery
        case looks
    }

    static let ownProperties: [ElementProperty] = Property.allCases.map { p in
        switch p {
        case .filter:
            return ElementProperty(p.rawValue, nick: "Filter",
                blurb: "Filter id or chain, e.g. \"sepia intensity=0.8, vignette radius=0.7\" (see `filtercam filters`)",
                .string(defaultValue: FilterCamSettings.defaultFilter))
        case .intensity:
            return ElementProperty(p.rawValue, nick: "Intensity",
                blurb: "Strength of the first filter in the chain (0 = original), unless the chain sets it; until set, each filter's own default applies",
                .double(min: 0, max: 1, defaultValue: FilterCamSettings.defaultIntensity))
        case .lens:
            return ElementProperty(p.rawValue, nick: "Lens",
                blurb: "Lens rectangle x,y,w,h as fractions of the output frame; the filter applies only inside it",
                .string(defaultValue: LensRect.full.description))
        case .lensCrop:
            return ElementProperty(p.rawValue, nick: "Lens crop",
                blurb: "Output only the lens region (the output caps change to the lens size)", .bool(defaultValue: false))
        case .orientation:
            return ElementProperty(p.rawValue, nick: "Orientation",
                blurb: "Transform applied first, as videoflip's video-direction; auto follows image-orientation tags, else device-orientation",
                // GStreamer's "custom" names a matrix this element has no property for.
                .gstEnum(getType: { gst_video_orientation_method_get_type() }, defaultValue: 0, refused: ["custom"]))
        case .deviceOrientation:
            return ElementProperty(p.rawValue, nick: "Device orientation",
                blurb: "How the device is held (used by orientation=auto without a tag); face-up, face-down and unknown keep the last known one",
                .enumeration(typeName: "FilterCamDeviceOrientation", nicks: DeviceOrientation.allCases.map(\.nick), defaultIndex: 0))
        case .cameraFacing:
            return ElementProperty(p.rawValue, nick: "Camera facing",
                blurb: "back, or front (the picture is mirrored like a selfie preview) for orientation=auto",
                .enumeration(typeName: "FilterCamCameraFacing", nicks: CameraFacing.allCases.map(\.rawValue), defaultIndex: 0))
        case .zoom:
            return ElementProperty(p.rawValue, nick: "Zoom",
                blurb: "Digital zoom: centred scale-and-crop; any value is clamped to [1, max-zoom] like a pinch",
                .double(min: -Double.greatestFiniteMagnitude, max: Double.greatestFiniteMagnitude, defaultValue: 1))
        case .maxZoom:
            return ElementProperty(p.rawValue, nick: "Maximum zoom",
                blurb: "Largest zoom factor (the camera's maximum scale-and-crop factor)",
                .double(min: 1, max: 1000, defaultValue: FilterCamSettings.defaultMaxZoom))
        case .navigation:
            return ElementProperty(p.rawValue, nick: "Navigation",
                blurb: "Take the preview window's mouse (click/drag the lens, wheel zoom) and keys, as in a terminal: \(Keymap.keyList)",
                .bool(defaultValue: true))
        case .osd:
            return ElementProperty(p.rawValue, nick: "On-screen display",
                blurb: "Draw feedback on the picture for a preview window: the filter's title after a change, the zoom while it changes, the lens outline while it moves, the help card (h), the file name after a still, the 3-2-1 of a countdown, a red dot with the length while recording. Off for encoders; never in stills or recordings",
                .bool(defaultValue: false))
        case .lensOutline:
            return ElementProperty(p.rawValue, nick: "Lens outline",
                blurb: "With osd, always outline the lens (not only while it moves)", .bool(defaultValue: false))
        case .countdown:
            return ElementProperty(p.rawValue, nick: "Countdown",
                blurb: "Writing N takes a still after N seconds, counted down on the on-screen display (the t key writes 3); 0 cancels; reads the whole seconds left",
                .uint(min: 0, max: 60, defaultValue: 0))
        case .gallery:
            return ElementProperty(p.rawValue, nick: "Effects gallery",
                blurb: "Show the live picture through every filter at once as titled thumbnails, pages of \(GalleryLayout.perPage) (key g); the arrows and a click in the window choose the filter. Never in stills",
                .bool(defaultValue: false))
        case .looks:
            return ElementProperty(p.rawValue, nick: "Looks",
                blurb: "A folder of .cube looks to add to the filter catalog as look:NAME (filter= and the n/p keys offer them); the catalog is the process's, shared by every element in it (a NAME another folder gives later replaces it for all); \(LookFolder.environmentVariable) does the same at start",
                .string(defaultValue: nil))
        }
    }

    static let elementClass = ElementClass(
        factoryName: "filtercam", typeName: "GstFilterCam",
        longName: "FilterCam camera filter",
        klass: "Filter/Effect/Video",
        summary: "Core Image-style filters, lens, orientation, zoom, snapshots and face squares for live camera video, written in Swift",
        // The element is its parts, in this order: its own settings, the frame worker
        // (its counters), the snapshot branch, the recording branch, face detection.
        parts: [PartSlot(ownProperties) { (e: FilterCamElement) in e },
                PartSlot(FrameWorker.counterProperties) { (e: FilterCamElement) in e.worker },
                PartSlot(SnapshotBranch.properties) { (e: FilterCamElement) in e.snapshots },
                PartSlot(RecordingBranch.properties) { (e: FilterCamElement) in e.recording },
                PartSlot(FaceDetection.properties) { (e: FilterCamElement) in e.faces }],
        actions: ["snapshot"], sinkCaps: FrameWorker.caps, srcCaps: FrameWorker.caps,
        make: { element, _ in FilterCamElement(element: element) })

    private let elementPointer: GstPointer<GstElement>
    var element: UnsafeMutablePointer<GstElement> { elementPointer.pointer }

    /// Whether the element runs (PAUSED or PLAYING): before, its properties come from a
    /// description or an application setting it up, in any order.
    private var hasStarted: Bool { element.isRunning }
    let settings = Locked(FilterCamSettings())
    private let worker: FrameWorker
    let snapshots: SnapshotBranch
    let recording: RecordingBranch
    let faces: FaceDetection

    /// What the frame worker keeps from frame to frame. Only the worker thread takes the
    /// lock (never contended): it keeps the element Sendable, checked.
    struct FrameState {
        /// Filter instances, rebuilt only when the chain changes or `filter` is set again.
        var chain = FilterChain.none
        var filterSets = 0
        var filters: [any FrameFilter] = []
        /// The YUV refusal is posted once.
        var refusedYUV = false
        /// Stills written, and recordings failed, when the last frame was prepared.
        var stillsSeen: UInt64 = 0
        var stillFailuresSeen: UInt64 = 0
        var recordingFailuresSeen = 0
        /// Draws the on-screen display into YUV frames.
        let osdCanvas = OSDCanvas()
        /// Paints the effects gallery.
        let galleryPainter = GalleryPainter()
    }
    let frameState = Locked(FrameState())

    init(element: UnsafeMutablePointer<GstElement>) {
        elementPointer = GstPointer(element)
        snapshots = SnapshotBranch(element: element)
        recording = RecordingBranch(element: element)
        faces = FaceDetection(element: element)
        worker = FrameWorker(element: element, log: .filtercam)
        worker.attach(stage: self)
    }

    // MARK: Properties

    /// The YUV format of the frames the sink pad takes now (nil: RGB, or no caps yet).
    var yuvFormatFlowing: String? {
        guard let pad = GstOwned(gst_element_get_static_pad(element, "sink")),
              let caps = GstOwned(gst_pad_get_current_caps(pad.pointer)), gst_caps_get_size(caps.pointer) > 0,
              let name = String(optionalCString: gst_structure_get_string(gst_caps_get_structure(caps.pointer, 0), "format")),
              FrameFormat(name: name)?.isYUV == true else { return nil }
        return name
    }

    /// A chain with a filter that works on RGB only, set while YUV frames flow, is refused
    /// and the filter kept, as any value that cannot apply: it was taken, and the next
    /// frame ended the stream with an error (the window's `n` onto a filter of your own on
    /// a YUV camera). Before caps (or in RGB) it is taken: negotiation says what it needs.
    private func refuseRGBOnlyFilter(_ chain: FilterChain, keeping current: String) throws(PropertyProblem) {
        guard let name = yuvFormatFlowing,
              let i = chain.makeFilters().firstIndex(where: { !($0 is any YUVFilter) }), chain.steps.indices.contains(i)
        else { return }
        throw PropertyProblem("filter \(chain.steps[i].id.quotedForMessage) works on RGB frames only, and these frames are \(name): "
                              + "kept \(current.quotedForMessage) (put 'videoconvert ! video/x-raw,format=BGRx !' in front to use it)")
    }

    func set(_ name: String, _ value: PropertyValue) throws(PropertyProblem) {
        guard let property = Property(rawValue: name) else { throw PropertyProblem.unexpected(value, for: name) }
        switch (property, value) {
        case (.filter, .string(let text)):
            // An empty chain is no filter, and reads back as such (it read back "").
            let given = text?.trimmingSpaces ?? ""
            let text = given.isEmpty ? FilterCamSettings.defaultFilter : text!
            let chain: FilterChain
            do {
                chain = try FilterChain.parse(text)
            } catch {
                throw PropertyProblem(error.message)
            }
            try refuseRGBOnlyFilter(chain, keeping: settings.withLock { $0.filterText })
            settings.withLock { $0.filterText = text; $0.chain = chain; $0.filterSets += 1 }
            let title = FilterRegistry.shared.descriptor(id: chain.leadingID)?.title ?? text
            display.withLock { $0.filterChanged(to: title, at: Self.now) }
        case (.intensity, .double(let v)):
            settings.withLock { $0.intensity = v; $0.intensityIsSet = true }
        case (.lens, .string(let text)):
            // NULL or "" is the default, the whole picture, as `filter=""` is none (refused).
            let text = text.flatMap { $0.allSatisfy(\.isWhitespace) ? nil : $0 } ?? LensRect.full.description
            do {
                let lens = try LensRect(parsing: text)
                settings.withLock { $0.lens = lens }
                display.withLock { $0.lensMoved(at: Self.now) }
            } catch {
                throw PropertyProblem("\(error)")
            }
        case (.lensCrop, .bool(let v)):
            settings.withLock { $0.lensCrop = v }
        case (.orientation, .int(let v)):
            settings.withLock { $0.orientation = v }
        case (.deviceOrientation, .int(let v)):
            settings.withLock { $0.device.update(DeviceOrientation.allCases[v]) }
        case (.cameraFacing, .int(let v)):
            settings.withLock { $0.cameraFacing = CameraFacing.allCases[v] }
        case (.zoom, .double(let v)):
            if v.isNaN {
                throw PropertyProblem("a zoom factor is a number, clamped to [1, max-zoom]")
            } else {
                let zoom = settings.withLock { s -> Double in s.zoomAsked = v; s.zoom = Zoom.clamp(v, max: s.maxZoom); return s.zoom }
                display.withLock { $0.zoomChanged(to: zoom, at: Self.now) }
            }
        case (.navigation, .bool(let v)):
            settings.withLock { $0.navigation = v }
        case (.osd, .bool(let v)):
            settings.withLock { $0.osd = v }
        case (.lensOutline, .bool(let v)):
            settings.withLock { $0.lensOutline = v }
        case (.gallery, .bool(let v)):
            let changed = settings.withLock { s in defer { s.gallery = v }; return s.gallery != v }
            if changed { display.withLock { $0.hideHelp() } }   // the gallery is not drawn under a card
        case (.countdown, .int(let v)):
            // Every countdown ends in snapshot-saved or snapshot-failed, as a still asked for
            // does: one called off (0, Esc, t again) went without a word, and one set after
            // EOS waited, unanswered, until the pipeline stopped.
            if v == 0 {
                callOffCountdown(because: countdownCalledOff, warn: false)
            } else if snapshots.streamEnd.hasEnded {
                snapshots.reportUnserved(reason: "no still: the stream has ended (seek back, or play it again, for more frames)")
            } else {
                display.withLock { $0.countdownStarted(seconds: v, at: Self.now) }
            }
        case (.maxZoom, .double(let v)):
            // Before the start (a description) the zoom asked for is clamped again, so that
            // `zoom=10 max-zoom=12` is `max-zoom=12 zoom=10`; while running, like a pinch,
            // the zoom in use is.
            let started = hasStarted
            let zoomChanged = settings.withLock { s -> Bool in
                let before = s.zoom
                s.maxZoom = v
                s.zoom = Zoom.clamp(started ? s.zoom : s.zoomAsked, max: v)
                return s.zoom != before
            }
            // A zoom the new maximum clamps is a change of `zoom` too (a slider bound to it).
            if zoomChanged { g_object_notify(element.asGObject, Property.zoom.rawValue) }
        case (.looks, .string(let folder)):
            try addLooks(folder)
        default:
            throw PropertyProblem.unexpected(value, for: name)
        }
    }

    func get(_ name: String) -> PropertyValue {
        switch Property(rawValue: name)! {
        case .filter: return .string(settings.withLock { $0.filterText })
        case .intensity: return .double(settings.withLock { $0.intensity })
        case .lens: return .string(settings.withLock { $0.lens.description })
        case .lensCrop: return .bool(settings.withLock { $0.lensCrop })
        case .orientation: return .int(settings.withLock { $0.orientation })
        case .deviceOrientation:
            let d = settings.withLock { $0.device.current }
            return .int(DeviceOrientation.allCases.firstIndex(of: d) ?? 0)
        case .cameraFacing: return .int(CameraFacing.allCases.firstIndex(of: settings.withLock { $0.cameraFacing }) ?? 0)
        case .zoom: return .double(settings.withLock { $0.zoom })
        case .maxZoom: return .double(settings.withLock { $0.maxZoom })
        case .navigation: return .bool(settings.withLock { $0.navigation })
        case .osd: return .bool(settings.withLock { $0.osd })
        case .lensOutline: return .bool(settings.withLock { $0.lensOutline })
        case .countdown: return .int(display.withLock { $0.countdownLeft(at: Self.now) } ?? 0)
        case .gallery: return .bool(settings.withLock { $0.gallery })
        case .looks: return .string(settings.withLock { $0.looksFolder })
        }
    }

    /// Adds a folder's looks to the catalog (read and checked here, on the setter's thread).
    /// A folder that cannot be read is refused; a bad file in it is left out, named in a
    /// WARNING, and the others are added (the stream starts with them).
    private func addLooks(_ folder: String?) throws(PropertyProblem) {
        guard let folder, !folder.isEmpty else {
            settings.withLock { $0.looksFolder = folder }
            return
        }
        let added: LookFolder.Added
        do throws(FilterError) {
            added = try LookFolder.add(folder)
        } catch {
            throw PropertyProblem(error.message)   // refused: the property keeps its value
        }
        settings.withLock { $0.looksFolder = folder; $0.filterSets += 1 }
        guard !added.problems.isEmpty || !added.replaced.isEmpty else { return }
        let count = added.problems.count
        let leftOut = count == 0 ? "" : "\(count == 1 ? "1 file was" : "\(count) files were") left out (\(added.problems.joined(separator: "; "))); "
        let replaced = added.replaced.isEmpty ? "" : "replaced: \(added.replaced.joined(separator: "; ")); "
        let warning = "\(GStreamer.name(of: element)): looks \(folder.quotedForMessage): \(leftOut)\(replaced)"
            + "added: \(added.ids.isEmpty ? "none" : added.ids.joined(separator: ", "))"
        if hasStarted {
            fc_post_warning(element, warning, nil)
        } else {
            looksLeftOut.withLock { $0 = warning }   // no bus yet: said when the element starts
        }
    }

    /// The WARNING about looks left out while the element was not running yet.
    private let looksLeftOut = Locked<String?>(nil)

    func start() {
        if let warning = looksLeftOut.withLock({ w -> String? in defer { w = nil }; return w }) {
            fc_post_warning(element, warning, nil)
        }
    }

    /// After PAUSED→READY: a countdown running (or due) is called off and said (a window
    /// closed during one lost its still without a word), and `countdown` reads 0, as
    /// `record` goes back to false: a still timed for this run must not be taken whenever
    /// the camera plays again.
    func stop() {
        callOffCountdown(because: "the pipeline stopped before the countdown's end")
        // Stills asked for in the window and held behind one (a window closed just after
        // `s s s`): said not taken, as requests are.
        snapshots.failHeld(dropHeldKeys(), because: "the pipeline stopped")
    }

    // MARK: Element

    func filterMessage(_ message: UnsafeMutablePointer<GstMessage>) -> Bool {
        worker.filterMessage(message)
    }

    /// Action signal `snapshot`.
    func action(_ index: Int) {
        snapshots.request()
    }

    /// The plan of the last frame, for mapping navigation events back.
    let activePlan = Locked<GeometryPlan?>(nil)

    /// The stream's orientation tag as the last frame had it (for `appliedOrientation`).
    let streamTag = Locked<OrientationMethod?>(nil)

    /// The transform frames get now: the fixed one, or under `auto` what the stream's tag,
    /// the device and camera-facing give, with the settings as they are this moment (a
    /// `mirror` just made counts before any frame shows it).
    var appliedOrientation: OrientationMethod {
        let tag = streamTag.withLock { $0 }
        return settings.withLock { $0.effectiveOrientation(tag: tag) }
    }

    /// The transform frames would get were `property` (`orientation`, `video-direction`,
    /// `device-orientation`, `camera-facing`) set to `value`, as the property takes it (a
    /// nick or a number); nil when `value` is not one. So a program can tell, before it
    /// sets it, whether a change turns the picture (under `auto`, a device held upright).
    func appliedOrientation(setting property: String, to value: String) -> OrientationMethod? {
        var s = settings.withLock { $0 }
        switch property {
        case "orientation", "video-direction":
            if value == "auto" || Int(value) == FilterCamSettings.autoOrientation {
                s.orientation = FilterCamSettings.autoOrientation
            } else if let method = OrientationMethod(nick: value) ?? Int(value).flatMap(OrientationMethod.init(rawValue:)) {
                s.orientation = method.rawValue
            } else {
                return nil
            }
        case "device-orientation":
            guard let device = DeviceOrientation(nick: value)
                    ?? Int(value).flatMap({ DeviceOrientation.allCases.indices.contains($0) ? DeviceOrientation.allCases[$0] : nil }) else { return nil }
            s.device.update(device)
        case "camera-facing":
            guard let facing = CameraFacing(nick: value)
                    ?? Int(value).flatMap({ CameraFacing.allCases.indices.contains($0) ? CameraFacing.allCases[$0] : nil }) else { return nil }
            s.cameraFacing = facing
        default:
            return nil
        }
        return s.effectiveOrientation(tag: streamTag.withLock { $0 })
    }

    /// A 90° turn swaps width and height; a lens crop makes each side the lens's share
    /// (zoom keeps the size). `auto` follows the last frame's turn (its tags), as videoflip does.
    var capsGeometry: CapsGeometry {
        let s = settings.withLock { $0 }
        let lastTurn = s.orientation == FilterCamSettings.autoOrientation ? activePlan.withLock { $0?.method } : nil
        var geometry: CapsGeometry = []
        if (lastTurn ?? s.effectiveOrientation(tag: nil)).swapsAxes { geometry.insert(.swapsAxes) }
        if s.lensCrop && !s.lens.isFull { geometry.insert(.lensCrop) }
        return geometry
    }

    func lensCropLength(of size: Int, along axis: LensRect.Axis, grid: Int) -> Int {
        settings.withLock { $0.lens }.croppedLength(of: size, along: axis, grid: grid)
    }

    func lensCropRange(_ sizes: ClosedRange<Int>, along axis: LensRect.Axis, grid: Int, toOutput: Bool) -> ClosedRange<Int>? {
        let lens = settings.withLock { $0.lens }
        return toOutput ? lens.croppedLengths(of: sizes, along: axis, grid: grid) : lens.sizes(cropping: sizes, along: axis, grid: grid)
    }

    /// Pointer positions on the output mapped to the input, through the transform.
    func mapPointerToInput(x: Double, y: Double) -> (x: Double, y: Double) {
        guard let plan = activePlan.withLock({ $0 }) else { return (x, y) }
        return plan.mapPointToSource(x: x, y: y)
    }

    // MARK: The preview window (FilterCamElement+Window.swift)

    let preview = Locked(PreviewControl())
    /// A drag moved the lens since the button went down.
    let draggedLens = Locked(false)
    /// Window keys pressed while a still waits for its frame, run in order once it is taken
    /// (`s` then `r` within a frame turned the still), as the terminal's commands wait.
    let keysAfterStill = Locked<[(command: ControlCommand, osd: Bool)]>([])

    var log: DebugCategory { .filtercam }

    // MARK: On-screen display

    let display = Locked(OnScreenDisplay())

    static var now: Double { MonotonicClock.seconds }

    /// Draws the on-screen display into YUV frames (worker thread).
    var osdCanvas: OSDCanvas { frameState.withLock { $0.osdCanvas } }
    /// Paints the effects gallery (worker thread).
    var galleryPainter: GalleryPainter { frameState.withLock { $0.galleryPainter } }

    /// What to draw on this frame with `osd` on (worker thread): the lens is outlined unless
    /// it is the whole picture or the whole output; notes a still written or failed since
    /// the last one, the running recording's length, a recording that failed.
    func onScreenItems(_ recipe: FrameRecipe, settings s: FilterCamSettings) -> [OnScreenDisplay.Item] {
        // A countdown's still is due with the first frame after its end, with or without osd.
        if display.withLock({ $0.countdownDue(at: Self.now) }) { snapshots.request() }
        // Its seconds left are the `countdown` property: an application watching it
        // (notify::countdown) sees 3, 2, 1, 0 as the window does.
        // (Setting the property was announced by GObject already: once, not twice.)
        if display.withLock({ $0.countdownChanged(at: Self.now) }) {
            g_object_notify(element.asGObject, Property.countdown.rawValue)
        }
        guard s.osd else { return [] }
        let lens = s.lens.isFull || s.lensCrop ? nil : recipe.lensRect
        let written = snapshots.written, stillFailures = snapshots.failed
        let recorded = recording.runningSeconds, failures = recording.failures
        let now = Self.now
        let seen = frameState.withLock { f in
            defer { (f.stillsSeen, f.stillFailuresSeen, f.recordingFailuresSeen) = (written, stillFailures, failures) }
            return (stills: f.stillsSeen, stillFailures: f.stillFailuresSeen, recordingFailures: f.recordingFailuresSeen)
        }
        return display.withLock { d in
            if written > seen.stills, let name = snapshots.lastWritten { d.snapshotSaved(fileName: name, at: now) }
            if stillFailures > seen.stillFailures { d.snapshotFailed(at: now) }
            d.recording(seconds: recorded)
            if failures > seen.recordingFailures { d.recordingFailed(at: now) }
            return d.items(at: now, lens: lens, alwaysOutline: s.lensOutline)
        }
    }
}
