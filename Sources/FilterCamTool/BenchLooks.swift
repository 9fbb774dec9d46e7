import CGStreamer
import CFilterCamShim
import FilterCamHost
import FilterCore
import Foundation

extension Bench {
    /// The look the `lut` rows run: the shipped teal-orange, from the working folder (the
    /// repository root) or FILTERCAM_BENCH_LOOK.
    static var benchLook: String? {
        let candidates = [ProcessInfo.processInfo.environment["FILTERCAM_BENCH_LOOK"], "looks/teal-orange.cube"].compactMap { $0 }
        return candidates.first { FileManager.default.fileExists(atPath: $0) }
    }

    /// The formats of the look rows, each with FFmpeg's name for it: BGRx (rows `lut-…`) and
    /// the YUV formats users run (rows `i420-lut-…`, `nv12-lut-…`, `yuy2-lut-…`).
    static let lookFormats = [("BGRx", "bgr0"), ("I420", "yuv420p"), ("NV12", "nv12"), ("YUY2", "yuyv422")]

    /// A look row's name: `lut-<picture>` on BGRx, `<format>-lut-<picture>` otherwise.
    static func lookRowName(format: String, picture: String) -> String {
        format == "BGRx" ? "lut-\(picture)" : "\(format.lowercased())-lut-\(picture)"
    }

    /// Whether `--only` asks for any look row: `lut` (all of them), a format's
    /// (`i420-lut`), or a row's name (`nv12-lut-photo`, `lut-bars-sepia`).
    static func asksForLooks(_ only: Set<String>) -> Bool {
        only.isEmpty || only.contains { $0.hasPrefix("lut") || $0.contains("-lut") }
    }

    /// Whether `--only` selects the row pair named `name` (and `name-sepia`) in `format`.
    func selectsLookRow(_ name: String, format: String) -> Bool {
        only.isEmpty || only.contains("lut") || only.contains(name) || only.contains("\(name)-sepia")
            || (format != "BGRx" && only.contains("\(format.lowercased())-lut"))
    }

    /// `lut-bars`, `lut-photo` and their YUV rows: `fclut` with a 33³ look on colour bars and
    /// the face photo in the frame's own format, against FFmpeg's `lut3d interp=tetrahedral`
    /// with two filter threads on the same frame (written raw in the same pixel format, looped,
    /// and written back in it: on YUV FFmpeg converts to RGB and back itself, which is what a
    /// user of it pays) in the same run; `…-sepia`: the same `fclut` runs against FilterCam's
    /// own sepia on the same frames. One run first builds the look's table (`LookTables`), as a
    /// stream's first frames do; the rows are the medians once it is built.
    func lookResults() -> [Result] {
        guard let look = Self.benchLook else {
            log("lut: skipped: no looks/teal-orange.cube here (run from the repository, or set FILTERCAM_BENCH_LOOK)")
            return []
        }
        var results: [Result] = []
        for (w, h) in sizes {
            let size = "\(w)x\(h)"
            for (format, ffmpegFormat) in Self.lookFormats {
                var pictures = [("bars", "videotestsrc num-buffers=1 pattern=smpte ! video/x-raw,format=\(format),width=\(w),height=\(h),framerate=30/1")]
                if let photo = Self.faceImage {
                    pictures.append(("photo", "filesrc location=\"\(photo)\" ! pngdec ! videoconvert ! videoscale ! video/x-raw,format=\(format),width=\(w),height=\(h)"))
                }
                for (picture, frame) in pictures {
                    let name = Self.lookRowName(format: format, picture: picture)
                    guard selectsLookRow(name, format: format) else { continue }
                    do {
                        let raw = try Self.rawFrame(frame, format: format, width: w, height: h)
                        defer { try? FileManager.default.removeItem(atPath: raw) }
                        let source = "\(frame) ! imagefreeze num-buffers=FRAMES"
                        let frames = framesPerRun(width: w, height: h), ffmpegFrames = max(10, framesPerRun(width: w, height: h) / 8)
                        let element = "fclut file=\"\(look)\""
                        _ = try run(element: element, source: source, width: w, height: h, frames: frames)
                        // On a loaded machine the table takes seconds: the rows measure the look
                        // with its table, as a stream runs once it is built.
                        if !waitForLookTables(timeout: 120) { log("\(name) \(size): the look's table was not built within 120 s") }
                        var lut: [Double] = [], sepia: [Double] = [], ffmpeg: [Double] = []
                        for _ in 0..<runs {
                            lut.append(try run(element: element, source: source, width: w, height: h, frames: frames))
                            sepia.append(try run(element: "filtercam filter=sepia intensity=1", source: source, width: w, height: h, frames: frames))
                            ffmpeg.append(try Self.ffmpegLookRate(raw: raw, pixelFormat: ffmpegFormat, look: look, width: w, height: h, frames: ffmpegFrames))
                        }
                        let fl = median(lut), fs = median(sepia), ff = median(ffmpeg)
                        results.append(Result(name: name, size: size, fps_filtercam: fl, fps_native: ff, ratio: fl / ff, runs: runs,
                                              note: "native: FFmpeg lut3d interp=tetrahedral, 2 filter threads, the same \(format) frame in and out (\(ffmpegFormat))"))
                        log(row(results.last!))
                        results.append(Result(name: "\(name)-sepia", size: size, fps_filtercam: fl, fps_native: fs, ratio: fl / fs, runs: runs,
                                              note: "native: filtercam filter=sepia intensity=1 on the same \(format) frames"))
                        log(row(results.last!))
                    } catch {
                        log("\(name) \(size): skipped: \(error)")
                    }
                }
            }
        }
        return results
    }

