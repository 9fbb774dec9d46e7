import Foundation

extension Bench {
    /// A camera-like source for the end-to-end rows: the ball pattern's 300 frames, drawn
    /// once into a raw file (in /dev/shm, memory, where there is one) and read back with
    /// `filesrc ! rawvideoparse`. A camera hands over frames nobody in the process drew (the
    /// driver fills them), while `videotestsrc pattern=ball` spends ~6 ms of CPU drawing each
    /// 720p frame, in every column alike; reading a frame back costs one copy.
    final class RecordedFrames {
        let path: String
        /// The source's pipeline description, frames at 30 fps (not live: the syncing sink paces them).
        let source: String
        private var written = false

        init(format: String, width: Int, height: Int) {
            let folder = FileManager.default.isWritableFile(atPath: "/dev/shm") ? "/dev/shm/" : NSTemporaryDirectory()
            path = folder + "filtercam-bench-\(getpid())-\(format)-\(width)x\(height).raw"
            // GStreamer's default strides (rows rounded up to 4 bytes), as rawvideoparse reads them.
            func row(_ bytes: Int) -> Int { (bytes + 3) / 4 * 4 }
            let frameBytes = format == "YUY2"
                ? row(2 * ((width + 1) / 2) * 2) * height
                : row(width) * height + 2 * row((width + 1) / 2) * ((height + 1) / 2)
            source = "filesrc location=\"\(path)\" blocksize=\(frameBytes) ! rawvideoparse format=\(format.lowercased()) "
                + "width=\(width) height=\(height) framerate=30/1"
        }

        /// Draws the frames, once.
        func write(caps: String) throws {
            guard !written else { return }
            _ = try Bench.processCPU("videotestsrc num-buffers=300 pattern=ball ! \(caps) ! filesink location=\"\(path)\"")
            written = true
        }

        func remove() {
            try? FileManager.default.removeItem(atPath: path)
        }
    }
}
