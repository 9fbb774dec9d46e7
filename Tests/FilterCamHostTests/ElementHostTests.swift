import CFilterCamShim
import CGStreamer
@testable import FilterCamHost
@testable import FilterCamTool
import FilterCamTestSupport
import FilterCore
import Foundation
import XCTest

/// The one skeleton every element has (`ElementHost`), under each kind of element:
/// `filtercam`, a single-filter element and `filtercamsrc`. A value not of a property's
/// kind is refused by name like any other bad value, and the parts start, unlock and stop
/// with the element, in their slots' order.
final class ElementHostTests: XCTestCase {
    override class func setUp() { GStreamer.initialize() }

    /// Each kind of element with one of its number properties.
    private let kinds: [(description: String, property: String)] = [
        ("filtercam", "zoom"), ("fcsepia", "intensity"), ("filtercamsrc camera=test:ball", "focus-position"),
    ]

    private func host(_ element: UnsafeMutablePointer<GstElement>) throws -> ElementHost {
        try XCTUnwrap(ElementHost.of(element), "no FilterCam element")
    }

    private func index(_ host: ElementHost, _ name: String) throws -> Int {
        try XCTUnwrap(host.elementClass.properties.firstIndex { $0.name == name }, "no property \(name)")
    }

    // MARK: A value of another kind

    /// GObject converts or refuses a GValue of another type before the element sees it; the
    /// host is where a value enters Swift, and it checks the kind again: a part never gets a
    /// value it has no case for (such a value used to be dropped in silence).
    func testAValueOfAnotherKindIsRefusedByNameAndStopsTheStart() throws {
        for (description, property) in kinds {
            let pipeline = try Pipeline(description: "\(description) name=e ! fakesink")
            let e = try pipeline.requireElement("e"), h = try host(e)
            let before = Pipeline.property(e, property)
            h.set(try index(h, property), .string("abc"))
            XCTAssertEqual(Pipeline.property(e, property), before, "\(description): the previous value stays")
            XCTAssertEqual(pipeline.setState(GST_STATE_PAUSED), GST_STATE_CHANGE_FAILURE, "\(description) must not start")
            let error = try XCTUnwrap(pipeline.popError(), "\(description): an ERROR on the bus")
            let kind = h.elementClass.properties[try index(h, property)].kind.typeDescription
            XCTAssertTrue(error.hasPrefix("e: invalid \(property) 'abc': expected \(kind)"), error)
            XCTAssertTrue(kind.contains("number"), kind)
            XCTAssertTrue(error.hasSuffix("not the text 'abc'"), error)
            // Started again with nothing changed: refused again (it started with the old
            // value, without a word); a good value then lets it start.
            XCTAssertEqual(pipeline.setState(GST_STATE_PAUSED), GST_STATE_CHANGE_FAILURE, "\(description): a second start")
            XCTAssertNotNil(pipeline.popError(), "\(description): the ERROR again")
            // NULL is always reached, without a word (NULL -> NULL failed and said it again).
            XCTAssertEqual(pipeline.setState(GST_STATE_NULL), GST_STATE_CHANGE_SUCCESS, "\(description): back to NULL")
            XCTAssertEqual(gst_element_set_state(e, GST_STATE_NULL), GST_STATE_CHANGE_SUCCESS, "\(description): the element to NULL")
            XCTAssertNil(pipeline.popError(), "\(description): no ERROR on the way down")
            h.set(try index(h, property), h.elementClass.properties[try index(h, property)].defaultValue)
            XCTAssertNotEqual(pipeline.setState(GST_STATE_PAUSED), GST_STATE_CHANGE_FAILURE, "\(description): \(pipeline.popError() ?? "")")
            pipeline.setState(GST_STATE_NULL)
            // Refused in READY: it stops the start from READY (the stream ran with the old
            // value, without a word, and the next start from NULL failed).
            XCTAssertEqual(pipeline.setState(GST_STATE_READY), GST_STATE_CHANGE_SUCCESS)
            h.set(try index(h, property), .string("abc"))
            XCTAssertEqual(pipeline.setState(GST_STATE_PAUSED), GST_STATE_CHANGE_FAILURE, "\(description): refused in READY")
            XCTAssertNotNil(pipeline.popError(), "\(description): the ERROR")
            pipeline.setState(GST_STATE_NULL)
        }
    }

