import CFilterCamShim
import CGStreamer
@testable import FilterCamHost
@testable import FilterCamTool
import FilterCore
import FilterCamTestSupport
import Foundation
import XCTest

/// The `FaceDetection` component as `filtercam` drives it: properties, every frame
/// analysed when not live, the live worker's carried results, squares, ROI metas, the
/// `faces` message, and a bad cascade. (How `filtercam --messages` prints the message:
/// FilterCamToolTests/MessageJSONTests.)
///
/// Throughput is measured by `filtercam bench` (cases `faces`, `faces-upright`, `faces-live`),
/// never timed here; the numbers are in docs/faces.md and docs/benchmarks.md.
final class FaceDetectionTests: XCTestCase {
    /// A pipeline whose `fakesrc` stands in for the element: messages it posts reach the bus.
    private var pipeline: Pipeline!
    private var element: UnsafeMutablePointer<GstElement>!

    override func setUpWithError() throws {
        pipeline = try Pipeline(description: "fakesrc name=face-test ! fakesink")
        element = pipeline.element(named: "face-test")
    }

    override func tearDown() {
        pipeline = nil
    }

    private func make(_ properties: [String: PropertyValue] = [:]) -> FaceDetection {
        let d = FaceDetection(element: element)
        for (name, value) in properties { try! d.set(name, value) }
        return d
    }

    private func index(_ name: String) -> Int { FaceDetection.properties.firstIndex { $0.name == name }! }

    /// Messages on the bus so far (element messages and warnings), oldest first.
    private func drainBus() -> [UnsafeMutablePointer<GstMessage>] {
        var out: [UnsafeMutablePointer<GstMessage>] = []
        let types = GstMessageType(rawValue: GST_MESSAGE_ELEMENT.rawValue | GST_MESSAGE_WARNING.rawValue)
        while let m = gst_bus_pop_filtered(pipeline.bus, types) { out.append(m) }
        return out
    }

    private func facesMessages(_ messages: [UnsafeMutablePointer<GstMessage>]) -> [[DetectedFace]] {
        messages.compactMap { m in
            guard m.pointee.type == GST_MESSAGE_ELEMENT, let s = gst_message_get_structure(m),
                  String(cString: gst_structure_get_name(s)) == "faces" else { return nil }
            return FaceReport.faces(in: s)
        }
    }

    private func warnings(_ messages: [UnsafeMutablePointer<GstMessage>]) -> [String] {
        messages.compactMap { m in
            guard m.pointee.type == GST_MESSAGE_WARNING else { return nil }
            var error: UnsafeMutablePointer<GError>?
            var debug: UnsafeMutablePointer<gchar>?
            gst_message_parse_warning(m, &error, &debug)
            defer { g_error_free(error); g_free(debug) }
            return error.map { String(cString: $0.pointee.message) }
        }
    }

    // MARK: Properties

