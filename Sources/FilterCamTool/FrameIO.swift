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
        guard let sample = gst_app_sink_try_pull_sample(sink.asAppSink, 10_000_000_000) else {
            throw Failure(description: "no frame from '\(description)'")
        }
        defer { gst_sample_unref(sample) }
        var info = GstVideoInfo()
        gst_video_info_from_caps(&info, gst_sample_get_caps(sample))
        var frame = GstVideoFrame()
        guard gst_video_frame_map(&frame, &info, gst_sample_get_buffer(sample), GST_MAP_READ) != 0 else {
            throw Failure(description: "cannot map frame")
        }
        defer { gst_video_frame_unmap(&frame) }
        let out = PixelBuffer(width: Int(info.width), height: Int(info.height), format: format)
        out.view.copyPixels(from: FrameView(base: UnsafeMutableRawPointer(fc_video_frame_plane_data(&frame)!),
            width: out.width, height: out.height, stride: Int(fc_video_frame_stride(&frame)), format: format))
        return out
    }

    /// Writes a frame as PNG with GStreamer's pngenc.
    public static func writePNG(_ frame: PixelBuffer, to path: String) throws {
        let caps = "video/x-raw,format=\(frame.format.rawValue),width=\(frame.width),height=\(frame.height),framerate=0/1"
        let pipeline = try Pipeline(description: "appsrc name=in caps=\"\(caps)\" format=time ! videoconvert ! pngenc ! filesink location=\"\(path)\"")
        guard let src = pipeline.element(named: "in") else { throw Failure(description: "no appsrc") }
        pipeline.setState(GST_STATE_PLAYING)
        let bytes = frame.packedBytes
        let buffer = gst_buffer_new_allocate(nil, gsize(bytes.count), nil)!
        _ = bytes.withUnsafeBytes { gst_buffer_fill(buffer, 0, $0.baseAddress, gsize(bytes.count)) }
        gst_app_src_push_buffer(src.asAppSrc, buffer)
        gst_app_src_end_of_stream(src.asAppSrc)
        let message = gst_bus_timed_pop_filtered(pipeline.bus, 10_000_000_000,
            GstMessageType(rawValue: GST_MESSAGE_EOS.rawValue | GST_MESSAGE_ERROR.rawValue))
        defer { if let message { gst_message_unref(message) } }
        guard let message, message.pointee.type == GST_MESSAGE_EOS else {
            throw Failure(description: "could not write '\(path)'")
        }
    }
}

/// `filtercam filters --preview DIR`: one PNG per filter over the same test picture.
/// Filters whose defaults change nothing are shown with an example setting.
public enum FilterPreview {
    static let examples: [String: String] = [
        "exposure": "exposure ev=1",
        "color-controls": "color-controls saturation=2 contrast=1.3",
        "white-balance": "white-balance temperature=3500",
        "channel-mix": "channel-mix matrix=<0,0.7,0.3,0, 0,1,0,0, 0,0,1,0>",
        "sharpen": "sharpen amount=2",
        "blur": "blur radius=4",
    ]

    /// `lut` with a shipped look when run from the repository (without a file it changes nothing).
    static var lookExample: String? {
        let look = "looks/teal-orange.cube"
        return FileManager.default.fileExists(atPath: look) ? "lut file=\(look)" : nil
    }

    public static func write(to folder: String) throws -> [String] {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let source = try FrameIO.captureFrame("videotestsrc num-buffers=1 pattern=colors ! video/x-raw,width=320,height=240")
        var written: [String] = []
        for d in FilterRegistry.shared.all {
            let frame = PixelBuffer(width: source.width, height: source.height, format: source.format)
            frame.view.copyPixels(from: source.view)
            let chain = try FilterChain.parse(examples[d.id] ?? (d.id == "lut" ? lookExample : nil) ?? d.id)
            chain.makeFilters().apply(to: frame.view)
            // `look:NAME` is written `look-NAME.png`: a colon is no file name character everywhere.
            let path = (folder as NSString).appendingPathComponent("\(d.id.replacingOccurrences(of: ":", with: "-")).png")
            try FrameIO.writePNG(frame, to: path)
            written.append(path)
        }
        return written
    }
}
