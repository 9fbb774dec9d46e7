import CGStreamer
import CFilterCamShim
@testable import FilterCamHost
@testable import FilterCamTool
import FilterCore
import FilterCamTestSupport
import XCTest

/// Region-of-interest metas follow the picture through a turn, a lens crop and a zoom
/// (by hand-worked rectangles), and metas with no geometry (reference timestamps) are
/// copied by every path.
final class MetaTransformTests: XCTestCase {
    /// One 64x48 BGRA frame with an ROI at (4, 6, 10, 8) and a reference timestamp meta,
    /// through `element`: the ROIs and whether the reference timestamp came out.
    func roundTrip(_ element: String) throws -> (rois: [PixelRect], referenceTimestamp: Bool) {
        let pipeline = try Pipeline(description:
            "appsrc name=src format=time caps=\"video/x-raw,format=BGRA,width=64,height=48,framerate=30/1\" ! \(element) ! appsink name=out sync=false")
        let src = try pipeline.requireElement("src"), sink = try pipeline.requireElement("out")
        XCTAssertNotEqual(pipeline.setState(GST_STATE_PLAYING), GST_STATE_CHANGE_FAILURE)
        let buffer = gst_buffer_new_allocate(nil, gsize(64 * 48 * 4), nil)!
        gst_buffer_memset(buffer, 0, 0x80, gsize(64 * 48 * 4))
        let roi = gst_buffer_add_video_region_of_interest_meta(buffer, "face", 4, 6, 10, 8)!
        roi.pointee.id = 7
        let reference = gst_caps_from_string("timestamp/x-test")!
        gst_buffer_add_reference_timestamp_meta(buffer, reference, 123, GstClockTime.max)
        gst_caps_unref(reference)
        buffer.pointee.pts = 0
        buffer.pointee.duration = GstClockTime(frameTime(1))
        XCTAssertEqual(gst_app_src_push_buffer(src.asAppSrc, buffer), GST_FLOW_OK)
        gst_app_src_end_of_stream(src.asAppSrc)
        defer { pipeline.setState(GST_STATE_NULL) }
        guard let sample = gst_app_sink_try_pull_sample(sink.asAppSink, 10 * 1_000_000_000) else {
            XCTFail("no frame from \(element): \(pipeline.popError() ?? "")")
            return ([], false)
        }
        defer { gst_sample_unref(sample) }
        let out = gst_sample_get_buffer(sample)!
        var rois: [PixelRect] = []
        var state: gpointer? = nil
        while let meta = gst_buffer_iterate_meta_filtered(out, &state, gst_video_region_of_interest_meta_api_get_type()) {
            let r = UnsafeMutableRawPointer(meta).assumingMemoryBound(to: GstVideoRegionOfInterestMeta.self).pointee
            XCTAssertEqual(r.id, 7, "the id travels with the region")
            rois.append(PixelRect(x: Int(r.x), y: Int(r.y), width: Int(r.w), height: Int(r.h)))
        }
        var refState: gpointer? = nil
        let hasReference = gst_buffer_iterate_meta_filtered(out, &refState, gst_reference_timestamp_meta_api_get_type()) != nil
        return (rois, hasReference)
    }

    func testRegionsFollowThePicture() throws {
        // In place: untouched.
        XCTAssertEqual(try roundTrip("filtercam filter=sepia").rois, [PixelRect(x: 4, y: 6, width: 10, height: 8)])
        // 90° clockwise of 64x48: (x, y, w, h) -> (48 − y − h, x, h, w) = (34, 4, 8, 10).
        XCTAssertEqual(try roundTrip("filtercam orientation=90r").rois, [PixelRect(x: 34, y: 4, width: 8, height: 10)])
        // 180°: (64 − x − w, 48 − y − h, w, h) = (50, 34, 10, 8).
        XCTAssertEqual(try roundTrip("filtercam orientation=180").rois, [PixelRect(x: 50, y: 34, width: 10, height: 8)])
        // Lens crop of the top-left quarter (32x24): the region keeps its place.
        XCTAssertEqual(try roundTrip("filtercam lens=0,0,0.5,0.5 lens-crop=true").rois, [PixelRect(x: 4, y: 6, width: 10, height: 8)])
        // Lens crop of the bottom-right quarter: the region is outside and dropped.
        XCTAssertEqual(try roundTrip("filtercam lens=0.5,0.5,0.5,0.5 lens-crop=true").rois, [])
        // Zoom 2 shows x 16..48, y 12..36 of the input, doubled: the region (x 4..14) lies left
        // of it, so it is dropped.
        XCTAssertEqual(try roundTrip("filtercam zoom=2").rois, [])
    }

    func testReferenceTimestampCopiedByEveryPath() throws {
        for element in ["filtercam filter=sepia", "filtercam orientation=90r", "filtercam zoom=2",
                        "filtercam lens=0,0,0.5,0.5 lens-crop=true", "fcsepia"] {
            XCTAssertTrue(try roundTrip(element).referenceTimestamp, element)
        }
    }
}
