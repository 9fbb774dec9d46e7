import FilterCamHost
import Foundation

extension Bench {
    /// One end-to-end job: the same pipeline with FilterCam, with the stock elements a user
    /// would write instead, and with FilterCam behind today's RGB conversions.
    struct EndToEndJob {
        let name: String
        let filterCam: String
        let stock: String?
        let rgbConverted: String
    }

    /// Whole-process CPU (user + system) of `gst-launch-1.0` for 300 live frames at 30 fps
    /// into a syncing sink, what a user's camera pipeline costs, in the formats users run:
    /// (a) a YUY2 camera-like source → the job → I420 → `x264enc speed-preset=ultrafast`,
    /// (b) I420 → the job → sink. The ratio is FilterCam's CPU over the stock pipeline's
    /// (below 1 is cheaper); `note` holds the RGB-converted pipeline's CPU, the floor (the
    /// same pipeline with `identity` in place of the job: source, encoder and sink alone)
    /// and the job's own share, FilterCam's CPU above the floor over the stock element's.
    /// Each pipeline runs `runs` times, interleaved; the medians are shown. Every row is
    /// measured twice: from `videotestsrc` drawing the ball live, and (`…-recorded`) from the
    /// same frames drawn beforehand, as a camera's come (`RecordedFrames`).
    func endToEndResults() -> [Result] {
        var results: [Result] = []
        // An unmeasured run makes the registry; it goes when the rows are done.
        _ = try? Self.processCPU("fakesrc num-buffers=1 ! fakesink")
        defer { try? FileManager.default.removeItem(atPath: Self.registry) }
        for (w, h) in sizes {
            let size = "\(w)x\(h)"
            for (format, jobs) in Self.endToEndJobs {
                let caps = "video/x-raw,format=\(format),width=\(w),height=\(h),framerate=30/1"
                let recorded = RecordedFrames(format: format, width: w, height: h)
                defer { recorded.remove() }
                for (suffix, source) in [("", "videotestsrc is-live=true num-buffers=300 pattern=ball ! \(caps)"),
                                         ("-recorded", recorded.source)] {
                    for plain in jobs where only.isEmpty || only.contains("e2e") || only.contains(plain.name + suffix) {
                        let job = EndToEndJob(name: plain.name + suffix, filterCam: plain.filterCam, stock: plain.stock, rgbConverted: plain.rgbConverted)
                        do {
                            if !suffix.isEmpty { try recorded.write(caps: caps) }
                            // The rest of the pipeline after the job, for the floor.
                            let rest = job.filterCam.components(separatedBy: " ! ").dropFirst().joined(separator: " ! ")
                            var samples: [[Double]] = [[], [], [], []]   // FilterCam, converted, stock, floor
                            for _ in 0..<max(1, runs) {
                                samples[0].append(try Self.processCPU("\(source) ! \(job.filterCam)"))
                                samples[1].append(try Self.processCPU("\(source) ! \(job.rgbConverted)"))
                                if let stock = job.stock { samples[2].append(try Self.processCPU("\(source) ! \(stock)")) }
                                samples[3].append(try Self.processCPU("\(source) ! identity ! \(rest)"))
                            }
                            func median(_ v: [Double]) -> Double? { v.isEmpty ? nil : v.sorted()[v.count / 2] }
                            let ours = median(samples[0])!, converted = median(samples[1])!, floor = median(samples[3])!
                            let stock = median(samples[2])
                            // Not measurable when the stock job costs no more than the floor: a
                            // share of 0 read as "FilterCam's job costs nothing".
                            let share = stock.flatMap { ($0 - floor) > 0.01 ? (ours - floor) / ($0 - floor) : nil }
                            let shareText = share.map { String(format: "%.2f", $0) }
                                ?? (stock == nil ? "-" : "not measurable (the stock job costs no more than the floor)")
                            let r = Result(name: job.name, size: size, fps_filtercam: ours, fps_native: stock ?? 0,
                                           ratio: stock.map { ours / $0 } ?? 0, runs: max(1, runs),
                                           note: String(format: "CPU seconds for 300 frames at 30 fps (not fps); FilterCam behind RGB conversions: %.2f s; "
                                                        + "floor (identity in place of the job): %.2f s; the job alone, FilterCam over stock: %@", converted, floor,
                                                        shareText))
                            results.append(r)
                            log("\(job.name.padding(toLength: 26, withPad: " ", startingAt: 0)) \(size)  CPU: FilterCam \(String(format: "%.2f", ours)) s, "
                                + (stock.map { String(format: "stock %.2f s (ratio %.2f, below 1: FilterCam cheaper)", $0, ours / $0) } ?? "no stock element")
                                + String(format: ", FilterCam behind RGB conversions %.2f s, floor %.2f s", converted, floor)
                                + (stock == nil ? "" : ", the job alone " + shareText))
                        } catch {
                            log("\(job.name) \(size): skipped: \(error)")
                        }
                    }
                }
            }
        }
        return results
    }

