import CFilterCamShim
import CGStreamer
@testable import FilterCamHost
@testable import FilterCamTool
import FilterCore
import FilterCamTestSupport
import Foundation
import PixelateExample
import XCTest

/// One element per filter (`fc<id>`): same pixels as `filtercam filter=ID`, properties
/// as declared in Swift, invalid values refused with the range; and the worked example
/// filter written only against the public API.
final class FilterElementTests: XCTestCase {
    override func setUp() {
        GStreamer.initialize()
    }

    /// A non-default value for each parameter, so the test does not only compare defaults.
    private func exampleValue(_ p: FilterParameter) -> String {
        switch p.kind {
        case .double(let r, let d): return String(d == r.upperBound ? (r.lowerBound + r.upperBound) / 2 : min(r.upperBound, d + (r.upperBound - r.lowerBound) / 7))
        case .int(let r, let d): return String(d == r.upperBound ? r.lowerBound : d + 1)
        case .bool(let d): return d ? "false" : "true"
        case .color: return "0xFF00FF00"
        case .doubleList(let n, _, let d): return "<" + d.prefix(n).enumerated().map { String($0.offset == 1 ? 0.5 : $0.element) }.joined(separator: ",") + ">"
        case .text: return Build.packageRoot + "/looks/teal-orange.cube"   // the one text parameter: a look
        }
    }

    func testEveryCatalogElementEqualsFiltercamWithTheSameParameters() throws {
        let source = "videotestsrc num-buffers=2 pattern=ball ! video/x-raw,format=RGBA,width=33,height=17"
        for d in FilterRegistry.shared.all where d.elementName != nil {
            for useExamples in [false, true] {
                let params = useExamples ? d.parameters.map { "\($0.name)=\(exampleValue($0))" } : []
                let elementParams = params.map { p -> String in
                    p.contains("<") ? p.replacingOccurrences(of: "=", with: "=\"", options: [], range: p.range(of: "=")) + "\"" : p
                }
                let standalone = try collectFrames("\(source) ! fc\(d.id) \(elementParams.joined(separator: " "))")
                let chain = ([d.id] + params).joined(separator: " ")
                let viaFiltercam = try collectFrames("\(source) ! filtercam filter=\"\(chain)\"")
                XCTAssertEqual(standalone.count, 2, d.id)
                XCTAssertEqual(standalone.map(\.bytes), viaFiltercam.map(\.bytes), "fc\(d.id) vs filtercam filter=\"\(chain)\"")
            }
        }
    }

    /// What GObject (and so gst-inspect-1.0) reports for each property matches the Swift
    /// declaration: type, range, default.
    func testPropertiesMatchTheSwiftDeclarations() throws {
        for d in FilterRegistry.shared.all where d.elementName != nil {
            let pipeline = try Pipeline(description: "fakesrc ! fc\(d.id) name=e ! fakesink")
            let e = try pipeline.requireElement("e")
            let klass = UnsafeMutableRawPointer(e.pointee.object.object.g_type_instance.g_class).assumingMemoryBound(to: GObjectClass.self)
            for p in d.parameters {
                let spec = try XCTUnwrap(g_object_class_find_property(klass, p.name), "fc\(d.id) lacks \(p.name)")
                XCTAssertTrue(fc_param_is_mutable_playing(spec) != 0, "\(p.name) changeable while playing")
                let described = Inspector.typeDescription(spec)
                switch p.kind {
                case .double(let r, let def):
                    let s = UnsafeMutableRawPointer(spec).assumingMemoryBound(to: GParamSpecDouble.self).pointee
                    XCTAssertEqual([s.minimum, s.maximum, s.default_value], [r.lowerBound, r.upperBound, def], "fc\(d.id).\(p.name)")
                    XCTAssertTrue(described.hasPrefix("Double."), described)
                case .int(let r, let def):
                    let s = UnsafeMutableRawPointer(spec).assumingMemoryBound(to: GParamSpecInt.self).pointee
                    XCTAssertEqual([Int(s.minimum), Int(s.maximum), Int(s.default_value)], [r.lowerBound, r.upperBound, def], "fc\(d.id).\(p.name)")
                case .bool(let def):
                    XCTAssertEqual(described, "Boolean. Default: \(def)")
                case .color(let def):
                    let s = UnsafeMutableRawPointer(spec).assumingMemoryBound(to: GParamSpecUInt.self).pointee
                    XCTAssertEqual(UInt32(s.default_value), def, "fc\(d.id).\(p.name)")
                case .doubleList(let count, let range, _):
                    XCTAssertTrue(described.hasPrefix("String."), described)
                    XCTAssertEqual(Pipeline.property(e, p.name), p.defaultValue.description)
                    // NULL is the default again, as for filtercam's strings (it was refused as '').
                    let other = "<" + Array(repeating: "\(min(range.upperBound, 0.5))", count: count).joined(separator: ", ") + ">"
                    try Pipeline.setProperty(e, p.name, other)
                    XCTAssertNotEqual(Pipeline.property(e, p.name), p.defaultValue.description)
                    var null = GValue()
                    g_value_init(&null, fc_type_string())
                    g_object_set_property(UnsafeMutableRawPointer(e).assumingMemoryBound(to: GObject.self), p.name, &null)
                    g_value_unset(&null)
                    XCTAssertEqual(Pipeline.property(e, p.name), p.defaultValue.description, "fc\(d.id).\(p.name) set to NULL")
                case .text(_, let def):
                    XCTAssertTrue(described.hasPrefix("String."), described)
                    XCTAssertEqual(Pipeline.property(e, p.name) ?? "", def)
                }
            }
        }
    }

