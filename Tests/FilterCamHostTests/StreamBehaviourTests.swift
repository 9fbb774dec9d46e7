import CFilterCamShim
import CGStreamer
@testable import FilterCamHost
@testable import FilterCamTool
import FilterCamTestSupport
import Foundation
import XCTest

/// Timing, dropping, seeks, tags and latency through the `filtercam` element.
final class StreamBehaviourTests: XCTestCase {
    override func setUp() {
        GStreamer.initialize()
    }

    // 6. Live source, slow downstream: upstream is not blocked, frames are dropped,
    // every frame is either processed or dropped, latency stays bounded and flat.
    func testLiveSourceWithSlowDownstreamDropsAndKeepsLatency() throws {
        var processed: UInt64?, dropped: UInt64?
        let started = Date()
        let frames = try collectFrames(
            "videotestsrc is-live=true num-buffers=60 ! video/x-raw,format=BGRA,width=64,height=48,framerate=30/1 ! filtercam name=fc filter=sepia ! identity sleep-time=100000",
            timeout: 20,
            afterEOS: { pipeline in
                if let fc = pipeline.element(named: "fc") {
                    processed = counter(fc, "frames-processed")
                    dropped = counter(fc, "frames-dropped")
                }
            })
        let elapsed = Date().timeIntervalSince(started)
        // 60 frames at 30 fps take 2 s; a blocked upstream would need 60 × 100 ms = 6 s.
        XCTAssertLessThan(elapsed, 4.0, "upstream looks blocked by the slow downstream")
        let p = try XCTUnwrap(processed), d = try XCTUnwrap(dropped)
        XCTAssertGreaterThan(d, 0, "a 10 fps consumer of a 30 fps live source must drop")
        XCTAssertEqual(p + d, 60, "processed (\(p)) + dropped (\(d)) must account for every source frame")
        XCTAssertEqual(UInt64(frames.count), p, "every processed frame reaches the sink")
        XCTAssertLessThan(frames.count, 40)

        var latencies: [Double] = []
        for (i, f) in frames.enumerated() {
            guard let arrival = f.arrivalRunningTime, let pts = f.ptsRunningTime else {
                XCTFail("frame \(i) without running time"); continue
            }
            latencies.append((Double(arrival) - Double(pts)) / 1e6)
        }
        XCTAssertFalse(latencies.isEmpty)
        print("live + slow downstream: processed=\(p) dropped=\(d) elapsed=\(String(format: "%.2f", elapsed)) s latency ms=\(latencies.map { Int($0) })")
        // Bounded: ~300 ms here (the slow identity's 100 ms, a frame in the appsrc, one on
        // its way); a queue that grew with the 20 frames a second it cannot take would hold
        // seconds by the end. 500 ms was exceeded by 38 ms once on a machine running four
        // other jobs, with the latency flat: the bound leaves room for that.
        for (i, l) in latencies.enumerated() {
            XCTAssertLessThan(l, 1000, "frame \(i) arrived \(Int(l)) ms after its PTS")
        }
        // Growth over the run: the first three frames find the pipeline empty (≈100, 167,
        // 234 ms as the slow identity, the appsrc queue and the blocked push fill up), so
        // the comparison starts at the fourth frame.
        if latencies.count >= 9 {
            let early = latencies[3..<6].reduce(0, +) / 3
            let last = latencies.suffix(3).reduce(0, +) / 3
            XCTAssertLessThanOrEqual(last - early, 150, "latency grows: early \(Int(early)) ms, last \(Int(last)) ms (all: \(latencies.map { Int($0) }))")
        } else {
            XCTFail("too few frames to judge latency growth: \(latencies.count)")
        }
        // PTS from a live source stay increasing after dropping.
        let pts = frames.compactMap(\.pts)
        XCTAssertEqual(pts, pts.sorted())
    }

    // 7. Non-live source with a slow downstream: nothing dropped, every PTS in order.
    func testNonLiveSourceLosesNothing() throws {
        var processed: UInt64?, dropped: UInt64?
        let frames = try collectFrames(
            "videotestsrc num-buffers=60 ! video/x-raw,format=BGRA,width=64,height=48,framerate=30/1 ! filtercam name=fc filter=sepia ! identity sleep-time=5000",
            timeout: 30,
            afterEOS: { pipeline in
                if let fc = pipeline.element(named: "fc") {
                    processed = counter(fc, "frames-processed")
                    dropped = counter(fc, "frames-dropped")
                }
            })
        XCTAssertEqual(processed, 60)
        XCTAssertEqual(dropped, 0)
        XCTAssertEqual(frames.count, 60)
        XCTAssertEqual(frames.map(\.pts), (0..<60).map { Optional(frameTime($0)) })
    }