    func testPropertyTable() {
        let names = FaceDetection.properties.map(\.name)
        XCTAssertEqual(names, ["detect-faces", "face-overlay", "face-cascade", "face-confirm-cascade", "face-min-size", "face-max-size",
                               "face-scale-factor", "face-min-neighbors", "face-confirm-neighbors", "face-detection-width",
                               "face-orientations", "face-orientation-search", "frames-with-faces", "face-analyses"])
        let d = make()
        XCTAssertEqual(d.get("detect-faces"), .bool(false))
        XCTAssertFalse(d.isEnabled)
        XCTAssertEqual(d.get("face-overlay"), .bool(true))
        XCTAssertEqual(d.get("face-cascade"), .string(FaceDetector.defaultCascadePath))
        XCTAssertEqual(d.get("face-confirm-cascade"), .string("/usr/share/opencv4/haarcascades/haarcascade_frontalface_alt.xml"))
        XCTAssertEqual(d.get("face-min-size"), .int(0))
        XCTAssertEqual(d.get("face-max-size"), .int(0))
        XCTAssertEqual(d.get("face-scale-factor"), .double(1.2))
        XCTAssertEqual(d.get("face-min-neighbors"), .int(3))
        XCTAssertEqual(d.get("face-confirm-neighbors"), .int(4))
        XCTAssertEqual(d.get("face-detection-width"), .int(640))
        XCTAssertEqual(d.get("face-orientations"), .int(0))   // auto
        XCTAssertEqual(FaceOrientations.allCases.map(\.nick), ["auto", "upright", "device", "all"])
        XCTAssertEqual(d.get("face-orientation-search"), .bool(false))
        XCTAssertEqual(d.get("frames-with-faces"), .uint64(0))
        if case .counter = FaceDetection.properties[index("frames-with-faces")].kind {} else { XCTFail("not a counter") }

        try! d.set("detect-faces", .bool(true))
        XCTAssertTrue(d.isEnabled)
        try! d.set("face-cascade", .string(nil))
        XCTAssertEqual(d.get("face-cascade"), .string(FaceDetector.defaultCascadePath))
        try! d.set("face-confirm-cascade", .string(nil))
        XCTAssertEqual(d.get("face-confirm-cascade"), .string(""))   // none
        try! d.set("face-min-neighbors", .int(5))
        XCTAssertEqual(d.get("face-min-neighbors"), .int(5))
        // The deprecated bool is an alias: true is all, false upright.
        try! d.set("face-orientation-search", .bool(true))
        XCTAssertEqual(d.get("face-orientations"), .int(3))
        XCTAssertEqual(d.get("face-orientation-search"), .bool(true))
        try! d.set("face-orientation-search", .bool(false))
        XCTAssertEqual(d.get("face-orientations"), .int(1))
        try! d.set("face-orientations", .int(2))
        XCTAssertEqual(d.get("face-orientation-search"), .bool(false))
    }

    // MARK: Frames

    func testDisabledLeavesFramesAlone() throws {
        let frame = FaceFixtures.copy(try FaceFixtures.load(FaceFixtures.astronaut))
        let before = frame.packedBytes
        let d = make()
        d.start()
        defer { d.stop() }
        XCTAssertEqual(d.process(frame.view, method: .identity, live: false), [])
        XCTAssertEqual(d.process(frame.view, method: .identity, live: true), [])
        XCTAssertTrue(frame.packedBytes == before)
    }

    func testNonLiveAnalysesEveryFrameAndDrawsSquares() throws {
        let source = try FaceFixtures.load(FaceFixtures.astronaut)
        let d = make(["detect-faces": .bool(true)])
        d.start()
        defer { d.stop() }
        for n in 1...3 {
            let frame = FaceFixtures.copy(source)
            let faces = d.process(frame.view, method: .identity, live: false)
            FaceFixtures.assertMatches(faces.map(\.rect), faces: FaceFixtures.astronaut.faces, "frame \(n)")
            XCTAssertEqual(d.get("frames-with-faces"), .uint64(UInt64(n)))
            guard let f = faces.first?.rect else { continue }
            let red = RGBA(r: 255, g: 0, b: 0, a: 255)
            let t = FaceOverlay.thickness(frameWidth: frame.width, box: f)
            XCTAssertEqual(t, 5)   // 512 / 100
            XCTAssertEqual(frame.view.pixel(x: f.x, y: f.y), red)
            XCTAssertEqual(frame.view.pixel(x: f.x + f.width - 1, y: f.y + f.height - 1), red)
            XCTAssertEqual(frame.view.pixel(x: f.x + t - 1, y: f.y + f.height / 2), red)
            XCTAssertEqual(frame.view.pixel(x: f.x + t, y: f.y + f.height / 2), source.view.pixel(x: f.x + t, y: f.y + f.height / 2))
            XCTAssertEqual(frame.view.pixel(x: f.x + f.width / 2, y: f.y + f.height / 2),
                           source.view.pixel(x: f.x + f.width / 2, y: f.y + f.height / 2))
            XCTAssertEqual(frame.view.pixel(x: f.x - 1, y: f.y), source.view.pixel(x: f.x - 1, y: f.y))
        }
    }

