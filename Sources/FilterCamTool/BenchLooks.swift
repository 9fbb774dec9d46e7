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

    /// `lut-bars`, `lut-photo`: `fclut` with a 33³ look on BGRx frames (colour bars, and the
    /// face photo), against FFmpeg's `lut3d interp=tetrahedral` with two filter threads on
    /// the same frame (written raw, looped) in the same run; `…-sepia`: the same `fclut` runs
    /// against FilterCam's own sepia on the same frames. One run first builds the look's table
    /// (`LookTables`), as a stream's first frames do; the rows are the medians once it is built.
    func lookResults() -> [Result] {
        guard let look = Self.benchLook else {
            log("lut: skipped: no looks/teal-orange.cube here (run from the repository, or set FILTERCAM_BENCH_LOOK)")
            return []
        }
        var results: [Result] = []
        for (w, h) in sizes {
            let size = "\(w)x\(h)"
            var pictures = [("bars", "videotestsrc num-buffers=1 pattern=smpte ! video/x-raw,format=BGRx,width=\(w),height=\(h),framerate=30/1")]
            if let photo = Self.faceImage {
                pictures.append(("photo", "filesrc location=\"\(photo)\" ! pngdec ! videoconvert ! videoscale ! video/x-raw,format=BGRx,width=\(w),height=\(h)"))
            }
            for (picture, frame) in pictures where only.isEmpty || only.contains("lut") || only.contains("lut-\(picture)") {
                do {
                    let raw = try Self.rawFrame(frame, width: w, height: h)
                    defer { try? FileManager.default.removeItem(atPath: raw) }
                    let source = "\(frame) ! imagefreeze num-buffers=FRAMES"
                    let frames = max(20, pixelsPerRun / (w * h)), ffmpegFrames = max(10, pixelsPerRun / 8 / (w * h))
                    let element = "fclut file=\"\(look)\""
                    _ = try run(element: element, source: source, width: w, height: h, frames: frames)
                    // On a loaded machine the table takes seconds: the rows measure the look
                    // with its table, as a stream runs once it is built.
                    if !waitForLookTables(timeout: 120) { log("lut-\(picture) \(size): the look's table was not built within 120 s") }
                    var lut: [Double] = [], sepia: [Double] = [], ffmpeg: [Double] = []
                    for _ in 0..<runs {
                        lut.append(try run(element: element, source: source, width: w, height: h, frames: frames))
                        sepia.append(try run(element: "filtercam filter=sepia intensity=1", source: source, width: w, height: h, frames: frames))
                        ffmpeg.append(try Self.ffmpegLookRate(raw: raw, look: look, width: w, height: h, frames: ffmpegFrames))
                    }
                    let fl = median(lut), fs = median(sepia), ff = median(ffmpeg)
                    results.append(Result(name: "lut-\(picture)", size: size, fps_filtercam: fl, fps_native: ff, ratio: fl / ff, runs: runs,
                                          note: "native: FFmpeg lut3d interp=tetrahedral, 2 filter threads, the same BGRx frame"))
                    log(row(results.last!))
                    results.append(Result(name: "lut-\(picture)-sepia", size: size, fps_filtercam: fl, fps_native: fs, ratio: fl / fs, runs: runs,
                                          note: "native: filtercam filter=sepia intensity=1 on the same frames"))
                    log(row(results.last!))
                } catch {
                    log("lut-\(picture) \(size): skipped: \(error)")
                }
            }
        }
        return results
    }

    /// The first frame of `description` (BGRx) written raw to a temporary file.
    static func rawFrame(_ description: String, width: Int, height: Int) throws -> String {
        let frame = try FrameIO.captureFrame(description, format: .bgrx)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("filtercam-bench-\(width)x\(height)-\(UUID().uuidString).raw").path
        guard FileManager.default.createFile(atPath: path, contents: Data(frame.packedBytes)) else {
            throw FrameIO.Failure(description: "cannot write \(path)")
        }
        return path
    }

    /// FFmpeg's frames per second through `lut3d` on the raw frame looped `frames` times:
    /// its own time for the run (`-benchmark`'s rtime, without its start-up).
    static func ffmpegLookRate(raw: String, look: String, width: Int, height: Int, frames: Int) throws -> Double {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        process.arguments = ["-hide_banner", "-nostats", "-benchmark", "-stream_loop", String(frames - 1),
                             "-f", "rawvideo", "-pix_fmt", "bgr0", "-s", "\(width)x\(height)", "-i", raw,
                             "-filter_threads", "2", "-vf", "lut3d=file=\(look):interp=tetrahedral", "-f", "null", "-"]
        let output = Pipe()
        process.standardError = output
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0,
              let field = text.components(separatedBy: "rtime=").last?.prefix(while: { $0.isNumber || $0 == "." }),
              let seconds = Double(field), seconds > 0 else {
            throw FrameIO.Failure(description: "ffmpeg lut3d did not run: \(text.suffix(300))")
        }
        return Double(frames) / seconds
    }
}