    /// Frames held on their way out (a prerolled sink in PAUSED) are not dropped ones:
    /// `frames-dropped` read 1 there (pushed, not yet out, no longer in the appsrc's queue),
    /// and went down again once they left.
    func testFramesOnTheirWayOutAreNotCountedAsDropped() throws {
        let pipeline = try Pipeline(description:
            "videotestsrc ! video/x-raw,format=I420,width=320,height=240,framerate=30/1 ! filtercam name=fc ! fakesink sync=true")
        let fc = try pipeline.requireElement("fc")
        pipeline.setState(GST_STATE_PAUSED)
        defer { pipeline.setState(GST_STATE_NULL) }
        XCTAssertEqual(waitForState(pipeline), GST_STATE_PAUSED)
        XCTAssertEqual(counter(fc, "frames-processed"), 1, "the prerolled frame")
        XCTAssertEqual(counter(fc, "frames-dropped"), 0)
    }

    // 13. A flushing seek from downstream crosses the element.
    func testFlushingSeekCrossesElement() throws {
        // Reference first: the same pipeline without filtercam must pass the same checks.
        let reference = try seekAndCollect(element: "")
        XCTAssertEqual(reference.first, 2 * second, "reference pipeline: first frame after the seek")
        let through = try seekAndCollect(element: "filtercam filter=sepia !")
        XCTAssertEqual(through.count, 5)
        for p in through { XCTAssertGreaterThanOrEqual(p, 2 * second, "frame after the seek has PTS \(p) (all: \(through))") }
        XCTAssertEqual(through, through.sorted())
        XCTAssertEqual(through.first, 2 * second, "the first frame after the seek starts at the seek position")
    }

    /// Frames a flushing seek throws away (waiting in the element for a syncing sink) came
    /// late to no one: they were counted in `frames-dropped`, about 2 a seek, with no QoS
    /// message, so a player's seeks read as a slow filter.
    func testFramesAFlushingSeekThrowsAwayAreNotDropped() throws {
        let pipeline = try Pipeline(description:
            "videotestsrc ! video/x-raw,format=I420,width=32,height=24,framerate=30/1 ! filtercam name=fc ! fakesink sync=true")
        let fc = try pipeline.requireElement("fc")
        XCTAssertNotEqual(pipeline.setState(GST_STATE_PLAYING), GST_STATE_CHANGE_FAILURE)
        defer { pipeline.setState(GST_STATE_NULL) }
        XCTAssertEqual(waitForState(pipeline), GST_STATE_PLAYING)
        let flags = GstSeekFlags(rawValue: GST_SEEK_FLAG_FLUSH.rawValue | GST_SEEK_FLAG_KEY_UNIT.rawValue)
        for seek in 0..<3 {
            // Frames on their way to the sink, the element's queue full behind them.
            XCTAssertTrue(waitForBuffers(leaving: fc, count: 6), "seek \(seek): no frames")
            XCTAssertNotEqual(gst_element_seek_simple(pipeline.element, GST_FORMAT_TIME, flags, 0), 0)
        }
        XCTAssertTrue(waitForBuffers(leaving: fc, count: 3))
        XCTAssertNil(pipeline.popError())
        XCTAssertEqual(counter(fc, "frames-dropped"), 0)
    }

    /// Pulls 3 frames, seeks (flush, key unit) to 2 s, returns the PTS of the next 5 frames.
    private func seekAndCollect(element: String) throws -> [UInt64] {
        let pipeline = try Pipeline(description:
            "videotestsrc ! video/x-raw,format=BGRA,width=32,height=24,framerate=30/1 ! \(element) appsink name=out sync=false max-buffers=2")
        let sink = try pipeline.requireElement("out")
        XCTAssertNotEqual(pipeline.setState(GST_STATE_PLAYING), GST_STATE_CHANGE_FAILURE)
        defer { pipeline.setState(GST_STATE_NULL) }

        func pull() throws -> CapturedFrame? {
            guard let sample = gst_app_sink_try_pull_sample(sink.asAppSink, 5_000_000_000) else { return nil }
            defer { gst_sample_unref(sample) }
            return try sample.capturedFrame()
        }
        for i in 0..<3 {
            let f = try XCTUnwrap(try pull(), "no frame \(i) before the seek")
            XCTAssertLessThan(f.pts ?? .max, 2 * second)
        }
        XCTAssertEqual(waitForState(pipeline), GST_STATE_PLAYING)
        let flags = GstSeekFlags(rawValue: GST_SEEK_FLAG_FLUSH.rawValue | GST_SEEK_FLAG_KEY_UNIT.rawValue)
        XCTAssertNotEqual(gst_element_seek_simple(pipeline.element, GST_FORMAT_TIME, flags, gint64(2 * second)), 0,
                          "the seek was refused (\(element))")
        var after: [UInt64] = []
        for i in 0..<5 {
            guard let f = try pull() else { XCTFail("no frame \(i) after the seek (hang?) (\(element))"); break }
            after.append(f.pts ?? 0)
        }
        XCTAssertNil(pipeline.popError())
        return after
    }

