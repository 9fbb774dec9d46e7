import CGStreamer
import CFilterCamShim
import FilterCore
import FilterCamHost
import Foundation

/// `filtercam bench`: FilterCam elements side by side with the native GStreamer element
/// doing the same job, on the same pre-generated frames, alternating A B A B in one
/// process run; the median of the runs gives frames per second and the ratio.
public struct Bench {
    public struct Case {
        public let name: String
        /// The FilterCam side and the native side: the element part of the pipeline.
        public let filterCam: String
        public let native: String
        /// Where the frames come from when not the default test picture, per side
        /// (a photo for faces; BGRx for jpegenc, which does not take BGRA).
        public var filterCamSource: String? = nil
        public var nativeSource: String? = nil
        /// Sizes this case runs at (nil: all).
        public var onlySizes: Set<String>? = nil

        init(name: String, filterCam: String, native: String, filterCamSource: String? = nil,
             nativeSource: String? = nil, onlySizes: Set<String>? = nil) {
            self.name = name
            self.filterCam = filterCam
            self.native = native
            self.filterCamSource = filterCamSource
            self.nativeSource = nativeSource
            self.onlySizes = onlySizes
        }
    }

    /// A picture with a face for the detection case, looked up from the working folder
    /// (the repository root) or FILTERCAM_FACE_IMAGE.
    static var faceImage: String? {
        let candidates = [ProcessInfo.processInfo.environment["FILTERCAM_FACE_IMAGE"],
                          "Tests/FilterCamHostTests/Fixtures/faces/astronaut.png"].compactMap { $0 }
        return candidates.first { FileManager.default.fileExists(atPath: $0) }
    }

    public struct Result: Codable {
        public let name: String
        public let size: String
        public let fps_filtercam: Double
        public let fps_native: Double
        public let ratio: Double
        public let runs: Int
        public var note: String?
        public var latency_ms: [String: Double]?
    }

    public var sizes: [(Int, Int)] = [(640, 480), (1280, 720), (1920, 1080)]
    public var only: Set<String> = []
    public var runs = 5
    /// Pixels pushed per run (frames = this / frame area), so each run takes similar time.
    public var pixelsPerRun = 250_000_000
    /// At most this many frames a run: a tiny frame would otherwise take millions.
    static let maxFramesPerRun = 20_000
    public var log: (String) -> Void = { print($0) }

    public init() {}

    /// Frames a run pushes at `w`×`h`: `pixelsPerRun` worth, at least 20.
    func framesPerRun(width w: Int, height h: Int) -> Int {
        min(Self.maxFramesPerRun, max(20, pixelsPerRun / (w * h)))
    }

    /// Every name `--only` takes: a row's name, or a group of rows (`lut`, `i420-lut`,
    /// `e2e`).
    /// The rows of cases that print several, each with its case (run together by its name).
    public static let groupedRows = ["latency-30fps": "latency", "latency-overload": "latency",
                                     "faces-live-off": "faces-live", "faces-live-upright": "faces-live",
                                     "faces-live-all": "faces-live"]

    public static var selectableNames: [String] {
        var names = ["copy"] + cases(width: 640, height: 480).map(\.name)
        names.append("lut")
        for (format, _) in lookFormats {
            if format != "BGRx" { names.append("\(format.lowercased())-lut") }
            for picture in ["bars", "photo"] {
                let row = lookRowName(format: format, picture: picture)
                names += [row, row + "-sepia"]
            }
        }
        names += ["latency", "faces-live", "e2e"] + endToEndRowNames
        var seen = Set<String>()
        return names.filter { seen.insert($0).inserted }
    }

