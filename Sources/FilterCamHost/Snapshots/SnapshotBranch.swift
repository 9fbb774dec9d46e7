import CGStreamer
import CFilterCamShim
import FilterCore
import Foundation
import Synchronization

/// One-click stills from the live stream, off the live path.
///
/// The worker copies the processed frame (or its lens region) when a still is due and
/// goes on at once; a writer thread applies the bracket's exposure, turns the pixels for
/// `snapshot-orientation=exif`, encodes with GStreamer's `jpegenc`/`jifmux`, and writes
/// the file atomically. Every request ends in a file (`snapshot-saved` message) or a
/// reported failure (a WARNING naming the path and a `snapshot-failed` message); the
/// stream keeps running either way. EOS waits for pending stills.
final class SnapshotBranch: ElementPart, @unchecked Sendable {
    enum Region: String, CaseIterable { case frame, lens }
    enum OrientationMode: String, CaseIterable { case bake, exif }

    enum Property: String, PropertyNames {
        case location = "snapshot-location", quality = "snapshot-quality", region = "snapshot-region"
        case orientation = "snapshot-orientation", every = "snapshot-every", bracket = "snapshot-bracket"
        case flash, written = "snapshots-written"
    }

    static let defaultLocation = "snapshot-%05d.jpg"
    /// Stills waiting for the writer; beyond this a request is reported as failed
    /// rather than holding frames without bound.
    static let maximumQueued = 64

    static let properties: [ElementProperty] = Property.allCases.map { p in
        switch p {
        case .location:
            return ElementProperty(p.rawValue, nick: "Snapshot location",
                blurb: "File name template with one counter (%05d style); the counter never overwrites an existing file",
                .string(defaultValue: defaultLocation))
        case .quality:
            return ElementProperty(p.rawValue, nick: "Snapshot quality", blurb: "JPEG quality of stills",
                .int(min: 1, max: 100, defaultValue: 85))
        case .region:
            return ElementProperty(p.rawValue, nick: "Snapshot region", blurb: "Save the whole frame or only the lens region",
                .enumeration(typeName: "FilterCamSnapshotRegion", nicks: Region.allCases.map(\.rawValue), defaultIndex: 0))
        case .orientation:
            return ElementProperty(p.rawValue, nick: "Snapshot orientation",
                blurb: "bake: pixels turned as displayed; exif: pixels as captured plus the EXIF Orientation tag",
                .enumeration(typeName: "FilterCamSnapshotOrientation", nicks: OrientationMode.allCases.map(\.rawValue), defaultIndex: 0))
        case .every:
            return ElementProperty(p.rawValue, nick: "Snapshot every", blurb: "Take a still every N processed frames (0 = off)",
                .int(min: 0, max: Int32.max, defaultValue: 0))
        case .bracket:
            return ElementProperty(p.rawValue, nick: "Snapshot bracket",
                blurb: "Exposure biases in EV for a bracketed set, e.g. \"-1,0,1\" (empty = off): one still per bias from consecutive frames",
                .string(defaultValue: ""))
        case .flash:
            return ElementProperty(p.rawValue, nick: "Flash", blurb: "Flash the live picture white (about 0.4 s) when a still is taken",
                .bool(defaultValue: true))
        case .written:
            return ElementProperty(p.rawValue, nick: "Snapshots written", blurb: "Stills written to disk", .counter)
        }
    }

    struct Settings {
        var naming = try! SnapshotNaming(template: SnapshotBranch.defaultLocation)
        var quality = 85
        var region = Region.frame
        var orientation = OrientationMode.bake
        var every = 0
        var bracket: [Double] = []
        var flash = true
    }

    private let element: UnsafeMutablePointer<GstElement>
    private let settings = Locked(Settings())
    private let requests = Atomic<Int>(0)
    private let writtenCount = Atomic<UInt64>(0)

    // Worker-thread state.
    private var framesSeen = 0
    private var nextCounter = 0
    private var counterTemplate = ""
    private var bracketRemaining: [(path: String, bias: Double?)] = []
    private var flashStart: UInt64?
    private var flashFrames = 0

    // Writer thread.
    private struct Job {
        let pixels: StillPixels
        let path: String
        let bias: Double?
        let quality: Int
        let method: OrientationMethod
        let orientation: OrientationMode
        let timestamp: UInt64?
    }
    private struct Writer {
        var queue: [Job] = []
        var writing = 0
        /// The writer thread, started by the first still of a run, joined at stop (it holds
        /// the JPEG encoder pipeline, whose streaming thread GStreamer waits for at exit).
        var thread: JoinableThread?
        var stopping = false
        var idle: Bool { queue.isEmpty && writing == 0 }
    }
    private let writer = Locked(Writer())
    private let memory = StillMemory()
    private let folders = SnapshotFolders()