    // 14. Tags cross the element (serialized, before EOS).
    func testTagsCrossElement() throws {
        let pipeline = try Pipeline(description:
            "videotestsrc num-buffers=3 ! taginject tags=\"title=hello\" ! filtercam filter=sepia ! fakesink name=sink")
        XCTAssertNotEqual(pipeline.setState(GST_STATE_PLAYING), GST_STATE_CHANGE_FAILURE)
        defer { pipeline.setState(GST_STATE_NULL) }
        var titleAtSink: String?
        var sawEOS = false
        let deadline = Date().addingTimeInterval(10)
        let types = GstMessageType(rawValue: GST_MESSAGE_TAG.rawValue | GST_MESSAGE_EOS.rawValue | GST_MESSAGE_ERROR.rawValue)
        while Date() < deadline, !sawEOS {
            guard let m = gst_bus_timed_pop_filtered(pipeline.bus, 100_000_000, types) else { continue }
            defer { gst_message_unref(m) }
            switch m.pointee.type {
            case GST_MESSAGE_EOS: sawEOS = true
            case GST_MESSAGE_ERROR: XCTFail("pipeline error"); sawEOS = true
            case GST_MESSAGE_TAG:
                let source = m.pointee.src.map { src -> String in
                    let n = gst_object_get_name(src)!
                    defer { g_free(n) }
                    return String(cString: n)
                }
                var list: UnsafeMutablePointer<GstTagList>?
                gst_message_parse_tag(m, &list)
                if let list {
                    var value: UnsafeMutablePointer<gchar>?
                    if source == "sink", gst_tag_list_get_string(list, "title", &value) != 0, let value {
                        titleAtSink = String(cString: value)
                        g_free(value)
                    }
                    gst_tag_list_unref(list)
                }
            default: break
            }
        }
        XCTAssertTrue(sawEOS, "no EOS within 10 s")
        XCTAssertEqual(titleAtSink, "hello", "the title tag did not reach the fakesink before EOS")
    }

    /// Event types (and "buffer") in the order they reach the sink pad of `sinkName`.
    private func eventOrder(_ description: String, sinkName: String = "sink") throws -> [String] {
        final class Log: @unchecked Sendable { let lock = NSLock(); var items: [String] = [] }
        let log = Log()
        let pipeline = try Pipeline(description: description)
        let sink = try pipeline.requireElement(sinkName)
        let pad = try XCTUnwrap(gst_element_get_static_pad(sink, "sink"))
        defer { gst_object_unref(UnsafeMutableRawPointer(pad)) }
        let mask = GstPadProbeType(rawValue: GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM.rawValue | GST_PAD_PROBE_TYPE_BUFFER.rawValue)
        gst_pad_add_probe(pad, mask, { _, info, data in
            let log = Unmanaged<Log>.fromOpaque(data!).takeUnretainedValue()
            var name = "buffer"
            if info!.pointee.type.rawValue & GST_PAD_PROBE_TYPE_BUFFER.rawValue == 0, let event = fc_probe_info_event(info) {
                name = String(cString: gst_event_type_get_name(event.pointee.type))
            }
            log.lock.lock(); log.items.append(name); log.lock.unlock()
            return GST_PAD_PROBE_OK
        }, Unmanaged.passUnretained(log).toOpaque(), nil)
        XCTAssertNotEqual(pipeline.setState(GST_STATE_PLAYING), GST_STATE_CHANGE_FAILURE)
        defer { pipeline.setState(GST_STATE_NULL) }
        let m = gst_bus_timed_pop_filtered(pipeline.bus, 10_000_000_000,
                                           GstMessageType(rawValue: GST_MESSAGE_EOS.rawValue | GST_MESSAGE_ERROR.rawValue))
        XCTAssertEqual(m?.pointee.type, GST_MESSAGE_EOS, "no EOS from '\(description)'")
        if let m { gst_message_unref(m) }
        log.lock.lock(); defer { log.lock.unlock() }
        return log.items
    }

