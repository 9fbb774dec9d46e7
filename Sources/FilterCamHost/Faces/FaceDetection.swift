import CGStreamer
import CFilterCamShim
import FilterCore
import Synchronization

/// Face detection with face squares for `filtercam`, as the camera app does it: red
/// squares over each face, ROI metas and a `faces` message, switchable while playing.
///
///     gst-launch-1.0 v4l2src ! videoconvert ! filtercam detect-faces=true ! videoconvert ! autovideosink
///
/// The element calls `process` on its worker for every output frame (after orientation,
/// zoom and filter) and `decorate` with the output buffer. How frames are analysed:
/// - the detector is OpenCV's Viola–Jones `CascadeClassifier` (CFaceDetect shim) on a grey
///   copy of the output frame, brought down by the largest integer step that keeps it at
///   least `face-detection-width` wide (1280×720 → 640×360; pictures under 1280 wide stay
///   whole, so their small faces are not lost), at scale factor 1.2 (docs/faces.md: the trade);
/// - non-live sources: every frame is analysed before it leaves (nothing skipped);
/// - live sources: the grey copy goes to a `FaceWorker` thread (newest copy wins, lower
///   priority), the frame leaves at once with the latest result, carried onto later
///   frames (and through orientation changes, `FaceGeometry`) until the next one;
/// - orientation: the output frame is the picture the viewer sees. `face-orientations`
///   says which rolls of face are searched (`FaceOrientations`): by default all four
///   while the device orientation is unknown (a webcam, a file), else the one implied by
///   how the device is held. Each roll is one more search on the turned grey copy, on
///   the face worker for live sources; boxes are mapped back onto the output frame and
///   carry their roll (`angle`, degrees clockwise) into the message and the ROI metas.
///   A first frame (a single picture) searches every roll; later frames of a video the
///   expected roll and those of the faces drawn, and the others in turn (`FaceRollSchedule`);
/// - confirmation: candidates come from `face-min-neighbors`; a square is drawn for one
///   surer than `face-confirm-neighbors`, on a live source only once it was so on two
///   consecutive detection updates, and squares follow a face smoothly (`FaceTracker`);
/// - a missing or malformed cascade: one WARNING on the bus naming the path; the stream
///   keeps running without detection.
final class FaceDetection: ElementPart, Sendable {
    enum Property: String, PropertyNames {
        case detectFaces = "detect-faces", overlay = "face-overlay", cascade = "face-cascade"
        case confirmCascade = "face-confirm-cascade"
        case minSize = "face-min-size", maxSize = "face-max-size", scaleFactor = "face-scale-factor"
        case minNeighbors = "face-min-neighbors", confirmNeighbors = "face-confirm-neighbors"
        case detectionWidth = "face-detection-width", orientations = "face-orientations"
        case orientationSearch = "face-orientation-search", framesWithFaces = "frames-with-faces", analyses = "face-analyses"
    }

