import CFilterCamShim
import CGStreamer
@testable import FilterCamHost
import FilterCamTestSupport
import FilterCamTool
import FilterCore
import Foundation
import XCTest

/// Looks in the elements: `fclut` and `filtercam filter="lut …"` in chains, inside the
/// lens in every orientation, a folder of looks, Hald CLUT pictures against FFmpeg's
/// `haldclut`, bad files at start and while playing, and a change of look on the next frame.
final class LookElementTests: XCTestCase {
    static let teal = Build.packageRoot + "/looks/teal-orange.cube"
    static let cool = Build.packageRoot + "/looks/cool-film.cube"
    private let source = "videotestsrc num-buffers=1 pattern=smpte ! video/x-raw,format=RGBA,width=24,height=16"
    private var folder: String!

    override func setUp() {
        GStreamer.initialize()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("filtercam-looks-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: folder)
    }

    private func write(_ name: String, _ text: String) -> String {
        let path = folder + "/" + name
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        return path
    }

    /// `frame` (packed RGBA) through `chain`, in FilterCore: the reference for what the elements give.
    private func filtered(_ frame: CapturedFrame, _ chain: String) throws -> [UInt8] {
        let buffer = PixelBuffer(width: frame.width, height: frame.height, format: .rgba)
        buffer.load(packed: frame.bytes)
        try FilterChain.parse(chain).makeFilters().apply(to: buffer.view)
        return buffer.packedBytes
    }

    func testTheLookElementInAChainWithOthers() throws {
        let input = try XCTUnwrap(collectFrames(source).first)
        let elements = try XCTUnwrap(collectFrames("\(source) ! fclut file=\(Self.teal) intensity=0.7 ! fcvignette").first)
        let chain = try XCTUnwrap(collectFrames("\(source) ! filtercam filter=\"lut file=\(Self.teal) intensity=0.7, vignette\"").first)
        XCTAssertEqual(elements.bytes, chain.bytes)
        XCTAssertEqual(elements.bytes, try filtered(input, "lut file=\(Self.teal) intensity=0.7, vignette"))
        XCTAssertNotEqual(elements.bytes, input.bytes)
    }

    /// In every orientation, the lens shows the looked picture and the rest the turned one.
    func testTheLookInsideTheLensInEveryOrientation() throws {
        let lens = "0.25,0.25,0.5,0.5"
        for nick in YUVElementTests.nicks {
            let plain = try XCTUnwrap(collectFrames("\(source) ! filtercam orientation=\(nick)").first)
            let looked = try XCTUnwrap(collectFrames("\(source) ! filtercam orientation=\(nick) ! fclut file=\(Self.cool)").first)
            let ours = try XCTUnwrap(collectFrames("\(source) ! filtercam orientation=\(nick) lens=\(lens) filter=\"lut file=\(Self.cool)\"").first)
            let r = try LensRect(parsing: lens).pixelRect(width: plain.width, height: plain.height)
            for y in 0..<plain.height {
                for x in 0..<plain.width {
                    let inside = x >= r.x && x < r.x + r.width && y >= r.y && y < r.y + r.height
                    if ours.pixel(x, y) != (inside ? looked : plain).pixel(x, y) {
                        return XCTFail("\(nick): pixel (\(x), \(y)) \(inside ? "inside" : "outside") the lens \(r)")
                    }
                }
            }
            XCTAssertNotEqual(looked.bytes, plain.bytes, nick)
        }
    }

    /// A folder of looks (the `looks` property, as FILTERCAM_LOOKS): `look:NAME` is the file's look.
    func testAFolderOfLooksJoinsTheCatalog() throws {
        let looks = Build.packageRoot + "/looks"
        let viaFolder = try XCTUnwrap(collectFrames("\(source) ! filtercam looks=\(looks) filter=look:teal-orange intensity=0.5").first)
        let viaFile = try XCTUnwrap(collectFrames("\(source) ! fclut file=\(Self.teal) intensity=0.5").first)
        XCTAssertEqual(viaFolder.bytes, viaFile.bytes)
        XCTAssertEqual(FilterRegistry.shared.descriptor(id: "look:teal-orange")?.title, "Teal and orange")
        // The filter cycle (the n and p keys) walks through them.
        XCTAssertEqual(FilterRegistry.shared.id(after: "look:day-for-night", step: 1), "look:teal-orange")
    }

    /// A bad file in a folder is left out, named with its line in a WARNING; the folder's
    /// other looks are added and the stream runs with them.
    func testABadFileInAFolderIsLeftOutAndTheOthersWork() throws {
        // An inverting look: every channel 1 − x.
        _ = write("good.cube", "LUT_3D_SIZE 2\n" + (0..<8).map { i in "\(1 - i & 1) \(1 - (i >> 1) & 1) \(1 - (i >> 2))\n" }.joined())
        let bad = write("bad.cube", "LUT_3D_SIZE 2\n0 0 0\n")
        var messages: BusLog?
        let looked = try XCTUnwrap(collectFrames("\(source) ! filtercam looks=\(folder!) filter=look:good",
                                                 prepare: { messages = BusLog($0) }).first)
        let plain = try XCTUnwrap(collectFrames(source).first)
        XCTAssertEqual(looked.bytes.count, plain.bytes.count)
        for i in stride(from: 0, to: plain.bytes.count, by: 4) {
            for c in 0..<3 where looked.bytes[i + c] != 255 - plain.bytes[i + c] {
                return XCTFail("byte \(i + c): \(looked.bytes[i + c]), expected 255 − \(plain.bytes[i + c])")
            }
        }
        let warning = try XCTUnwrap(messages?.warnings.first { $0.contains("left out") }, "\(messages?.warnings ?? [])")
        XCTAssertTrue(warning.contains(bad) && warning.contains("line 2") && warning.contains("added: look:good"), warning)
    }

    /// A looks folder refused while playing leaves the property as it was, as every other
    /// refused value does.
    func testARefusedLooksFolderWhilePlayingKeepsThePreviousOne() throws {
        let looks = Build.packageRoot + "/looks"
        let pipeline = try Pipeline(description: "videotestsrc is-live=true ! video/x-raw,width=64,height=48 ! filtercam name=f looks=\(looks) ! fakesink")
        defer { pipeline.setState(GST_STATE_NULL) }
        XCTAssertNotEqual(pipeline.setState(GST_STATE_PLAYING), GST_STATE_CHANGE_FAILURE)
        let element = try pipeline.requireElement("f")
        XCTAssertTrue(waitForBuffers(leaving: element, count: 2))
        gst_util_set_object_arg(UnsafeMutableRawPointer(element).assumingMemoryBound(to: GObject.self), "looks", "/no/such/folder")
        XCTAssertEqual(Pipeline.property(element, "looks"), looks)
    }

    /// `filter=look:NAME` before the `looks=DIR` that adds NAME: a description's order does
    /// not matter, as for any element. A name no folder has still stops the start, in terms
    /// of the catalog as it is by then (the folder's looks offered).
    func testALookNamedBeforeItsFolderIsFound() throws {
        // A name no earlier test added to the (process-wide) catalog.
        let name = "order-" + UUID().uuidString.prefix(8).lowercased()
        _ = write(name + ".cube", try String(contentsOfFile: Self.cool, encoding: .utf8))
        XCTAssertNil(FilterRegistry.shared.descriptor(id: "look:" + name))
        let before = try XCTUnwrap(collectFrames("\(source) ! filtercam filter=look:\(name) looks=\(folder!)").first)
        let viaFile = try XCTUnwrap(collectFrames("\(source) ! fclut file=\(Self.cool)").first)
        XCTAssertEqual(before.bytes, viaFile.bytes)
        // Another new name, misspelt before its folder: the error offers it.
        let other = "order-" + UUID().uuidString.prefix(8).lowercased()
        let otherFolder = folder + "/more"
        try FileManager.default.createDirectory(atPath: otherFolder, withIntermediateDirectories: true)
        _ = write("more/" + other + ".cube", try String(contentsOfFile: Self.cool, encoding: .utf8))
        let message = "\(try XCTUnwrap(error(of: "\(source) ! filtercam filter=look:\(other.dropLast()) looks=\(otherFolder)")))"
        XCTAssertTrue(message.contains("did you mean \"look:\(other)\""), message)
    }

    /// The error a pipeline ends with (nil when it runs through).
    private func error(of description: String) -> String? {
        do {
            _ = try collectFrames(description)
            return nil
        } catch {
            return "\(error)"
        }
    }

    func testABadFileKeepsThePipelineFromStartingNamingTheFileAndLine() throws {
        let cases: [(String, String, [String])] = [
            ("no-size.cube", "# a comment\n0 0 0\n", ["line 2", "size line is missing"]),
            ("nan.cube", "LUT_3D_SIZE 2\n0 0 0\nnan 0 0\n", ["line 3", "not a number"]),
            ("huge.cube", "LUT_3D_SIZE 1000000000\n", ["line 1", "out of range"]),
        ]
        for (name, text, words) in cases {
            let path = write(name, text)
            for element in ["fclut file=\(path)", "filtercam filter=\"lut file=\(path)\""] {
                let message = try XCTUnwrap(error(of: "\(source) ! \(element)"), "\(element) started")
                for word in [path] + words { XCTAssertTrue(message.contains(word), "\(element): '\(word)' not in \(message)") }
            }
        }
        let missing = try XCTUnwrap(error(of: "\(source) ! fclut file=\(folder!)/missing.cube"))
        XCTAssertTrue(missing.contains("missing.cube") && missing.contains("No such file"), missing)
    }

    /// While playing: a new look takes effect on the next frame (read by the setter, off the
    /// video path); a bad one is a warning naming the file and line, and the look stays.
    func testALookChangesOnTheNextFrameAndABadOneLeavesItAsItWas() throws {
        let input = try XCTUnwrap(collectFrames(source).first)
        let caps = "video/x-raw,format=RGBA,width=\(input.width),height=\(input.height),framerate=30/1"
        let pipeline = try Pipeline(description: "appsrc name=src format=time caps=\"\(caps)\" ! fclut name=look file=\(Self.teal) ! appsink name=out sync=false")
        let src = try pipeline.requireElement("src"), look = try pipeline.requireElement("look"), sink = try pipeline.requireElement("out")
        XCTAssertNotEqual(pipeline.setState(GST_STATE_PLAYING), GST_STATE_CHANGE_FAILURE)
        defer { pipeline.setState(GST_STATE_NULL) }
        func next(_ i: Int) throws -> [UInt8] {
            let buffer = gst_buffer_new_allocate(nil, gsize(input.bytes.count), nil)!
            _ = input.bytes.withUnsafeBytes { gst_buffer_fill(buffer, 0, $0.baseAddress, gsize(input.bytes.count)) }
            buffer.pointee.pts = GstClockTime(frameTime(i))
            XCTAssertEqual(gst_app_src_push_buffer(src.asAppSrc, buffer), GST_FLOW_OK)
            let sample = try XCTUnwrap(gst_app_sink_try_pull_sample(sink.asAppSink, GstClockTime(30 * second)), "no frame \(i)")
            defer { gst_sample_unref(sample) }
            return try sample.capturedFrame().bytes
        }
        XCTAssertEqual(try next(0), try filtered(input, "lut file=\(Self.teal)"))
        setString(look, "file", Self.cool)
        XCTAssertNotNil(LookLibrary.loaded(Self.cool), "the setter read the file")
        XCTAssertEqual(try next(1), try filtered(input, "lut file=\(Self.cool)"))
        let bad = write("bad.cube", "LUT_3D_SIZE 2\n0 0 0\n0 2 0\n")
        setString(look, "file", bad)
        let warning = try XCTUnwrap(waitForWarning(pipeline))
        XCTAssertTrue(warning.contains(bad) && warning.contains("line 3") && warning.contains("far outside the outputs' range"), warning)
        XCTAssertEqual(Pipeline.property(look, "file"), Self.cool)
        XCTAssertEqual(try next(2), try filtered(input, "lut file=\(Self.cool)"))
    }

    /// A look file saved again under the same name is read again when the property is set
    /// again, to the same text (a colourist re-exporting a LUT); until then the look stays.
    /// The same for `fclut file=` and for `filtercam filter="lut file=…"`, and for
    /// `filtercam looks=` giving `look:NAME` a new file.
    func testALookSavedAgainIsReadWhenSetAgain() throws {
        let caps = "video/x-raw,format=RGBA,width=4,height=2,framerate=30/1"
        func oneColour(_ r: Int, _ g: Int, _ b: Int) -> String {
            "LUT_3D_SIZE 2\n" + String(repeating: "\(r) \(g) \(b)\n", count: 8)
        }
        let path = write("look.cube", oneColour(1, 0, 0))
        let looksFolder = folder + "/looks"
        try FileManager.default.createDirectory(atPath: looksFolder, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: looksFolder + "/x.cube", contents: Data(oneColour(1, 0, 0).utf8))
        func saveAgain(_ file: String, _ text: String) throws {
            _ = FileManager.default.createFile(atPath: file, contents: Data(text.utf8))
            // A later time than the first save, however coarse the file system's clock.
            try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(5)], ofItemAtPath: file)
        }
        let cases: [(element: String, property: String, value: String, file: String, element2: String?)] = [
            ("fclut name=look file=\(path)", "file", path, path, nil),
            ("filtercam name=look filter=\"lut file=\(path)\"", "filter", "lut file=\(path)", path, nil),
            ("filtercam name=look looks=\(looksFolder) filter=look:x", "looks", looksFolder, looksFolder + "/x.cube", nil),
        ]
        for c in cases {
            try saveAgain(c.file, oneColour(1, 0, 0))
            let pipeline = try Pipeline(description: "appsrc name=src format=time caps=\"\(caps)\" ! \(c.element) ! appsink name=out sync=false")
            let src = try pipeline.requireElement("src"), look = try pipeline.requireElement("look"), sink = try pipeline.requireElement("out")
            XCTAssertNotEqual(pipeline.setState(GST_STATE_PLAYING), GST_STATE_CHANGE_FAILURE)
            defer { pipeline.setState(GST_STATE_NULL) }
            func firstPixel(_ i: Int) throws -> [UInt8] {
                let buffer = gst_buffer_new_allocate(nil, 32, nil)!
                _ = [UInt8](repeating: 128, count: 32).withUnsafeBytes { gst_buffer_fill(buffer, 0, $0.baseAddress, 32) }
                buffer.pointee.pts = GstClockTime(frameTime(i))
                XCTAssertEqual(gst_app_src_push_buffer(src.asAppSrc, buffer), GST_FLOW_OK)
                let sample = try XCTUnwrap(gst_app_sink_try_pull_sample(sink.asAppSink, GstClockTime(30 * second)), "no frame \(i)")
                defer { gst_sample_unref(sample) }
                return Array(try sample.capturedFrame().bytes.prefix(4))
            }
            XCTAssertEqual(try firstPixel(0), [255, 0, 0, 128], c.element)
            try saveAgain(c.file, oneColour(0, 1, 0))
            XCTAssertEqual(try firstPixel(1), [255, 0, 0, 128], "\(c.element): the look stays until it is set again")
            setString(look, c.property, c.value)
            XCTAssertEqual(try firstPixel(2), [0, 255, 0, 128], "\(c.element): set again, the file saved again is read")
            XCTAssertEqual(Pipeline.property(look, c.property), c.value)
        }
    }

    /// Sets a string property as an application would (a refusal becomes a bus warning).
    private func setString(_ element: UnsafeMutablePointer<GstElement>, _ name: String, _ value: String) {
        var v = GValue()
        g_value_init(&v, fc_type_string())
        defer { g_value_unset(&v) }
        g_value_set_string(&v, value)
        g_object_set_property(element.asGObject, name, &v)
    }

    private func waitForWarning(_ pipeline: Pipeline) -> String? {
        guard let m = gst_bus_timed_pop_filtered(pipeline.bus, GstClockTime(10 * second), GST_MESSAGE_WARNING) else { return nil }
        defer { gst_message_unref(m) }
        var error: UnsafeMutablePointer<GError>?
        var debug: UnsafeMutablePointer<gchar>?
        gst_message_parse_warning(m, &error, &debug)
        defer { if let error { g_error_free(error) }; g_free(debug) }
        return error.map { String(cString: $0.pointee.message) }
    }

    /// A Hald CLUT picture FFmpeg makes (its identity, level 6, through a hue shift and
    /// curves), applied by `fclut` and by FFmpeg's `haldclut` to the same frame: ±1.
    func testHaldCLUTPicturesMatchFFmpegHaldclut() throws {
        guard let ffmpeg = Build.which("ffmpeg") else { throw XCTSkip("ffmpeg is not installed") }
        let hald = folder + "/hald.png", input = folder + "/in.raw", output = folder + "/out.raw"
        let made = try runProcess(ffmpeg, ["-v", "error", "-f", "lavfi", "-i", "haldclutsrc=level=6",
                                           "-vf", "hue=h=40:s=1.4,curves=preset=vintage", "-frames:v", "1", hald])
        XCTAssertEqual(made.status, 0, made.stderr)
        let frame = try XCTUnwrap(collectFrames(source).first)
        _ = FileManager.default.createFile(atPath: input, contents: Data(frame.bytes))
        let applied = try runProcess(ffmpeg, ["-v", "error", "-f", "rawvideo", "-pix_fmt", "rgba", "-s", "\(frame.width)x\(frame.height)",
                                              "-i", input, "-i", hald, "-filter_complex", "[0:v][1:v]haldclut=interp=tetrahedral",
                                              "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgba", output])
        XCTAssertEqual(applied.status, 0, applied.stderr)
        let theirs = [UInt8](try XCTUnwrap(FileManager.default.contents(atPath: output)))
        let ours = try XCTUnwrap(collectFrames("\(source) ! fclut file=\(hald)").first).bytes
        XCTAssertEqual(ours.count, theirs.count)
        let worst = zip(ours, theirs).enumerated().filter { $0.offset % 4 != 3 }.map { abs(Int($0.element.0) - Int($0.element.1)) }.max()
        XCTAssertLessThanOrEqual(worst ?? 99, 1)
        XCTAssertNotEqual(ours, frame.bytes)
        // A picture that is no Hald CLUT says what one is.
        let message = try XCTUnwrap(error(of: "\(source) ! fclut file=\(Build.packageRoot)/Tests/FilterCamHostTests/Fixtures/faces/obama2.png"))
        XCTAssertTrue(message.contains("not a Hald CLUT") && message.contains("512×512"), message)
    }
}