    // 14b. Sticky events keep GStreamer's order (stream-start, caps, segment) with a tag
    // arriving before the first frame, as they do without filtercam.
    func testEventOrderMatchesPipelineWithoutFilterCam() throws {
        let head = "videotestsrc num-buffers=3 ! video/x-raw,format=BGRA,width=32,height=24,framerate=30/1 ! taginject tags=\"title=hello\""
        let reference = try eventOrder("\(head) ! fakesink name=sink")
        let through = try eventOrder("\(head) ! filtercam filter=sepia ! fakesink name=sink")
        XCTAssertEqual(reference.filter { $0 == "buffer" }.count, 3)
        XCTAssertEqual(reference.prefix(3), ["stream-start", "caps", "segment"], "reference order")
        func firstIndex(_ list: [String], _ name: String) -> Int { list.firstIndex(of: name) ?? Int.max }
        let capsBeforeSegment = firstIndex(through, "caps") < firstIndex(through, "segment")
        XCTAssertTrue(capsBeforeSegment, "caps must precede segment: \(through)")
        XCTAssertEqual(through.filter { $0 == "buffer" }.count, 3, "\(through)")
        XCTAssertEqual(through.filter { $0 != "buffer" }, reference.filter { $0 != "buffer" }, "events through filtercam differ from the reference")
        XCTAssertLessThan(firstIndex(through, "tag"), through.lastIndex(of: "buffer") ?? 0, "the tag stays ahead of the last frame")
    }

    /// A filter is a plain element with its own two pads, not a bin: its inner appsink and
    /// appsrc are private, so GStreamer's tracers (latency) see through it as through
    /// identity (their records: `TracerTests` in the conformance suite).
    func testFilterIsAPlainElementWithItsOwnPads() throws {
        for description in ["filtercam name=fc", "fcsepia name=fc"] {
            let pipeline = try Pipeline(description: "videotestsrc num-buffers=1 ! \(description) ! fakesink")
            let fc = try pipeline.requireElement("fc")
            XCTAssertEqual(g_type_check_instance_is_a(UnsafeMutableRawPointer(fc).assumingMemoryBound(to: GTypeInstance.self),
                                                      gst_bin_get_type()), 0, "\(description) is not a bin")
            XCTAssertEqual(fc.pointee.numsinkpads, 1)
            XCTAssertEqual(fc.pointee.numsrcpads, 1)
            for name in ["sink", "src"] {
                let pad = try XCTUnwrap(gst_element_get_static_pad(fc, name))
                defer { gst_object_unref(pad) }
                XCTAssertEqual(g_type_check_instance_is_a(UnsafeMutableRawPointer(pad).assumingMemoryBound(to: GTypeInstance.self),
                                                          gst_ghost_pad_get_type()), 0, "\(name) is the element's own pad")
                XCTAssertEqual(UnsafeMutableRawPointer(pad.pointee.object.parent), UnsafeMutableRawPointer(fc))
            }
            XCTAssertEqual(pipeline.setState(GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE, false)
            XCTAssertEqual(waitForState(pipeline), GST_STATE_PLAYING)
            pipeline.setState(GST_STATE_NULL)
        }
    }

    // 15. A live pipeline with filtercam reports at least the latency of the one without.
    func testLatencyQueryIncludesFilterCam() throws {
        func latency(_ description: String) throws -> (live: Bool, min: UInt64) {
            let pipeline = try Pipeline(description: description)
            XCTAssertNotEqual(pipeline.setState(GST_STATE_PLAYING), GST_STATE_CHANGE_FAILURE)
            defer { pipeline.setState(GST_STATE_NULL) }
            XCTAssertEqual(waitForState(pipeline), GST_STATE_PLAYING)
            // Frames flow through to the sink, so liveness is known.
            XCTAssertTrue(waitForBuffers(leaving: try pipeline.requireElement("last"), count: 5))
            let query = gst_query_new_latency()!
            defer { gst_query_unref(query) }
            guard gst_element_query(pipeline.element, query) != 0 else {
                throw PipelineFailure(description: "latency query failed for '\(description)'")
            }
            var live: gboolean = 0
            var minLatency: GstClockTime = 0, maxLatency: GstClockTime = 0
            gst_query_parse_latency(query, &live, &minLatency, &maxLatency)
            return (live != 0, UInt64(minLatency))
        }
        let src = "videotestsrc is-live=true ! video/x-raw,format=BGRA,width=64,height=48,framerate=30/1"
        // sync=true: a sink that does not sync answers the query as not live, without latency.
        let without = try latency("\(src) ! identity name=last ! fakesink sync=true")
        let with = try latency("\(src) ! filtercam filter=sepia ! identity name=last ! fakesink sync=true")
        XCTAssertTrue(without.live); XCTAssertTrue(with.live)
        XCTAssertGreaterThan(without.min, 0, "reference: a live videotestsrc has latency")
        XCTAssertGreaterThanOrEqual(with.min, without.min)
        // The worker adds time (FrameWorker answers upstream's latency plus its own).
        XCTAssertGreaterThan(with.min, without.min, "filtercam reports no latency of its own")
    }
}