    func testOverlayOffFindsFacesWithoutDrawing() throws {
        let frame = FaceFixtures.copy(try FaceFixtures.load(FaceFixtures.obama2))
        let before = frame.packedBytes
        let d = make(["detect-faces": .bool(true), "face-overlay": .bool(false)])
        d.start()
        defer { d.stop() }
        FaceFixtures.assertMatches(d.process(frame.view, method: .identity, live: false).map(\.rect), faces: FaceFixtures.obama2.faces,
                                   ignore: FaceFixtures.obama2.ignore, "obama2")
        XCTAssertTrue(frame.packedBytes == before)
    }

    func testBGRAFramesGiveTheSameFaces() throws {
        let rgba = try FaceFixtures.load(FaceFixtures.lfwMosaic)
        let bgra = try FrameIO.captureFrame("filesrc location=\"\(FaceFixtures.path(FaceFixtures.lfwMosaic)!)\" ! pngdec ! videoconvert", format: .bgra)
        let d = make(["detect-faces": .bool(true), "face-overlay": .bool(false)])
        d.start()
        defer { d.stop() }
        let a = d.process(rgba.view, method: .identity, live: false)
        let other = make(["detect-faces": .bool(true), "face-overlay": .bool(false)])   // a first frame too
        other.start()
        defer { other.stop() }
        let b = other.process(bgra.view, method: .identity, live: false)
        XCTAssertEqual(a, b)
        FaceFixtures.assertMatches(a.map(\.rect), faces: FaceFixtures.lfwMosaic.faces.filter { $0 != FaceFixtures.lfwWeakTile }, "lfw")
    }

    /// A fixture as GStreamer converts it to a YUV format (videoconvert, BT.601 video range).
    private func yuvFixture(_ image: FaceFixtures.Image, _ format: YUVFormat) throws -> YUVBuffer {
        let path = try XCTUnwrap(FaceFixtures.path(image))
        let frame = try XCTUnwrap(collectFrames("filesrc location=\"\(path)\" ! pngdec ! videoconvert ! video/x-raw,format=\(format.rawValue)").first)
        let buffer = YUVBuffer(format: format, width: frame.width, height: frame.height)
        buffer.load(packed: frame.bytes)
        return buffer
    }

    /// YUV frames are searched on their luma plane as it is and give the fixtures' faces;
    /// the squares are drawn into the planes in the overlay's red.
    func testYUVFramesAreSearchedOnTheirLumaPlane() throws {
        for format in [YUVFormat.i420, .nv12, .yuy2] {
            let frame = try yuvFixture(FaceFixtures.obama2, format)
            let d = make(["detect-faces": .bool(true)])
            d.start()
            defer { d.stop() }
            let faces = d.process(frame.frame, method: .identity, live: false)
            FaceFixtures.assertMatches(faces.map(\.rect), faces: FaceFixtures.obama2.faces, ignore: FaceFixtures.obama2.ignore,
                                       "obama2 \(format.rawValue)")
            // Red in BT.601 video range: Y = 16 + 219·0.299 = 81.5, V = 128 + 224·0.5 = 240.
            let box = try XCTUnwrap(faces.first?.rect)
            let (x, y) = (box.x + box.width / 2, box.y)   // on the top edge
            let bytes = frame.packedBytes
            let luma = format.isPacked ? bytes[y * ((frame.width + 1) / 2) * 4 + (x / 2) * 4 + (x % 2 == 0 ? format.packedOffsets.y0 : format.packedOffsets.y1)]
                                       : bytes[y * frame.width + x]
            XCTAssertTrue(luma == 81 || luma == 82, "\(format.rawValue): luma \(luma) on the square's edge")
        }
    }

