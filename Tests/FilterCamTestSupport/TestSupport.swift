import CFilterCamShim
import CGStreamer
import FilterCamHost
import FilterCamTool
import FilterCore
import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

// Shared helpers for the element tests (FilterCamHostTests) and the tool tests
// (FilterCamToolTests): locating the built binaries, running them with a hard timeout, and
// running pipelines in this process to collect their frames. A plain target, so both test
// targets can use it; its declarations are `package`, and it imports nothing `@testable`,
// so it builds in release too.

// MARK: - Binaries

package enum Build {
    /// The build products folder: `FILTERCAM_BUILD_DIR`, else the folder holding the test
    /// bundle (`.build/debug/FilterCamPackageTests.xctest` → `.build/debug`).
    package static let directory: String = {
        let fm = FileManager.default
        if let dir = ProcessInfo.processInfo.environment["FILTERCAM_BUILD_DIR"], !dir.isEmpty {
            return dir
        }
        var candidates: [String] = []
        let arg0 = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
        candidates.append(arg0.deletingLastPathComponent().path)
        let bundle = URL(fileURLWithPath: Bundle.main.bundlePath).standardizedFileURL
        candidates.append(bundle.path)
        candidates.append(bundle.deletingLastPathComponent().path)
        for b in Bundle.allBundles where b.bundlePath.hasSuffix(".xctest") {
            candidates.append(URL(fileURLWithPath: b.bundlePath).deletingLastPathComponent().path)
        }
        for c in candidates where fm.isExecutableFile(atPath: c + "/filtercam") {
            return c
        }
        return candidates[0]
    }()

    package static var cli: String { directory + "/filtercam" }
    package static var plugin: String { directory + "/libgstfiltercam.so" }

    /// The package root (for pipelines/), found from this source file.
    package static let packageRoot: String = {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
    }()

    package static func requireCLI(file: StaticString = #filePath, line: UInt = #line) throws {
        guard FileManager.default.isExecutableFile(atPath: cli) else {
            XCTFail("no filtercam executable at \(cli): run `swift build` first (or set FILTERCAM_BUILD_DIR)", file: file, line: line)
            throw XCTSkip("missing \(cli)")
        }
    }

    /// A private registry for the stock gst tools run with GST_PLUGIN_PATH, so the user's
    /// registry cache is not touched; its folder goes when the test process exits.
    package static let registryFile: String = {
        try? FileManager.default.createDirectory(atPath: registryFolder, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: Build.registryFolder) }
        return registryFolder + "/registry.bin"
    }()

    private static let registryFolder =
        FileManager.default.temporaryDirectory.appendingPathComponent("filtercam-tests-registry-\(getpid())").path

    package static func which(_ tool: String) -> String? {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let p = "\(dir)/\(tool)"
            if FileManager.default.isExecutableFile(atPath: p) { return p }
        }
        return nil
    }
}