    /// Before the start, a later value of the same property replaces a refused one (the
    /// element starts), and a refused value that is still refused after later properties
    /// stops the start; every refusal kept is said.
    func testARefusedValueIsReplacedByALaterOneAndTheOthersAreAllSaid() throws {
        let replaced = try Pipeline(description: "filtercam name=e filter=sepiaa filter=mono ! fakesink")
        XCTAssertNotEqual(replaced.setState(GST_STATE_PAUSED), GST_STATE_CHANGE_FAILURE, replaced.popError() ?? "")
        XCTAssertEqual(Pipeline.property(try replaced.requireElement("e"), "filter"), "mono")
        replaced.setState(GST_STATE_NULL)

        let twice = try Pipeline(description: "filtercam name=e filter=sepiaa lens=2,2,2,2 zoom=2 ! fakesink")
        var warnings: BusLog? = BusLog(twice)
        XCTAssertEqual(twice.setState(GST_STATE_PAUSED), GST_STATE_CHANGE_FAILURE)
        let error = try XCTUnwrap(twice.popError())
        XCTAssertTrue(error.hasPrefix("e: invalid filter 'sepiaa'"), error)
        XCTAssertTrue(warnings?.warnings.contains { $0.hasPrefix("e: invalid lens '2,2,2,2'") } ?? false, "\(warnings?.warnings ?? [])")
        XCTAssertEqual(Pipeline.property(try twice.requireElement("e"), "zoom"), "2")
        twice.setState(GST_STATE_NULL)
        warnings = nil
    }

    func testAValueOfAnotherKindWhilePlayingIsAWarningAndTheStreamRunsOn() throws {
        let running = [("videotestsrc is-live=true ! video/x-raw,width=32,height=24 ! filtercam name=e", "zoom"),
                       ("videotestsrc is-live=true ! video/x-raw,width=32,height=24 ! fcsepia name=e", "intensity"),
                       ("filtercamsrc name=e camera=test:ball", "focus-position")]
        for (description, property) in running {
            let pipeline = try Pipeline(description: "\(description) ! fakesink")
            let e = try pipeline.requireElement("e"), h = try host(e)
            XCTAssertNotEqual(pipeline.setState(GST_STATE_PLAYING), GST_STATE_CHANGE_FAILURE)
            XCTAssertEqual(waitForState(pipeline), GST_STATE_PLAYING, description)
            let before = Pipeline.property(e, property)
            h.set(try index(h, property), .bool(true))
            let warning = try XCTUnwrap(text(of: GST_MESSAGE_WARNING, on: pipeline), "\(description): a WARNING on the bus")
            XCTAssertEqual(warning, "e: invalid \(property) 'true': expected \(h.elementClass.properties[try index(h, property)].kind.typeDescription), not the boolean true")
            XCTAssertEqual(Pipeline.property(e, property), before, "\(description): the previous value stays")
            XCTAssertNil(pipeline.popError(), "\(description): the stream runs on")
            pipeline.setState(GST_STATE_NULL)
        }
    }