    static let properties: [ElementProperty] = Property.allCases.map { p in
        switch p {
        case .detectFaces:
            return ElementProperty(p.rawValue, nick: "Detect faces",
                blurb: "Find faces (OpenCV Viola–Jones cascade); on live sources off the video path, results carried to later frames",
                .bool(defaultValue: false))
        case .overlay:
            return ElementProperty(p.rawValue, nick: "Face overlay",
                blurb: "Draw a red square over each detected face", .bool(defaultValue: true))
        case .cascade:
            return ElementProperty(p.rawValue, nick: "Face cascade",
                blurb: "OpenCV cascade XML file used for face detection",
                .string(defaultValue: FaceDetector.defaultCascadePath))
        case .confirmCascade:
            return ElementProperty(p.rawValue, nick: "Face confirmation cascade",
                blurb: "Second OpenCV cascade that must also find a face, near its box and size, before it is drawn (empty: none)",
                .string(defaultValue: FaceDetector.defaultConfirmCascadePath))
        case .minSize:
            return ElementProperty(p.rawValue, nick: "Minimum face size",
                blurb: "Smallest face to find, in output pixels (0: the cascade's window, 24 px, times the downscale step)",
                .int(min: 0, max: 32767, defaultValue: Int32(FaceSettings.defaultMinSize)))
        case .maxSize:
            return ElementProperty(p.rawValue, nick: "Maximum face size",
                blurb: "Largest face to find, in output pixels (0: no limit)", .int(min: 0, max: 32767, defaultValue: 0))
        case .scaleFactor:
            return ElementProperty(p.rawValue, nick: "Face scale factor",
                blurb: "Step between the detector's scales (detectMultiScale scaleFactor; larger is faster, misses more)",
                .double(min: 1.01, max: 10, defaultValue: FaceSettings.defaultScaleFactor))
        case .minNeighbors:
            return ElementProperty(p.rawValue, nick: "Face minimum neighbours",
                blurb: "Overlapping candidates needed for a candidate face (detectMultiScale minNeighbors): candidates weigh the rolls and keep a drawn face's square; drawing takes face-confirm-neighbors",
                .int(min: 0, max: 1000, defaultValue: 3))
        case .confirmNeighbors:
            return ElementProperty(p.rawValue, nick: "Face confirmation neighbours",
                blurb: "A face is drawn when it has more overlapping candidates than this (as minNeighbors at this setting; 4 at scale factor 1.2 is about as strict as minNeighbors 5 at 1.1); on a live source on two consecutive detection updates",
                .int(min: 0, max: 1000, defaultValue: Int32(FaceSettings.defaultConfirmNeighbors)))
        case .detectionWidth:
            return ElementProperty(p.rawValue, nick: "Face detection width",
                blurb: "Detect on a grey copy whose longer side is at least this long, downscaled by the largest integer step that keeps it so (0: full size)",
                .int(min: 0, max: 32767, defaultValue: Int32(FaceSettings.defaultDetectionWidth)))
        case .orientations:
            return ElementProperty(p.rawValue, nick: "Face orientations",
                blurb: "Rolls of face searched: auto (all while device-orientation is unknown, else device), upright, device (the roll implied by device-orientation and orientation), all (0°, 90°, 180°, 270°: four searches)",
                .enumeration(typeName: "FilterCamFaceOrientations", nicks: FaceOrientations.allCases.map(\.nick), defaultIndex: 0))
        case .orientationSearch:
            return ElementProperty(p.rawValue, nick: "Face orientation search",
                blurb: "Deprecated: true is face-orientations=all, false face-orientations=upright",
                .bool(defaultValue: false)).deprecated()
        case .framesWithFaces:
            return ElementProperty(p.rawValue, nick: "Frames with faces",
                blurb: "Frames in which at least one face was seen since the element started", .counter)
        case .analyses:
            return ElementProperty(p.rawValue, nick: "Face analyses",
                blurb: "Frames analysed for faces since the element started (live: the detection updates)", .counter)
        }
    }

    private let elementPointer: GstPointer<GstElement>
    var element: UnsafeMutablePointer<GstElement> { elementPointer.pointer }

    /// `notify::NAME` for a property that changed because another was set.
    private func notify(_ p: Property) { g_object_notify(element.asGObject, p.rawValue) }
    private let settings = Locked(FaceSettings())
    private let cache: FaceDetectorCache
    private let worker: FaceWorker
    private let running = Atomic<Bool>(false)
    private let framesWithFaces = Atomic<UInt64>(0)
    /// Analyses counted on both paths (a class: the face worker's closure holds it, not `self`).
    private let analyses = Locked<UInt64>(0)
    /// The faces of the last `faces` message ([] before the first), without their neighbours.
    private let posted = Locked<[DetectedFace]>([])
    /// What the frame worker keeps from frame to frame: whether the last frame had
    /// detection on, and the confirmation of non-live faces (live ones are confirmed on the
    /// face worker). Only the worker thread takes the lock (and the state change, while the
    /// worker does not run): it keeps the part Sendable, checked.
    private struct Tracking {
        var wasEnabled = false
        /// `FaceSettings.enabledCount` at the last frame searched.
        var enabledCount = 0
        var tracker = FaceTracker(confirmNeighbors: FaceSettings.defaultConfirmNeighbors)
        var schedule = FaceRollSchedule()
    }
    private let tracking = Locked(Tracking())

