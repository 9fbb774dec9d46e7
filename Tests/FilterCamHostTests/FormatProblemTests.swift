import CFilterCamShim
import CGStreamer
@testable import FilterCamHost
import FilterCamTool
import FilterCamTestSupport
import Foundation
import XCTest

/// Each cause of frames not entering or leaving a FilterCam element gets its own remedy:
/// compressed input a decoder, a raw format it does not take videoconvert, interlaced
/// frames deinterlace, a fixed size after a turn videoscale.
final class FormatProblemTests: XCTestCase {
    override func setUp() {
        GStreamer.initialize()
    }

    /// What `FormatProblem` finds in `offered` for `filtercam`'s caps.
    private func problem(_ offered: String) -> FormatProblem? {
        let accepted = gst_caps_from_string(FrameWorker.caps)!, caps = gst_caps_from_string(offered)!
        defer { gst_caps_unref(accepted); gst_caps_unref(caps) }
        return FormatProblem(offered: caps, accepted: accepted)
    }

    func testEachCauseIsFoundInTheOfferedCaps() {
        XCTAssertEqual(problem("image/jpeg, width=640, height=480"), .encoded(media: "image/jpeg"))
        XCTAssertEqual(problem("video/x-h264, stream-format=byte-stream"), .encoded(media: "video/x-h264"))
        XCTAssertEqual(problem("video/x-raw, format=Y444, width=64, height=48"), .unsupportedFormat("Y444"))
        XCTAssertEqual(problem("video/x-raw, format=I420, width=64, height=48, interlace-mode=interleaved"), .interlaced)
    }

    func testCapsOneOfWhichFitsAreNoProblem() {
        XCTAssertNil(problem("video/x-raw, format=I420, width=64, height=48"))
        XCTAssertNil(problem("image/jpeg; video/x-raw, format=YUY2"), "a camera offering MJPEG and YUY2")
        XCTAssertNil(problem("video/x-raw, format=I420, interlace-mode=progressive"))
    }

    func testRawVideoInAnotherFormatNeedsOnlyVideoconvertEvenBesideCompressed() {
        XCTAssertEqual(problem("image/jpeg; video/x-raw, format=GRAY8"), .unsupportedFormat("GRAY8"))
    }

    func testEachHintNamesItsOwnRemedy() {
        let encoded = FormatProblem.encoded(media: "image/jpeg").hint(for: "fc")
        XCTAssertTrue(encoded.contains("jpegdec") && encoded.contains("decoder"), encoded)
        XCTAssertFalse(encoded.contains("videoconvert"), encoded)
        let h264 = FormatProblem.encoded(media: "video/x-h264").hint(for: "fc")
        XCTAssertTrue(h264.contains("decodebin"), h264)
        let raw = FormatProblem.unsupportedFormat("Y444").hint(for: "fc")
        XCTAssertTrue(raw.contains("videoconvert") && raw.contains("Y444") && !raw.contains("decoder"), raw)
        let interlaced = FormatProblem.interlaced.hint(for: "fc")
        XCTAssertTrue(interlaced.contains("deinterlace"), interlaced)
        let fixed = FormatProblem.refusedDownstream().hint(for: "fc")
        XCTAssertTrue(fixed.contains("videoscale") && fixed.contains("after fc"), fixed)
        XCTAssertFalse(fixed.contains("in front"), fixed)
        // A scaler already after it: the size is fixed further down, not "put videoscale".
        let past = FormatProblem.refusedDownstream(gives: "240x320 I420", takes: "320x240", scaler: "videoscale0").hint(for: "fc")
        XCTAssertTrue(past.contains("past videoscale0") && past.contains("fc gives 240x320 I420"), past)
        XCTAssertFalse(past.contains("put videoconvert"), past)
        // What follows takes the frames: it said "its frames do not fit (fc gives NV12,
        // what follows it takes NV12)" when a queue passed on a refusal from further down.
        let further = FormatProblem.refusedDownstream(gives: "320x240 NV12", takes: "NV12", fitsNext: true).hint(for: "fc")
        XCTAssertTrue(further.contains("further downstream") && further.contains("(320x240 NV12)"), further)
        XCTAssertFalse(further.contains("do not fit") || further.contains("put videoconvert"), further)
    }

    // MARK: Through the element

    /// The first ERROR's source and text.
    private func firstError(_ description: String, push: ((Pipeline) -> Void)? = nil) throws -> (String, String) {
        let pipeline = try Pipeline(description: description)
        pipeline.setState(GST_STATE_PLAYING)
        push?(pipeline)
        let message = try XCTUnwrap(gst_bus_timed_pop_filtered(pipeline.bus, 10_000_000_000, GST_MESSAGE_ERROR), "an error")
        defer { gst_message_unref(message) }
        pipeline.setState(GST_STATE_NULL)
        let source = String(cString: gst_object_get_name(message.pointee.src))
        return (source, BusProblem(message)?.text(or: "") ?? "")
    }