    public static func cases(width w: Int, height h: Int) -> [Case] {
        // A centred lens of a quarter of the area (the same text on both sides).
        let quarter = "0.25,0.25,0.5,0.5"
        let lens = try! LensRect(parsing: quarter).pixelRect(width: w, height: h)
        var list = yuvCases(width: w, height: h)
        list += [
            Case(name: "passthrough", filterCam: "filtercam filter=none", native: "identity"),
            Case(name: "sepia", filterCam: "filtercam filter=sepia intensity=1", native: "coloreffects preset=sepia"),
            Case(name: "mono", filterCam: "filtercam filter=mono", native: "videobalance saturation=0"),
            Case(name: "lens-sepia", filterCam: "filtercam filter=sepia intensity=1 lens=\(quarter)",
                 native: "filtercam filter=sepia intensity=1"),
        ]
        for nick in ["identity", "90r", "180", "90l", "horiz", "vert", "ul-lr", "ur-ll"] {
            list.append(Case(name: "orientation-\(nick)", filterCam: "filtercam orientation=\(nick)",
                             native: "videoflip video-direction=\(nick)"))
        }
        list.append(Case(name: "lens-crop", filterCam: "filtercam lens=\(quarter) lens-crop=true",
                         native: videocrop(lens, width: w, height: h)))
        let zoom = Zoom.cropRect(width: w, height: h, zoom: 2)
        list.append(Case(name: "zoom", filterCam: "filtercam zoom=2",
                         native: "\(videocrop(zoom, width: w, height: h)) ! videoscale ! video/x-raw,width=\(w),height=\(h)"))
        if let face = faceImage {
            // Borders keep the face undistorted (a stretched face is not found). Each side gets
            // the picture in the format it takes, converted once before imagefreeze.
            func photo(_ format: String) -> String {
                "filesrc location=\"\(face)\" ! pngdec ! videoconvert ! videoscale add-borders=true ! video/x-raw,format=\(format),width=\(w),height=\(h),pixel-aspect-ratio=1/1 ! imagefreeze num-buffers=FRAMES"
            }
            // The same cascade and tuning on both sides (facedetect's min size 30 is its default).
            let facedetect = "facedetect display=false min-neighbors=3 scale-factor=1.1"
            // The element's defaults: with no device orientation, face-orientations=auto searches all four rolls.
            list.append(Case(name: "faces", filterCam: "filtercam detect-faces=true face-overlay=false", native: facedetect,
                             filterCamSource: photo("BGRx"), nativeSource: photo("RGB"), onlySizes: ["640x480", "1280x720", "720x1280"]))
            // The same job as facedetect: upright faces only.
            list.append(Case(name: "faces-upright", filterCam: "filtercam detect-faces=true face-overlay=false face-orientations=upright",
                             native: facedetect, filterCamSource: photo("BGRx"), nativeSource: photo("RGB"), onlySizes: ["640x480", "1280x720", "720x1280"]))
        }
        let snapshots = stillsFolder
        let bgrx = "videotestsrc num-buffers=1 pattern=smpte ! video/x-raw,format=BGRx,width=\(w),height=\(h),framerate=30/1 ! imagefreeze num-buffers=FRAMES"
        list.append(Case(name: "snapshot", filterCam: "filtercam snapshot-every=1 flash=false snapshot-quality=85 snapshot-location=\"\(snapshots)/s-%06d.jpg\"",
                         // The same job: every frame passes on and is written as a JPEG file.
                         native: "tee name=t t. ! queue ! jpegenc quality=85 ! multifilesink location=\"\(snapshots)/n-%06d.jpg\" t.",
                         filterCamSource: bgrx, nativeSource: bgrx))
        for (name, chain) in FilterRegistry.shared.all.compactMap({ d in d.elementName.map { ($0, d.id) } }) {
            list.append(Case(name: "element-\(name)", filterCam: name, native: "filtercam filter=\(chain)"))
        }
        return list
    }