/// A fresh temporary folder, removed by the caller's `defer`.
package func makeTempDir() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("filtercam-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

// MARK: - Processes

package struct ProcessResult {
    package var status: Int32
    package var stdout: Data
    package var stderr: String
    package var timedOut: Bool
    package var signaled: Bool
    package var elapsed: TimeInterval
    package var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
    package var summary: String { "status=\(status) timedOut=\(timedOut) signaled=\(signaled)\nstderr:\n\(stderr)" }
    /// A count from the filtercam element's summary line at the end of a run
    /// (`filtercam filtercam0: processed=30 dropped=0 …`): KEY's number, nil when absent.
    package func elementSummary(_ key: String) -> Int? {
        stderr.components(separatedBy: "filtercam filtercam0: ").last?
            .components(separatedBy: "\(key)=").dropFirst().first.flatMap { Int($0.prefix { $0.isNumber }) }
    }
    /// The stream ran to the end through filtercam: each of `frames` was passed or, from a
    /// live source while filtercam was busy (a debug build on a loaded machine), dropped.
    package func filtercamSawEvery(_ frames: Int) -> Bool {
        guard let processed = elementSummary("processed"), let dropped = elementSummary("dropped") else { return false }
        return processed + dropped == frames && processed > 0
    }
}

/// A child process with piped stdin/stdout/stderr read in the background.
package final class RunningProcess: @unchecked Sendable {
    package let process = Process()
    private let stdinPipe = Pipe()
    private let outPipe = Pipe()
    private let errPipe = Pipe()
    private let lock = NSLock()
    private var out = Data()
    private var err = Data()
    private let readersDone = DispatchGroup()
    private let exited = DispatchSemaphore(value: 0)
    private let started = Date()

    /// `environment` entries are added to (or, with nil, removed from) this process's environment.
    package init(_ executable: String, _ arguments: [String], environment: [String: String?] = [:],
         stdinNull: Bool = false) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["GST_PLUGIN_PATH"] = nil   // only where a test asks for it
        for (k, v) in environment { env[k] = v }
        process.environment = env
        process.standardInput = stdinNull ? FileHandle.nullDevice : stdinPipe
        process.standardOutput = outPipe
        process.standardError = errPipe
        process.terminationHandler = { [exited] _ in exited.signal() }
        try process.run()
        read(outPipe.fileHandleForReading) { self.out.append($0) }
        read(errPipe.fileHandleForReading) { self.err.append($0) }
    }

    private func read(_ handle: FileHandle, _ append: @escaping @Sendable (Data) -> Void) {
        readersDone.enter()
        let t = Thread { [lock, readersDone] in
            while true {
                let d = handle.availableData
                if d.isEmpty { break }
                lock.lock(); append(d); lock.unlock()
            }
            readersDone.leave()
        }
        t.start()
    }

    package func write(_ text: String) {
        try? stdinPipe.fileHandleForWriting.write(contentsOf: Data(text.utf8))
    }

    package func closeStdin() {
        try? stdinPipe.fileHandleForWriting.close()
    }

    package func interrupt() { kill(process.processIdentifier, SIGINT) }

    package var stderrSoFar: String {
        lock.lock(); defer { lock.unlock() }
        return String(decoding: err, as: UTF8.self)
    }

    package var stdoutSoFar: Data {
        lock.lock(); defer { lock.unlock() }
        return out
    }

    /// Waits until stderr contains `text` or the time is up.
    @discardableResult
    package func waitForStderr(containing text: String, timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if stderrSoFar.contains(text) { return true }
            if !process.isRunning { return stderrSoFar.contains(text) }
            usleep(20_000)
        }
        return false
    }

    /// Waits for the exit; past `timeout` the process is killed (SIGTERM, then SIGKILL).
    package func wait(timeout: TimeInterval) -> ProcessResult {
        var timedOut = false
        if exited.wait(timeout: .now() + timeout) == .timedOut {
            timedOut = true
            kill(process.processIdentifier, SIGKILL)
            _ = exited.wait(timeout: .now() + 5)
        }
        let elapsed = Date().timeIntervalSince(started)
        closeStdin()
        _ = readersDone.wait(timeout: .now() + 5)
        lock.lock(); defer { lock.unlock() }
        return ProcessResult(status: process.terminationStatus, stdout: out,
                             stderr: String(decoding: err, as: UTF8.self), timedOut: timedOut,
                             signaled: process.terminationReason == .uncaughtSignal, elapsed: elapsed)
    }
}

/// Runs a program to the end (stdin: the given text, then closed; or /dev/null).
package func runProcess(_ executable: String, _ arguments: [String], environment: [String: String?] = [:],
                stdin: String? = nil, timeout: TimeInterval = 30) throws -> ProcessResult {
    let p = try RunningProcess(executable, arguments, environment: environment, stdinNull: stdin == nil)
    if let stdin {
        p.write(stdin)
        p.closeStdin()
    }
    return p.wait(timeout: timeout)
}

/// Runs `filtercam ARGS…` to the end.
package func runCLI(_ arguments: [String], environment: [String: String?] = [:], stdin: String? = nil,
            timeout: TimeInterval = 30) throws -> ProcessResult {
    try Build.requireCLI()
    return try runProcess(Build.cli, arguments, environment: environment, stdin: stdin, timeout: timeout)
}

/// Runs a stock GStreamer tool with the loadable plugin on GST_PLUGIN_PATH.
package func runGstTool(_ tool: String, _ arguments: [String], timeout: TimeInterval = 60) throws -> ProcessResult {
    guard let path = Build.which(tool) else { throw XCTSkip("\(tool) is not installed") }
    return try runProcess(path, arguments, environment: ["GST_PLUGIN_PATH": Build.directory,
                                                         "GST_REGISTRY": Build.registryFile], timeout: timeout)
}