    /// Live: frames leave at once with the latest result of the face worker, which works
    /// on the downscaled copy (1024 wide → 512, step 2) and finds the same faces as the
    /// non-live path; the result stays on later frames.
    func testLivePathUsesDownscaledCopyOnItsWorker() throws {
        let source = FaceFixtures.upscaled(try FaceFixtures.load(FaceFixtures.astronaut), by: 2)
        let d = make(["detect-faces": .bool(true), "face-overlay": .bool(false), "face-detection-width": .int(512)])
        d.start()
        defer { d.stop() }
        let reference = d.process(source.view, method: .identity, live: false)
        XCTAssertEqual(reference.count, 1)
        var faces: [DetectedFace] = []
        // Two detection updates: about a second here, but close to a minute for a debug build
        // on a loaded machine, so the deadline only guards against a hang. Frames are offered
        // every 50 ms: each one's grey copy costs the worker CPU time.
        let deadline = Date(timeIntervalSinceNow: 600)
        while faces.isEmpty && Date() < deadline {
            faces = d.process(source.view, method: .identity, live: true)
            if faces.isEmpty { Thread.sleep(forTimeInterval: 0.05) }
        }
        XCTAssertEqual(faces, reference)
        // Carried onto later frames until the next result.
        for _ in 0..<5 { XCTAssertEqual(d.process(source.view, method: .identity, live: true), reference) }
        // Switched off: nothing, and no stale boxes when switched on again.
        try! d.set("detect-faces", .bool(false))
        XCTAssertEqual(d.process(source.view, method: .identity, live: true), [])
        try! d.set("detect-faces", .bool(true))
        let first = d.process(source.view, method: .identity, live: true)
        XCTAssertTrue(first.isEmpty || first == reference)
    }

    /// Turned on again, detection starts with no faces: the element searches no frame while
    /// it is off, so nothing cleared the last result, and the first frame after showed the
    /// old square (with a `faces` message) on a picture with no face.
    func testTurnedOnAgainStartsWithNoFaces() throws {
        let face = try FaceFixtures.load(FaceFixtures.astronaut), noFace = try FaceFixtures.load(FaceFixtures.home)
        let d = make(["detect-faces": .bool(true), "face-overlay": .bool(false)])
        d.start()
        defer { d.stop() }
        var faces: [DetectedFace] = []
        let deadline = Date(timeIntervalSinceNow: 600)   // a hang guard only (see above)
        while faces.isEmpty && Date() < deadline {
            faces = d.process(face.view, method: .identity, live: true)
            if faces.isEmpty { Thread.sleep(forTimeInterval: 0.05) }
        }
        XCTAssertEqual(faces.count, 1)
        try d.set("detect-faces", .bool(false))   // no frame searched while off, as in the element
        try d.set("detect-faces", .bool(true))
        XCTAssertEqual(d.process(noFace.view, method: .identity, live: true), [], "the old square came back")
    }

    /// `method` is the orientation that made the output: a face rotated in it is found
    /// when that roll is searched (`all`, or `auto` with the device orientation unknown),
    /// its box on the face in the output frame, its roll clockwise in `angle`; not with
    /// `upright`, nor with `auto` once the device says the output is upright.
    func testTurnedFaceFoundInOutputCoordinatesWithItsRoll() throws {
        let upright = try FaceFixtures.load(FaceFixtures.astronaut)
        let turned = FaceFixtures.oriented(upright, .rotate90L)   // the face's top now points left
        let expected = FaceFixtures.transformed(FaceFixtures.astronaut.faces[0], .rotate90L, width: 512, height: 512)
        /// One picture through a new detection (no earlier frame to confirm or hold faces).
        func faces(_ orientations: FaceOrientations, deviceUpright: OrientationMethod?) -> [DetectedFace] {
            let d = make(["detect-faces": .bool(true), "face-overlay": .bool(false),
                          "face-orientations": .int(FaceOrientations.allCases.firstIndex(of: orientations)!)])
            d.start()
            defer { d.stop() }
            return d.process(turned.view, method: .rotate90L, deviceUpright: deviceUpright, live: false)
        }
        let found = faces(.auto, deviceUpright: nil)   // device unknown: all rolls
        FaceFixtures.assertMatches(found.map(\.rect), faces: [expected], "90l, auto")
        XCTAssertEqual(found.map(\.angle), [270])
        // The device says the input is shown upright by 90l: the output is upright, one search.
        XCTAssertEqual(faces(.auto, deviceUpright: .rotate90L), [])
        XCTAssertEqual(faces(.device, deviceUpright: .rotate90L), [])
        // Held so that the input needs no turn: faces in the 90l output have roll 270.
        XCTAssertEqual(faces(.device, deviceUpright: .identity), found)
        XCTAssertEqual(faces(.upright, deviceUpright: nil), [])
        XCTAssertEqual(faces(.all, deviceUpright: .rotate90L), found)
    }