    /// The same, read from stock gst-inspect-1.0's text through the loadable plugin.
    func testGstInspectShowsTheDeclaredRanges() throws {
        let d = try FilterRegistry.shared.lookup(id: "vignette")
        let r = try runGstTool("gst-inspect-1.0", ["fcvignette"])
        XCTAssertEqual(r.status, 0, r.summary)
        for p in d.parameters {
            guard case .double(let range, let def) = p.kind else { continue }
            // gst-inspect prints "Double. Range:   LOW -   HIGH Default:   DEFAULT" (%15.7g).
            let block = r.stdoutText.components(separatedBy: "\n  \(p.name) ").dropFirst().first ?? ""
            let numbers = block.split(separator: "\n").first { $0.contains("Range:") }?
                .replacingOccurrences(of: "Default:", with: " ").replacingOccurrences(of: "Range:", with: " ")
                .split(separator: " ").compactMap { Double($0) } ?? []
            XCTAssertEqual(numbers, [range.lowerBound, range.upperBound, def], "\(p.name) in\n\(block.prefix(400))")
        }
    }

    func testInvalidValuesAreRefusedWithTheRange() throws {
        let r = try runCLI(["launch", "videotestsrc num-buffers=1 ! fcvignette radius=5 ! fakesink"])
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.stderr.contains("'radius' takes a number from 0 to 2"), r.stderr)
        let list = try runCLI(["launch", "videotestsrc num-buffers=1 ! fcchannel-mix matrix=\"<1,2>\" ! fakesink"])
        XCTAssertTrue(list.stderr.contains("matrix") && list.stderr.contains("12"), "a list of the wrong length is refused naming its length: \(list.stderr)")
        // GStreamer's orientation "custom" has no matrix here: refused with the valid choices.
        // (A property after it makes the element try the kept value again: still refused.)
        let custom = try runCLI(["launch", "videotestsrc num-buffers=1 ! filtercam orientation=custom zoom=2 ! fakesink"])
        XCTAssertNotEqual(custom.status, 0)
        XCTAssertTrue(custom.stderr.contains("invalid orientation 'custom'") && custom.stderr.contains("one of identity, 90r, 180, 90l, horiz, vert, ul-lr, ur-ll, auto\n"),
                      "the refused value is named by its nick, not its number: \(custom.stderr)")
    }

    // MARK: Registering a filter of your own

    /// A filter that cannot become an element cleanly is refused, saying why, and nothing of
    /// it is registered: an id taken by another filter (the chain and `fcID` disagreed), an
    /// id GObject cannot name a type after, a parameter named as an element's own property.
    /// The same declaration registered again is taken.
    func testRegisteringRefusesWhatWouldBreakTheElement() throws {
        func filter(_ id: String, _ parameter: String = "level") -> FilterDescriptor {
            FilterDescriptor(id: id, title: "Other \(id)", summary: "a test filter",
                             parameters: [FilterParameter(parameter, .int(range: 0...9, defaultValue: 1), "a level")],
                             make: { _ in PixelateFilter(block: 2) })
        }
        XCTAssertTrue(FilterCamPlugin.register(filter: PixelateFilter.descriptor))
        XCTAssertTrue(FilterCamPlugin.register(filter: PixelateFilter.descriptor), "the same declaration again")
        XCTAssertEqual(FilterCamPlugin.registrationProblem(filter("sepia")),
                       "the id is taken (filtercam filters lists the ids in use): give yours another")
        XCTAssertFalse(FilterCamPlugin.register(filter: filter("sepia")))
        XCTAssertEqual(FilterRegistry.shared.descriptor(id: "sepia")?.title, "Sepia Tone", "the catalog's sepia stays")
        XCTAssertFalse(FilterCamPlugin.register(filter: filter("My Filter")))
        XCTAssertNil(FilterRegistry.shared.descriptor(id: "My Filter"))
        XCTAssertTrue(FilterCamPlugin.registrationProblem(filter("clash", "name"))?.contains("'name' has the name of a property") == true)
        XCTAssertTrue(FilterCamPlugin.registrationProblem(filter("clash", "frames-processed"))?.contains("frames-processed") == true)
        XCTAssertNil(FilterCamPlugin.registrationProblem(filter("my-own-2")))
    }

    // MARK: The worked example

    func testPixelateExampleAgainstHandComputedBlockMeans() throws {
        FilterCamPlugin.register(filter: PixelateFilter.descriptor)
        let source = "videotestsrc num-buffers=1 pattern=smpte ! video/x-raw,format=BGRA,width=10,height=7"
        let input = try collectFrames(source)[0]
        let out = try collectFrames("\(source) ! fcpixelate block=4")[0]
        let viaChain = try collectFrames("\(source) ! filtercam filter=\"pixelate block=4\"")[0]
        XCTAssertEqual(out.bytes, viaChain.bytes)
        // Blocks from the top-left; the last column (x 8..9) and row (y 4..6) are smaller.
        for (bx, by) in [(0, 0), (4, 0), (8, 0), (0, 4), (8, 4)] {
            let w = min(4, 10 - bx), h = min(4, 7 - by)
            for c in 0..<4 {
                var sum = 0
                for y in by..<by + h { for x in bx..<bx + w { sum += Int(input.pixel(x, y)[c]) } }
                let n = w * h
                let mean = (sum + n / 2) / n
                for y in by..<by + h { for x in bx..<bx + w {
                    XCTAssertEqual(Int(out.pixel(x, y)[c]), mean, "block (\(bx),\(by)) channel \(c) at (\(x),\(y))")
                } }
            }
        }
    }

    /// The README's program that links FilterCam and registers the filter at start: its
    /// element is registered once, so nothing reads a replaced (freed) element factory.
    func testPixelateDemoRegistersItsElementOnce() throws {
        let demo = Build.directory + "/pixelate-demo"
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: demo), "no pixelate-demo at \(demo): run `swift build`")
        let r = try runProcess(demo, ["videotestsrc num-buffers=5 ! fcpixelate block=4 ! fakesink"], timeout: 60)
        XCTAssertEqual(r.status, 0, r.summary)
        XCTAssertFalse(r.stderr.contains("CRITICAL"), r.stderr)
        XCTAssertTrue(r.stderr.contains("processed=5"), r.stderr)
    }

    /// The README's program given a mistake says it in a line and exits 1, as `filtercam
    /// launch` does (it crashed on a thrown error, and segfaulted in kmssink without a display).
    func testPixelateDemoSaysMistakesInsteadOfCrashing() throws {
        let demo = Build.directory + "/pixelate-demo"
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: demo), "no pixelate-demo at \(demo): run `swift build`")
        for (arguments, says) in [
            (["videotestsrc num-buffers=5 ! fcpixelate block=0 ! fakesink"], "pixelate-demo: invalid value 0 for fcpixelate0.block: 'block' takes an integer from 1 to 256"),
            (["videotestsrc num-buffers=5 ! fcpixelat ! fakesink"], "pixelate-demo: no element \"fcpixelat\""),
            (["videotestsrc num-buffers=5 ! video/x-raw,format=I420 ! fcpixelate ! fakesink"], "hint: fcpixelate0 cannot take I420 frames: put videoconvert in front of it"),
        ] {
            let r = try runProcess(demo, arguments, timeout: 60)
            XCTAssertEqual(r.status, 1, r.summary)
            XCTAssertTrue(r.stderr.contains(says), r.stderr)
            XCTAssertFalse(r.stderr.contains("Fatal error") || r.stderr.contains("crashed"), r.stderr)
        }
        let noDisplay = try runProcess(demo, [], environment: ["DISPLAY": nil, "WAYLAND_DISPLAY": nil], timeout: 60)
        XCTAssertEqual(noDisplay.status, 1, noDisplay.summary)
        XCTAssertTrue(noDisplay.stderr.contains("pixelate-demo: this pipeline opens a window (autovideosink), but there is no display"), noDisplay.stderr)
        let help = try runProcess(demo, ["--help"], timeout: 60)
        XCTAssertEqual(help.status, 0, help.summary)
        XCTAssertTrue(help.stdoutText.hasPrefix("usage: pixelate-demo [DESCRIPTION]"), help.stdoutText)
    }

    func testPixelatePluginLoadsInStockGstLaunch() throws {
        let r = try runGstTool("gst-inspect-1.0", ["fcpixelate"])
        XCTAssertEqual(r.status, 0, r.summary)
        XCTAssertTrue(r.stdoutText.contains("block size in pixels"), r.stdoutText)
        let run = try runGstTool("gst-launch-1.0", ["-q", "videotestsrc", "num-buffers=3", "!", "fcpixelate", "block=4", "!", "fakesink"])
        XCTAssertEqual(run.status, 0, run.summary)
    }
}
