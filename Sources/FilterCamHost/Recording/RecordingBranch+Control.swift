import CGStreamer
import CFilterCamShim
import FilterCore
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The control thread: recordings start here (shaped as the first frame the worker left),
/// end here (when `record` goes false, at EOS, at stop), and are watched here for errors,
/// so the worker only ever copies and pushes frames.
extension RecordingBranch {
    private enum Work {
        case start(Frame)
        case finish(MP4Recorder)
        case look(MP4Recorder)
        case endDone
        case idle
        case exit
    }

    func controlLoop() {
        while true {
            // Woken by a change; every 0.1 s while a recording runs, to look for its errors
            // (only this thread publishes a recording, so it cannot start meanwhile).
            let running = state.withLock { $0.recorder != nil }
            let next = state.wait(until: { s in
                s.stopping || s.endRequested || (s.recorder != nil && (!s.wanted || s.finishRunning))
                    || (s.recorder == nil && (s.wanted || s.finishOnceStarted) && !s.pending.isEmpty)
            }, timeout: running ? 0.1 : nil) { s -> Work in
                if let r = s.recorder, !s.wanted || s.finishRunning || s.endRequested || s.stopping {
                    s.recorder = nil
                    s.finishRunning = false
                    return .finish(r)
                }
                if s.endRequested || s.stopping {
                    s.pending = []
                    s.finishOnceStarted = false
                    capturingFlag.store(s.wanted, ordering: .relaxed)
                    return s.stopping ? .exit : .endDone
                }
                if s.recorder == nil, s.wanted || s.finishOnceStarted, let first = s.pending.first {
                    s.starting = true
                    return .start(first)
                }
                return s.recorder.map { .look($0) } ?? .idle
            }
            // Timed out: a running recording is looked at.
            switch next ?? state.withLock({ s in s.recorder.map { Work.look($0) } ?? .idle }) {
            case .start(let first):
                begin(shapedAs: first)
            case .finish(let recorder):
                end(recorder)
            case .look(let recorder):
                if let problem = recorder.takeError() { failed(recorder, problem) }
            case .endDone:
                state.withLockAndWake { $0.endRequested = false }
            case .idle:
                break
            case .exit:
                return
            }
        }
    }

    // MARK: Start

    /// Starts a recording shaped as `first`: the next free name, the folder, the sound,
    /// then the frames left meanwhile, and the worker takes over.
    private func begin(shapedAs first: Frame) {
        let s = settings.withLock { $0 }
        var counter = self.counter.withLock { c -> Int in
            if s.naming.template != c.template { c = (s.naming.firstAfterExisting(), s.naming.template) }
            let free = s.naming.nextFree(from: c.next, biases: [])
            c.next = free + 1
            return free
        }
        var path = s.naming.path(counter: counter)
        let recorder: MP4Recorder
        do {
            // The file is made here, exclusively: the name is this recording's. Another
            // recording (another element, another program) that took it meanwhile moves
            // this one to the next free name; both once wrote the same file.
            var tries = 0
            while try !Self.reserve(path) {
                tries += 1
                guard tries < Self.reservationTries else {
                    throw MP4Recorder.Failure(description: "\(Self.reservationTries) names in a row were taken meanwhile by other recordings")
                }
                counter = self.counter.withLock { c -> Int in
                    let free = s.naming.nextFree(from: max(c.next, counter + 1), biases: [])
                    c.next = free + 1
                    return free
                }
                path = s.naming.path(counter: counter)
            }
            let sound = s.audio ? soundSource(s, live: first.facts.live, path: path) : nil
            let elementClock = sound == nil ? nil : GstOwned(gst_element_get_clock(element))
            let clock = elementClock.map { (clock: $0.pointer, base: UInt64(gst_element_get_base_time(element))) }
            recorder = try withExtendedLifetime(elementClock) {
                try MP4Recorder(path: path, first: first.pixels, framesPerSecond: first.facts.framesPerSecond,
                                live: first.facts.live, sound: sound, clock: clock)
            }
        } catch {
            // The name was not used: the next recording takes it (the empty file made for it goes).
            if FileManager.default.fileExists(atPath: path), (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) == 0 {
                unlink(path)
            }
            self.counter.withLock { c in if c.next == counter + 1 { c.next = counter } }
            startFailed(path: path, reason: "\(error)")
            return
        }
        // The frames left while it started (the newest, in order), then the worker pushes.
        while true {
            let frames = state.withLockAndWake { s -> [Frame] in
                let frames = s.pending
                s.pending = []
                if frames.isEmpty {
                    s.recorder = recorder   // finished next if `record` went false meanwhile
                    s.starting = false
                    // Stopped before it started, and asked for again meanwhile: this one is
                    // finished at once, and the next starts with the frames after it.
                    if s.finishOnceStarted && s.wanted { s.finishRunning = true }
                    s.finishOnceStarted = false
                    capturingFlag.store(s.wanted, ordering: .relaxed)
                }
                return frames
            }
            if frames.isEmpty { break }
            for f in frames { recorder.push(f) }
        }
        StructureBuilder("recording-started").with { m in
            m.set("path", path)
            m.set("width", recorder.width)
            m.set("height", recorder.height)
            m.set("sound", recorder.sound)
        }.post(from: element)
    }