/// The duration of a media file as ffprobe reads it (nil when it cannot).
package func probeDuration(_ path: String) throws -> Double? {
    guard let ffprobe = Build.which("ffprobe") else { throw XCTSkip("ffprobe is not installed") }
    let r = try runProcess(ffprobe, ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", path], timeout: 30)
    guard r.status == 0 else { return nil }
    return Double(r.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines))
}

/// The first video stream's pixel format and H.264 profile as ffprobe names them
/// (e.g. "yuv420p", "High"); nil when it cannot read them.
package func probePixelFormatAndProfile(_ path: String) throws -> (pixelFormat: String, profile: String)? {
    guard let ffprobe = Build.which("ffprobe") else { throw XCTSkip("ffprobe is not installed") }
    let r = try runProcess(ffprobe, ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=pix_fmt,profile",
                                     "-of", "default=noprint_wrappers=1", path], timeout: 30)
    guard r.status == 0 else { return nil }
    var values: [String: String] = [:]
    for line in r.stdoutText.split(separator: "\n") {
        let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
        if parts.count == 2 { values[parts[0]] = parts[1] }
    }
    guard let pixelFormat = values["pix_fmt"], let profile = values["profile"] else { return nil }
    return (pixelFormat, profile)
}

/// Recordings every player opens: 4:2:0 and a profile hardware decoders and browsers take.
package func assertPlayableEverywhere(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws {
    let probed = try XCTUnwrap(try probePixelFormatAndProfile(path), "ffprobe could not read \(path)", file: file, line: line)
    XCTAssertEqual(probed.pixelFormat, "yuv420p", file: file, line: line)
    XCTAssertTrue(["High", "Main", "Constrained Baseline"].contains(probed.profile), "profile \(probed.profile)", file: file, line: line)
}

/// The number of decodable video frames ffprobe counts (nil when it cannot).
package func probeFrameCount(_ path: String) throws -> Int? {
    guard let ffprobe = Build.which("ffprobe") else { throw XCTSkip("ffprobe is not installed") }
    let r = try runProcess(ffprobe, ["-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
                                     "stream=nb_read_frames", "-of", "csv=p=0", path], timeout: 30)
    guard r.status == 0 else { return nil }
    return Int(r.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines))
}

// MARK: - In-process pipelines

package struct CapturedFrame {
    package var bytes: [UInt8]          // packed rows, width * 4 bytes each
    package var width: Int
    package var height: Int
    package var format: String
    package var pts: UInt64?
    package var duration: UInt64?
    /// PTS converted to running time with the sample's segment.
    package var ptsRunningTime: UInt64?
    /// Pipeline clock running time when the test pulled the frame.
    package var arrivalRunningTime: UInt64?
    /// GST_BUFFER_FLAG_GAP: a duplicate made to fill time (videorate marks its duplicates).
    package var isGap = false

    package func pixel(_ x: Int, _ y: Int) -> [UInt8] {
        let i = (y * width + x) * 4
        return Array(bytes[i..<i + 4])
    }

    /// The 4 bytes (Y0 U Y1 V, or U Y0 V Y1) of the macropixel holding pixel (x, y) of a
    /// packed 4:2:2 frame (YUY2, UYVY) without row padding.
    package func macropixel(_ x: Int, _ y: Int) -> [UInt8] {
        let i = y * ((width + 1) / 2 * 4) + x / 2 * 4
        return Array(bytes[i..<i + 4])
    }
}

package struct PipelineFailure: Error, CustomStringConvertible {
    package let description: String
    package init(description: String) { self.description = description }
}

package let noTime = GstClockTime.max   // GST_CLOCK_TIME_NONE

