import CGStreamer
import CFilterCamShim
import FilterCore
import Foundation

/// Encodes stills with GStreamer's `jpegenc` (and `jifmux` for the EXIF metadata), and
/// writes them atomically: a temporary name in the same folder, then a rename, so a
/// reader never sees a half-written JPEG.
enum JPEGWriter {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// JPEG bytes of `frame` at `quality` (1–100). `exifOrientation` (1–8) is written as
    /// the EXIF Orientation tag; the application name and date go into EXIF too.
    static func encode(_ frame: PixelBuffer, quality: Int, exifOrientation: Int) throws -> Data {
        // jpegenc takes BGRx/RGBx but not BGRA/RGBA: the same bytes, relabelled.
        let format = frame.format == .bgra || frame.format == .bgrx ? "BGRx" : "RGBx"
        let caps = "video/x-raw,format=\(format),width=\(frame.width),height=\(frame.height),framerate=0/1"
        let pipeline = try Pipeline(description:
            "appsrc name=src format=time caps=\"\(caps)\" ! jpegenc quality=\(quality) ! jifmux name=mux ! appsink name=sink sync=false")
        guard let src = pipeline.element(named: "src"), let sink = pipeline.element(named: "sink"),
              let mux = pipeline.element(named: "mux") else { throw Failure(description: "encoder pipeline incomplete") }
        let tag = OrientationMethod(exifOrientation: exifOrientation)?.imageOrientationTag ?? "rotate-0"
        let now = ISO8601DateFormatter().string(from: Date())
        if let tags = gst_tag_list_new_from_string("taglist, image-orientation=(string)\(tag), application-name=(string)FilterCam, datetime=(datetime)\(now)")
            ?? gst_tag_list_new_from_string("taglist, image-orientation=(string)\(tag), application-name=(string)FilterCam") {
            gst_tag_setter_merge_tags(OpaquePointer(mux), tags, GST_TAG_MERGE_REPLACE)
            gst_tag_list_unref(tags)
        }
        pipeline.setState(GST_STATE_PLAYING)
        let bytes = frame.packedBytes
        let buffer = gst_buffer_new_allocate(nil, gsize(bytes.count), nil)!
        _ = bytes.withUnsafeBytes { gst_buffer_fill(buffer, 0, $0.baseAddress, gsize(bytes.count)) }
        guard gst_app_src_push_buffer(src.asAppSrc, buffer) == GST_FLOW_OK else {
            throw Failure(description: "the JPEG encoder refused the frame")
        }
        gst_app_src_end_of_stream(src.asAppSrc)
        var data = Data()
        while let sample = gst_app_sink_try_pull_sample(sink.asAppSink, 10_000_000_000) {
            if let b = gst_sample_get_buffer(sample) {
                var map = GstMapInfo()
                if gst_buffer_map(b, &map, GST_MAP_READ) != 0 {
                    data.append(map.data, count: Int(map.size))
                    gst_buffer_unmap(b, &map)
                }
            }
            gst_sample_unref(sample)
        }
        guard data.count > 4, data[0] == 0xFF, data[1] == 0xD8 else {
            throw Failure(description: "the JPEG encoder produced no image")
        }
        return data
    }

    /// Writes `data` to `path` through a temporary file in the same folder and a rename.
    /// Nothing is left behind when it fails; the error says why, naming the path.
    static func writeAtomically(_ data: Data, to path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        let dir = folder.isEmpty ? "." : folder
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDir), isDir.boolValue else {
            throw Failure(description: "cannot write snapshot \(path): folder '\(dir)' does not exist")
        }
        let temporary = (dir as NSString).appendingPathComponent(".\((path as NSString).lastPathComponent).\(getpid()).partial")
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard fd >= 0 else {
            throw Failure(description: "cannot write snapshot \(path): \(String(cString: strerror(errno)))")
        }
        var failure: String? = nil
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n <= 0 {
                    failure = String(cString: strerror(n < 0 ? errno : ENOSPC))
                    return
                }
                offset += n
            }
        }
        if failure == nil && fsync(fd) != 0 { failure = String(cString: strerror(errno)) }
        close(fd)
        if failure == nil && rename(temporary, path) != 0 { failure = String(cString: strerror(errno)) }
        if let failure {
            unlink(temporary)
            throw Failure(description: "cannot write snapshot \(path): \(failure)")
        }
    }
}
