import FilterCamTestSupport
import XCTest
import CGStreamer
import CFilterCamShim
@testable import FilterCamHost
@testable import FilterCamTool

/// Every part of every element refuses a bad value the same way, under the property's own
/// name: the previous value stays, and before the element runs the refusal becomes the
/// ERROR that stops it from starting (a pipeline description must not start half-set).
final class ElementPartsTests: XCTestCase {
    override class func setUp() { GStreamer.initialize() }

    /// (element description, property, bad value, words the reason must contain)
    let cases: [(String, String, String, [String])] = [
        ("filtercam", "filter", "sepiaa", ["sepia"]),                          // the element's own part
        ("filtercam", "lens", "0.5,0.5,0.9,0.9", ["lens"]),
        ("filtercam", "snapshot-location", "still.jpg", ["%05d"]),            // the snapshot branch
        ("filtercam", "snapshot-bracket", "-1,x", ["x"]),
        ("fcchannel-mix", "matrix", "1,2,3", ["12"]),                          // a single-filter element
        ("filtercamsrc camera=test:ball", "white-balance", "500", ["2000"]),   // the camera source
        ("filtercamsrc", "camera", "test:nosuchpattern", ["pattern"]),
    ]

    func testEveryPartRefusesUnderThePropertysNameAndKeepsTheOldValue() throws {
        for (description, property, bad, words) in cases {
            let pipeline = try Pipeline(description: "\(description) name=e ! fakesink")
            let e = try pipeline.requireElement("e")
            let before = Pipeline.property(e, property)
            try Pipeline.setProperty(e, property, bad)   // GObject setters cannot fail: the element keeps the refusal
            XCTAssertEqual(Pipeline.property(e, property), before, "\(property): the previous value stays")
            XCTAssertEqual(pipeline.setState(GST_STATE_PAUSED), GST_STATE_CHANGE_FAILURE, "\(description) \(property)=\(bad) must not start")
            let error = try XCTUnwrap(pipeline.popError(), "\(property): an ERROR on the bus")
            XCTAssertTrue(error.hasPrefix("e: invalid \(property) "), "\(property): named with the element: \(error)")
            for w in words { XCTAssertTrue(error.contains(w), "\(property): the reason names \(w): \(error)") }
            pipeline.setState(GST_STATE_NULL)
        }
    }

    /// A missing part is named with the Debian package that brings it: capsfilter comes
    /// with GStreamer's core, not gst-plugins-base (the message said plugins-base for all).
    func testMissingPartsNameThePackageThatBringsEach() {
        XCTAssertEqual(ElementParts.origins(of: ["capsfilter"]), "from GStreamer's core elements (Debian: libgstreamer1.0-0)")
        XCTAssertEqual(ElementParts.origins(of: ["appsink", "appsrc"]),
                       "from the app plugin of gst-plugins-base (Debian: gstreamer1.0-plugins-base)")
        let both = ElementParts.origins(of: ["videorate", "capsfilter"])
        XCTAssertTrue(both.contains("libgstreamer1.0-0") && both.contains("gst-plugins-base (Debian: gstreamer1.0-plugins-base)"), both)
    }

    func testCountersAreDeclaredOnceByTheWorkerAndReadByName() throws {
        let pipeline = try Pipeline(description: "videotestsrc num-buffers=5 ! video/x-raw,format=BGRA,width=64,height=48 ! filtercam name=e filter=sepia ! fakesink")
        let e = try pipeline.requireElement("e")
        pipeline.setState(GST_STATE_PLAYING)
        _ = gst_bus_timed_pop_filtered(pipeline.bus, 10_000_000_000, GstMessageType(rawValue: GST_MESSAGE_EOS.rawValue | GST_MESSAGE_ERROR.rawValue))
        XCTAssertEqual(counter(e, "frames-processed"), 5)
        XCTAssertEqual(counter(e, "frames-dropped"), 0)
        pipeline.setState(GST_STATE_NULL)
        let names = FilterCamElement.elementClass.properties.map(\.name)
        XCTAssertEqual(Set(names).count, names.count, "no property declared twice")
        for name in ["frames-processed", "frames-dropped"] {
            XCTAssertEqual(names.filter { $0 == name }.count, 1)
            XCTAssertEqual(CameraSourceElement.properties.filter { $0.name == name }.count, 0)
        }
    }
}