extension OpaquePointer {
    /// A GstSample's frame as packed bytes (any stride), with its timing.
    package func capturedFrame() throws -> CapturedFrame {
        let sample = self
        guard let caps = gst_sample_get_caps(sample), let buffer = gst_sample_get_buffer(sample) else {
            throw PipelineFailure(description: "sample without caps or buffer")
        }
        var info = GstVideoInfo()
        guard gst_video_info_from_caps(&info, caps) != 0 else { throw PipelineFailure(description: "caps are not raw video") }
        var frame = GstVideoFrame()
        guard gst_video_frame_map(&frame, &info, buffer, GST_MAP_READ) != 0 else {
            throw PipelineFailure(description: "cannot map the frame")
        }
        defer { gst_video_frame_unmap(&frame) }
        let width = Int(info.width), height = Int(info.height)
        let format = String(cString: gst_video_format_to_string(info.finfo.pointee.format))
        // RGB: one plane of width × 4 bytes per row. YUV: every plane's samples, plane after plane.
        let planes: [(width: Int, height: Int, elementBytes: Int)] = YUVFormat(rawValue: format).map { f in
            (0..<f.planeCount).map { f.plane($0, width: width, height: height) }
        } ?? [(width, height, 4)]
        var bytes: [UInt8] = []
        for (i, p) in planes.enumerated() {
            let stride = Int(fc_video_frame_stride_n(&frame, guint(i)))
            let base = UnsafeRawPointer(fc_video_frame_plane_data_n(&frame, guint(i))!)
            for y in 0..<p.height {
                bytes += UnsafeRawBufferPointer(start: base + y * stride, count: p.width * p.elementBytes)
            }
        }
        let pts = fc_buffer_pts(buffer), duration = fc_buffer_duration(buffer)
        var running: UInt64? = nil
        if pts != noTime, let segment = gst_sample_get_segment(sample) {
            let r = gst_segment_to_running_time(segment, GST_FORMAT_TIME, pts)
            if r != noTime { running = UInt64(r) }
        }
        return CapturedFrame(bytes: bytes, width: width, height: height, format: format,
                             pts: pts == noTime ? nil : UInt64(pts),
                             duration: duration == noTime ? nil : UInt64(duration),
                             ptsRunningTime: running, arrivalRunningTime: nil,
                             isGap: buffer.pointee.mini_object.flags & GST_BUFFER_FLAG_GAP.rawValue != 0)
    }
}

extension Pipeline {
    /// The pipeline clock's running time now (nil before PLAYING).
    package var runningTimeNow: UInt64? {
        guard let clock = gst_element_get_clock(element) else { return nil }
        defer { gst_object_unref(UnsafeMutableRawPointer(clock)) }
        let now = gst_clock_get_time(clock)
        let base = gst_element_get_base_time(element)
        return now >= base ? UInt64(now - base) : nil
    }

    /// The first ERROR on the bus, as text, if any.
    /// The next ERROR's message; `detailed`: with the element that posted it and
    /// GStreamer's debug line ("Internal data stream error" alone does not say who stopped
    /// or why).
    package func popError(detailed: Bool = false) -> String? {
        guard let m = gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR) else { return nil }
        defer { gst_message_unref(m) }
        var error: UnsafeMutablePointer<GError>?
        var debug: UnsafeMutablePointer<gchar>?
        gst_message_parse_error(m, &error, &debug)
        var text = error.map { String(cString: $0.pointee.message) } ?? "?"
        if detailed {
            let source = m.pointee.src.map { String(cString: $0.pointee.name) } ?? "?"
            text += " [from \(source)" + (debug.map { ": " + String(cString: $0) } ?? "") + "]"
        }
        if let error { g_error_free(error) }
        g_free(debug)
        return text
    }

    package func requireElement(_ name: String) throws -> UnsafeMutablePointer<GstElement> {
        guard let e = element(named: name) else { throw PipelineFailure(description: "no element named \(name)") }
        return e
    }
}

/// Runs `description ! appsink name=out sync=false` to EOS and returns every frame.
/// `prepare` runs before it plays; `onFrame` is called after each frame is pulled (index,
/// frame, pipeline).
package func collectFrames(_ description: String, timeout: TimeInterval = 30, appsinkOptions: String = "",
                   prepare: ((Pipeline) -> Void)? = nil,
                   onFrame: ((Int, CapturedFrame, Pipeline) -> Void)? = nil,
                   afterEOS: ((Pipeline) -> Void)? = nil) throws -> [CapturedFrame] {
    GStreamer.initialize()
    let pipeline = try Pipeline(description: description + " ! appsink name=out sync=false \(appsinkOptions)")
    let sink = try pipeline.requireElement("out")
    prepare?(pipeline)
    guard pipeline.setState(GST_STATE_PLAYING) != GST_STATE_CHANGE_FAILURE else {
        throw PipelineFailure(description: "cannot start '\(description)': \(pipeline.popError() ?? "?")")
    }
    let deadline = Date().addingTimeInterval(timeout)
    var frames: [CapturedFrame] = []
    while true {
        if let error = pipeline.popError() {
            throw PipelineFailure(description: "error from '\(description)': \(error)")
        }
        if let sample = gst_app_sink_try_pull_sample(sink.asAppSink, 50_000_000) {
            let arrival = pipeline.runningTimeNow
            defer { gst_sample_unref(sample) }
            var frame = try sample.capturedFrame()
            frame.arrivalRunningTime = arrival
            frames.append(frame)
            onFrame?(frames.count - 1, frame, pipeline)
            continue
        }
        if gst_app_sink_is_eos(sink.asAppSink) != 0 { break }
        if Date() > deadline {
            throw PipelineFailure(description: "timed out after \(timeout) s with \(frames.count) frames from '\(description)'")
        }
    }
    afterEOS?(pipeline)
    pipeline.setState(GST_STATE_NULL)
    return frames
}

