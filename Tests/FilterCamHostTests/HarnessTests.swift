import CFilterCamShim
import CGStreamer
import FilterCamHost
import Foundation
import XCTest

/// The elements alone in a GstHarness, as GStreamer's own element tests check theirs
/// (tests/check/elements/videoflip.c): the events downstream sees and their order, a flush,
/// and properties changed from another thread while 1000 buffers flow.
///
/// The elements hand each frame to their own worker thread, so output comes some time after
/// the push: `gst_harness_pull` waits for it (up to the harness's 60 s timeout).
final class HarnessTests: XCTestCase {
    /// 16×8: not square, so a turned picture's caps (8×16) differ from the input's.
    private let width = 16, height = 8

    /// What reached the harness's sink pad, in order: event type names and "buffer WxH size".
    private final class Downstream: @unchecked Sendable {
        private let lock = NSLock()
        private var items: [String] = []
        private var bufferCaps: [(width: Int, height: Int, expectedSize: Int, size: Int)] = []

        func add(_ item: String) { lock.lock(); items.append(item); lock.unlock() }
        func addBuffer(width: Int, height: Int, expectedSize: Int, size: Int) {
            lock.lock()
            items.append("buffer")
            bufferCaps.append((width, height, expectedSize, size))
            lock.unlock()
        }
        var sequence: [String] { lock.lock(); defer { lock.unlock() }; return items }
        var buffers: [(width: Int, height: Int, expectedSize: Int, size: Int)] {
            lock.lock(); defer { lock.unlock() }; return bufferCaps
        }
    }

    override func setUp() {
        GStreamer.initialize()
    }

    /// A harness around `factory` (not live, so a busy worker never drops a frame) whose
    /// sink pad records everything that reaches it.
    private func harness(_ factory: String, format: String) throws -> (UnsafeMutablePointer<GstHarness>, Downstream) {
        let h = try XCTUnwrap(gst_harness_new(factory), "no element \(factory)")
        gst_harness_set_live(h, 0)
        let downstream = Downstream()
        let context = Unmanaged.passRetained(downstream).toOpaque()
        // FLUSH_START/STOP are not EVENT_DOWNSTREAM probes: they need EVENT_FLUSH.
        let types = GstPadProbeType(rawValue: GST_PAD_PROBE_TYPE_BUFFER.rawValue | GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM.rawValue
                                              | GST_PAD_PROBE_TYPE_EVENT_FLUSH.rawValue)
        gst_pad_add_probe(h.pointee.sinkpad, types, { pad, info, context in
            let downstream = Unmanaged<Downstream>.fromOpaque(context!).takeUnretainedValue()
            let data = info!.pointee.data
            if info!.pointee.type.rawValue & GST_PAD_PROBE_TYPE_BUFFER.rawValue != 0 {
                let buffer = data!.assumingMemoryBound(to: GstBuffer.self)
                // The caps this buffer travels under: the last CAPS event before it.
                var videoInfo = GstVideoInfo()
                if let caps = gst_pad_get_current_caps(pad) {
                    _ = gst_video_info_from_caps(&videoInfo, caps)
                    gst_caps_unref(caps)
                }
                downstream.addBuffer(width: Int(videoInfo.width), height: Int(videoInfo.height),
                                     expectedSize: Int(videoInfo.size), size: Int(gst_buffer_get_size(buffer)))
            } else {
                let event = data!.assumingMemoryBound(to: GstEvent.self)
                downstream.add(String(cString: gst_event_type_get_name(event.pointee.type)))
            }
            return GST_PAD_PROBE_OK
        }, context, { context in Unmanaged<Downstream>.fromOpaque(context!).release() })
        gst_harness_set_src_caps_str(h, "video/x-raw,format=\(format),width=\(width),height=\(height),framerate=30/1")
        return (h, downstream)
    }