    /// Through GObject's own calls a value of another type never reaches the element: GLib
    /// refuses a GValue it cannot convert (naming the property and both types), text that
    /// does not parse is not set, and `filtercam`'s own setter says why.
    func testGObjectRefusesAValueOfAnotherTypeAndTheOldValueStays() throws {
        for (description, property) in kinds {
            let pipeline = try Pipeline(description: "\(description) name=e ! fakesink")
            let e = try pipeline.requireElement("e")
            let before = Pipeline.property(e, property)
            var text = GValue()
            g_value_init(&text, fc_type_string())
            g_value_set_string(&text, "abc")
            let warnings = GLibWarnings.collect { g_object_set_property(e.asGObject, property, &text) }
            g_value_unset(&text)
            XCTAssertTrue(warnings.contains { $0.contains("'\(property)'") && $0.contains("gchararray") }, "\(warnings)")
            XCTAssertEqual(Pipeline.property(e, property), before)
            gst_util_set_object_arg(e.asGObject, property, "abc")
            XCTAssertEqual(Pipeline.property(e, property), before)
            XCTAssertThrowsError(try Pipeline.setProperty(e, property, "abc")) { error in
                XCTAssertTrue("\(error)".contains("'abc' for e.\(property)"), "\(error)")
            }
            XCTAssertEqual(Pipeline.property(e, property), before)
            XCTAssertNotEqual(pipeline.setState(GST_STATE_PAUSED), GST_STATE_CHANGE_FAILURE, "\(description): nothing was kept to refuse")
            pipeline.setState(GST_STATE_NULL)
        }
    }

    // MARK: Parts

    /// The host's order, seen by an element of two parts that log what reaches them.
    func testPartsStartBeforeTheElementAndStopAfterItInTheirOrder() throws {
        XCTAssertTrue(SpyElement.registered)
        SpyElement.log.withLock { $0 = [] }
        let e = try XCTUnwrap(gst_element_factory_make(SpyElement.factory, "spy"))
        gst_object_ref_sink(UnsafeMutableRawPointer(e))
        defer { gst_object_unref(UnsafeMutableRawPointer(e)) }
        for state in [GST_STATE_PAUSED, GST_STATE_READY, GST_STATE_NULL] {
            XCTAssertNotEqual(gst_element_set_state(e, state), GST_STATE_CHANGE_FAILURE)
        }
        XCTAssertEqual(SpyElement.log.withLock { $0 }, [
            "element before NULL→READY", "element after NULL→READY",
            "a start", "b start", "element before READY→PAUSED", "element after READY→PAUSED",
            "a unlock", "b unlock", "element before PAUSED→READY", "element after PAUSED→READY", "a stop", "b stop",
            "element before READY→NULL", "element after READY→NULL",
        ])
        // Each property reaches its own part; a value its part refuses keeps the old one.
        gst_util_set_object_arg(e.asGObject, "b-level", "0.25")
        XCTAssertEqual(Pipeline.property(e, "b-level"), "0.25")
        XCTAssertEqual(Pipeline.property(e, "a-level"), "0")
        gst_util_set_object_arg(e.asGObject, "a-level", "0.75")   // part a takes no value above 0.5
        XCTAssertEqual(Pipeline.property(e, "a-level"), "0")
    }

    func testEveryKindOfElementIsHostedWithItsPartsInOrder() throws {
        let expected: [(String, [String])] = [
            ("filtercam", ["FilterCamElement", "FrameWorker", "SnapshotBranch", "RecordingBranch", "FaceDetection"]),
            ("fcsepia", ["SingleFilterElement", "FrameWorker"]),
            ("filtercamsrc", ["CameraSourceElement"]),
        ]
        for (factory, parts) in expected {
            let e = try XCTUnwrap(gst_element_factory_make(factory, nil))
            gst_object_ref_sink(UnsafeMutableRawPointer(e))
            defer { gst_object_unref(UnsafeMutableRawPointer(e)) }
            let h = try host(e)
            XCTAssertEqual(h.parts.map { String(describing: type(of: $0)) }, parts, factory)
            // Every property's part gives a value of the declared kind.
            for i in h.elementClass.properties.indices {
                let (slot, p) = h.elementClass.owner(of: i)
                let value = h.parts[slot].get(p.name)
                XCTAssertTrue(p.kind.accepts(value), "\(factory).\(p.name) reads \(value)")
            }
        }
    }

