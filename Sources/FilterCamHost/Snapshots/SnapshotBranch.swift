import CGStreamer
import CFilterCamShim
import FilterCore
import FoundationEssentials
import Synchronization

/// How the `snapshot-failed` of a countdown the user called off (0, Esc, `t` again) ends
/// its reason: no still was lost, so a program counting failures leaves it out.
package let countdownCalledOff = "the countdown was called off"

/// One-click stills from the live stream, off the live path.
///
/// The worker copies the processed frame (or its lens region) when a still is due and
/// goes on at once; a writer thread applies the bracket's exposure, turns the pixels for
/// `snapshot-orientation=exif` and encodes with GStreamer's `jpegenc`/`jifmux`, and a
/// files' thread writes each JPEG atomically. Every request ends in a file
/// (`snapshot-saved` message) or a reported failure (a WARNING naming the path and a
/// `snapshot-failed` message); the stream keeps running either way. EOS waits for pending
/// stills.
///
/// This file: properties, requests and the worker thread's part (what is due, copies,
/// the flash); SnapshotBranch+Writer: the writer thread.
final class SnapshotBranch: ElementPart, Sendable {
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

    private let elementPointer: GstPointer<GstElement>
    var element: UnsafeMutablePointer<GstElement> { elementPointer.pointer }
    private let settings = Locked(Settings())
    /// Stills asked for and not yet taken or failed.
    private let requests = Atomic<Int>(0)
    /// Stills ever asked for: a frame notes it as it arrives (`askedSoFar`) and serves only
    /// the requests made before that, so a still shows the settings of a frame that came
    /// after the press (a turn pressed before it included), not of one that waited inside.
    private let requestsMade = Atomic<Int>(0)
    /// EOS went through and no frame has come since: a request now is answered at once.
    let streamEnd = StreamEnd()
    let writtenCount = Atomic<UInt64>(0)
    /// Stills asked for that failed (written or not served), for the on-screen display.
    let failedCount = Atomic<UInt64>(0)
    /// The file name of the last still written, for the on-screen display.
    let lastWrittenName = Locked<String?>(nil)

    /// What the frame worker keeps from frame to frame: which stills are due and the
    /// flash. Only the worker thread takes the lock (and the state change, while the worker
    /// does not run): it keeps the branch Sendable, checked.
    private struct Capture {
        var framesSeen = 0
        var nextCounter = 0
        var counterTemplate = ""
        var bracketRemaining: [(path: String, bias: Double?)] = []
        var flashStart: UInt64?
        var flashFrames = 0
    }
    private let capture = Locked(Capture())

    /// The writer thread's stills and the files' thread's JPEGs (SnapshotBranch+Writer).
    let stills = SnapshotBranch.makeQueue()
    let files = SnapshotBranch.makeFileQueue()
    let memory = StillMemory()
    let folders = SnapshotFolders()

    init(element: UnsafeMutablePointer<GstElement>) {
        elementPointer = GstPointer(element)
    }

    var written: UInt64 { writtenCount.load(ordering: .relaxed) }
    var failed: UInt64 { failedCount.load(ordering: .relaxed) }
    var lastWritten: String? { lastWrittenName.withLock { $0 } }

    // MARK: Properties

    func set(_ name: String, _ value: PropertyValue) throws(PropertyProblem) {
        guard let p = Property(rawValue: name) else { throw PropertyProblem.unexpected(value, for: name) }
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
        default: throw PropertyProblem.unexpected(value, for: name)
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
        // Made first: a frame that reads the two between them finds the request newer than
        // itself (`dueStill`), never older.
        requestsMade.add(1, ordering: .sequentiallyConsistent)
        requests.add(1, ordering: .sequentiallyConsistent)
        // After EOS no frame comes for it (an application that keeps the pipeline PLAYING
        // waited for an answer until it stopped). Counted first, so that this and EOS's own
        // reckoning (`finish`) answer each request exactly once.
        if streamEnd.hasEnded {
            failUnservedRequests { _ in "the stream has ended (seek back, or play it again, for more frames)" }
        }
    }

    /// The stills asked for so far, noted by a frame as it arrives (its streaming thread).
    var askedSoFar: Int { requestsMade.load(ordering: .sequentiallyConsistent) }

