import CGStreamer
import CFilterCamShim
import FilterCore
import Foundation

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
    var caps: String {
        switch self {
        case .rgb(let p):
            let format = p.format == .bgra || p.format == .bgrx ? "BGRx" : "RGBx"
            return "video/x-raw,format=\(format),width=\(p.width),height=\(p.height),framerate=0/1"
        case .yuv(let p, let matrix):
            return "video/x-raw,format=\(p.format.rawValue),width=\(p.width),height=\(p.height),framerate=0/1"
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
            let converted = try StillConversion.run(buffer: gstBuffer(), caps: caps, toFormat: "BGRx")
            let out = PixelBuffer(width: p.width, height: p.height, format: .bgrx, zeroed: false)
            converted.withUnsafeBytes { bytes in
                for y in 0..<p.height {
                    UnsafeMutableRawPointer(out.view.row(y)).copyMemory(from: bytes.baseAddress! + y * p.width * 4, byteCount: p.width * 4)
                }
            }
            return out
        }
    }

    /// The pixels as a GstBuffer in GStreamer's default layout for the caps (what an appsrc
    /// without video meta is read with).
    func gstBuffer() -> UnsafeMutablePointer<GstBuffer> {
        switch self {
        case .rgb(let p):
            let size = p.width * p.height * 4
            let view = p.view
            if view.stride == p.width * 4 {
                // Its own memory, kept alive until GStreamer lets go.
                let owner = Unmanaged.passRetained(p).toOpaque()
                return gst_buffer_new_wrapped_full(GST_MEMORY_FLAG_READONLY, view.base, gsize(size), 0, gsize(size), owner) { owner in
                    Unmanaged<PixelBuffer>.fromOpaque(owner!).release()
                }
            }
            let bytes = p.packedBytes
            let buffer = gst_buffer_new_allocate(nil, gsize(size), nil)!
            _ = bytes.withUnsafeBytes { gst_buffer_fill(buffer, 0, $0.baseAddress, gsize(size)) }
            return buffer
        case .yuv(let p, _):
            var info = GstVideoInfo()
            gst_video_info_set_format(&info, gst_video_format_from_string(p.format.rawValue), guint(p.width), guint(p.height))
            let buffer = gst_buffer_new_allocate(nil, info.size, nil)!
            var map = GstMapInfo()
            guard gst_buffer_map(buffer, &map, GST_MAP_WRITE) != 0 else { return buffer }
            defer { gst_buffer_unmap(buffer, &map) }
            let offsets = withUnsafeBytes(of: info.offset) { Array($0.bindMemory(to: gsize.self)) }
            let strides = withUnsafeBytes(of: info.stride) { Array($0.bindMemory(to: gint.self)) }
            for (i, plane) in p.frame.planes.enumerated() {
                let rowBytes = plane.width * plane.elementBytes
                let start = UnsafeMutableRawPointer(map.data!) + Int(offsets[i])
                let stride = Int(strides[i])
                for y in 0..<plane.height {
                    (start + y * stride).copyMemory(from: plane.row(y), byteCount: rowBytes)
                }
            }
            return buffer
        }
    }

    /// The caps name of a matrix the stills are tagged with (nil: GStreamer's default).
    private static func colorimetry(_ m: YUVMatrix) -> String? {
        switch m {
        case .bt601: "bt601"
        case .bt709: "bt709"
        case .bt2020: "bt2020"
        default: nil
        }
    }
}
