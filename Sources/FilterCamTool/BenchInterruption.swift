import CGStreamer
import FilterCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Ctrl-C (or SIGTERM, SIGHUP) during `filtercam bench`: the `gst-launch-1.0` runs it
/// started are stopped (they would run on, orphaned) and its temporary files removed (the
/// snapshot rows' stills, tens of MB; the registry; the raw frames in /dev/shm) before it
/// ends, with a line saying so. The files are found by name: every one is
/// `filtercam-bench-…` with this process's id among its dash-separated words.
public enum BenchInterruption {
    private static let children = Locked<Set<pid_t>>([])
    /// The rows measured in this process, while they run: stopped before the files go (the
    /// snapshot row's filtercam wrote on into a stills folder it made again, hundreds of
    /// stills left behind the line saying they were removed).
    private static let pipelines = Locked<[ObjectIdentifier: Pipeline]>([:])
    /// Held by the interruption from its start to the process's end: the bench's own end
    /// waits for it (a row that failed as its folder went could otherwise end the process
    /// half way through the removal).
    private static let ending = Locked<Void>(())
    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []   // set once, before the bench runs

    /// Takes the signals from here on (main thread, before the first row).
    public static func install() {
        for s in [SIGINT, SIGTERM, SIGHUP] {
            signal(s, SIG_IGN)   // delivered to the source instead of ending the process
            let source = DispatchSource.makeSignalSource(signal: s, queue: .global())
            source.setEventHandler { interrupted(by: s) }
            source.resume()
            sources.append(source)
        }
    }

    /// Runs `process` to its end, stopped with the bench when it is interrupted.
    static func runToEnd(_ process: Process) throws {
        try start(process)
        process.waitUntilExit()
        ended(process)
    }

    /// Starts `process`, stopped with the bench if it is interrupted before `ended`.
    static func start(_ process: Process) throws {
        try process.run()
        let pid = process.processIdentifier
        children.withLock { _ = $0.insert(pid) }
    }

    static func ended(_ process: Process) {
        let pid = process.processIdentifier
        children.withLock { _ = $0.remove(pid) }
    }

    /// Runs `body` with `pipeline` stopped by an interruption meanwhile.
    static func running<Result>(_ pipeline: Pipeline, _ body: () throws -> Result) rethrows -> Result {
        pipelines.withLock { $0[ObjectIdentifier(pipeline)] = pipeline }
        defer { pipelines.withLock { $0[ObjectIdentifier(pipeline)] = nil } }
        return try body()
    }

    /// The temporary files of the bench running as `pid`, in the folders it uses.
    static func temporaryFiles(of pid: pid_t = getpid()) -> [String] {
        let id = String(pid)
        return [NSTemporaryDirectory(), "/dev/shm/"].flatMap { folder -> [String] in
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            return names.filter { name in
                name.hasPrefix("filtercam-bench-")
                    && name.split(whereSeparator: { $0 == "-" || $0 == "." }).contains(where: { $0 == id })
            }.map { (folder.hasSuffix("/") ? folder : folder + "/") + $0 }
        }
    }

    /// Removes a file or folder the pipelines may still be writing into (the stills): the
    /// folder is moved aside first, so no new file can start in it, then removed until gone
    /// (a file being written as the folder is emptied makes one removal fail).
    private static func remove(_ path: String) {
        let aside = path + ".removing"
        let target = rename(path, aside) == 0 ? aside : path
        for _ in 0..<20 where FileManager.default.fileExists(atPath: target) {
            try? FileManager.default.removeItem(atPath: target)
        }
    }

    /// The bench is done: returns at once, unless an interruption is cleaning up (it ends
    /// the process).
    public static func waitForInterruption() {
        ending.withLock { _ in }
    }

    private static func interrupted(by signal: Int32) {
        ending.lock()   // never given back: this ends the process
        let running = children.withLock { $0 }
        for pid in running { kill(pid, SIGKILL) }   // a measurement run: nothing of it to keep
        // Held to the end: a row finishing meanwhile cannot free its pipeline under this.
        let inProcess = pipelines.withLock { Array($0.values) }
        for pipeline in inProcess { pipeline.setState(GST_STATE_NULL) }
        let files = temporaryFiles()
        for path in files { remove(path) }
        let stopped = running.isEmpty && inProcess.isEmpty ? "" : "stopped the run, "
        let removed = files.isEmpty ? "no temporary files to remove" : "removed its temporary files (\(files.joined(separator: ", ")))"
        FileHandle.standardError.write(Data("\nfiltercam bench: interrupted: \(stopped)\(removed); no results\n".utf8))
        _exit(128 + signal)
    }
}