    /// A frame of the harness's input caps, timestamped as frame `i` at 30 fps.
    private func frame(_ h: UnsafeMutablePointer<GstHarness>, _ i: Int) -> UnsafeMutablePointer<GstBuffer> {
        var info = GstVideoInfo()
        let caps = gst_pad_get_current_caps(h.pointee.srcpad)!
        _ = gst_video_info_from_caps(&info, caps)
        gst_caps_unref(caps)
        let buffer = gst_harness_create_buffer(h, gsize(info.size))!
        _ = gst_buffer_memset(buffer, 0, UInt8(truncatingIfNeeded: 40 + i), gsize(info.size))
        buffer.pointee.pts = GstClockTime(i) * 1_000_000_000 / 30
        buffer.pointee.duration = 1_000_000_000 / 30
        return buffer
    }

    /// Pushes frame `i` and waits for what comes out for it.
    private func pushAndPull(_ h: UnsafeMutablePointer<GstHarness>, _ i: Int, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(gst_harness_push(h, frame(h, i)), GST_FLOW_OK, "push \(i)", file: file, line: line)
        guard let out = gst_harness_pull(h) else { return XCTFail("no output for frame \(i)", file: file, line: line) }
        gst_buffer_unref(out)
    }

    private func names(_ events: [GstEventType]) -> [String] {
        events.map { String(cString: gst_event_type_get_name($0)) }
    }

    // MARK: Event order

    private func checkEventOrder(_ factory: String, format: String) throws {
        let (h, downstream) = try harness(factory, format: format)
        defer { gst_harness_teardown(h) }
        for i in 0..<3 { pushAndPull(h, i) }
        XCTAssertEqual(downstream.sequence,
                       names([GST_EVENT_STREAM_START, GST_EVENT_CAPS, GST_EVENT_SEGMENT]) + ["buffer", "buffer", "buffer"],
                       factory)
        for b in downstream.buffers {
            XCTAssertEqual([b.width, b.height], [width, height], factory)
            XCTAssertEqual(b.size, b.expectedSize, factory)
        }
    }

    func testFiltercamSendsStreamStartCapsSegmentBeforeTheFirstBuffer() throws {
        try checkEventOrder("filtercam", format: "BGRx")
    }

    func testFcsepiaSendsStreamStartCapsSegmentBeforeTheFirstBuffer() throws {
        try checkEventOrder("fcsepia", format: "I420")
    }

    // MARK: Flush

    private func checkFlush(_ factory: String, format: String) throws {
        let (h, downstream) = try harness(factory, format: format)
        defer { gst_harness_teardown(h) }
        for i in 0..<3 { pushAndPull(h, i) }
        XCTAssertEqual(gst_harness_push_event(h, gst_event_new_flush_start()), 1)
        XCTAssertEqual(gst_harness_push_event(h, gst_event_new_flush_stop(1)), 1)
        // FLUSH_STOP clears the sticky SEGMENT on both sides: upstream sends a new one.
        var segment = GstSegment()
        gst_segment_init(&segment, GST_FORMAT_TIME)
        XCTAssertEqual(gst_harness_push_event(h, gst_event_new_segment(&segment)), 1)
        for i in 0..<3 { pushAndPull(h, i) }
        let sequence = downstream.sequence
        let flushStart = String(cString: gst_event_type_get_name(GST_EVENT_FLUSH_START))
        let flushStop = String(cString: gst_event_type_get_name(GST_EVENT_FLUSH_STOP))
        let segmentName = String(cString: gst_event_type_get_name(GST_EVENT_SEGMENT))
        let stopIndex = try XCTUnwrap(sequence.firstIndex(of: flushStop), "\(factory): no flush-stop in \(sequence)")
        XCTAssertEqual(sequence.filter { $0 == flushStart }.count, 1, "\(factory): \(sequence)")
        XCTAssertLessThan(try XCTUnwrap(sequence.firstIndex(of: flushStart)), stopIndex, "\(factory): \(sequence)")
        // After the flush: a fresh SEGMENT, then the three buffers (CAPS may be re-sent).
        let after = sequence[(stopIndex + 1)...].filter { $0 != String(cString: gst_event_type_get_name(GST_EVENT_CAPS)) }
        XCTAssertEqual(Array(after), [segmentName, "buffer", "buffer", "buffer"], "\(factory): \(sequence)")
        XCTAssertEqual(sequence.filter { $0 == "buffer" }.count, 6, "\(factory): \(sequence)")
    }