    /// The jobs, by the format their source gives: a camera's YUY2 into an encoder, and
    /// I420 into a display sink.
    static var endToEndJobs: [(format: String, jobs: [EndToEndJob])] {
        let encode = "videoconvert ! video/x-raw,format=I420 ! x264enc speed-preset=ultrafast tune=zerolatency ! fakesink sync=true"
        let rgb = "videoconvert ! video/x-raw,format=BGRx"
        let quarter = "0.25,0.25,0.5,0.5"
        let camera: [EndToEndJob] = [
            EndToEndJob(name: "e2e-yuy2-mono-x264", filterCam: "filtercam filter=mono ! \(encode)",
                        stock: "videobalance saturation=0 ! \(encode)", rgbConverted: "\(rgb) ! filtercam filter=mono ! \(encode)"),
            EndToEndJob(name: "e2e-yuy2-sepia-x264", filterCam: "filtercam filter=sepia intensity=1 ! \(encode)",
                        stock: "videoconvert ! coloreffects preset=sepia ! \(encode)",
                        rgbConverted: "\(rgb) ! filtercam filter=sepia intensity=1 ! \(encode)"),
            EndToEndJob(name: "e2e-yuy2-90r-x264", filterCam: "filtercam orientation=90r ! \(encode)",
                        stock: "videoflip video-direction=90r ! \(encode)", rgbConverted: "\(rgb) ! filtercam orientation=90r ! \(encode)"),
            EndToEndJob(name: "e2e-yuy2-lens-sepia-x264", filterCam: "filtercam filter=sepia intensity=1 lens=\(quarter) ! \(encode)",
                        stock: nil, rgbConverted: "\(rgb) ! filtercam filter=sepia intensity=1 lens=\(quarter) ! \(encode)"),
        ]
        let sink = "fakesink sync=true"
        let display: [EndToEndJob] = [
            EndToEndJob(name: "e2e-i420-mono", filterCam: "filtercam filter=mono ! \(sink)",
                        stock: "videobalance saturation=0 ! \(sink)", rgbConverted: "\(rgb) ! filtercam filter=mono ! videoconvert ! video/x-raw,format=I420 ! \(sink)"),
            EndToEndJob(name: "e2e-i420-90r", filterCam: "filtercam orientation=90r ! \(sink)",
                        stock: "videoflip video-direction=90r ! \(sink)", rgbConverted: "\(rgb) ! filtercam orientation=90r ! videoconvert ! video/x-raw,format=I420 ! \(sink)"),
        ]
        return [("YUY2", camera), ("I420", display)]
    }

    /// Every row `endToEndResults` can make (`--only` takes these names).
    static var endToEndRowNames: [String] {
        endToEndJobs.flatMap(\.jobs).flatMap { [$0.name, $0.name + "-recorded"] }
    }

    /// A registry of the bench's own (unless GST_REGISTRY is set): the shared one is
    /// rewritten by any program run with other plugin paths, and the next run here would
    /// pay the rescan (tens of ms, charged to whichever pipeline came first).
    static let registry = NSTemporaryDirectory() + "filtercam-bench-registry-\(getpid()).bin"

    /// The environment for `gst-launch-1.0`: the FilterCam plugin found beside this binary
    /// (a build folder) comes first, as in this process; an installed plugin is found anyway.
    static var pluginEnvironment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        if environment["GST_REGISTRY"] == nil { environment["GST_REGISTRY"] = registry }
        let folder = ProgramLocation.folder.path
        if FileManager.default.fileExists(atPath: folder + "/libgstfiltercam.so") {
            environment["GST_PLUGIN_PATH"] = [folder, environment["GST_PLUGIN_PATH"]].compactMap { $0 }.joined(separator: ":")
        }
        return environment
    }

    /// User + system CPU seconds of `gst-launch-1.0 -q DESCRIPTION` run to its end.
    static func processCPU(_ description: String) throws -> Double {
        var before = rusage(), after = rusage()
        getrusage(RUSAGE_CHILDREN.rawValue, &before)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // gst-launch joins its arguments with spaces again (these descriptions quote nothing).
        process.arguments = ["gst-launch-1.0", "-q"] + description.split(separator: " ").map(String.init)
        process.environment = pluginEnvironment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try BenchInterruption.runToEnd(process)
        guard process.terminationStatus == 0 else {
            throw Pipeline.ParseError(description: "gst-launch-1.0 failed (\(process.terminationStatus)) on: \(description)")
        }
        getrusage(RUSAGE_CHILDREN.rawValue, &after)
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return seconds(after.ru_utime) - seconds(before.ru_utime) + seconds(after.ru_stime) - seconds(before.ru_stime)
    }
}