    init(element: UnsafeMutablePointer<GstElement>) {
        self.element = element
    }

    var written: UInt64 { writtenCount.load(ordering: .relaxed) }

    // MARK: Properties

    var properties: [ElementProperty] { Self.properties }

    func set(_ name: String, _ value: PropertyValue) throws(PropertyProblem) {
        guard let p = Property(rawValue: name) else { return }
        switch (p, value) {
        case (.location, .string(let text)):
            do {
                let naming = try SnapshotNaming(template: text ?? Self.defaultLocation)
                settings.withLock { $0.naming = naming }
            } catch {
                throw PropertyProblem("\(error)")
            }
        case (.quality, .int(let v)): settings.withLock { $0.quality = v }
        case (.region, .int(let v)): settings.withLock { $0.region = Region.allCases[v] }
        case (.orientation, .int(let v)): settings.withLock { $0.orientation = OrientationMode.allCases[v] }
        case (.every, .int(let v)): settings.withLock { $0.every = v }
        case (.bracket, .string(let text)):
            do {
                let list = try SnapshotNaming.parseBracket(text ?? "")
                settings.withLock { $0.bracket = list }
            } catch {
                throw PropertyProblem("\(error)")
            }
        case (.flash, .bool(let v)): settings.withLock { $0.flash = v }
        default: break
        }
    }

    func get(_ name: String) -> PropertyValue {
        let s = settings.withLock { $0 }
        switch Property(rawValue: name)! {
        case .location: return .string(s.naming.template)
        case .quality: return .int(s.quality)
        case .region: return .int(Region.allCases.firstIndex(of: s.region)!)
        case .orientation: return .int(OrientationMode.allCases.firstIndex(of: s.orientation)!)
        case .every: return .int(s.every)
        case .bracket: return .string(s.bracket.map { $0 == $0.rounded() ? String(Int($0)) : String($0) }.joined(separator: ","))
        case .flash: return .bool(s.flash)
        case .written: return .uint64(written)
        }
    }

    // MARK: Requests (any thread)

    /// The `snapshot` action signal and live command.
    func request() {
        requests.add(1, ordering: .relaxed)
    }

    /// Whether the next frame must be touched (a still is due or the flash is showing),
    /// so the worker cannot pass the buffer through untouched.
    var needsFrame: Bool {
        requests.load(ordering: .relaxed) > 0 || !bracketRemaining.isEmpty || flashStart != nil
            || settings.withLock { $0.every } > 0
    }

    // MARK: Worker thread

    /// Called with every processed RGB output frame, before the flash is drawn.
    func capture(_ frame: FrameView, lensRect: PixelRect, method: OrientationMethod, timestamp: UInt64?, live: Bool) {
        guard let (still, s) = dueStill(timestamp: timestamp) else { return }
        let region = s.region == .lens ? lensRect : PixelRect(x: 0, y: 0, width: frame.width, height: frame.height)
        let pixels = memory.rgb(width: region.width, height: region.height, format: frame.format)
        pixels.view.copyPixels(from: frame.subview(region))
        enqueue(Job(pixels: .rgb(pixels), path: still.path, bias: still.bias, quality: s.quality, method: method,
                    orientation: s.orientation, timestamp: timestamp), live: live)
    }

    /// The same for a YUV output frame: the still keeps the frame's own format (jpegenc
    /// takes I420, NV12, YUY2 and UYVY as they are). The lens's edges lie on the chroma grid.
    func capture(_ frame: YUVFrame, lensRect: PixelRect, method: OrientationMethod, timestamp: UInt64?, live: Bool) {
        guard let (still, s) = dueStill(timestamp: timestamp) else { return }
        let region = s.region == .lens ? lensRect : PixelRect(x: 0, y: 0, width: frame.width, height: frame.height)
        let pixels = memory.yuv(width: region.width, height: region.height, format: frame.format)
        pixels.frame.copy(from: frame.subframe(region))
        enqueue(Job(pixels: .yuv(pixels, frame.matrix), path: still.path, bias: still.bias, quality: s.quality,
                    method: method, orientation: s.orientation, timestamp: timestamp), live: live)
    }