    /// Whether the next frame must be touched (a still is due or the flash is showing),
    /// so the worker cannot pass the buffer through untouched.
    var needsFrame: Bool {
        requests.load(ordering: .relaxed) > 0 || capture.withLock { !$0.bracketRemaining.isEmpty || $0.flashStart != nil }
            || settings.withLock { $0.every } > 0
    }

    /// Whether a still asked for (or the rest of its bracketed set) waits for a frame.
    var stillIsWaiting: Bool {
        requests.load(ordering: .relaxed) > 0 || capture.withLock { !$0.bracketRemaining.isEmpty }
    }

    /// Whether a flash may be drawn on this frame (one is showing, or a still taken now
    /// starts one).
    var mayDrawFlash: Bool {
        settings.withLock { $0.flash } || capture.withLock { $0.flashStart != nil }
    }

    // MARK: Worker thread

    /// Called with every processed RGB output frame, before the flash is drawn, with the
    /// stills asked for before the frame arrived (`askedSoFar` then).
    func capture(_ frame: FrameView, lensRect: PixelRect, method: OrientationMethod, timestamp: UInt64?, live: Bool,
                 askedBeforeArrival: Int) {
        guard let (still, s) = dueStill(timestamp: timestamp, askedBeforeArrival: askedBeforeArrival) else { return }
        let region = s.region == .lens ? lensRect : PixelRect(x: 0, y: 0, width: frame.width, height: frame.height)
        let pixels = memory.rgb(width: region.width, height: region.height, format: frame.format)
        pixels.view.copyPixels(from: frame.subview(region))
        enqueue(Job(pixels: .rgb(pixels), path: still.path, bias: still.bias, quality: s.quality, method: method,
                    orientation: s.orientation, timestamp: timestamp), live: live)
    }

    /// The same for a YUV output frame: the still keeps the frame's own format (jpegenc
    /// takes I420, NV12, YUY2 and UYVY as they are). The lens's edges lie on the chroma grid.
    func capture(_ frame: YUVFrame, lensRect: PixelRect, method: OrientationMethod, timestamp: UInt64?, live: Bool,
                 askedBeforeArrival: Int) {
        guard let (still, s) = dueStill(timestamp: timestamp, askedBeforeArrival: askedBeforeArrival) else { return }
        let region = s.region == .lens ? lensRect : PixelRect(x: 0, y: 0, width: frame.width, height: frame.height)
        let pixels = memory.yuv(width: region.width, height: region.height, format: frame.format)
        pixels.frame.copy(from: frame.subframe(region))
        enqueue(Job(pixels: .yuv(pixels, frame.matrix), path: still.path, bias: still.bias, quality: s.quality,
                    method: method, orientation: s.orientation, timestamp: timestamp), live: live)
    }

    /// A free name for a still whose name was taken while it was written: the counter's
    /// next free number (the files' thread).
    func nextFreePath() -> String {
        let naming = settings.withLock { $0.naming }
        return capture.withLock { c in
            let counter = StillNamesInFlight.reserve(naming, from: c.nextCounter, biases: [])
            c.nextCounter = counter + 1
            return naming.path(counter: counter)
        }
    }

    /// A still that was not written gives its number back when no later one was handed out
    /// (a folder missing, a disk full): the next still is that number, as the next recording
    /// takes a failed one's name, and the names have no gap. (A bracketed set's shared
    /// number stays used: some of its stills may be written.)
    func giveBackNumber(of path: String) {
        let naming = settings.withLock { $0.naming }
        capture.withLock { c in
            if c.nextCounter > 0 && c.bracketRemaining.isEmpty && naming.path(counter: c.nextCounter - 1) == path {
                c.nextCounter -= 1
            }
        }
    }