    /// Pushes one buffer into the appsrc named `app` (its caps then go downstream).
    private func pushOne(_ pipeline: Pipeline) {
        guard let app = pipeline.element(named: "app") else { return XCTFail("no appsrc") }
        _ = gst_app_src_push_buffer(app.asAppSrc, gst_buffer_new_allocate(nil, 64, nil))
    }

    /// The error `fc` posts when an appsrc with `caps` pushes a buffer into it.
    private func errorForInput(_ caps: String) throws -> String {
        let (source, text) = try firstError("appsrc name=app format=time caps=\(caps) ! filtercam name=fc ! fakesink", push: pushOne)
        XCTAssertEqual(source, "fc")
        return text
    }

    func testCompressedInputIsNamedByTheElementWithADecoder() throws {
        let text = try errorForInput("image/jpeg,width=64,height=48,framerate=30/1")
        XCTAssertTrue(text.contains("image/jpeg") && text.contains("jpegdec"), text)
    }

    func testAFixedSizeAfterATurnIsNamedWithVideoscale() throws {
        // A source that cannot follow the CAPS query (an application's appsrc, fixed caps):
        // the element finds out when its turned frame is refused.
        let (source, text) = try firstError(
            "appsrc name=app format=time caps=video/x-raw,format=BGRx,width=64,height=48,framerate=30/1 ! filtercam name=fc orientation=90r ! video/x-raw,width=64,height=48 ! fakesink",
            push: { pipeline in
                guard let app = pipeline.element(named: "app") else { return XCTFail("no appsrc") }
                _ = gst_app_src_push_buffer(app.asAppSrc, gst_buffer_new_allocate(nil, 64 * 48 * 4, nil))
            })
        XCTAssertEqual(source, "fc")
        XCTAssertTrue(text.contains("videoscale") && text.contains("after fc"), text)
        XCTAssertTrue(text.contains("fc gives 48x64 BGRx, what follows it takes 64x48"), text)
    }

    func testALensCropBeforeAFixedSizeNamesBothSizes() throws {
        // A source that cannot follow the CAPS query gives 64x48; the lens crop makes it
        // 32x24, which the caps after refuse.
        let (source, text) = try firstError(
            "appsrc name=app format=time caps=video/x-raw,format=I420,width=64,height=48,framerate=30/1 ! "
                + "filtercam name=fc lens=0.25,0.25,0.5,0.5 lens-crop=true ! video/x-raw,width=64,height=48 ! fakesink",
            push: { pipeline in
                guard let app = pipeline.element(named: "app") else { return XCTFail("no appsrc") }
                _ = gst_app_src_push_buffer(app.asAppSrc, gst_buffer_new_allocate(nil, 64 * 48 * 3 / 2, nil))
            })
        XCTAssertEqual(source, "fc")
        XCTAssertTrue(text.contains("fc gives 32x24 I420, what follows it takes 64x48"), text)
        XCTAssertTrue(text.contains("videoscale after it"), text)
    }

    func testAFixedSizeAfterATurnIsALinkErrorWithTheVideoscaleHint() throws {
        // As through videoflip: the parser cannot link the caps after the turned element.
        let hint = try XCTUnwrap(linkHint(
            "videotestsrc ! video/x-raw,format=BGRx,width=64,height=48 ! filtercam name=fc orientation=90r ! video/x-raw,width=64,height=48 ! fakesink"))
        XCTAssertTrue(hint.contains("videoscale") && hint.contains("after fc"), hint)
    }

    func testASourceThatCannotMeetAFixedSizeAfterATurnGetsTheVideoscaleHint() throws {
        // Turned after the description was linked: the source (videotestsrc fixed to
        // 64x48) finds nothing to send, as through videoflip, and fails with
        // not-negotiated; `filtercam launch` names the cause.
        let pipeline = try Pipeline(description:
            "videotestsrc num-buffers=3 ! video/x-raw,format=BGRx,width=64,height=48 ! filtercam name=fc ! video/x-raw,width=64,height=48 ! fakesink")
        GStreamer.set(UnsafeMutableRawPointer(try XCTUnwrap(pipeline.element(named: "fc"))), "orientation", "90r")
        pipeline.setState(GST_STATE_PLAYING)
        let message = try XCTUnwrap(gst_bus_timed_pop_filtered(pipeline.bus, 10_000_000_000, GST_MESSAGE_ERROR), "an error")
        gst_message_unref(message)
        let hint = try XCTUnwrap(FormatProblem.inputHint("fc", try XCTUnwrap(pipeline.element(named: "fc"))))
        pipeline.setState(GST_STATE_NULL)
        XCTAssertTrue(hint.contains("videoscale") && hint.contains("after fc"), hint)
    }

    /// The element gives its input's format: an encoder that takes no RGB after an RGB
    /// input needs a videoconvert between them (it said "the format or size is fixed").
    func testAFormatWhatFollowsDoesNotTakeIsNamedWithVideoconvertBetween() throws {
        let hint = try XCTUnwrap(linkHint("videotestsrc ! video/x-raw,format=BGRx ! filtercam name=fc ! x264enc name=enc ! fakesink"))
        XCTAssertTrue(hint.hasPrefix("fc gives frames in its input's format, BGRx, which enc does not take: put videoconvert between them"), hint)
        XCTAssertTrue(hint.contains("enc takes") && hint.contains("I420"), hint)
    }

