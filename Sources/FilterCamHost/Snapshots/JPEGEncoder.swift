import CGStreamer
import CFilterCamShim
import FilterCore
import FoundationEssentials

/// A running `appsrc ! jpegenc ! jifmux ! appsink` pipeline that encodes still after still
/// of one size, format and quality. Building and starting the pipeline costs more than
/// encoding a VGA frame, so a series of stills keeps one encoder (`SnapshotBranch` keeps
/// it while stills keep coming). Stills are pushed and their JPEGs pulled in order, so a
/// writer can push the next still before writing the last one's file (the EXIF tags go
/// in-band, as a TAG event in front of each frame). Not thread-safe: one thread uses it.
final class JPEGEncoder {
    let shape: StillPixels, quality: Int
    private let ownedPipeline: GstOwned<GstElement>
    private var pipeline: UnsafeMutablePointer<GstElement> { ownedPipeline.pointer }
    private let source: UnsafeMutablePointer<GstElement>
    private let sink: UnsafeMutablePointer<GstElement>
    private let muxer: UnsafeMutablePointer<GstElement>

    init(for frame: StillPixels, quality: Int) throws {
        shape = frame
        self.quality = quality
        let caps = frame.caps
        // Our own description (no user input): a parse error here means a missing plugin.
        let parsed: GstOwned<GstElement>
        do {
            parsed = try GStreamer.launch(
                "appsrc name=src format=time caps=\"\(caps)\" ! jpegenc quality=\(quality) ! jifmux name=mux ! appsink name=sink sync=false")
        } catch {
            // An element that cannot be made (its plugin did not load: too many open files, a
            // broken install) is named; the parser said `no property "quality" in element
            // "jpegenc"` of the placeholder it made instead.
            let missing = ["appsrc", "jpegenc", "jifmux", "appsink"].first { name in
                guard let made = gst_element_factory_make(name, nil) else { return true }
                gst_object_unref(made)
                return false
            }
            throw JPEGWriter.Failure(description: missing.map { "the JPEG encoder could not be built: GStreamer cannot make the element \($0) (its plugin is missing or did not load; GST_DEBUG=*:2 says why)" }
                ?? "the JPEG encoder could not be built: \(error)")
        }
        ownedPipeline = parsed
        guard let src = parsed.child(named: "src"), let sink = parsed.child(named: "sink"), let mux = parsed.child(named: "mux") else {
            throw JPEGWriter.Failure(description: "JPEG encoder pipeline incomplete")
        }
        source = src
        self.sink = sink
        muxer = mux
        // Each still's TAG event replaces the last one's tags.
        gst_tag_setter_set_tag_merge_mode(OpaquePointer(mux), GST_TAG_MERGE_REPLACE_ALL)
        guard gst_element_set_state(pipeline, GST_STATE_PLAYING) != GST_STATE_CHANGE_FAILURE else {
            throw JPEGWriter.Failure(description: "the JPEG encoder did not start")
        }
    }

    deinit {
        gst_element_set_state(pipeline, GST_STATE_NULL)   // then `ownedPipeline` lets go of it
    }

    /// Whether `frame` can go through this encoder at `quality`.
    func fits(_ frame: StillPixels, quality: Int) -> Bool {
        frame.sameShape(as: shape) && quality == self.quality
    }

    /// The local time now as ISO 8601 with its offset (`2026-12-02T03:30:00-05:00`), as the
    /// datetime tag takes it: EXIF's DateTimeOriginal is the camera's local time (GStreamer
    /// writes the time's fields as they are, so UTC showed an evening still as the next
    /// day's); XMP keeps the offset.
    static func nowISO8601() -> String {
        guard let now = g_date_time_new_now_local() else { return "" }
        defer { g_date_time_unref(now) }
        guard let text = g_date_time_format(now, "%Y-%m-%dT%H:%M:%S%:z") else { return "" }
        defer { g_free(text) }
        return String(cString: text)
    }

    /// Sends `frame` into the encoder with `exifOrientation` (1–8), the application name
    /// and the date as its EXIF tags; `pull()` gives its JPEG, in the order pushed.
    func push(_ frame: StillPixels, exifOrientation: Int, memory: StillMemory) throws {
        precondition(fits(frame, quality: quality), "a \(frame.caps) frame for a \(shape.caps) encoder")
        let tag = OrientationMethod(exifOrientation: exifOrientation)?.imageOrientationTag ?? "rotate-0"
        let now = Self.nowISO8601()
        if let tags = gst_tag_list_new_from_string("taglist, image-orientation=(string)\(tag), application-name=(string)FilterCam, datetime=(datetime)\(now)")
            ?? gst_tag_list_new_from_string("taglist, image-orientation=(string)\(tag), application-name=(string)FilterCam") {
            gst_element_send_event(source, gst_event_new_tag(tags))   // takes the list
        }
        guard gst_app_src_push_buffer(source.asAppSrc, frame.gstBuffer(returningTo: memory)) == GST_FLOW_OK else {
            throw JPEGWriter.Failure(description: "the JPEG encoder refused the frame")
        }
    }

    /// The JPEG of the oldest still pushed and not pulled yet.
    func pull() throws -> Data {
        guard let data = Self.pullBytes(from: sink) else {
            throw JPEGWriter.Failure(description: "the JPEG encoder produced no image within 10 s")
        }
        guard data.count > 4, data[0] == 0xFF, data[1] == 0xD8 else {
            throw JPEGWriter.Failure(description: "the JPEG encoder produced no image")
        }
        return data
    }

    /// The bytes of the next buffer an appsink gives, waiting at most 10 s.
    static func pullBytes(from sink: UnsafeMutablePointer<GstElement>) -> Data? {
        guard let sample = GstOwnedSample(gst_app_sink_try_pull_sample(sink.asAppSink, 10_000_000_000)) else { return nil }
        var data = Data()
        if let b = sample.buffer {
            var out = GstMapInfo()
            if gst_buffer_map(b, &out, GST_MAP_READ) != 0 {
                data.append(out.data, count: Int(out.size))
                gst_buffer_unmap(b, &out)
            }
        }
        return data
    }
}