    /// The confirmation rule through the element's face part, on the LFW mosaic at a third
    /// of its size (faces ~30 px, sampled as a step-3 grey copy samples): at step 1.2 one
    /// face is a candidate with too few windows to be sure, until the finer look makes it
    /// sure. Non-live: the sure faces are drawn on the first frame. Live: nothing is drawn from the first
    /// detection update; the sure faces from the second on.
    func testFacesAreDrawnOnlyOnceConfirmed() throws {
        let mosaic = try FaceFixtures.load(FaceFixtures.lfwMosaic)
        let small = PixelBuffer(width: mosaic.width / 3, height: mosaic.height / 3, format: mosaic.format)
        for y in 0..<small.height {
            for x in 0..<small.width { small.view.setPixel(x: x, y: y, mosaic.view.pixel(x: x * 3 + 1, y: y * 3 + 1)) }
        }
        let faces = FaceFixtures.lfwMosaic.faces.filter { $0 != FaceFixtures.lfwWeakTile }
            .map { FaceFixtures.r($0.x / 3, $0.y / 3, $0.width / 3, $0.height / 3) }
        var search = FaceSearch()
        search.rolls = FaceRoll.all
        let grey = GreyImage(frame: small.view, step: 1)
        // Without the finer look at weak candidates, one face stays a candidate too weak to draw.
        var coarse = search
        coarse.refinement = nil
        let coarseCandidates = try coarse.run(FaceFixtures.detector, on: grey, frameWidth: small.width, frameHeight: small.height)
        let coarseSure = coarseCandidates.filter { $0.neighbors > FaceSettings.defaultConfirmNeighbors }
        XCTAssertGreaterThan(coarseCandidates.count, coarseSure.count, "a weak candidate to leave out: \(coarseCandidates)")
        FaceFixtures.assertMatches(coarseCandidates.map(\.rect), faces: faces, threshold: 0.4, onlyFaces: false, "candidates")
        // The finer look (the default) makes it sure: every face is drawn.
        let candidates = try search.run(FaceFixtures.detector, on: grey, frameWidth: small.width, frameHeight: small.height)
        let sure = candidates.filter { $0.neighbors > FaceSettings.defaultConfirmNeighbors }
        XCTAssertGreaterThan(sure.count, coarseSure.count, "the finer look: \(candidates)")
        FaceFixtures.assertMatches(sure.map(\.rect), faces: faces, threshold: 0.4, "sure")

        let d = make(["detect-faces": .bool(true), "face-overlay": .bool(false)])
        d.start()
        for _ in 0..<2 { XCTAssertEqual(d.process(small.view, method: .identity, live: false).map(\.rect), sure.map(\.rect)) }
        d.stop()

        let live = make(["detect-faces": .bool(true), "face-overlay": .bool(false)])
        live.start()
        defer { live.stop() }
        let worker = try XCTUnwrap(Mirror(reflecting: live).descendant("worker") as? FaceWorker)
        XCTAssertEqual(live.process(small.view, method: .identity, live: true), [])
        XCTAssertTrue(worker.waitUntilIdle())
        XCTAssertEqual(live.process(small.view, method: .identity, live: true), [], "one update is not enough")
        XCTAssertTrue(worker.waitUntilIdle())
        XCTAssertEqual(live.process(small.view, method: .identity, live: true).map(\.rect), sure.map(\.rect))
    }