/// Every element message (as text) and warning a pipeline posts, recorded as it is posted
/// (a sync handler on its bus), so a loop that pops only errors loses none of them.
package final class BusLog: @unchecked Sendable {
    private let lock = NSLock()
    private var elementMessages: [String] = []
    private var warningTexts: [String] = []

    /// Starts recording `pipeline`'s messages (before it plays); the bus keeps the log alive.
    package init(_ pipeline: Pipeline) {
        let context = Unmanaged.passRetained(self).toOpaque()
        gst_bus_set_sync_handler(pipeline.bus, { _, message, data in
            guard let message, let data else { return GST_BUS_PASS }
            Unmanaged<BusLog>.fromOpaque(data).takeUnretainedValue().note(message)
            return GST_BUS_PASS
        }, context, { data in
            if let data { Unmanaged<BusLog>.fromOpaque(data).release() }
        })
    }

    private func note(_ m: UnsafeMutablePointer<GstMessage>) {
        if m.pointee.type == GST_MESSAGE_WARNING {
            var error: UnsafeMutablePointer<GError>?
            var debug: UnsafeMutablePointer<gchar>?
            gst_message_parse_warning(m, &error, &debug)
            let text = error.map { String(cString: $0.pointee.message) } ?? "?"
            if let error { g_error_free(error) }
            g_free(debug)
            lock.lock(); warningTexts.append(text); lock.unlock()
        } else if m.pointee.type == GST_MESSAGE_ELEMENT, let s = gst_message_get_structure(m), let text = gst_structure_to_string(s) {
            let line = String(cString: text)
            g_free(text)
            lock.lock(); elementMessages.append(line); lock.unlock()
        }
    }

    /// Element messages as `gst_structure_to_string` writes them, oldest first.
    package var elements: [String] { lock.lock(); defer { lock.unlock() }; return elementMessages }
    /// Warnings' texts, oldest first.
    package var warnings: [String] { lock.lock(); defer { lock.unlock() }; return warningTexts }
}

/// Waits for a state change to finish; false on failure or timeout.
package func waitForState(_ pipeline: Pipeline, timeout: TimeInterval = 10) -> GstState? {
    var state = GST_STATE_NULL, pending = GST_STATE_NULL
    let r = gst_element_get_state(pipeline.element, &state, &pending, GstClockTime(timeout * 1e9))
    return r == GST_STATE_CHANGE_FAILURE || r == GST_STATE_CHANGE_ASYNC ? nil : state
}

/// Waits (at most `timeout` s) until `count` buffers have left `element` by its src pad:
/// an event to wait for where a fixed sleep would guess how fast a busy machine starts.
package func waitForBuffers(leaving element: UnsafeMutablePointer<GstElement>, count: Int, timeout: TimeInterval = 20) -> Bool {
    guard let pad = gst_element_get_static_pad(element, "src") else { return false }
    defer { gst_object_unref(pad) }
    let seen = Locked(0)
    let id = gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, { _, _, data in
        Unmanaged<Locked<Int>>.fromOpaque(data!).takeUnretainedValue().withLockAndWake { $0 += 1 }
        return GST_PAD_PROBE_OK
    }, Unmanaged.passRetained(seen).toOpaque(), { data in Unmanaged<Locked<Int>>.fromOpaque(data!).release() })
    defer { gst_pad_remove_probe(pad, id) }
    return seen.wait(until: { $0 >= count }, timeout: timeout) { _ in true } ?? false
}