    init(element: UnsafeMutablePointer<GstElement>) {
        elementPointer = GstPointer(element)
        // Neither closure holds `self`: the face worker may still be finishing a frame
        // while this object goes away (its deinit joins the worker). The GstElement
        // outlives this object (it is released from the element's finalize).
        let address = UInt(bitPattern: element)
        let cache = FaceDetectorCache { text in
            guard let e = UnsafeMutablePointer<GstElement>(bitPattern: address) else { return }
            fc_post_warning(e, "\(GStreamer.name(of: e)): \(text)", nil)
        }
        self.cache = cache
        let analyses = analyses
        worker = FaceWorker(name: "\(GStreamer.name(of: element))-faces") { job in
            analyses.withLock { $0 += 1 }
            return cache.faces(in: job.grey, job.search, cascadePath: job.cascadePath, confirmPath: job.confirmPath,
                               frameWidth: job.geometry.width, frameHeight: job.geometry.height)
        }
    }

    deinit { worker.stop() }

    var isEnabled: Bool { settings.withLock { $0.enabled } }

    /// Whether the last `faces` message named faces (one more, empty, is due when
    /// detection stops).
    var hasReportedFaces: Bool { posted.withLock { !$0.isEmpty } }

    // MARK: Properties

    // GObject has already checked each value against its declared range or choices.
    func set(_ name: String, _ value: PropertyValue) throws(PropertyProblem) {
        guard let property = Property(rawValue: name) else { throw PropertyProblem.unexpected(value, for: name) }
        switch (property, value) {
        case (.detectFaces, .bool(let v)):
            settings.withLock { s in
                if v && !s.enabled { s.enabledCount += 1 }
                s.enabled = v
            }
            if v { preload() }
        case (.overlay, .bool(let v)):
            settings.withLock { $0.overlay = v }
        case (.cascade, .string(let v)):
            settings.withLock { $0.cascadePath = v ?? FaceDetector.defaultCascadePath }
            preload()
        case (.confirmCascade, .string(let v)):
            settings.withLock { $0.confirmCascadePath = v ?? "" }
            preload()
        case (.minSize, .int(let v)):
            settings.withLock { $0.search.parameters.minSize = v }
            warnIfNoSizeFits()
        case (.maxSize, .int(let v)):
            settings.withLock { $0.search.parameters.maxSize = v }
            warnIfNoSizeFits()
        case (.scaleFactor, .double(let v)):
            settings.withLock { $0.search.parameters.scaleFactor = v }
        case (.minNeighbors, .int(let v)):
            settings.withLock { $0.search.parameters.minNeighbors = v }
        case (.confirmNeighbors, .int(let v)):
            settings.withLock { $0.confirmNeighbors = v }
        case (.detectionWidth, .int(let v)):
            settings.withLock { $0.detectionWidth = v }
        case (.orientations, .int(let v)):
            let searchWas = settings.withLock { s -> Bool in defer { s.orientations = FaceOrientations.allCases[v] }; return s.orientations == .all }
            // The deprecated boolean reads this one: when it reads otherwise, it changed too.
            if searchWas != (FaceOrientations.allCases[v] == .all) { notify(.orientationSearch) }
        case (.orientationSearch, .bool(let v)):
            let before = settings.withLock { s -> FaceOrientations in defer { s.orientations = v ? .all : .upright }; return s.orientations }
            if before != (v ? .all : .upright) { notify(.orientations) }
        default:
            throw PropertyProblem.unexpected(value, for: name)
        }
    }

