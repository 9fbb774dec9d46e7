import CGStreamer
import CFilterCamShim
import FilterCore

/// Rendering into pooled output buffers, and the views filters see of a mapped frame.
extension FrameWorker {
    /// Writes `work(source, destination)` into a buffer from the output pool; gives `input` back.
    /// Metas follow (`fc_copy_metas`; regions of interest through `geometry`). The frames
    /// are RGB views or YUV views (`view(of:…)`, `yuvView(of:…)`), as the job needs.
    func render<Frame>(_ input: GstOwned<GstBuffer>, shape: FrameShape, width: Int, height: Int,
                       geometry: GeometryPlan?, timestamp: UInt64?, run: inout WorkerRun,
                       as frame: (inout GstVideoFrame, FrameShape, UInt64?) -> Frame,
                       _ work: (Frame, Frame) -> Void) -> GstOwned<GstBuffer> {
        render(input, width: width, height: height, geometry: geometry, run: &run) { src, dst in
            let outShape = FrameShape(width: width, height: height, format: shape.format)
            work(frame(&src, shape, timestamp), frame(&dst, outShape, timestamp))
        }
    }

    /// A buffer from the output pool with `input`'s flags, timestamps and metas, both
    /// mapped for `work`; gives `input` back (its pool, upstream, may be waiting for it).
    func render(_ owned: GstOwned<GstBuffer>, width: Int, height: Int, geometry: GeometryPlan?,
                run: inout WorkerRun, _ work: (inout GstVideoFrame, inout GstVideoFrame) -> Void) -> GstOwned<GstBuffer> {
        var outInfo = GstVideoInfo()
        gst_video_info_set_format(&outInfo, run.stream.inputInfo.finfo.pointee.format, guint(width), guint(height))
        let output = run.outputPool.acquire(info: &outInfo)
        let input = owned.pointer, out = output.pointer
        gst_buffer_copy_into(out, input, GstBufferCopyFlags(rawValue: GST_BUFFER_COPY_FLAGS.rawValue | GST_BUFFER_COPY_TIMESTAMPS.rawValue), 0, gsize.max)
        fc_copy_metas(input, out, geometry == nil ? 1 : 0)
        if let geometry { RegionOfInterest.map(from: input, to: out, through: geometry) }
        var src = GstVideoFrame(), dst = GstVideoFrame()
        if gst_video_frame_map(&src, &run.stream.inputInfo, input, GST_MAP_READ) != 0 {
            if gst_video_frame_map(&dst, &outInfo, out, GST_MAP_WRITE) != 0 {
                work(&src, &dst)
                gst_video_frame_unmap(&dst)
            }
            gst_video_frame_unmap(&src)
        }
        owned.release()
        return output
    }

    /// RGB filters read a pixel as one 32-bit word, so each row must start 4-byte aligned.
    /// A frame laid out otherwise (a GstVideoMeta stride such as 149 for 37 BGRx pixels, as
    /// `rawvideoparse plane-strides` gives) is first copied into a packed buffer; it
    /// stopped the process before. Other frames are returned as they are: without a
    /// GstVideoMeta a frame has the caps' own layout (rows of 4-byte pixels), looked at no further.
    func packedForRGB(_ owned: GstOwned<GstBuffer>, run: inout WorkerRun) -> GstOwned<GstBuffer> {
        guard gst_buffer_get_video_meta(owned.pointer) != nil else { return owned }
        var source = GstVideoFrame()
        guard gst_video_frame_map(&source, &run.stream.inputInfo, owned.pointer, GST_MAP_READ) != 0 else { return owned }
        defer { gst_video_frame_unmap(&source) }
        let stride = Int(fc_video_frame_stride(&source))
        let start = Int(bitPattern: UnsafeRawPointer(fc_video_frame_plane_data(&source)))
        if stride % 4 == 0 && start % 4 == 0 { return owned }
        let packed = GstOwned(gst_buffer_new_allocate(nil, run.stream.inputInfo.size, nil)!)
        gst_buffer_copy_into(packed.pointer, owned.pointer, GstBufferCopyFlags(rawValue: GST_BUFFER_COPY_FLAGS.rawValue | GST_BUFFER_COPY_TIMESTAMPS.rawValue), 0, gsize.max)
        fc_copy_metas(owned.pointer, packed.pointer, 1)
        var destination = GstVideoFrame()
        if gst_video_frame_map(&destination, &run.stream.inputInfo, packed.pointer, GST_MAP_WRITE) != 0 {
            _ = gst_video_frame_copy(&destination, &source)
            gst_video_frame_unmap(&destination)
        }
        return packed
    }

    func view(of frame: inout GstVideoFrame, shape: FrameShape, timestamp: UInt64?) -> FrameView {
        guard case .rgb(let format) = shape.format else { preconditionFailure("an RGB job for a \(shape.format.name) frame") }
        return FrameView(base: UnsafeMutableRawPointer(fc_video_frame_plane_data(&frame)!),
                         width: shape.width, height: shape.height, stride: Int(fc_video_frame_stride(&frame)),
                         format: format, timestamp: timestamp)
    }

    func yuvView(of frame: inout GstVideoFrame, shape: FrameShape, timestamp: UInt64?) -> YUVFrame {
        guard case .yuv(let format, let matrix) = shape.format else { preconditionFailure("a YUV job for a \(shape.format.name) frame") }
        let planes = 0..<guint(format.planeCount)
        return YUVFrame(format: format, width: shape.width, height: shape.height,
                        bases: planes.map { UnsafeMutableRawPointer(fc_video_frame_plane_data_n(&frame, $0)!) },
                        strides: planes.map { Int(fc_video_frame_stride_n(&frame, $0)) }, timestamp: timestamp, matrix: matrix)
    }
}

/// Output buffers come from a pool sized for the current output, so memory is
/// reused instead of being allocated (and page-faulted) for every frame.
struct OutputBufferPool {
    private var pool: GstOwned<GstBufferPool>?
    private var poolSize = 0

    mutating func acquire(info: inout GstVideoInfo) -> GstOwned<GstBuffer> {
        let size = Int(info.size)
        if pool == nil || poolSize != size {
            release()
            if let caps = GstOwned(gst_video_info_to_caps(&info)) {
                pool = GstOwned(fc_buffer_pool_new(caps.pointer, guint(size)))
            }
            poolSize = size
        }
        var buffer: UnsafeMutablePointer<GstBuffer>?
        if let pool, gst_buffer_pool_acquire_buffer(pool.pointer, &buffer, nil) == GST_FLOW_OK, let buffer {
            return GstOwned(buffer)
        }
        return GstOwned(gst_buffer_new_allocate(nil, gsize(size), nil)!)
    }

    mutating func release() {
        if let pool { gst_buffer_pool_set_active(pool.pointer, 0) }
        pool = nil
        poolSize = 0
    }
}