    /// Through the element: `device-orientation=portrait` with a fixed `orientation=identity`
    /// means faces of people standing lie with their tops to the left (roll 270) in the
    /// output; `face-orientations=device` searches that roll only. The `faces` message says so.
    func testDeviceModeThroughTheElementSearchesTheHeldRoll() throws {
        let photo = try XCTUnwrap(FaceFixtures.path(FaceFixtures.astronaut))
        func faces(turned direction: String) throws -> [DetectedFace] {
            try lastFaces(of: "filesrc location=\"\(photo)\" ! pngdec ! videoconvert ! videoflip video-direction=\(direction) ! videoconvert ! filtercam detect-faces=true device-orientation=portrait orientation=identity face-orientations=device ! fakesink")
        }
        let expected = FaceFixtures.transformed(FaceFixtures.astronaut.faces[0], .rotate90L, width: 512, height: 512)
        let held = try faces(turned: "90l")
        FaceFixtures.assertMatches(held.map(\.rect), faces: [expected], "turned 90l")
        XCTAssertEqual(held.map(\.angle), [270])
        XCTAssertEqual(try faces(turned: "90r"), [])   // roll 90: not how the device is held
    }

    /// Faces are searched in the picture before the filters: an inverted or edge-drawn
    /// face was no face (the tester's astronaut: 0 found), so the squares went with the
    /// look. Every filter, whole frame and in a lens over the face, RGB and YUV, turned.
    func testFacesAreFoundUnderAnyFilter() throws {
        let photo = try XCTUnwrap(FaceFixtures.path(FaceFixtures.astronaut))
        func faces(_ format: String, _ properties: String) throws -> [DetectedFace] {
            try lastFaces(of: "filesrc location=\"\(photo)\" ! pngdec ! videoconvert ! video/x-raw,format=\(format) ! filtercam detect-faces=true orientation=90l \(properties) ! fakesink")
        }
        let expected = FaceFixtures.transformed(FaceFixtures.astronaut.faces[0], .rotate90L, width: 512, height: 512)
        for format in ["BGRx", "I420"] {
            let plain = try faces(format, "")
            FaceFixtures.assertMatches(plain.map(\.rect), faces: [expected], "\(format), no filter")
            for properties in ["filter=invert", "filter=edges", "filter=\"invert, blur radius=8\"", "filter=invert lens=0.2,0.2,0.6,0.6"] {
                XCTAssertEqual(try faces(format, properties), plain, "\(format) \(properties)")
            }
        }
    }

    /// The faces of the last `faces` message a pipeline posts before its end (or an error).
    private func lastFaces(of description: String) throws -> [DetectedFace] {
        let p = try Pipeline(description: description)
        p.setState(GST_STATE_PLAYING)
        defer { p.setState(GST_STATE_NULL) }
        var found: [DetectedFace] = []
        let types = GstMessageType(rawValue: GST_MESSAGE_ELEMENT.rawValue | GST_MESSAGE_EOS.rawValue | GST_MESSAGE_ERROR.rawValue)
        while let m = gst_bus_timed_pop_filtered(p.bus, 20_000_000_000, types) {
            defer { gst_message_unref(m) }
            if m.pointee.type != GST_MESSAGE_ELEMENT { break }
            if let s = gst_message_get_structure(m), String(cString: gst_structure_get_name(s)) == "faces" { found = FaceReport.faces(in: s) }
        }
        return found
    }

    // MARK: Buffers and messages

