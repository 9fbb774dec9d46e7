import FilterCore
import Glibc

/// Still names announced (`snapshot-started`) and not yet written or failed, across every
/// element of the process: two elements with the same `snapshot-location` taking a still on
/// the same frame both found `snapshot-00000.jpg` free on disk and both announced it; the
/// second was then saved as `-00001` under a start message naming the first's file. A name
/// is held here from its announcement until its file is written or reported failed.
enum StillNamesInFlight {
    private static let held = Locked(Set<String>())

    /// The first counter from `start` whose names (a bracketed set's too) are free on disk
    /// and not held by another still; those names are held until `release`d.
    static func reserve(_ naming: SnapshotNaming, from start: Int, biases: [Double]) -> Int {
        // Held by the folder's real path: `br/`, `./br/` and `/abs/br/` are one folder (two
        // elements writing there, each spelling it its own way, still collided).
        let folder = realFolder(of: naming.path(counter: start))
        return held.withLock { held in
            let counter = naming.nextFree(from: start, biases: biases, alsoTaken: { held.contains(key($0, folder: folder)) })
            let names = biases.isEmpty ? [naming.path(counter: counter)] : biases.map { naming.path(counter: counter, bias: $0) }
            held.formUnion(names.map { key($0, folder: folder) })
            return counter
        }
    }

    /// The still's file was written, or it was reported failed.
    static func release(_ path: String) {
        let key = key(path, folder: realFolder(of: path))
        _ = held.withLock { $0.remove(key) }
    }

    /// The real path of the folder `path` is in (its text as written when it cannot be
    /// resolved: a folder missing, whose stills fail anyway).
    private static func realFolder(of path: String) -> String {
        let folder = FilePathText.folder(of: path)
        guard let resolved = realpath(folder.isEmpty ? "." : folder, nil) else { return folder }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func key(_ path: String, folder: String) -> String {
        folder + "/" + FilePathText.lastComponent(of: path)
    }
}