    /// The first frame of `description` (in `format`) written raw to a temporary file, rows
    /// without padding, as FFmpeg's rawvideo reads them.
    static func rawFrame(_ description: String, format: String, width: Int, height: Int) throws -> String {
        let bytes = try YUVFormat(rawValue: format).map { try captureYUVFrame(description, format: $0) }
            ?? FrameIO.captureFrame(description, format: .bgrx).packedBytes
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("filtercam-bench-\(getpid())-\(format)-\(width)x\(height)-\(UUID().uuidString).raw").path
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            throw FrameIO.Failure(description: "cannot write \(path)")
        }
        return path
    }

    /// The first frame of `description`, which gives `format`: its planes' bytes one after
    /// the other, rows without padding.
    static func captureYUVFrame(_ description: String, format: YUVFormat) throws -> [UInt8] {
        let pipeline = try Pipeline(description: description + " ! appsink name=out sync=false")
        guard let sink = pipeline.element(named: "out") else { throw FrameIO.Failure(description: "no appsink") }
        pipeline.setState(GST_STATE_PLAYING)
        defer { pipeline.setState(GST_STATE_NULL) }
        guard let sample = GstOwnedSample(gst_app_sink_try_pull_sample(sink.asAppSink, 10_000_000_000)) else {
            throw FrameIO.Failure(description: "no frame from '\(description)'")
        }
        var info = GstVideoInfo()
        gst_video_info_from_caps(&info, sample.caps)
        var frame = GstVideoFrame()
        guard gst_video_frame_map(&frame, &info, sample.buffer, GST_MAP_READ) != 0 else {
            throw FrameIO.Failure(description: "cannot map frame")
        }
        defer { gst_video_frame_unmap(&frame) }
        var bytes: [UInt8] = []
        for i in 0..<format.planeCount {
            let (w, h, e) = format.plane(i, width: Int(info.width), height: Int(info.height))
            let base = fc_video_frame_plane_data_n(&frame, guint(i))!, stride = Int(fc_video_frame_stride_n(&frame, guint(i)))
            for y in 0..<h { bytes += UnsafeBufferPointer(start: base + y * stride, count: w * e) }
        }
        return bytes
    }

    /// FFmpeg's frames per second through `lut3d` on the raw frame (in `pixelFormat`, FFmpeg's
    /// name) looped `frames` times and written back in `pixelFormat`: its own time for the run
    /// (`-benchmark`'s rtime, without its start-up).
    static func ffmpegLookRate(raw: String, pixelFormat: String, look: String, width: Int, height: Int, frames: Int) throws -> Double {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        process.arguments = ["-hide_banner", "-nostats", "-benchmark", "-stream_loop", String(frames - 1),
                             "-f", "rawvideo", "-pix_fmt", pixelFormat, "-s", "\(width)x\(height)", "-i", raw,
                             "-filter_threads", "2", "-vf", "lut3d=file=\(look):interp=tetrahedral,format=\(pixelFormat)", "-f", "null", "-"]
        let output = Pipe()
        process.standardError = output
        process.standardOutput = FileHandle.nullDevice
        try BenchInterruption.start(process)
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        BenchInterruption.ended(process)
        guard process.terminationStatus == 0,
              let field = text.components(separatedBy: "rtime=").last?.prefix(while: { $0.isNumber || $0 == "." }),
              let seconds = Double(field), seconds > 0 else {
            throw FrameIO.Failure(description: "ffmpeg lut3d did not run: \(text.suffix(300))")
        }
        return Double(frames) / seconds
    }
}
