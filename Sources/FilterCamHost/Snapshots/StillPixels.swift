import CGStreamer
import CFilterCamShim
import FilterCore
import FoundationEssentials

/// The pixels of one still, in the format of the frame they were copied from: RGB
/// (BGRA, BGRx, RGBA, RGBx) or YUV (I420, NV12, YUY2, UYVY). `jpegenc` takes each of them
/// as it is, so a still costs no conversion.
enum StillPixels {
    case rgb(PixelBuffer)
    case yuv(YUVBuffer, YUVMatrix)

    var width: Int {
        switch self {
        case .rgb(let p): p.width
        case .yuv(let p, _): p.width
        }
    }

    var height: Int {
        switch self {
        case .rgb(let p): p.height
        case .yuv(let p, _): p.height
        }
    }

    /// The caps the encoder's appsrc announces. jpegenc takes BGRx/RGBx but not
    /// BGRA/RGBA: the same bytes, relabelled.
    var caps: String { caps(framerate: "0/1") }

    /// The caps of these pixels in a stream of `framerate` ("30/1"; "0/1" when unknown):
    /// a recording's frames are such copies.
    func caps(framerate: String) -> String {
        switch self {
        case .rgb(let p):
            let format = p.format == .bgra || p.format == .bgrx ? "BGRx" : "RGBx"
            return "video/x-raw,format=\(format),width=\(p.width),height=\(p.height),framerate=\(framerate)"
        case .yuv(let p, let matrix):
            return "video/x-raw,format=\(p.format.rawValue),width=\(p.width),height=\(p.height),framerate=\(framerate)"
                + (Self.colorimetry(matrix).map { ",colorimetry=\($0)" } ?? "")
        }
    }

    /// Same size and format: the same encoder can take it.
    func sameShape(as other: StillPixels) -> Bool {
        switch (self, other) {
        case (.rgb(let a), .rgb(let b)): a.width == b.width && a.height == b.height && a.format == b.format
        case (.yuv(let a, _), .yuv(let b, _)): a.width == b.width && a.height == b.height && a.format == b.format
        default: false
        }
    }

    /// The still turned by `method` (for `snapshot-orientation=exif`: the pixels as captured).
    func transformed(_ method: OrientationMethod) -> StillPixels {
        switch self {
        case .rgb(let p):
            let (w, h) = method.outputSize(width: p.width, height: p.height)
            let turned = PixelBuffer(width: w, height: h, format: p.format)
            Orientation.transform(method, from: p.view, to: turned.view)
            return .rgb(turned)
        case .yuv(let p, let matrix):
            let plan = GeometryPlan(inputWidth: p.width, inputHeight: p.height, method: method, zoom: 1,
                                    lens: .full, lensCrop: false, lensGrid: 2)
            let turned = YUVBuffer(format: p.format, width: plan.outputWidth, height: plan.outputHeight, zeroed: false)
            plan.render(from: p.frame, to: turned.frame)
            return .yuv(turned, matrix)
        }
    }

    /// The still as BGRx (YUV converted by GStreamer's `videoconvert`), for work done in RGB.
    func rgb() throws -> PixelBuffer {
        switch self {
        case .rgb(let p):
            return p
        case .yuv(let p, _):
            let converted = try StillConversion.run(buffer: GstOwned(gstBuffer(returningTo: StillMemory())), caps: caps, toFormat: "BGRx")
            let out = PixelBuffer(width: p.width, height: p.height, format: .bgrx, zeroed: false)
            converted.withUnsafeBytes { bytes in
                for y in 0..<p.height {
                    UnsafeMutableRawPointer(out.view.row(y)).copyMemory(from: bytes.baseAddress! + y * p.width * 4, byteCount: p.width * 4)
                }
            }
            return out
        }
    }

    /// The pixels as a GstBuffer, without a copy: GStreamer reads this memory (YUV planes
    /// described by a `GstVideoMeta`, with their own strides) and, when it lets go, the
    /// memory goes back to `memory` for a later still.
    func gstBuffer(returningTo memory: StillMemory) -> UnsafeMutablePointer<GstBuffer> {
        let lease = Unmanaged.passRetained(Lease(self, memory))
        let buffer = gst_buffer_new()!
        func append(_ base: UnsafeMutableRawPointer, _ size: Int) {
            _ = lease.retain()   // one reference per memory block
            let block = gst_memory_new_wrapped(GST_MEMORY_FLAG_READONLY, base, gsize(size), 0, gsize(size), lease.toOpaque()) { owner in
                Unmanaged<Lease>.fromOpaque(owner!).release()
            }
            gst_buffer_append_memory(buffer, block)
        }
        switch self {
        case .rgb(let p):
            let view = p.view
            append(view.base, view.stride * p.height)
            if view.stride != p.width * 4 {
                var offsets: [gsize] = [0, 0, 0, 0], strides: [gint] = [gint(view.stride), 0, 0, 0]
                let format = gst_video_format_from_string(p.format == .bgra || p.format == .bgrx ? "BGRx" : "RGBx")
                gst_buffer_add_video_meta_full(buffer, GST_VIDEO_FRAME_FLAG_NONE, format, guint(p.width), guint(p.height), 1, &offsets, &strides)
            }
        case .yuv(let p, _):
            let planes = p.frame.planes
            var offsets: [gsize] = [0, 0, 0, 0], strides: [gint] = [0, 0, 0, 0]
            var total = 0
            for (i, plane) in planes.enumerated() {
                offsets[i] = gsize(total)
                strides[i] = gint(plane.stride)
                append(plane.base, plane.stride * plane.height)
                total += plane.stride * plane.height
            }
            gst_buffer_add_video_meta_full(buffer, GST_VIDEO_FRAME_FLAG_NONE, gst_video_format_from_string(p.format.rawValue),
                                           guint(p.width), guint(p.height), guint(planes.count), &offsets, &strides)
        }
        lease.release()
        return buffer
    }

    /// Keeps a still's memory alive while GStreamer reads it, then hands it back.
    private final class Lease {
        let pixels: StillPixels
        let memory: StillMemory
        init(_ pixels: StillPixels, _ memory: StillMemory) {
            self.pixels = pixels
            self.memory = memory
        }
        deinit {
            switch pixels {
            case .rgb(let p): memory.giveBack(p)
            case .yuv(let p, _): memory.giveBack(p)
            }
        }
    }

    /// The caps name of a matrix the stills are tagged with (nil: GStreamer's default).
    private static func colorimetry(_ m: YUVMatrix) -> String? {
        switch m {
        case .bt601: "bt601"
        case .bt709: "bt709"
        case .bt2020: "bt2020"
        case .jfif: "1:4:0:0"   // full range, BT.601 (what jpegdec gives)
        default: nil
        }
    }
}