    /// The worker's counters are reset by its `start`, which only the host calls.
    func testStartReachesTheFrameWorkerOfFiltercamAndOfASingleFilterElement() throws {
        for factory in ["filtercam", "fcsepia"] {
            let pipeline = try Pipeline(description: "videotestsrc num-buffers=5 ! video/x-raw,format=I420,width=32,height=24 ! \(factory) name=e ! fakesink")
            let e = try pipeline.requireElement("e")
            pipeline.setState(GST_STATE_PLAYING)
            XCTAssertNil(text(of: GST_MESSAGE_ERROR, on: pipeline, orEndOfStream: true), factory)
            XCTAssertEqual(Pipeline.property(e, "frames-processed"), "5", factory)
            pipeline.setState(GST_STATE_READY)
            XCTAssertEqual(Pipeline.property(e, "frames-processed"), "5", "\(factory): stopping keeps the count")
            // The element alone starts again (upstream stays in READY: no frame comes).
            XCTAssertNotEqual(gst_element_set_state(e, GST_STATE_PAUSED), GST_STATE_CHANGE_FAILURE)
            XCTAssertEqual(Pipeline.property(e, "frames-processed"), "0", "\(factory): a new run counts from 0")
            pipeline.setState(GST_STATE_NULL)
        }
    }

    /// The camera source's fallback thread runs from its part's `start` to its `stop`: after
    /// a stop and a new start, a camera that fails is still replaced by the test picture.
    func testStartReachesTheCameraSourceAfterARestart() throws {
        let path = "/dev/video-filtercam-host-test"
        CameraSourceElement.simulatedCameras[path] =
            "videotestsrc name=camera is-live=true pattern=black ! capsfilter caps=\"video/x-raw,width=64,height=48,framerate=30/1\""
        defer { CameraSourceElement.simulatedCameras[path] = nil }
        let pipeline = try Pipeline(description: "filtercamsrc name=cam camera=\(path) preset=640x480 ! video/x-raw,format=BGRx ! appsink name=out sync=false max-buffers=2 drop=true")
        let cam = try pipeline.requireElement("cam"), sink = try pipeline.requireElement("out")
        for state in [GST_STATE_PLAYING, GST_STATE_READY, GST_STATE_PLAYING] { pipeline.setState(state) }
        let black = try XCTUnwrap(pull(sink) { _ in true }, "the simulated camera streams")
        XCTAssertEqual(black.pixel(0, 0).prefix(3), [0, 0, 0])
        let camera = try XCTUnwrap(gst_bin_get_by_name(cam.asBin, "camera"))
        let error = g_error_new_literal(gst_resource_error_quark(), Int32(GST_RESOURCE_ERROR_READ.rawValue), "Could not read from resource.")
        gst_element_post_message(camera, gst_message_new_error(UnsafeMutableRawPointer(camera).assumingMemoryBound(to: GstObject.self), error, nil))
        g_error_free(error)
        gst_object_unref(UnsafeMutableRawPointer(camera))
        // smpte's top-left bar is grey: the test picture replaced the failed camera.
        XCTAssertNotNil(pull(sink) { $0.pixel(0, 0).prefix(3) != [0, 0, 0] }, "the test picture after the failure")
        pipeline.setState(GST_STATE_NULL)
    }

    /// The text of the next message of `type` (nil at end of stream or after 30 s).
    private func text(of type: GstMessageType, on pipeline: Pipeline, orEndOfStream: Bool = false) -> String? {
        let types = GstMessageType(rawValue: type.rawValue | (orEndOfStream ? GST_MESSAGE_EOS.rawValue : 0))
        guard let m = gst_bus_timed_pop_filtered(pipeline.bus, 30_000_000_000, types), m.pointee.type == type else { return nil }
        defer { gst_message_unref(m) }
        var error: UnsafeMutablePointer<GError>?
        if type == GST_MESSAGE_WARNING { gst_message_parse_warning(m, &error, nil) } else { gst_message_parse_error(m, &error, nil) }
        defer { if let error { g_error_free(error) } }
        return error.map { String(cString: $0.pointee.message) }
    }