    func get(_ name: String) -> PropertyValue {
        let s = settings.withLock { $0 }
        switch Property(rawValue: name)! {
        case .detectFaces: return .bool(s.enabled)
        case .overlay: return .bool(s.overlay)
        case .cascade: return .string(s.cascadePath)
        case .confirmCascade: return .string(s.confirmCascadePath)
        case .minSize: return .int(s.search.parameters.minSize)
        case .maxSize: return .int(s.search.parameters.maxSize)
        case .scaleFactor: return .double(s.search.parameters.scaleFactor)
        case .minNeighbors: return .int(s.search.parameters.minNeighbors)
        case .confirmNeighbors: return .int(s.confirmNeighbors)
        case .detectionWidth: return .int(s.detectionWidth)
        case .orientations: return .int(FaceOrientations.allCases.firstIndex(of: s.orientations) ?? 0)
        case .orientationSearch: return .bool(s.orientations == .all)
        case .framesWithFaces: return .uint64(framesWithFaces.load(ordering: .relaxed))
        case .analyses: return .uint64(analyses.withLock { $0 })
        }
    }

    /// A smallest face larger than the largest finds nothing: said (a warning) when it is
    /// set while the element runs, and at each start (values set before have no bus yet).
    private func warnIfNoSizeFits() {
        let p = settings.withLock { $0.search.parameters }
        guard running.load(ordering: .relaxed), p.maxSize > 0, p.minSize > p.maxSize else { return }
        fc_post_warning(element, "face-min-size \(p.minSize) is larger than face-max-size "
                        + "\(p.maxSize), so no face can be found; lower face-min-size or raise face-max-size (0: no limit)", nil)
    }

    // MARK: State

    /// READY→PAUSED: a new run (counters reset, the cascade loaded if detection is on).
    func start() {
        worker.start()
        cache.reset()
        framesWithFaces.store(0, ordering: .relaxed)
        analyses.withLock { $0 = 0 }
        posted.withLock { $0 = [] }
        tracking.withLock { t in
            t.tracker.reset()
            t.schedule.reset()
        }
        running.store(true, ordering: .relaxed)
        preload()
        warnIfNoSizeFits()
    }

    /// PAUSED→READY: stops and joins the face worker.
    func stop() {
        running.store(false, ordering: .relaxed)
        worker.stop()
    }

    /// Loads the cascade now (on the caller's thread: a property change or the state
    /// change, never a frame) when it will be needed, so a bad path is reported at once.
    private func preload() {
        let s = settings.withLock { $0 }
        guard s.enabled, running.load(ordering: .relaxed) else { return }
        _ = cache.detector(for: s.cascadePath)
        if !s.confirmCascadePath.isEmpty { _ = cache.detector(for: s.confirmCascadePath, consequence: FaceDetectorCache.noConfirmer) }
    }

    // MARK: Frames (worker thread)

    /// Faces in `frame` (the output picture, made from the input by `method`), drawn on
    /// it when `face-overlay` is on. `deviceUpright`: the method that would show the input
    /// upright for how the device is held (nil: unknown), for `face-orientations`.
    /// `plan`: how the frame was made (when it was), so that a result found on an older
    /// frame follows a zoom or lens-crop change.
    func process(_ frame: FrameView, searching picture: GreyImage? = nil, method: OrientationMethod, plan: GeometryPlan? = nil,
                 deviceUpright: OrientationMethod? = nil, live: Bool) -> [DetectedFace] {
        process(width: frame.width, height: frame.height, method: method, plan: plan, deviceUpright: deviceUpright, live: live,
                grey: { picture ?? GreyImage(frame: frame, step: $0) }, draw: { FaceOverlay.draw($0, on: frame) })
    }

    /// The same for a YUV frame: the search runs on its luma plane as it is.
    func process(_ frame: YUVFrame, searching picture: GreyImage? = nil, method: OrientationMethod, plan: GeometryPlan? = nil,
                 deviceUpright: OrientationMethod? = nil, live: Bool) -> [DetectedFace] {
        process(width: frame.width, height: frame.height, method: method, plan: plan, deviceUpright: deviceUpright, live: live,
                grey: { picture ?? GreyImage(luma: frame, step: $0) }, draw: { FaceOverlay.draw($0, on: frame) })
    }

