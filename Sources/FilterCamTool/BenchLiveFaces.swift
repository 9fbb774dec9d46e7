import CGStreamer
import CFilterCamShim
import FilterCamHost
import Foundation

extension Bench {
    /// Face detection on a live 1280×720 source at 30 fps (the face photo through
    /// `imagefreeze is-live=true`): detection off, `upright` and `all`. Per mode: the video
    /// rate out of the element, the detection updates per second (`face-analyses` over the
    /// run) and the video thread's worst frame (a frame's arrival at the sink minus its
    /// timestamp: the time the element held it, queueing included).
    func liveFaceResults(width w: Int = 1280, height h: Int = 720, frames: Int = 300) -> [Result] {
        guard let face = Self.faceImage else { return [] }
        let source = "filesrc location=\"\(face)\" ! pngdec ! videoconvert ! videoscale add-borders=true ! video/x-raw,format=BGRx,width=\(w),height=\(h),pixel-aspect-ratio=1/1 ! imagefreeze is-live=true num-buffers=\(frames) ! video/x-raw,framerate=30/1"
        let modes = [("off", "detect-faces=false"), ("upright", "detect-faces=true face-orientations=upright"),
                     ("all", "detect-faces=true face-orientations=all")]
        var results: [Result] = []
        var offFPS = 0.0
        for (mode, properties) in modes {
            do {
                let run = try liveFaceRun("\(source) ! filtercam name=fc \(properties)", frames: frames)
                if mode == "off" { offFPS = run.fps }
                var r = Result(name: "faces-live-\(mode)", size: "\(w)x\(h)", fps_filtercam: run.fps, fps_native: offFPS,
                               ratio: offFPS > 0 ? run.fps / offFPS : 1, runs: 1,
                               note: "live 30 fps; native column: detection off; updates = face analyses per second")
                r.latency_ms = ["median": run.median, "max": run.max, "updates_per_s": run.updates]
                results.append(r)
                log("\(r.name.padding(toLength: 22, withPad: " ", startingAt: 0)) \(r.size)  video \(String(format: "%.1f", run.fps)) fps  detection updates \(String(format: "%.1f", run.updates))/s  frame latency median \(String(format: "%.1f", run.median)) ms, worst \(String(format: "%.1f", run.max)) ms")
            } catch {
                log("faces-live-\(mode): skipped: \(error)")
            }
        }
        return results
    }

    private struct LiveFaceRun {
        var fps: Double, updates: Double, median: Double, max: Double
    }

    private func liveFaceRun(_ description: String, frames: Int) throws -> LiveFaceRun {
        let pipeline = try Pipeline(description: "\(description) ! appsink name=out sync=false max-buffers=100")
        guard let element = pipeline.element(named: "fc") else { throw Pipeline.ParseError(description: "no filtercam") }
        let (latencies, elapsed) = sinkLatencies(pipeline)
        let analyses = Double(Pipeline.property(element, "face-analyses") ?? "0") ?? 0
        pipeline.setState(GST_STATE_NULL)
        guard latencies.count > frames / 2 else { throw Pipeline.ParseError(description: "only \(latencies.count) of \(frames) frames") }
        return LiveFaceRun(fps: Double(latencies.count) / elapsed, updates: analyses / elapsed,
                           median: median(latencies), max: latencies.max()!)
    }
}
