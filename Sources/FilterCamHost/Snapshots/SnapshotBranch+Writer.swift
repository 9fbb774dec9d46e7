import CGStreamer
import CFilterCamShim
import FilterCore
import FoundationEssentials

/// The writer thread: stills are turned, exposed and encoded off the live path; a second
/// thread writes their files. Each still ends in a file or a reported failure.
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
    /// The writer's queue: a live stream's stills beyond `maximumQueued` are refused; a
    /// stream that is not live waits for room (`StillMemory.kept` stills).
    static func makeQueue() -> WorkQueue<Job> {
        WorkQueue(policy: .fifo(limit: maximumQueued, whenFull: .refuse))
    }
    private static var notLive: WorkQueue<Job>.Policy { .fifo(limit: StillMemory.kept, whenFull: .wait) }

    /// An encoded still on its way to its file.
    struct StillFile: Sendable {
        let data: Data
        let path: String
        let width: Int, height: Int
        let bias: Double?
        let timestamp: UInt64?
    }
    /// The files' queue: the writer waits for room beyond a few JPEGs (they are small, but
    /// a disk that stalls must not collect them without bound).
    static func makeFileQueue() -> WorkQueue<StillFile> {
        WorkQueue(policy: .fifo(limit: 4, whenFull: .wait))
    }

    /// A new run: the writer thread starts with its first still and holds the JPEG encoder
    /// pipeline, whose streaming thread GStreamer waits for at exit, until `stop`; the
    /// files' thread starts with the first JPEG.
    func startWriter() {
        stills.start(thread: "fc-stills") { [self] in writerLoop() }
        files.start(thread: "fc-still-files") { [self] in fileLoop() }
    }

    /// Hands a still to the writer. A live stream never waits for it (beyond
    /// `maximumQueued` waiting stills a still is refused and reported); a stream that is
    /// not live (a file, `snapshot-every` over a recording) waits for room instead, so
    /// every frame asked for becomes a file, as a `queue` in front of `jpegenc` would do.
    func enqueue(_ job: Job, live: Bool) {
        guard stills.put(job, policy: live ? nil : Self.notLive).accepted else {
            report(failure: "cannot write snapshot \(job.path): \(Self.maximumQueued) stills are already waiting for the encoder", path: job.path)
            return
        }
    }

    /// The writer: stills are encoded two deep in each of up to two encoders, so the
    /// encoders work on the next stills while this thread writes the oldest one's file. A
    /// second encoder starts only when stills come faster than one turns them into JPEGs
    /// (a series, `snapshot-every`): each has a streaming thread of its own, so both cores
    /// encode, as two `jpegenc`s would; one still at a time keeps one encoder.
    private func writerLoop() {
        // The encoders of this run (kept while stills come), released with the thread at stop.
        var encoders: [JPEGEncoder] = []
        var inFlight: [Pushed] = []   // in the encoders, oldest first
        func stillsIn(_ e: JPEGEncoder) -> Int { inFlight.count { $0.encoder === e } }
        while true {
            // Wait for a still only when the encoders have nothing to finish.
            let job = stills.next(waiting: inFlight.isEmpty)?.item
            if job == nil && inFlight.isEmpty { return }   // stopped, nothing left
            if let job {
                do {
                    let (pixels, exifOrientation) = try prepare(job)
                    if encoders.first?.fits(pixels, quality: job.quality) == false {
                        while !inFlight.isEmpty { complete(inFlight.removeFirst(), encoders: &encoders) }
                        encoders = []
                    }
                    var encoder = encoders.min { stillsIn($0) < stillsIn($1) }
                    if encoder == nil || (stillsIn(encoder!) > 0 && encoders.count < Self.encoderCount) {
                        encoder = try JPEGEncoder(for: pixels, quality: job.quality)
                        encoders.append(encoder!)
                    }
                    do {
                        try encoder!.push(pixels, exifOrientation: exifOrientation, memory: memory)
                    } catch {
                        encoders.removeAll { $0 === encoder }   // start afresh for the next still
                        throw error
                    }
                    inFlight.append(Pushed(job: job, width: pixels.width, height: pixels.height, encoder: encoder!))
                } catch {
                    report(failure: "\(error)", path: job.path)
                    stills.done()
                }
                if inFlight.count < 2 * encoders.count { continue }
            }
            if !inFlight.isEmpty { complete(inFlight.removeFirst(), encoders: &encoders) }
            // A failed encoder takes the stills still in it along (reported, not written).
            while let oldest = inFlight.first, !encoders.contains(where: { $0 === oldest.encoder }) {
                complete(inFlight.removeFirst(), encoders: &encoders)
            }
        }
    }

    /// Encoders a series of stills runs on at once: the two cores of the machines this
    /// runs on (a third thread only takes turns with them).
    static let encoderCount = 2

    /// A still in an encoder: its job, the size it was encoded at and the encoder.
    private struct Pushed {
        let job: Job
        let width: Int, height: Int
        let encoder: JPEGEncoder
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
        if case .yuv(let buffer, let matrix) = pixels, matrix != .jfif {
            // The file's samples as viewers read them (jpegenc writes them as they are).
            var frame = buffer.frame
            frame.matrix = matrix
            frame.convertSamples(to: .jfif)
            pixels = .yuv(buffer, .jfif)
        }
        if case .yuv(let buffer, _) = pixels { buffer.repeatLastSampleIntoRowPadding() }
        return (pixels, exifOrientation)
    }

    /// Takes the oldest still's JPEG from its encoder and writes its file (or reports
    /// why not). A failed encoder is dropped; the stills still in it then fail in turn.
    private func complete(_ still: Pushed, encoders: inout [JPEGEncoder]) {
        defer { stills.done() }
        let job = still.job
        do {
            guard encoders.contains(where: { $0 === still.encoder }) else {
                throw JPEGWriter.Failure(description: "the JPEG encoder failed on an earlier still")
            }
            let data: Data
            do {
                data = try still.encoder.pull()
            } catch {
                encoders.removeAll { $0 === still.encoder }   // start afresh for the next still
                throw error
            }
            let file = StillFile(data: data, path: job.path, width: still.width, height: still.height,
                                 bias: job.bias, timestamp: job.timestamp)
            guard files.put(file).accepted else {
                throw JPEGWriter.Failure(description: "cannot write snapshot \(job.path): the element stopped first")
            }
        } catch {
            report(failure: "\(error)", path: job.path)
        }
    }

    /// The files' thread: each JPEG written atomically (`JPEGWriter`), in the order taken.
    /// Writing waits for the disk (`fsync`: ~1 ms a file here, 2.5 ms and more at times),
    /// so it runs beside the writer, which meanwhile feeds the encoders the next stills:
    /// on the writer itself it held both encoders idle for that long.
    private func fileLoop() {
        while let (file, _) = files.next() {
            defer { files.done() }
            var path = file.path
            do {
                for attempt in 1... {
                    do {
                        try JPEGWriter.writeAtomically(file.data, to: path, in: folders)
                        break
                    } catch is JPEGWriter.NameTaken where file.bias == nil && attempt < 100 {
                        // Taken since the counter looked (an element with the same
                        // snapshot-location chose the same number): the next free one. A
                        // bracketed set's stills keep their shared number: said failed.
                        StillNamesInFlight.release(path)
                        path = nextFreePath()
                    }
                }
            } catch {
                report(failure: "\(error)", path: path)
                continue
            }
            StillNamesInFlight.release(path)
            lastWrittenName.withLock { $0 = FilePathText.lastComponent(of: path) }
            writtenCount.add(1, ordering: .relaxed)
            let saved = StructureBuilder("snapshot-saved")
            saved.set("path", path)
            saved.set("size", file.data.count)
            saved.set("width", file.width)
            saved.set("height", file.height)
            if let bias = file.bias { saved.set("exposure-bias", bias) }
            if let t = file.timestamp { saved.set("timestamp", uint64: t) }
            saved.post(from: element)
        }
    }

    func report(failure: String, path: String) {
        StillNamesInFlight.release(path)
        giveBackNumber(of: path)
        failedCount.add(1, ordering: .relaxed)
        fc_post_warning(element, failure, nil)
        let failed = StructureBuilder("snapshot-failed")
        failed.set("path", path)
        failed.set("reason", failure)
        failed.post(from: element)
    }

    /// A request that got no still, so no path (`finish` warns once for all of them).
    func reportUnserved(reason: String) {
        failedCount.add(1, ordering: .relaxed)
        let failed = StructureBuilder("snapshot-failed")
        failed.set("reason", reason)
        failed.post(from: element)
    }

    /// Waits until every queued still is written or reported (EOS, stop), at most `timeout`:
    /// encoded first (the writer hands each JPEG on before it is done with the still), then
    /// its file.
    func drain(timeout: TimeInterval = 30) {
        let deadline = MonotonicClock.seconds + timeout
        _ = stills.waitUntilIdle(timeout: timeout)
        _ = files.waitUntilIdle(timeout: max(deadline - MonotonicClock.seconds, 0))
    }

    /// The run is over (PAUSED→READY): requests still open are reported, as at EOS (kept,
    /// they gave a still of whatever frame came first whenever the element ran again, and
    /// a bracket cut short said nothing of its other stills); stills already taken are
    /// written (or reported), then the writer's and the files' threads end and are joined.
    func stop() {
        failOpenRequests(because: "the pipeline stopped")
        drain()
        stills.stop()
        files.stop()
        folders.closeAll()
    }
}