    /// The grey picture the search of `frame` uses, made before the filters change the
    /// frame (`FrameRecipe`'s `unfiltered`): faces are found under any look, as a camera
    /// app finds them in the camera's picture (an inverted or edge-drawn face was none, and
    /// squares went with the filter). Nil while detection is off.
    func searchPicture(of frame: FrameView) -> GreyImage? {
        let s = settings.withLock { $0 }
        guard s.enabled else { return nil }
        return GreyImage(frame: frame, step: GreyImage.step(frameWidth: frame.width, frameHeight: frame.height, detectionWidth: s.detectionWidth))
    }

    func searchPicture(of frame: YUVFrame) -> GreyImage? {
        let s = settings.withLock { $0 }
        guard s.enabled else { return nil }
        return GreyImage(luma: frame, step: GreyImage.step(frameWidth: frame.width, frameHeight: frame.height, detectionWidth: s.detectionWidth))
    }

    /// Faces in a `width`×`height` output picture whose grey copy `grey(step)` makes;
    /// `draw` puts the squares on it.
    private func process(width: Int, height: Int, method: OrientationMethod, plan: GeometryPlan?, deviceUpright: OrientationMethod?,
                         live: Bool, grey makeGrey: (Int) -> GreyImage, draw: ([PixelRect]) -> Void) -> [DetectedFace] {
        let s = settings.withLock { $0 }
        let wasEnabled = tracking.withLock { t in defer { t.wasEnabled = s.enabled }; return t.wasEnabled }
        guard s.enabled else {
            if wasEnabled {
                worker.clear()
                tracking.withLock { t in
                    t.tracker.reset()
                    t.schedule.reset()
                }
            }
            return []
        }
        // Turned on again: the faces of the last time are not drawn (the frames in between
        // were not searched, so nothing cleared them, and the first frame showed them).
        let turnedOnAgain = tracking.withLock { t in defer { t.enabledCount = s.enabledCount }; return t.enabledCount != s.enabledCount }
        if turnedOnAgain {
            worker.clear()
            tracking.withLock { t in
                t.tracker.reset()
                t.schedule.reset()
            }
        }
        var geometry = FaceGeometry(width: width, height: height, method: method)
        if let plan, plan.outputWidth == width, plan.outputHeight == height, plan.method == method { geometry.plan = plan }
        let grey = makeGrey(GreyImage.step(frameWidth: width, frameHeight: height, detectionWidth: s.detectionWidth))
        var search = s.search
        search.rolls = s.orientations.rolls(applied: method, deviceUpright: deviceUpright)
        search.verifyAbove = s.confirmNeighbors
        let faces: [DetectedFace]
        if live {
            worker.submit(FaceWorker.Job(grey: grey, search: search, cascadePath: s.cascadePath,
                                         confirmPath: s.confirmCascadePath, geometry: geometry,
                                         confirmNeighbors: s.confirmNeighbors))
            faces = worker.latest.map { r in
                r.faces.compactMap { r.geometry.map($0, to: geometry) }
            } ?? []
        } else {
            analyses.withLock { $0 += 1 }
            faces = tracking.withLock { t in
                search.rolls = t.schedule.rolls(requested: search.rolls, drawn: t.tracker.trackedRolls)
                let candidates = cache.faces(in: grey, search, cascadePath: s.cascadePath, confirmPath: s.confirmCascadePath,
                                             frameWidth: width, frameHeight: height)
                t.tracker.confirmNeighbors = s.confirmNeighbors
                return t.tracker.update(candidates, in: geometry, searched: Set(search.rolls))
            }
        }
        if !faces.isEmpty {
            framesWithFaces.add(1, ordering: .relaxed)
            if s.overlay { draw(faces.map(\.rect)) }
        }
        return faces
    }

    func decorate(_ buffer: UnsafeMutablePointer<GstBuffer>, faces: [DetectedFace], timestamp: UInt64?) {
        if !faces.isEmpty { FaceReport.addRegionMetas(faces, to: buffer) }
        let reported = faces.map { DetectedFace(rect: $0.rect, angle: $0.angle) }
        let changed = posted.withLock { p -> Bool in
            guard p != reported else { return false }
            p = reported
            return true
        }
        if changed { _ = fc_post_element_message(element, FaceReport.structure(faces, timestamp: timestamp)) }
    }
}