    /// Whether this frame gives a still (a request, `snapshot-every`, or the next of a
    /// bracketed set) and which: its path and exposure bias, with the settings it uses.
    private func dueStill(timestamp: UInt64?) -> ((path: String, bias: Double?), Settings)? {
        framesSeen += 1
        let s = settings.withLock { $0 }
        if s.naming.template != counterTemplate {
            counterTemplate = s.naming.template
            nextCounter = 0
        }
        if bracketRemaining.isEmpty {
            var due = false
            if requests.load(ordering: .relaxed) > 0 {
                requests.add(-1, ordering: .relaxed)
                due = true
            } else if s.every > 0 && framesSeen % s.every == 0 {
                due = true
            }
            guard due else { return nil }
            let biases: [Double?] = s.bracket.isEmpty ? [nil] : s.bracket
            let counter = s.naming.nextFree(from: nextCounter, biases: s.bracket)
            nextCounter = counter + 1
            bracketRemaining = biases.map { (s.naming.path(counter: counter, bias: $0), $0) }
            let started = StructureBuilder("snapshot-started")
            started.set("path", bracketRemaining[0].path)
            started.set("stills", bracketRemaining.count)
            if let timestamp { started.set("timestamp", uint64: timestamp) }
            started.post(from: element)
            if s.flash {
                flashStart = timestamp ?? 0
                flashFrames = 0
            }
        }
        return (bracketRemaining.removeFirst(), s)
    }

    /// Blends the flash into the live picture while it lasts (by stream time; by frame
    /// count, 12 frames, when frames carry no timestamps).
    func drawFlash(_ frame: FrameView, timestamp: UInt64?) {
        guard let weight = flashWeight(timestamp: timestamp) else { return }
        FlashOverlay.apply(weight: weight, to: frame)
    }

    func drawFlash(_ frame: YUVFrame, timestamp: UInt64?) {
        guard let weight = flashWeight(timestamp: timestamp) else { return }
        FlashOverlay.apply(weight: weight, to: frame)
    }

    /// The flash's weight for this frame, nil once it is over (or none is showing).
    private func flashWeight(timestamp: UInt64?) -> Double? {
        guard let start = flashStart else { return nil }
        flashFrames += 1
        let elapsed: UInt64
        if let timestamp, timestamp >= start, start != 0 || timestamp != 0 || flashFrames == 1 {
            elapsed = timestamp - start
        } else {
            elapsed = UInt64(flashFrames - 1) * FlashOverlay.duration / 12
        }
        if elapsed >= FlashOverlay.duration {
            flashStart = nil
            return nil
        }
        return FlashOverlay.weight(elapsed: elapsed)
    }

    // MARK: Writer thread

    /// Hands a still to the writer. A live stream never waits for it (beyond
    /// `maximumQueued` waiting stills a still is refused and reported); a stream that is
    /// not live (a file, `snapshot-every` over a recording) waits for room instead, so
    /// every frame asked for becomes a file, as a `queue` in front of `jpegenc` would do.
    private func enqueue(_ job: Job, live: Bool) {
        if !live {
            _ = writer.wait(until: { $0.queue.count < StillMemory.kept || $0.stopping }) { _ in }
        }
        let queued = writer.withLockAndWake { w -> Bool in
            guard w.queue.count < Self.maximumQueued else { return false }
            w.queue.append(job)
            if w.thread == nil {
                w.thread = JoinableThread(name: "fc-stills") { [self] in writerLoop() }
            }
            return true
        }
        guard queued else {
            report(failure: "cannot write snapshot \(job.path): \(Self.maximumQueued) stills are already waiting for the encoder", path: job.path)
            return
        }
    }

    /// The writer: stills are encoded two deep, so the encoder works on the next still
    /// while this thread writes the last one's file.
    private func writerLoop() {
        // One encoder for the stills of this run (kept while stills come), released with
        // the thread at stop.
        var encoder: JPEGEncoder? = nil
        var inFlight: [Pushed] = []   // in the encoder, oldest first
        while true {
            // Wait for a still only when the encoder has nothing to finish.
            let busy = !inFlight.isEmpty
            let taken = writer.wait(until: { !$0.queue.isEmpty || $0.stopping || busy }) { w -> Job? in
                guard !w.queue.isEmpty else { return nil }
                w.writing += 1
                return w.queue.removeFirst()
            }
            let job = taken ?? nil
            if job == nil && inFlight.isEmpty { return }   // stopping, nothing left
            if let job {
                do {
                    let (pixels, exifOrientation) = try prepare(job)
                    if encoder?.fits(pixels, quality: job.quality) != true {
                        while !inFlight.isEmpty { complete(inFlight.removeFirst(), encoder: &encoder) }
                        encoder = nil
                        encoder = try JPEGEncoder(for: pixels, quality: job.quality)
                    }
                    try encoder!.push(pixels, exifOrientation: exifOrientation, memory: memory)
                    inFlight.append(Pushed(job: job, width: pixels.width, height: pixels.height))
                } catch {
                    report(failure: "\(error)", path: job.path)
                    writer.withLockAndWake { $0.writing -= 1 }
                    encoder = nil   // start afresh for the next still
                }
                if inFlight.count < 2 && encoder != nil { continue }
            }
            if !inFlight.isEmpty { complete(inFlight.removeFirst(), encoder: &encoder) }
            // A failed encoder takes the stills still in it along (reported, not written).
            while encoder == nil && !inFlight.isEmpty { complete(inFlight.removeFirst(), encoder: &encoder) }
        }
    }