    /// The YUV formats cameras and encoders use, each case against the stock element doing
    /// the same job in the same format (listed first: what users run). Sepia has no stock
    /// YUV element: its stock side is what a user must write, `coloreffects` between two
    /// `videoconvert`s.
    static func yuvCases(width w: Int, height h: Int) -> [Case] {
        let quarter = "0.25,0.25,0.5,0.5"
        let lens = try! LensRect(parsing: quarter).pixelRect(width: w, height: h, grid: 2)
        let zoom = Zoom.cropRect(width: w, height: h, zoom: 2)
        var list: [Case] = []
        for format in ["I420", "NV12", "YUY2"] {
            let source = "videotestsrc num-buffers=1 pattern=smpte ! video/x-raw,format=\(format),width=\(w),height=\(h),framerate=30/1 ! imagefreeze num-buffers=FRAMES"
            func add(_ name: String, _ filterCam: String, _ native: String) {
                list.append(Case(name: "\(format.lowercased())-\(name)", filterCam: filterCam, native: native,
                                 filterCamSource: source, nativeSource: source))
            }
            add("mono", "filtercam filter=mono", "videobalance saturation=0")
            add("sepia", "filtercam filter=sepia intensity=1", "videoconvert ! coloreffects preset=sepia ! videoconvert ! video/x-raw,format=\(format)")
            // No stock element does these: the other side is the same filter on RGB between
            // two videoconverts, what a user ran before the YUV path.
            for tone in ["exposure ev=1", "posterize", "color-controls saturation=1.5", "focus-peaking", "blur"] {
                add(tone.split(separator: " ")[0].description, "filtercam filter=\"\(tone)\"",
                    "videoconvert ! video/x-raw,format=BGRx ! filtercam filter=\"\(tone)\" ! videoconvert ! video/x-raw,format=\(format)")
            }
            for nick in ["90r", "90l", "180", "horiz", "vert"] {
                add(nick, "filtercam orientation=\(nick)", "videoflip video-direction=\(nick)")
            }
            add("lens-crop", "filtercam lens=\(quarter) lens-crop=true", videocrop(lens, width: w, height: h))
            add("zoom", "filtercam zoom=2", "\(videocrop(zoom, width: w, height: h)) ! videoscale ! video/x-raw,width=\(w),height=\(h)")
            // Stills in the frame's own format: every frame passes on and is written as a JPEG.
            // Quoted: a TMPDIR with a space made the row "no element ..." (skipped).
            add("snapshot", "filtercam snapshot-every=1 flash=false snapshot-quality=85 snapshot-location=\"\(stillsFolder)/s-%06d.jpg\"",
                "tee name=t t. ! queue ! jpegenc quality=85 ! multifilesink location=\"\(stillsFolder)/n-%06d.jpg\" t.")
        }
        return list
    }

    /// The `videocrop` that cuts `rect` out of a `width`×`height` frame.
    static func videocrop(_ rect: PixelRect, width: Int, height: Int) -> String {
        "videocrop left=\(rect.x) right=\(width - rect.x - rect.width) top=\(rect.y) bottom=\(height - rect.y - rect.height)"
    }