    func testFiltercamFlushThenMoreBuffersComeOutAfterAFreshSegment() throws {
        try checkFlush("filtercam", format: "BGRx")
    }

    func testFcsepiaFlushThenMoreBuffersComeOutAfterAFreshSegment() throws {
        try checkFlush("fcsepia", format: "I420")
    }

    // MARK: Properties from another thread (videoflip's test_stress_change_method)

    /// One thread pushes 1000 frames, waiting for each one's output, while another sets the
    /// given properties in turn, as fast as it can, until the pushing is done. Every buffer
    /// must come out under caps that fit it.
    private func stress(_ factory: String, format: String, settings: [(String, String)],
                        sizes: Set<[Int]>) throws {
        let (h, downstream) = try harness(factory, format: format)
        defer { gst_harness_teardown(h) }
        let element = UInt(bitPattern: h.pointee.element!)   // a number: the setter thread's closure is @Sendable
        let done = Atomic(false)
        let setterFinished = DispatchSemaphore(value: 0)
        let setter = Thread {
            var n = 0
            while !done.value {
                let (name, value) = settings[n % settings.count]
                gst_util_set_object_arg(UnsafeMutablePointer<GObject>(bitPattern: element), name, value)
                n += 1
                sched_yield()
            }
            setterFinished.signal()
        }
        setter.start()
        for i in 0..<1000 { pushAndPull(h, i) }
        done.value = true
        setterFinished.wait()
        let buffers = downstream.buffers
        XCTAssertEqual(buffers.count, 1000, factory)
        for (i, b) in buffers.enumerated() {
            XCTAssertTrue(sizes.contains([b.width, b.height]), "\(factory) buffer \(i): caps \(b.width)×\(b.height)")
            XCTAssertEqual(b.size, b.expectedSize, "\(factory) buffer \(i): \(b.size) bytes under \(b.width)×\(b.height) caps")
        }
        XCTAssertEqual(Set(buffers.map { [$0.width, $0.height] }).count, sizes.count,
                       "\(factory): the turned and the upright size should both have come out")
    }

    func testFiltercamOrientationAndFilterFromAnotherThreadWhile1000BGRxBuffersFlow() throws {
        try stress("filtercam", format: "BGRx",
                   settings: [("orientation", "90r"), ("filter", "invert"), ("orientation", "identity"), ("filter", "sepia")],
                   sizes: [[width, height], [height, width]])
    }

    func testFiltercamOrientationAndFilterFromAnotherThreadWhile1000I420BuffersFlow() throws {
        try stress("filtercam", format: "I420",
                   settings: [("orientation", "90l"), ("filter", "sepia"), ("orientation", "identity"), ("filter", "invert")],
                   sizes: [[width, height], [height, width]])
    }

    func testFcsepiaIntensityFromAnotherThreadWhile1000BuffersFlow() throws {
        // fcsepia has no orientation or filter: its one parameter changes instead.
        try stress("fcsepia", format: "I420", settings: [("intensity", "0.2"), ("intensity", "0.9")],
                   sizes: [[width, height]])
    }
}

/// A flag two threads share.
private final class Atomic: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Bool
    init(_ value: Bool) { stored = value }
    var value: Bool {
        get { lock.lock(); defer { lock.unlock() }; return stored }
        set { lock.lock(); stored = newValue; lock.unlock() }
    }
}