    /// Pulls frames until one satisfies `wanted` (at most 300 frames: 10 s at 30 fps).
    private func pull(_ sink: UnsafeMutablePointer<GstElement>, until wanted: (CapturedFrame) -> Bool) -> CapturedFrame? {
        for _ in 0..<300 {
            guard let sample = gst_app_sink_try_pull_sample(sink.asAppSink, 1_000_000_000) else { continue }
            defer { gst_sample_unref(sample) }
            if let frame = try? sample.capturedFrame(), wanted(frame) { return frame }
        }
        return nil
    }
}

/// GLib-GObject's warnings raised on this thread while `body` runs, instead of on stderr.
private enum GLibWarnings {
    private static let collected = Locked<[String]>([])

    static func collect(_ body: () -> Void) -> [String] {
        collected.withLock { $0 = [] }
        let id = g_log_set_handler("GLib-GObject", GLogLevelFlags(rawValue: G_LOG_LEVEL_WARNING.rawValue), { _, _, message, _ in
            GLibWarnings.collected.withLock { $0.append(message.map { String(cString: $0) } ?? "") }
        }, nil)
        body()
        g_log_remove_handler("GLib-GObject", id)
        return collected.withLock { $0 }
    }
}

/// An element of two parts, `a` and `b`, each with one number property, that log their
/// start, unlock and stop and the element's own state changes.
private final class SpyElement: SwiftElement {
    static let factory = "fcskeletonspy"
    static let log = Locked<[String]>([])

    final class Part: ElementPart {
        let name: String
        let limit: Double
        let level = Locked(0.0)
        init(_ name: String, limit: Double) { self.name = name; self.limit = limit }

        func set(_ property: String, _ value: PropertyValue) throws(PropertyProblem) {
            guard case .double(let v) = value else { throw PropertyProblem.unexpected(value, for: property) }
            guard v <= limit else { throw PropertyProblem("at most \(limit)") }
            level.withLock { $0 = v }
        }
        func get(_ property: String) -> PropertyValue { .double(level.withLock { $0 }) }
        func start() { SpyElement.log.withLock { $0.append("\(name) start") } }
        func unlock() { SpyElement.log.withLock { $0.append("\(name) unlock") } }
        func stop() { SpyElement.log.withLock { $0.append("\(name) stop") } }
    }

    let a = Part("a", limit: 0.5), b = Part("b", limit: 1)

    func changeState(_ transition: GstStateChange, after: Bool, result: GstStateChangeReturn) -> GstStateChangeReturn {
        let names = ["VOID", "NULL", "READY", "PAUSED", "PLAYING"]
        let from = names[Int(fc_transition_current(transition))], to = names[Int(fc_transition_next(transition))]
        Self.log.withLock { $0.append("element \(after ? "after" : "before") \(from)→\(to)") }
        return result
    }

    private static func level(_ part: String) -> [ElementProperty] {
        [ElementProperty("\(part)-level", nick: "Level", blurb: "A number", .double(min: 0, max: 1, defaultValue: 0))]
    }

    static let registered = ElementClass(
        factoryName: factory, typeName: "GstFcSkeletonSpy", longName: "Skeleton spy", klass: "Source/Video",
        summary: "Logs what the host calls", parts: [PartSlot(level("a")) { (e: SpyElement) in e.a },
                                                     PartSlot(level("b")) { (e: SpyElement) in e.b }],
        sinkCaps: "", srcCaps: "video/x-raw", isSource: true, make: { _, _ in SpyElement() }).register(in: nil)
}