    func testDecorateAddsRegionMetasAndPostsOnChange() throws {
        let d = make(["detect-faces": .bool(true)])
        d.start()
        defer { d.stop() }
        _ = drainBus()
        let a = [DetectedFace(rect: PixelRect(x: 96, y: 164, width: 218, height: 218))]
        let b = [DetectedFace(rect: PixelRect(x: 10, y: 20, width: 30, height: 30), angle: 90),
                 DetectedFace(rect: PixelRect(x: 100, y: 20, width: 40, height: 40), angle: 270)]
        var posted: [[DetectedFace]] = []
        for (faces, ts) in [([], 0), (a, 1), (a, 2), (b, 3), (b, 4), ([], 5), ([], 6)] as [([DetectedFace], UInt64)] {
            let buffer = gst_buffer_new()!
            d.decorate(buffer, faces: faces, timestamp: ts * 1_000_000)
            XCTAssertEqual(FaceReport.regionMetas(on: buffer), faces)
            gst_buffer_unref(buffer)
            let messages = drainBus()
            posted += facesMessages(messages)
            for m in messages where m.pointee.type == GST_MESSAGE_ELEMENT {
                var t: guint64 = 0
                XCTAssertNotEqual(gst_structure_get_uint64(gst_message_get_structure(m), "timestamp", &t), 0)
                XCTAssertEqual(UInt64(t), ts * 1_000_000)
            }
            messages.forEach { gst_message_unref($0) }
        }
        XCTAssertEqual(posted, [a, b, []])   // on change only; an empty list when faces disappear
    }

    // MARK: Bad cascade

    func testMissingCascadeWarnsOnceNamingPathAndKeepsGoing() throws {
        let path = "/nonexistent/faces/cascade.xml"
        let frame = FaceFixtures.copy(try FaceFixtures.load(FaceFixtures.astronaut))
        let d = make(["face-cascade": .string(path), "detect-faces": .bool(true)])
        _ = drainBus()
        d.start()
        var texts = warnings(drainBus())
        XCTAssertEqual(texts.count, 1, "\(texts)")
        XCTAssertTrue(texts.first?.contains(path) ?? false, "\(texts)")
        XCTAssertEqual(d.process(frame.view, method: .identity, live: false), [])
        for _ in 0..<3 { XCTAssertEqual(d.process(frame.view, method: .identity, live: true), []) }
        Thread.sleep(forTimeInterval: 0.2)
        XCTAssertEqual(d.process(frame.view, method: .identity, live: true), [])
        texts = warnings(drainBus())
        XCTAssertEqual(texts, [], "warned once only")
        // Fixed while running: detection resumes.
        try! d.set("face-cascade", .string(FaceDetector.defaultCascadePath))
        XCTAssertEqual(d.process(frame.view, method: .identity, live: false).count, 1)
        d.stop()
    }