    func run(element: String, source: String? = nil, width: Int, height: Int, frames: Int) throws -> Double {
        let from = source?.replacingOccurrences(of: "FRAMES", with: String(frames))
            ?? "videotestsrc num-buffers=1 pattern=smpte ! video/x-raw,format=BGRA,width=\(width),height=\(height),framerate=30/1 ! imagefreeze num-buffers=\(frames)"
        let description = "\(from) ! \(element) ! fakesink sync=false"
        let pipeline = try Pipeline(description: description)
        let (message, elapsed) = BenchInterruption.running(pipeline) { () -> (GstOwned<GstMessage>?, Double) in
            pipeline.setState(GST_STATE_PAUSED)
            _ = gst_element_get_state(pipeline.element, nil, nil, 10_000_000_000)
            let start = DispatchTime.now().uptimeNanoseconds
            pipeline.setState(GST_STATE_PLAYING)
            let message = GstOwned(gst_bus_timed_pop_filtered(pipeline.bus, 120_000_000_000,
                GstMessageType(rawValue: GST_MESSAGE_EOS.rawValue | GST_MESSAGE_ERROR.rawValue)))
            return (message, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        guard let message, message.pointer.pointee.type == GST_MESSAGE_EOS else {
            throw Pipeline.ParseError(description: "'\(element)' did not reach EOS")
        }
        // The preroll frame went through before the clock started.
        return Double(frames - 1) / elapsed
    }

    /// Where the snapshot case writes its stills (`s-*.jpg`) and jpegenc its files (`n-*.jpg`):
    /// this run's own (two benches at once emptied and counted each other's), removed when
    /// the case is done (4881 stills, 71 MB, were left after a 320x240 run).
    static let stillsFolder = FileManager.default.temporaryDirectory.appendingPathComponent("filtercam-bench-stills-\(getpid())").path

    /// Stills the snapshot case has written so far.
    static func stillsWritten() -> Int {
        ((try? FileManager.default.contentsOfDirectory(atPath: stillsFolder)) ?? []).filter { $0.hasPrefix("s-") }.count
    }

    /// The memory-bandwidth reference: copying whole frames between two buffers.
    static func copyRate(width: Int, height: Int, seconds: Double = 0.5) -> Double {
        let a = PixelBuffer(width: width, height: height), b = PixelBuffer(width: width, height: height)
        var frames = 0
        let start = DispatchTime.now().uptimeNanoseconds
        var elapsed = 0.0
        repeat {
            b.view.copyPixels(from: a.view)
            frames += 1
            elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        } while elapsed < seconds
        return Double(frames) / elapsed
    }

    public func runAll() -> [Result] {
        GStreamer.initialize()
        var results: [Result] = []
        for (w, h) in sizes {
            let size = "\(w)x\(h)"
            let frames = framesPerRun(width: w, height: h)
            if only.isEmpty || only.contains("copy") {
                let copies = (0..<runs).map { _ in Self.copyRate(width: w, height: h, seconds: 0.3) }
                let fps = median(copies)
                results.append(Result(name: "copy", size: size, fps_filtercam: fps, fps_native: fps, ratio: 1, runs: runs,
                                      note: "memcpy of whole frames: the limit for a one-pass filter"))
                log(row(results.last!))
            }
            for c in Self.cases(width: w, height: h) where (only.isEmpty || only.contains(c.name)) && (c.onlySizes?.contains(size) ?? true) {
                var a: [Double] = [], b: [Double] = []
                // Detection and encoding are far slower per frame than pixel passes.
                let caseFrames = c.name.hasPrefix("faces") ? max(10, frames / 10) : c.name.hasSuffix("snapshot") ? max(60, frames / 2) : frames
                do {
                    if c.name.hasSuffix("snapshot") {
                        try? FileManager.default.removeItem(atPath: Self.stillsFolder)
                        try FileManager.default.createDirectory(atPath: Self.stillsFolder, withIntermediateDirectories: true)
                    }
                    for _ in 0..<runs {
                        let before = Self.stillsWritten()
                        let fps = try run(element: c.filterCam, source: c.filterCamSource, width: w, height: h, frames: caseFrames)
                        if c.name.hasSuffix("snapshot") {
                            // Stills beyond the writer's queue are refused, so count the
                            // stills written, not the frames (the preroll frame's too).
                            let seconds = Double(caseFrames - 1) / fps
                            a.append(Double(Self.stillsWritten() - before - 1) / seconds)
                        } else {
                            a.append(fps)
                        }
                        b.append(try run(element: c.native, source: c.nativeSource, width: w, height: h, frames: caseFrames))
                    }
                    let fa = median(a), fb = median(b)
                    results.append(Result(name: c.name, size: size, fps_filtercam: fa, fps_native: fb, ratio: fa / fb, runs: runs))
                    log(row(results.last!))
                    log("    " + Self.sides(of: c))
                } catch {
                    log("\(c.name.padding(toLength: 22, withPad: " ", startingAt: 0)) \(size): skipped: \(error)")
                }
                if c.name.hasSuffix("snapshot") { try? FileManager.default.removeItem(atPath: Self.stillsFolder) }
            }
        }
        if Self.asksForLooks(only) {
            results += lookResults()
        }
        if only.isEmpty || only.contains("latency") {
            results += latencyResults()
        }
        if only.isEmpty || only.contains("faces-live") {
            results += liveFaceResults()
        }
        // Real time (10 s a pipeline): only when asked for (`--only e2e` or a row's name).
        if only.contains(where: { $0.hasPrefix("e2e") }) {
            results += endToEndResults()
        }
        return results
    }

    /// What a case compares, on a line under its row: the frames' format and both sides'
    /// elements (the rows named neither: a plain `sepia` ran on BGRA, some rows set
    /// FilterCam beside itself).
    static func sides(of c: Case) -> String {
        let source = c.filterCamSource ?? "format=BGRA"
        let format = source.range(of: "format=[A-Za-z0-9]+", options: .regularExpression).map { String(source[$0].dropFirst(7)) }
        return "\(format.map { "\($0) frames: " } ?? "")filtercam side: \(c.filterCam); native side: \(c.native)"
    }

    func row(_ r: Result) -> String {
        func f(_ v: Double) -> String { String(format: "%9.1f", v) }
        return "\(r.name.padding(toLength: 22, withPad: " ", startingAt: 0)) \(r.size.padding(toLength: 10, withPad: " ", startingAt: 0)) filtercam \(f(r.fps_filtercam)) fps   native \(f(r.fps_native)) fps   ratio \(String(format: "%5.2f", r.ratio))"
    }

    /// The results as Markdown: the frame-rate rows, then the end-to-end rows, whose
    /// numbers are CPU seconds (lower is better) and get a table of their own; each says
    /// what its ratio means. (The end-to-end rows sat under "fps" headers, rounded to
    /// tenths, with 0.0 and a ratio of 0.00 for "no stock element".)
    public static func table(_ results: [Result]) -> String {
        let cpuRows = results.filter { $0.name.hasPrefix("e2e-") }, fpsRows = results.filter { !$0.name.hasPrefix("e2e-") }
        var out = ""
        if !fpsRows.isEmpty {
            out += "ratio: FilterCam fps over native fps (above 1: FilterCam faster); the native side of each row is named under it above\n\n"
            out += "| name | size | FilterCam fps | native fps | ratio |\n|---|---|---:|---:|---:|\n"
            for r in fpsRows {
                out += "| \(r.name) | \(r.size) | \(String(format: "%.1f", r.fps_filtercam)) | \(String(format: "%.1f", r.fps_native)) | \(String(format: "%.2f", r.ratio)) |\n"
            }
        }
        if !cpuRows.isEmpty {
            if !out.isEmpty { out += "\n" }
            out += "ratio: FilterCam's CPU over the stock pipeline's (below 1: FilterCam cheaper); whole-process CPU for 300 frames\n\n"
            out += "| name | size | FilterCam CPU s | stock CPU s | ratio |\n|---|---|---:|---:|---:|\n"
            for r in cpuRows {
                let stock = r.ratio > 0 ? String(format: "%.2f", r.fps_native) : "no stock element"
                let ratio = r.ratio > 0 ? String(format: "%.2f", r.ratio) : "-"
                out += "| \(r.name) | \(r.size) | \(String(format: "%.2f", r.fps_filtercam)) | \(stock) | \(ratio) |\n"
            }
        }
        return out
    }

    // MARK: Latency

    /// Added latency at 30 fps live (filtercam vs identity) and under overload (a filter
    /// three times slower than the frame interval): per-frame latency at the sink.
    func latencyResults() -> [Result] {
        BenchDelayFilter.register()
        var results: [Result] = []
        let w = 640, h = 480
        let frames = 90
        do {
            let base = try liveLatencies(element: "identity", width: w, height: h, frames: frames)
            let ours = try liveLatencies(element: "filtercam filter=sepia", width: w, height: h, frames: frames)
            let over = try liveLatencies(element: "filtercam filter=\"bench-delay ms=100\"", width: w, height: h, frames: frames)
            var r1 = Result(name: "latency-30fps", size: "\(w)x\(h)", fps_filtercam: ours.fps, fps_native: base.fps,
                            ratio: ours.fps / base.fps, runs: 1, note: "added latency = median(filtercam) - median(identity)")
            r1.latency_ms = ["filtercam_median": ours.median, "native_median": base.median,
                             "added_median": ours.median - base.median, "filtercam_max": ours.max]
            var r2 = Result(name: "latency-overload", size: "\(w)x\(h)", fps_filtercam: over.fps, fps_native: base.fps,
                            ratio: over.fps / base.fps, runs: 1, note: "100 ms filter at 30 fps: frames dropped, latency must stay flat")
            r2.latency_ms = ["median": over.median, "max": over.max, "first_third_mean": over.firstThird, "last_third_mean": over.lastThird]
            results = [r1, r2]
            for r in results {
                log("\(r.name.padding(toLength: 22, withPad: " ", startingAt: 0)) \(r.size)  \(r.latency_ms!.sorted { $0.key < $1.key }.map { "\($0.key)=\(String(format: "%.1f", $0.value))ms" }.joined(separator: " "))  fps \(String(format: "%.1f", r.fps_filtercam))")
            }
        } catch {
            log("latency: skipped: \(error)")
        }
        return results
    }

    struct Latencies {
        var median: Double, max: Double, firstThird: Double, lastThird: Double, fps: Double
    }

    /// Live 30 fps source → element → appsink; latency = running time at arrival − PTS.
    func liveLatencies(element: String, width: Int, height: Int, frames: Int) throws -> Latencies {
        let pipeline = try Pipeline(description: "videotestsrc is-live=true num-buffers=\(frames) ! video/x-raw,format=BGRA,width=\(width),height=\(height),framerate=30/1 ! \(element) ! appsink name=out sync=false max-buffers=100")
        let (lat, elapsed) = sinkLatencies(pipeline)
        guard lat.count > 3 else { throw Pipeline.ParseError(description: "too few frames from '\(element)'") }
        let third = max(1, lat.count / 3)
        return Latencies(median: median(lat), max: lat.max()!,
                         firstThird: lat.prefix(third).reduce(0, +) / Double(third),
                         lastThird: lat.suffix(third).reduce(0, +) / Double(third),
                         fps: Double(lat.count) / elapsed)
    }

    /// Plays `pipeline` (ending in `appsink name=out`) to its end: each frame's latency at
    /// the sink (running time at arrival − PTS, ms) and the seconds it took.
    func sinkLatencies(_ pipeline: Pipeline) -> (latencies: [Double], seconds: Double) {
        guard let sink = pipeline.element(named: "out") else { return ([], 0) }
        pipeline.setState(GST_STATE_PLAYING)
        var lat: [Double] = []
        let start = DispatchTime.now().uptimeNanoseconds
        while let sample = GstOwnedSample(gst_app_sink_try_pull_sample(sink.asAppSink, 5_000_000_000)) {
            let pts = fc_buffer_pts(sample.buffer)
            if let clock = GstOwned(gst_element_get_clock(pipeline.element)) {
                let now = gst_clock_get_time(clock.pointer)
                let running = now - gst_element_get_base_time(pipeline.element)
                lat.append((Double(running) - Double(pts)) / 1e6)
            }
        }
        return (lat, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
}

func median(_ values: [Double]) -> Double {
    let s = values.sorted()
    guard !s.isEmpty else { return 0 }
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

/// A filter that only waits: the benchmark's overload case (registered through the
/// public filter API, by the benchmark only).
final class BenchDelayFilter: FrameFilter {
    static func register() {
        FilterRegistry.shared.register(FilterDescriptor(
            id: "bench-delay", title: "Delay (benchmark)", summary: "Sleeps for a while on every frame",
            parameters: [FilterParameter("ms", .int(range: 0...10_000, defaultValue: 100), "milliseconds per frame")],
            make: { BenchDelayFilter(ms: $0.int("ms")) }))
    }
    let ms: Int
    init(ms: Int) { self.ms = ms }
    func apply(to frame: FrameView) { usleep(UInt32(ms * 1000)) }
}
