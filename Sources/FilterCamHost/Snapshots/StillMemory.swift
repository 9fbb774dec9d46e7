import FilterCore

/// Frame-sized memory for stills (and a recording's frames), used again once the encoder
/// lets go of it. A burst of stills (`snapshot-every=1`) otherwise takes fresh memory for
/// every still from the kernel (allocations this large are mapped, not pooled): at 720p
/// about 340 page faults and a zeroed frame per still, as much time as the JPEG encoding
/// itself.
final class StillMemory: @unchecked Sendable {
    /// Buffers kept for the next stills; a longer queue allocates beyond these.
    static let kept = 4

    private let free = Locked<(rgb: [PixelBuffer], yuv: [YUVBuffer])>(([], []))
    /// How many buffers of each kind are kept (a recording keeps as many as its encoder queues).
    private let keep: Int

    init(kept: Int = StillMemory.kept) {
        keep = kept
    }

    /// RGB memory for a `width`×`height` still in `format` (contents undefined).
    func rgb(width: Int, height: Int, format: PixelFormat) -> PixelBuffer {
        let reused = free.withLock { f -> PixelBuffer? in
            guard let i = f.rgb.firstIndex(where: { $0.width == width && $0.height == height && $0.format == format }) else { return nil }
            return f.rgb.remove(at: i)
        }
        return reused ?? PixelBuffer(width: width, height: height, format: format, zeroed: false)
    }

    /// YUV memory for a `width`×`height` still in `format` (contents undefined). Rows are
    /// padded to 16 bytes, which also covers what jpegenc reads past a row's end to fill
    /// its last block.
    func yuv(width: Int, height: Int, format: YUVFormat) -> YUVBuffer {
        let reused = free.withLock { f -> YUVBuffer? in
            guard let i = f.yuv.firstIndex(where: { $0.width == width && $0.height == height && $0.format == format }) else { return nil }
            return f.yuv.remove(at: i)
        }
        return reused ?? YUVBuffer(format: format, width: width, height: height, rowAlignment: 16, zeroed: false)
    }

    /// Memory the encoder has finished with (any thread).
    func giveBack(_ buffer: PixelBuffer) {
        free.withLock { f in if f.rgb.count < keep { f.rgb.append(buffer) } }
    }

    func giveBack(_ buffer: YUVBuffer) {
        free.withLock { f in if f.yuv.count < keep { f.yuv.append(buffer) } }
    }
}