    /// A still in the encoder: its job and the size it was encoded at.
    private struct Pushed {
        let job: Job
        let width: Int, height: Int
    }

    /// The pixels to encode for `job` and their EXIF orientation: a bracket's exposure
    /// applied, and for `snapshot-orientation=exif` the transform undone.
    private func prepare(_ job: Job) throws -> (StillPixels, Int) {
        var pixels = job.pixels
        var exifOrientation = 1
        if let bias = job.bias, bias != 0 {
            // The exposure filter works on RGB: a YUV still of a bracket is converted
            // first (here, off the live path, by GStreamer's videoconvert).
            let rgb = try pixels.rgb()
            if let exposure = FilterRegistry.shared.descriptor(id: "exposure") {
                var values = exposure.defaultValues
                values["ev"] = .double(bias)
                exposure.make(values).apply(to: rgb.view)
            }
            pixels = .rgb(rgb)
        }
        if job.orientation == .exif && job.method != .identity {
            // Pixels as captured: undo the transform, and say in EXIF how to show them.
            pixels = pixels.transformed(job.method.inverse)
            exifOrientation = job.method.exifOrientation
        }
        return (pixels, exifOrientation)
    }

    /// Takes the oldest still's JPEG from the encoder and writes its file (or reports
    /// why not). A failed encoder is dropped; the stills still in it then fail in turn.
    private func complete(_ still: Pushed, encoder: inout JPEGEncoder?) {
        defer { writer.withLockAndWake { $0.writing -= 1 } }
        let job = still.job
        do {
            guard let running = encoder else { throw JPEGWriter.Failure(description: "the JPEG encoder failed on an earlier still") }
            let data: Data
            do {
                data = try running.pull()
            } catch {
                encoder = nil   // start afresh for the next still
                throw error
            }
            try JPEGWriter.writeAtomically(data, to: job.path, in: folders)
            writtenCount.add(1, ordering: .relaxed)
            let saved = StructureBuilder("snapshot-saved")
            saved.set("path", job.path)
            saved.set("size", data.count)
            saved.set("width", still.width)
            saved.set("height", still.height)
            if let bias = job.bias { saved.set("exposure-bias", bias) }
            if let t = job.timestamp { saved.set("timestamp", uint64: t) }
            saved.post(from: element)
        } catch {
            report(failure: "\(error)", path: job.path)
        }
    }

    private func report(failure: String, path: String) {
        fc_post_warning(element, failure, nil)
        let failed = StructureBuilder("snapshot-failed")
        failed.set("path", path)
        failed.set("reason", failure)
        failed.post(from: element)
    }

    /// Waits until every queued still is written or reported (EOS, stop), at most `timeout`.
    func drain(timeout: TimeInterval = 30) {
        _ = writer.wait(until: \.idle, timeout: timeout) { _ in }
    }

    /// End of stream: stills of an unfinished bracket are reported, the rest written.
    func finish() {
        for (path, _) in bracketRemaining {
            report(failure: "cannot write snapshot \(path): the stream ended before the bracketed set was complete", path: path)
        }
        bracketRemaining = []
        drain()
    }

    /// The run is over: stills already taken are written (or reported) first, then the
    /// writer thread ends and is joined.
    func stop() {
        drain()
        let thread = writer.withLockAndWake { w -> JoinableThread? in
            w.stopping = true
            return w.thread
        }
        thread?.join()   // outside the lock: the thread takes it on its way out
        writer.withLock { w in
            w.thread = nil
            w.stopping = false
        }
        folders.closeAll()
    }

    /// A new run: counters of the worker start again, pending requests are kept.
    func start() {
        folders.prepare(forPath: settings.withLock { $0.naming.template })
        framesSeen = 0
        bracketRemaining = []
        flashStart = nil
    }
}
