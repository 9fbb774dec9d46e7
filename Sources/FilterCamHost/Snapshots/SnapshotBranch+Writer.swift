import CGStreamer
import CFilterCamShim
import FilterCore
import Foundation

/// The writer thread: stills are turned, exposed, encoded and written off the live path,
/// each ending in a file or a reported failure.
extension SnapshotBranch {
    /// A still copied off the live path, waiting for the writer.
    struct Job {
        let pixels: StillPixels
        let path: String
        let bias: Double?
        let quality: Int
        let method: OrientationMethod
        let orientation: OrientationMode
        let timestamp: UInt64?
    }
    /// The writer's queue and thread.
    struct Writer {
        var queue: [Job] = []
        var writing = 0
        /// The writer thread, started by the first still of a run, joined at stop (it holds
        /// the JPEG encoder pipeline, whose streaming thread GStreamer waits for at exit).
        var thread: JoinableThread?
        var stopping = false
        var idle: Bool { queue.isEmpty && writing == 0 }
    }

    /// Hands a still to the writer. A live stream never waits for it (beyond
    /// `maximumQueued` waiting stills a still is refused and reported); a stream that is
    /// not live (a file, `snapshot-every` over a recording) waits for room instead, so
    /// every frame asked for becomes a file, as a `queue` in front of `jpegenc` would do.
    func enqueue(_ job: Job, live: Bool) {
        if !live {
            _ = writer.wait(until: { $0.queue.count < StillMemory.kept || $0.stopping }) { _ in }
        }
        let queued = writer.withLockAndWake { w -> Bool in
            guard w.queue.count < Self.maximumQueued else { return false }
            w.queue.append(job)
            if w.thread == nil {
                w.thread = JoinableThread(name: "fc-stills") { [self] in writerLoop() }
            }
            return true
        }
        guard queued else {
            report(failure: "cannot write snapshot \(job.path): \(Self.maximumQueued) stills are already waiting for the encoder", path: job.path)
            return
        }
    }

    /// The writer: stills are encoded two deep, so the encoder works on the next still
    /// while this thread writes the last one's file.
    private func writerLoop() {
        // One encoder for the stills of this run (kept while stills come), released with
        // the thread at stop.
        var encoder: JPEGEncoder? = nil
        var inFlight: [Pushed] = []   // in the encoder, oldest first
        while true {
            // Wait for a still only when the encoder has nothing to finish.
            let busy = !inFlight.isEmpty
            let taken = writer.wait(until: { !$0.queue.isEmpty || $0.stopping || busy }) { w -> Job? in
                guard !w.queue.isEmpty else { return nil }
                w.writing += 1
                return w.queue.removeFirst()
            }
            let job = taken ?? nil
            if job == nil && inFlight.isEmpty { return }   // stopping, nothing left
            if let job {
                do {
                    let (pixels, exifOrientation) = try prepare(job)
                    if encoder?.fits(pixels, quality: job.quality) != true {
                        while !inFlight.isEmpty { complete(inFlight.removeFirst(), encoder: &encoder) }
                        encoder = nil
                        encoder = try JPEGEncoder(for: pixels, quality: job.quality)
                    }
                    try encoder!.push(pixels, exifOrientation: exifOrientation, memory: memory)
                    inFlight.append(Pushed(job: job, width: pixels.width, height: pixels.height))
                } catch {
                    report(failure: "\(error)", path: job.path)
                    writer.withLockAndWake { $0.writing -= 1 }
                    encoder = nil   // start afresh for the next still
                }
                if inFlight.count < 2 && encoder != nil { continue }
            }
            if !inFlight.isEmpty { complete(inFlight.removeFirst(), encoder: &encoder) }
            // A failed encoder takes the stills still in it along (reported, not written).
            while encoder == nil && !inFlight.isEmpty { complete(inFlight.removeFirst(), encoder: &encoder) }
        }
    }

    /// A still in the encoder: its job and the size it was encoded at.
    private struct Pushed {
        let job: Job
        let width: Int, height: Int
    }

    /// The pixels to encode for `job` and their EXIF orientation: a bracket's exposure
    /// applied, and for `snapshot-orientation=exif` the transform undone.
    private func prepare(_ job: Job) throws -> (StillPixels, Int) {
        var pixels = job.pixels
        var exifOrientation = 1
        if let bias = job.bias, bias != 0 {
            // The exposure filter works on RGB: a YUV still of a bracket is converted
            // first (here, off the live path, by GStreamer's videoconvert).
            let rgb = try pixels.rgb()
            if let exposure = FilterRegistry.shared.descriptor(id: "exposure") {
                var values = exposure.defaultValues
                values["ev"] = .double(bias)
                exposure.make(values).apply(to: rgb.view)
            }
            pixels = .rgb(rgb)
        }
        if job.orientation == .exif && job.method != .identity {
            // Pixels as captured: undo the transform, and say in EXIF how to show them.
            pixels = pixels.transformed(job.method.inverse)
            exifOrientation = job.method.exifOrientation
        }
        return (pixels, exifOrientation)
    }

    /// Takes the oldest still's JPEG from the encoder and writes its file (or reports
    /// why not). A failed encoder is dropped; the stills still in it then fail in turn.
    private func complete(_ still: Pushed, encoder: inout JPEGEncoder?) {
        defer { writer.withLockAndWake { $0.writing -= 1 } }
        let job = still.job
        do {
            guard let running = encoder else { throw JPEGWriter.Failure(description: "the JPEG encoder failed on an earlier still") }
            let data: Data
            do {
                data = try running.pull()
            } catch {
                encoder = nil   // start afresh for the next still
                throw error
            }
            try JPEGWriter.writeAtomically(data, to: job.path, in: folders)
            lastWrittenName.withLock { $0 = (job.path as NSString).lastPathComponent }
            writtenCount.add(1, ordering: .relaxed)
            let saved = StructureBuilder("snapshot-saved")
            saved.set("path", job.path)
            saved.set("size", data.count)
            saved.set("width", still.width)
            saved.set("height", still.height)
            if let bias = job.bias { saved.set("exposure-bias", bias) }
            if let t = job.timestamp { saved.set("timestamp", uint64: t) }
            saved.post(from: element)
        } catch {
            report(failure: "\(error)", path: job.path)
        }
    }

    func report(failure: String, path: String) {
        fc_post_warning(element, failure, nil)
        let failed = StructureBuilder("snapshot-failed")
        failed.set("path", path)
        failed.set("reason", failure)
        failed.post(from: element)
    }

    /// Waits until every queued still is written or reported (EOS, stop), at most `timeout`.
    func drain(timeout: TimeInterval = 30) {
        _ = writer.wait(until: \.idle, timeout: timeout) { _ in }
    }

    /// The run is over: stills already taken are written (or reported) first, then the
    /// writer thread ends and is joined.
    func stop() {
        drain()
        let thread = writer.withLockAndWake { w -> JoinableThread? in
            w.stopping = true
            return w.thread
        }
        thread?.join()   // outside the lock: the thread takes it on its way out
        writer.withLock { w in
            w.thread = nil
            w.stopping = false
        }
        folders.closeAll()
    }
}