    /// Between two stock elements (a webcam's YUY2 into record.pipeline's `format=I420`, or
    /// straight into x264enc), GStreamer says only "can't handle caps": the conversion that
    /// fits is named, and nothing where converting would not help (a rate, audio).
    func testAFormatOnlyMismatchBetweenTwoOtherElementsIsNamedWithVideoconvert() throws {
        let intoCaps = try XCTUnwrap(linkHint(
            "videotestsrc name=cam ! video/x-raw,format=YUY2,width=640,height=480 ! capsfilter name=want caps=video/x-raw,format=I420 ! fakesink"))
        XCTAssertEqual(intoCaps, "cam gives YUY2, which want does not take: put videoconvert between them (want takes I420)")
        let intoEncoder = try XCTUnwrap(linkHint("videotestsrc name=cam ! video/x-raw,format=YUY2 ! x264enc name=enc ! fakesink"))
        XCTAssertTrue(intoEncoder.hasPrefix("cam gives YUY2, which enc does not take: put videoconvert between them (enc takes ")
                      && intoEncoder.contains("I420"), intoEncoder)
        XCTAssertNil(linkHint("videotestsrc ! video/x-raw,format=YUY2,framerate=5/1 ! capsfilter caps=video/x-raw,format=I420,framerate=30/1 ! fakesink"),
                     "a rate videoconvert does not change")
        XCTAssertNil(linkHint("audiotestsrc ! videoconvert ! fakesink"))
    }

    /// A size between filtercamsrc and the element (snapshot.pipeline with
    /// SOURCE=filtercamsrc) is the preset's to give (the hint listed every format cause).
    func testASizeTheCamerasPresetDoesNotGiveIsNamedWithThePreset() throws {
        let hint = try XCTUnwrap(linkHint("filtercamsrc name=cam camera=test:smpte ! video/x-raw,width=1280,height=720,framerate=30/1 ! filtercam ! fakesink"))
        XCTAssertTrue(hint.hasPrefix("cam gives the size of its preset") && hint.contains("choose the preset of that size"), hint)
        XCTAssertFalse(hint.contains("videorate"), "30 fps is what it gives: \(hint)")
    }

    func testCompressedVideoAfterTheElementIsNamedWithAnEncoder() throws {
        let hint = try XCTUnwrap(linkHint("videotestsrc ! filtercam name=fc ! jpegdec ! fakesink"))
        XCTAssertTrue(hint.contains("image/jpeg") && hint.contains("jpegenc") && hint.contains("after it"), hint)
        XCTAssertFalse(hint.contains("videoscale"), hint)
    }

    func testARawFormatItDoesNotTakeIsNamedByTheElementWithVideoconvert() throws {
        let text = try errorForInput("video/x-raw,format=Y41B,width=64,height=48,framerate=30/1")
        XCTAssertTrue(text.contains("Y41B") && text.contains("videoconvert in front"), text)
        XCTAssertFalse(text.contains("decoder"), text)
    }

    // MARK: A link that fails while the description is parsed

    /// The hint `Pipeline` gives for a description whose link fails.
    private func linkHint(_ description: String) -> String? {
        do {
            _ = try Pipeline(description: description)
            XCTFail("'\(description)' parsed")
            return nil
        } catch {
            return (error as? Pipeline.ParseError)?.linkHint
        }
    }

    func testEncodedInputAtParseTimeGetsADecoder() throws {
        let hint = try XCTUnwrap(linkHint("videotestsrc ! jpegenc ! filtercam name=fc ! fakesink"))
        XCTAssertTrue(hint.hasPrefix("fc ") && hint.contains("image/jpeg") && hint.contains("jpegdec") && hint.contains("in front of it"), hint)
        XCTAssertFalse(hint.contains("videoconvert"), hint)
    }

    /// GL textures need gldownload, not the generic hint's decoder or videoconvert (a tester
    /// followed it: `gltestsrc ! videoconvert ! filtercam` failed the same way).
    func testGLMemoryAtParseTimeGetsGldownload() throws {
        let hint = try XCTUnwrap(linkHint("gltestsrc num-buffers=1 ! filtercam name=fc ! fakesink"))
        XCTAssertEqual(hint, "fc takes video in system memory, and upstream gives only memory:GLMemory: put gldownload in front of it")
    }

    func testAnUnsupportedRawFormatAtParseTimeGetsVideoconvert() throws {
        for description in ["videotestsrc ! video/x-raw,format=Y41B ! filtercam name=fc ! fakesink",
                            "videotestsrc ! video/x-raw,format=Y41B ! identity ! filtercam name=fc ! fakesink"] {
            let hint = try XCTUnwrap(linkHint(description), description)
            XCTAssertTrue(hint.contains("Y41B") && hint.contains("videoconvert in front of it") && hint.hasPrefix("fc "), hint)
            XCTAssertFalse(hint.contains("decoder") || hint.contains("videoscale"), hint)
        }
    }
}