    /// Whether this frame gives a still (a request, `snapshot-every`, or the next of a
    /// bracketed set) and which: its path and exposure bias, with the settings it uses. A
    /// request made after the frame arrived waits for a later frame.
    private func dueStill(timestamp: UInt64?, askedBeforeArrival: Int) -> ((path: String, bias: Double?), Settings)? {
        let s = settings.withLock { $0 }
        streamEnd.resume()   // a frame came: a segment seek's after EOS, say
        return capture.withLock { c -> ((path: String, bias: Double?), Settings)? in
            c.framesSeen += 1
            if s.naming.template != c.counterTemplate {
                c.counterTemplate = s.naming.template
                c.nextCounter = s.naming.firstAfterExisting()
            }
            if c.bracketRemaining.isEmpty {
                var due = false
                // Pending read before made: a request made between the two reads makes the
                // oldest pending one look newer (waits a frame), never older.
                let pending = requests.load(ordering: .sequentiallyConsistent)
                let oldestPending = requestsMade.load(ordering: .sequentiallyConsistent) - pending
                if pending > 0 && oldestPending < askedBeforeArrival {
                    requests.add(-1, ordering: .relaxed)
                    due = true
                } else if s.every > 0 && c.framesSeen % s.every == 0 {
                    due = true
                }
                guard due else { return nil }
                let biases: [Double?] = s.bracket.isEmpty ? [nil] : s.bracket
                let counter = StillNamesInFlight.reserve(s.naming, from: c.nextCounter, biases: s.bracket)
                c.nextCounter = counter + 1
                c.bracketRemaining = biases.map { (s.naming.path(counter: counter, bias: $0), $0) }
                let started = StructureBuilder("snapshot-started")
                started.set("path", c.bracketRemaining[0].path)
                started.set("stills", c.bracketRemaining.count)
                if let timestamp { started.set("timestamp", uint64: timestamp) }
                started.post(from: element)
                if s.flash {
                    c.flashStart = timestamp ?? 0
                    c.flashFrames = 0
                }
            }
            return (c.bracketRemaining.removeFirst(), s)
        }
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
        capture.withLock { c -> Double? in
            guard let start = c.flashStart else { return nil }
            c.flashFrames += 1
            let elapsed: UInt64
            if let timestamp, timestamp >= start, start != 0 || timestamp != 0 || c.flashFrames == 1 {
                elapsed = timestamp - start
            } else {
                elapsed = UInt64(c.flashFrames - 1) * FlashOverlay.duration / 12
            }
            if elapsed >= FlashOverlay.duration {
                c.flashStart = nil
                return nil
            }
            return FlashOverlay.weight(elapsed: elapsed)
        }
    }

    // MARK: Runs

    /// End of stream: every request still open is reported (`failOpenRequests`); the stills
    /// taken are written.
    func finish() {
        streamEnd.mark()
        failOpenRequests(because: "the stream ended")
        drain()
    }

    /// Stills of an unfinished bracket are reported, and so is each request no frame came
    /// for (one still a frame: a burst of requests near the end outruns the stream), so that
    /// every request ends in `snapshot-saved` or `snapshot-failed`: at EOS, and when the
    /// element stops without one (`ended`: what happened).
    func failOpenRequests(because ended: String) {
        let unfinished = capture.withLock { c in defer { c.bracketRemaining = [] }; return c.bracketRemaining }
        for (path, _) in unfinished {
            report(failure: "cannot write snapshot \(path): \(ended) before the bracketed set was complete", path: path)
        }
        failUnservedRequests { n in "\(ended) before a frame came for \(n == 1 ? "it" : "them") (a still is taken from each frame)" }
    }

    /// Stills asked for that never became requests (window keys held behind a still) when
    /// the stream ended or the pipeline stopped (`ended`): reported as requests no frame
    /// came for (they vanished without a word).
    func failHeld(_ count: Int, because ended: String) {
        guard count > 0 else { return }
        requestsMade.add(count, ordering: .sequentiallyConsistent)
        requests.add(count, ordering: .sequentiallyConsistent)
        failOpenRequests(because: ended)
    }

    /// Each request no frame came for: a WARNING (`why`, for that many requests), and
    /// `snapshot-failed` for each.
    private func failUnservedRequests(_ why: (Int) -> String) {
        let unserved = requests.exchange(0, ordering: .sequentiallyConsistent)
        guard unserved > 0 else { return }
        let reason = why(unserved)
        fc_post_warning(element, "\(unserved) snapshot request\(unserved == 1 ? "" : "s") not served: \(reason)", nil)
        for _ in 0..<unserved { reportUnserved(reason: "no still: " + reason) }
    }

    /// A new run: counters of the worker start again (requests left open were reported when
    /// the last run stopped; one made while stopped waits for this run's first frame).
    func start() {
        folders.prepare(forPath: settings.withLock { $0.naming.template })
        streamEnd.resume()
        startWriter()
        capture.withLock { c in
            c.framesSeen = 0
            c.bracketRemaining = []
            c.flashStart = nil
        }
    }
}
