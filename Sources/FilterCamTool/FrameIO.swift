import CGStreamer
import CFilterCamShim
import FilterCore
import FilterCamHost
import Foundation

/// Reading and writing single frames through GStreamer pipelines: test pictures in,
/// PNG files out (for `filtercam filters --preview` and tests).
public enum FrameIO {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Runs a pipeline ending in an appsink named `out` and returns the first frame as
    /// packed bytes with its caps' size (the pipeline must deliver 4-byte RGBA-like pixels).
    public static func captureFrame(_ description: String, format: PixelFormat = .rgba) throws -> PixelBuffer {
        let pipeline = try Pipeline(description: description + " ! videoconvert ! video/x-raw,format=\(format.rawValue) ! appsink name=out sync=false")
        guard let sink = pipeline.element(named: "out") else { throw Failure(description: "no appsink") }
        pipeline.setState(GST_STATE_PLAYING)
        // Up to 10 s for the frame, but not past an ERROR (a file that is no picture: the
        // appsink waited the whole 10 s for a frame that could not come).
        var pulled: GstOwnedSample?
        for _ in 0..<100 where pulled == nil {
            pulled = GstOwnedSample(gst_app_sink_try_pull_sample(sink.asAppSink, 100_000_000))
            if pulled == nil, GstOwned(gst_bus_pop_filtered(pipeline.bus, GST_MESSAGE_ERROR)) != nil { break }
        }
        guard let sample = pulled else {
            throw Failure(description: "no frame from '\(description)'")
        }
        var info = GstVideoInfo()
        gst_video_info_from_caps(&info, sample.caps)
        var frame = GstVideoFrame()
        guard gst_video_frame_map(&frame, &info, sample.buffer, GST_MAP_READ) != 0 else {
            throw Failure(description: "cannot map frame")
        }
        defer { gst_video_frame_unmap(&frame) }
        let out = PixelBuffer(width: Int(info.width), height: Int(info.height), format: format)
        out.view.copyPixels(from: FrameView(base: UnsafeMutableRawPointer(fc_video_frame_plane_data(&frame)!),
            width: out.width, height: out.height, stride: Int(fc_video_frame_stride(&frame)), format: format))
        return out
    }

    /// Writes a frame as PNG.
    public static func writePNG(_ frame: PixelBuffer, to path: String) throws {
        let bytes = try png(frame)
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw Failure(description: "could not write '\(path)': \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        if let error = bytes.withUnsafeBytes({ WholeWrite.write($0, to: fd) }).error {
            throw Failure(description: "could not write '\(path)': \(String(cString: strerror(error)))")
        }
    }

    /// A frame as PNG bytes, with GStreamer's pngenc.
    public static func png(_ frame: PixelBuffer) throws -> [UInt8] {
        let caps = "video/x-raw,format=\(frame.format.rawValue),width=\(frame.width),height=\(frame.height),framerate=0/1"
        let pipeline = try Pipeline(description: "appsrc name=in caps=\"\(caps)\" format=time ! videoconvert ! pngenc ! appsink name=out sync=false")
        guard let src = pipeline.element(named: "in"), let sink = pipeline.element(named: "out") else { throw Failure(description: "no appsrc") }
        defer { pipeline.setState(GST_STATE_NULL) }
        pipeline.setState(GST_STATE_PLAYING)
        let bytes = frame.packedBytes
        let buffer = gst_buffer_new_allocate(nil, gsize(bytes.count), nil)!
        _ = bytes.withUnsafeBytes { gst_buffer_fill(buffer, 0, $0.baseAddress, gsize(bytes.count)) }
        gst_app_src_push_buffer(src.asAppSrc, buffer)
        gst_app_src_end_of_stream(src.asAppSrc)
        guard let sample = GstOwnedSample(gst_app_sink_try_pull_sample(sink.asAppSink, 10_000_000_000)), let encoded = sample.buffer else {
            throw Failure(description: "pngenc gave no picture")
        }
        var png = [UInt8](repeating: 0, count: Int(gst_buffer_get_size(encoded)))
        _ = png.withUnsafeMutableBytes { gst_buffer_extract(encoded, 0, $0.baseAddress, gsize($0.count)) }
        return png
    }
}