    /// The sound source to record, or nil (with a warning saying why the recording has none).
    private func soundSource(_ s: Settings, live: Bool, path: String) -> String? {
        let problem: String?
        if !live {
            problem = "sound is recorded only from a live stream (a camera), not from a file or a source that is not live"
        } else if MP4Recorder.soundEncoder == nil {
            problem = "no AAC encoder (install gstreamer1.0-libav for avenc_aac)"
        } else {
            problem = SoundCheck.problem(with: s.audioSource)
        }
        guard let problem else { return s.audioSource }
        fc_post_warning(element, "recording \(path) without sound: \(problem)", nil)
        return nil
    }

    /// Names tried when others take them meanwhile.
    static let reservationTries = 100

    /// Makes the file at `path` (empty) for this recording: false when it exists already
    /// (another recording took the name). A clear reason before GStreamer's own: the folder
    /// is missing or cannot be written.
    static func reserve(_ path: String) throws(MP4Recorder.Failure) -> Bool {
        let parent = FilePathText.folder(of: path)
        let folder = parent.isEmpty ? "." : parent
        var isFolder = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) else {
            if let file = SnapshotFolders.fileInTheWay(of: folder) {
                throw MP4Recorder.Failure(description: "'\(file)' is a file, not a folder: '\(folder)' cannot be under it")
            }
            throw MP4Recorder.Failure(description: "the folder '\(folder)' does not exist")
        }
        guard isFolder else { throw MP4Recorder.Failure(description: "'\(folder)' is not a folder") }
        guard access(folder, W_OK) == 0 else {
            throw MP4Recorder.Failure(description: "the folder '\(folder)' cannot be written: \(String(cString: strerror(errno)))")
        }
        // Writable to access(2) (root), yet some folders take no new files (/proc, /sys).
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            let error = errno
            if error == EEXIST { return false }
            throw MP4Recorder.Failure(description: error == ENOENT
                ? "the folder '\(folder)' takes no new files (\(String(cString: strerror(error))))"
                : "the file cannot be made: \(String(cString: strerror(error)))")
        }
        close(fd)
        return true
    }

    // MARK: End

    /// Finishes the file and says so: its path, length, size and frames. One stopped before
    /// its first frame (the stream ended as it started) leaves no file that cannot play.
    private func end(_ recorder: MP4Recorder) {
        if let problem = recorder.finish() {
            // Failed as it finished (the disk full for the index): said as a failure while running is.
            report(failure: "recording \(recorder.path) did not finish cleanly: \(problem)\(whatIsLeft(of: recorder))", path: recorder.path)
        } else if recorder.frames == 0 {
            try? FileManager.default.removeItem(atPath: recorder.path)
            report(failure: "recording \(recorder.path) stopped before its first frame: no file is left", path: recorder.path)
        } else if access(recorder.path, F_OK) != 0 {
            // Written to the end into a file no folder holds any more: nothing to play.
            report(failure: "recording \(recorder.path) is lost: the file is no longer there (its folder was removed or "
                   + "renamed while it recorded)", path: recorder.path)
        } else {
            writtenCount.add(1, ordering: .relaxed)
            // stat(2): the attributes' `.size` is an Int in FoundationEssentials (the plugin)
            // and an NSNumber in Foundation (the program), and `as? UInt64` read 0 in the plugin.
            var info = stat()
            let size = stat(recorder.path, &info) == 0 ? UInt64(info.st_size) : 0
            StructureBuilder("recording-saved").with { m in
                m.set("path", recorder.path)
                m.set("duration", recorder.seconds)
                m.set("size", uint64: size)
                m.set("frames", recorder.frames)
                m.set("dropped", recorder.dropped)
                m.set("sound", recorder.sound)
            }.post(from: element)
        }
        state.withLockAndWake { $0.endRequested = false }
    }

    /// An error inside a running recording (a full disk, a removed folder): what it has is
    /// written, `record` goes back to false, the stream runs on.
    private func failed(_ recorder: MP4Recorder, _ problem: String) {
        giveUp { s in
            if s.recorder === recorder { s.recorder = nil }
        }
        let kept = recorder.finishAfterError() == nil ? "; the file keeps what was recorded until then" : whatIsLeft(of: recorder)
        report(failure: "recording \(recorder.path) stopped: \(problem)\(kept)", path: recorder.path)
    }

    /// A recording not finished (the disk that failed it takes no end either): an empty
    /// file is removed, one with frames kept: written in one-second fragments, it plays up
    /// to the last whole one.
    private func whatIsLeft(of recorder: MP4Recorder) -> String {
        var info = stat()
        let size = stat(recorder.path, &info) == 0 ? Int(info.st_size) : 0
        if size == 0 { try? FileManager.default.removeItem(atPath: recorder.path) }
        return size == 0 ? "; no file is left" : "; the file is unfinished: it plays up to the last whole second written, if one was"
    }

    private func startFailed(path: String, reason: String) {
        giveUp { s in
            s.pending = []
            s.starting = false
        }
        report(failure: "cannot record to \(path): \(reason)", path: path, started: false)
    }

    /// A recording asked for that cannot get a frame (the stream ended): a WARNING and
    /// `recording-failed` (not started), and `record` back to false, notified.
    func failUnstarted(_ reason: String) {
        giveUp { s in
            s.pending = []
            s.starting = false
        }
        report(failure: reason, path: nil, started: false)
    }

    /// A failure counted and `record` back to false (notified, for a record button), after
    /// `change` to the state.
    private func giveUp(_ change: (inout State) -> Void) {
        state.withLockAndWake { s in
            change(&s)
            s.wanted = false
            s.finishOnceStarted = false
            s.finishRunning = false
            s.failures += 1
        }
        wantedFlag.store(false, ordering: .relaxed)
        capturingFlag.store(false, ordering: .relaxed)
        g_object_notify(element.asGObject, Property.record.rawValue)
    }

    /// A WARNING naming the path and why (the stream goes on), and `recording-failed`
    /// (`started`: whether `recording-started` came for it).
    private func report(failure: String, path: String?, started: Bool = true) {
        fc_post_warning(element, failure, nil)
        StructureBuilder("recording-failed").with { m in
            if let path { m.set("path", path) }
            m.set("reason", failure)
            m.set("started", started)
        }.post(from: element)
    }
}