/// The name of the next still's message on `pipeline`'s bus (`snapshot-saved` or
/// `snapshot-failed`); nil when an error came first or nothing within `timeout` s.
package func nextStillMessage(on pipeline: Pipeline, timeout: TimeInterval = 20) -> String? {
    let wanted = GstMessageType(rawValue: GST_MESSAGE_ERROR.rawValue | GST_MESSAGE_ELEMENT.rawValue)
    while let m = GstOwned(gst_bus_timed_pop_filtered(pipeline.bus, GstClockTime(timeout * 1e9), wanted)) {
        guard m.pointer.pointee.type != GST_MESSAGE_ERROR, let s = gst_message_get_structure(m.pointer) else { return nil }
        let name = String(cString: gst_structure_get_name(s))
        if name == "snapshot-saved" || name == "snapshot-failed" { return name }
    }
    return nil
}

/// Reads a filtercam counter property as a number.
package func counter(_ element: UnsafeMutablePointer<GstElement>, _ name: String) -> UInt64? {
    Pipeline.property(element, name).flatMap { UInt64($0) }
}

package let second: UInt64 = 1_000_000_000

/// The running-time PTS videotestsrc gives frame `i` at `fps_n/fps_d`.
package func frameTime(_ i: Int, fpsN: UInt64 = 30, fpsD: UInt64 = 1) -> UInt64 {
    UInt64(gst_util_uint64_scale(guint64(i), guint64(second * fpsD), guint64(fpsN)))
}

/// Pushes `count` BGRA frames whose rows are padded to `stride` bytes (described by a
/// GstVideoMeta, padding filled with 0xEE) through `element`, and returns what comes out.
/// `pixel(x, y, frame)` gives each pixel's four bytes.
package func runPaddedFrames(through element: String, width: Int, height: Int, stride: Int, count: Int,
                     pixel: (Int, Int, Int) -> [UInt8]) throws -> [CapturedFrame] {
    let pipeline = try Pipeline(description:
        "appsrc name=src format=time caps=\"video/x-raw,format=BGRA,width=\(width),height=\(height),framerate=30/1\" ! \(element) ! appsink name=out sync=false")
    let src = try pipeline.requireElement("src"), sink = try pipeline.requireElement("out")
    XCTAssertNotEqual(pipeline.setState(GST_STATE_PLAYING), GST_STATE_CHANGE_FAILURE)
    for f in 0..<count {
        let size = stride * height
        var bytes = [UInt8](repeating: 0xEE, count: size)   // padding: recognisable junk
        for y in 0..<height { for x in 0..<width {
            let p = pixel(x, y, f)
            for c in 0..<4 { bytes[y * stride + x * 4 + c] = p[c] }
        } }
        let buffer = gst_buffer_new_allocate(nil, gsize(size), nil)!
        _ = bytes.withUnsafeBytes { gst_buffer_fill(buffer, 0, $0.baseAddress, gsize(size)) }
        var offsets = [gsize](repeating: 0, count: 4)
        var strides = [gint](repeating: 0, count: 4)
        strides[0] = gint(stride)
        XCTAssertNotNil(gst_buffer_add_video_meta_full(buffer, GST_VIDEO_FRAME_FLAG_NONE, GST_VIDEO_FORMAT_BGRA,
                                                       guint(width), guint(height), 1, &offsets, &strides))
        buffer.pointee.pts = GstClockTime(frameTime(f))
        buffer.pointee.duration = GstClockTime(frameTime(1))
        XCTAssertEqual(gst_app_src_push_buffer(src.asAppSrc, buffer), GST_FLOW_OK)
    }
    gst_app_src_end_of_stream(src.asAppSrc)
    var frames: [CapturedFrame] = []
    let deadline = Date().addingTimeInterval(20)
    while Date() < deadline {
        if let error = pipeline.popError() { XCTFail("\(element): \(error)"); break }
        if let sample = gst_app_sink_try_pull_sample(sink.asAppSink, 50_000_000) {
            frames.append(try sample.capturedFrame())
            gst_sample_unref(sample)
            continue
        }
        if gst_app_sink_is_eos(sink.asAppSink) != 0 { break }
    }
    pipeline.setState(GST_STATE_NULL)
    return frames
}
