#if canImport(Glibc)
import Glibc
#endif

/// The tables (`LookTable`) of the looks in use, one per look and colour space.
///
/// A table pays once its look has filtered as many pixels directly (the tetrahedral
/// interpolation, per pixel) as the table has entries, since building it costs about that
/// much: the ski-rental rule, never more than twice the work of the best choice made in
/// hindsight. Frames of a megapixel or more start it at once (such a stream pays for it
/// within 16 frames, and a live 1080p stream should not wait 8 frames more); small frames
/// (tests, a small lens) never get one. Until the table is ready, frames are filtered
/// directly with the same results while it is built on a thread of its own: a new look
/// takes effect on the next frame, with no pause for the table. At most two tables are kept (96 MB): a third is built
/// only in place of one unused for a second, so looks used side by side (a chain of three)
/// do not take turns rebuilding theirs; the third stays per pixel.
final class LookTables: Sendable {
    static let shared = LookTables()
    static let capacity = 2
    /// Frames this large start building the table with their first frame.
    static let pixelsToStartAtOnce = 1 << 20
    /// How long a table must have gone unused before another look's may take its place.
    static let idleBeforeReplaced: UInt64 = 1_000_000_000

    private struct Key: Hashable {
        let look: Int
        let space: LookSpace
    }

    private struct Entry {
        var directPixels = 0
        var table: LookTable?
        var building = false
        /// Monotonic nanoseconds.
        var lastUse: UInt64 = 0
    }

    private struct State {
        var entries: [Key: Entry] = [:]

        /// Whether a table may be built for `key` now: there is room, or a table unused for
        /// long enough gives its place (and is dropped).
        mutating func makeRoom(for key: Key, now: UInt64) -> Bool {
            let held = entries.filter { $0.key != key && ($0.value.table != nil || $0.value.building) }
            guard held.count >= LookTables.capacity else { return true }
            guard let idle = held.filter({ $0.value.table != nil }).min(by: { $0.value.lastUse < $1.value.lastUse }),
                  now &- idle.value.lastUse > LookTables.idleBeforeReplaced else { return false }
            entries[idle.key] = Entry(lastUse: idle.value.lastUse)
            return true
        }
    }

    private let state = Locked(State())

    /// The look's table for `space` when it is built. Otherwise nil, and the `pixels` the
    /// caller is about to filter directly count towards building it.
    func table(for look: ColorLookup, space: LookSpace, pixels: Int) -> LookTable? {
        let key = Key(look: look.id, space: space)
        var startBuilding = false
        let now = MonotonicClock.nanoseconds
        let table = state.withLock { s -> LookTable? in
            var entry = s.entries[key] ?? Entry()
            entry.lastUse = now
            if entry.table == nil && !entry.building {
                entry.directPixels += pixels
                if entry.directPixels >= LookTable.entryCount || pixels >= Self.pixelsToStartAtOnce {
                    if s.makeRoom(for: key, now: now) {
                        entry.building = true
                        startBuilding = true
                    } else {
                        entry.directPixels = 0   // no room: ask again after as many pixels
                    }
                }
            }
            s.entries[key] = entry
            return entry.table
        }
        if startBuilding { build(key, look.kernel) }
        return table
    }

    /// Whether `look` has a table for `space` (for tests and the benchmark).
    func isBuilt(_ look: ColorLookup, space: LookSpace) -> Bool {
        state.withLock { $0.entries[Key(look: look.id, space: space)]?.table != nil }
    }

    /// Whether any table is being built.
    var isBuilding: Bool {
        state.withLock { $0.entries.values.contains { $0.building } }
    }

    /// Drops a look's tables (the look is gone).
    func forget(look: Int) {
        state.withLock { s in s.entries = s.entries.filter { $0.key.look != look } }
    }

    private func build(_ key: Key, _ kernel: LookKernel) {
        let builder = JoinableThread(name: "fc-look-table") { [self] in
            // At the video threads' own priority: until it is built, each 1080p frame costs
            // ~30 ms of CPU through the per-pixel path, the whole table ~0.2 s. At nice 10
            // on a loaded machine (load 12-16) it came 5-18 s after the first 1080p frame
            // instead of 3-4 s.
            let table = LookTable()
            Self.fill(table, slabs: 0..<256, kernel: kernel, space: key.space)
            state.withLock { s in
                guard s.entries[key] != nil else { return }   // the look went away meanwhile
                s.entries[key]!.table = table
                s.entries[key]!.building = false
            }
        }
        // No thread for it (a thread limit): frames go on through the per-pixel path, and
        // a later frame asks again.
        if builder == nil { state.withLock { s in s.entries[key] = nil } }
    }

    /// Fills `slabs` (third bytes of the index) of `table` with `kernel`'s results in `space`.
    static func fill(_ table: LookTable, slabs: Range<Int>, kernel: LookKernel, space: LookSpace) {
        switch kernel.form {
        case .cube(let look): fill(table, slabs, look, space)
        case .curves(let look): fill(table, slabs, look, space)
        }
    }

    private static func fill<Look: RGBLook>(_ table: LookTable, _ slabs: Range<Int>, _ look: Look, _ space: LookSpace) {
        @inline(__always) func byte(_ i: UInt32, _ n: UInt32) -> Int32 { Int32(bitPattern: (i &>> (8 &* n)) & 0xFF) }
        switch space {
        case .rgb(redFirst: true):
            for slab in slabs { table.fill(slab: slab) { i in look.look(byte(i, 0), byte(i, 1), byte(i, 2)) } }
        case .rgb(redFirst: false):
            for slab in slabs {
                table.fill(slab: slab) { i in
                    let o = look.look(byte(i, 2), byte(i, 1), byte(i, 0))
                    return (o & 0xFF00) | (o & 0xFF) &<< 16 | o &>> 16
                }
            }
        case .yuv(let matrix):
            let yuv = YUVLook(look, matrix)
            for slab in slabs { table.fill(slab: slab) { i in yuv.look(byte(i, 0), byte(i, 1), byte(i, 2)) } }
        }
    }
}

/// Waits until no look's table is being built, or `timeout` seconds have passed; whether
/// none is. For the benchmark, whose rows are the steady state once a look's table is in use.
public func waitForLookTables(timeout: Double) -> Bool {
    let deadline = MonotonicClock.nanoseconds + UInt64(timeout * 1e9)
    while LookTables.shared.isBuilding {
        guard MonotonicClock.nanoseconds < deadline else { return false }
        usleep(20_000)
    }
    return true
}