/// `filtercam filters --preview DIR`: one PNG per filter, made from one photo (a face and
/// colours, so that mono, posterize or invert can be judged), scaled to `width`×`height`
/// with its aspect kept (borders if it differs). Filters whose defaults change nothing are
/// shown with an example setting (`FilterShowcase`), as in the gallery.
public enum FilterPreview {
    public static let width = 160, height = 120

    /// `lut` as a look of the catalog shows it (teal-orange, shipped, if it is there):
    /// without a file it changes nothing, and its preview was the photo untouched (the
    /// shipped look was found only from the repository's folder). Nil: no look at all.
    static var lookExample: String? {
        let ids = FilterRegistry.shared.ids
        return ids.contains("look:teal-orange") ? "look:teal-orange" : ids.first { $0.hasPrefix("look:") }
    }

    /// One PNG per filter into `folder` (`only`: that filter's alone); `lut` is left out
    /// when there is no look to show it with.
    public static func write(to folder: String, picture: String, only: String? = nil) throws -> [String] {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: picture, isDirectory: &isFolder), isFolder.boolValue {
            throw FrameIO.Failure(description: "\(picture.quotedForMessage) is a folder, not a picture")
        }
        guard access(picture, R_OK) == 0 else {
            throw FrameIO.Failure(description: "cannot read the picture \(picture.quotedForMessage): \(String(cString: strerror(errno)))")
        }
        // Read before the folder is made: a picture that fails leaves nothing behind.
        let source: PixelBuffer
        do {
            source = try self.source(picture: picture, width: width, height: height)
        } catch {
            // (The message was the internal pipeline's: "no frame from 'uridecodebin …'".)
            throw FrameIO.Failure(description: "\(picture.quotedForMessage) is not a picture FilterCam can read (GStreamer decodes none from it)")
        }
        try makeFolder(folder)
        var written: [String] = []
        for d in FilterRegistry.shared.all where only == nil || d.id == only {
            if d.id == "lut" && lookExample == nil { continue }
            // `look:NAME` is written `look-NAME.png`: a colon is no file name character everywhere.
            let path = (folder as NSString).appendingPathComponent("\(d.id.replacingOccurrences(of: ":", with: "-")).png")
            try FrameIO.writePNG(try filtered(source, by: d.id), to: path)
            written.append(path)
        }
        return written
    }

    /// Makes `folder` and the folders above it that are missing, or says in words why it
    /// cannot (Foundation's own error read "A file with the same name already exists").
    static func makeFolder(_ folder: String) throws {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) {
            guard isFolder.boolValue else { throw FrameIO.Failure(description: "\(folder.quotedForMessage) is a file, not a folder") }
            guard access(folder, W_OK) == 0 else {
                throw FrameIO.Failure(description: "cannot write in the folder \(folder.quotedForMessage): \(String(cString: strerror(errno)))")
            }
            return
        }
        let parent = (folder as NSString).deletingLastPathComponent
        if !parent.isEmpty && parent != folder { try makeFolder(parent) }
        guard mkdir(folder, 0o777) == 0 || errno == EEXIST else {
            throw FrameIO.Failure(description: "cannot make the folder \(folder.quotedForMessage): \(String(cString: strerror(errno)))")
        }
    }

    /// The picture every preview starts from, at `width`×`height`: the photo, or without
    /// one GStreamer's test colours.
    public static func source(picture: String?, width: Int, height: Int) throws -> PixelBuffer {
        guard let picture else {
            return try FrameIO.captureFrame("videotestsrc num-buffers=1 pattern=colors ! video/x-raw,width=\(width),height=\(height)")
        }
        // A file URI: percent-encoded, so any path is one word of the description.
        let uri = URL(fileURLWithPath: picture).absoluteString
        return try FrameIO.captureFrame("uridecodebin uri=\(uri) ! videoconvert ! video/x-raw,format=RGBA ! videoscale "
                                        + "! video/x-raw,width=\(width),height=\(height),pixel-aspect-ratio=1/1")
    }

    /// A copy of `source` through filter `id` as its thumbnail shows it.
    public static func filtered(_ source: PixelBuffer, by id: String) throws -> PixelBuffer {
        let frame = PixelBuffer(width: source.width, height: source.height, format: source.format)
        frame.view.copyPixels(from: source.view)
        let chain = id == "lut" ? lookExample ?? id : FilterShowcase.chain(for: id)
        try FilterChain.parse(chain).makeFilters().apply(to: frame.view)
        return frame
    }
}