    func testMalformedCascadeWarnsNamingPath() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bad-cascade-\(getpid()).xml").path
        try "<opencv_storage><cascade>nope</cascade></opencv_storage>".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let d = make(["face-cascade": .string(path), "detect-faces": .bool(true)])
        _ = drainBus()
        d.start()
        defer { d.stop() }
        let texts = warnings(drainBus())
        XCTAssertEqual(texts.count, 1)
        XCTAssertTrue(texts.first?.contains(path) ?? false, "\(texts)")
    }

    func testStartStopRestart() throws {
        let frame = try FaceFixtures.load(FaceFixtures.astronaut)
        let d = make(["detect-faces": .bool(true), "face-overlay": .bool(false)])
        for _ in 0..<3 {
            d.start()
            XCTAssertEqual(d.get("frames-with-faces"), .uint64(0))
            _ = d.process(frame.view, method: .identity, live: true)
            _ = d.process(frame.view, method: .identity, live: false)
            d.stop()
        }
    }

    // MARK: Pieces

    func testGreyIsOpenCVLumaAndStepSamplesBlockCentres() {
        let frame = PixelBuffer(width: 6, height: 4, format: .bgra)
        for y in 0..<4 {
            for x in 0..<6 { frame.view.setPixel(x: x, y: y, RGBA(r: UInt8(x * 40), g: UInt8(y * 60), b: 200)) }
        }
        // OpenCV's BGR→grey is Y = 0.299 R + 0.587 G + 0.114 B, rounded to nearest. Here
        // R = 40x, G = 60y, B = 200, so Y = 0.114·200 + 0.299·40x + 0.587·60y
        //                                 = 22.8 + 11.96x + 35.22y:
        //   y=0: 22.8  34.76  46.72  58.68  70.64  82.6
        //   y=1: 58.02 69.98  81.94  93.9  105.86 117.82
        //   y=2: 93.24 105.2 117.16 129.12 141.08 153.04
        //   y=3: 128.46 140.42 152.38 164.34 176.3 188.26
        // (no value is within 0.02 of a .5, so the implementation's fixed point cannot round
        // any of them the other way).
        let expected: [UInt8] = [
            23, 35, 47, 59, 71, 83,
            58, 70, 82, 94, 106, 118,
            93, 105, 117, 129, 141, 153,
            128, 140, 152, 164, 176, 188,
        ]
        let g1 = GreyImage(frame: frame.view, step: 1)
        XCTAssertEqual(g1.pixels, expected)
        // Step 2 samples the centre of each 2×2 block: pixels (1,1) (3,1) (5,1) / (1,3) (3,3) (5,3).
        let g2 = GreyImage(frame: frame.view, step: 2)
        XCTAssertEqual(g2.width, 3)
        XCTAssertEqual(g2.height, 2)
        XCTAssertEqual(g2.pixels, [70, 94, 118, 140, 164, 188])
        XCTAssertEqual(GreyImage.step(frameWidth: 1280, frameHeight: 720, detectionWidth: 640), 2)
        XCTAssertEqual(GreyImage.step(frameWidth: 720, frameHeight: 1280, detectionWidth: 640), 2)   // turned: the longer side
        XCTAssertEqual(GreyImage.step(frameWidth: 1920, frameHeight: 1080, detectionWidth: 640), 3)
        XCTAssertEqual(GreyImage.step(frameWidth: 1000, frameHeight: 560, detectionWidth: 640), 1)   // at least 640
        XCTAssertEqual(GreyImage.step(frameWidth: 1279, frameHeight: 720, detectionWidth: 640), 1)
        XCTAssertEqual(GreyImage.step(frameWidth: 417, frameHeight: 800, detectionWidth: 640), 1)
        XCTAssertEqual(GreyImage.step(frameWidth: 512, frameHeight: 512, detectionWidth: 640), 1)
        XCTAssertEqual(GreyImage.step(frameWidth: 4000, frameHeight: 3000, detectionWidth: 0), 1)
    }

    func testOverlayClipsAtFrameEdges() {
        let frame = PixelBuffer(width: 40, height: 30, format: .rgbx, stride: 48 * 4)
        FaceOverlay.draw([PixelRect(x: -5, y: -5, width: 20, height: 20), PixelRect(x: 30, y: 20, width: 20, height: 20),
                          PixelRect(x: 100, y: 100, width: 5, height: 5)], on: frame.view)
        let red = RGBA(r: 255, g: 0, b: 0, a: 255)
        XCTAssertEqual(frame.view.pixel(x: 0, y: 0), RGBA(r: 0, g: 0, b: 0, a: 0))      // inside the first box
        XCTAssertEqual(frame.view.pixel(x: 14, y: 0), red)                            // its right side
        XCTAssertEqual(frame.view.pixel(x: 0, y: 14), red)                            // its bottom side
        XCTAssertEqual(frame.view.pixel(x: 30, y: 29), red)                           // second box, left side
        XCTAssertEqual(frame.view.pixel(x: 39, y: 20), red)                           // second box, top side
    }
}
