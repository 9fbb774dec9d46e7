import CFilterCamShim

/// Keeps resident memory flat over many pipelines in one process.
///
/// glibc serves a large block with mmap until the first one is freed, then raises its
/// threshold to that size, so later frames come from the heap of whichever thread's arena
/// allocates them, and a freed frame's space stays in that arena. A FilterCam element adds
/// threads (its worker, its appsrc's task), new ones each time a pipeline starts, and
/// glibc gives threads up to 8 arenas per core: 200 create/play/stop cycles of `filtercam
/// filter=sepia` in one process grew by 1–4 MB, a frame or two left in each of many
/// arenas, where `videobalance` stayed flat. With at most one arena per core (as many as
/// can allocate at once) the growth was under 0.2 MB; where the host program chose its
/// own limit (`MALLOC_ARENA_MAX`) it is kept. The elements also give free memory back
/// when they go to NULL (`fc_return_free_memory`).
///
/// An earlier fix pinned glibc's mmap threshold at 128 KiB for the whole process instead.
/// That made every large block of every element a fresh mapping: `filesrc !
/// rawvideoparse` at 720p paid ~2.8 ms of page faults a frame once FilterCam was in the
/// pipeline, and `jpegenc` one 3 MB mapping per 1080p still.
enum FrameMemory {
    private static let applied: Void = { _ = fc_limit_arenas_to_cores() }()

    /// Once, when the first element starts (before most threads have their arena).
    static func limitArenas() {
        _ = applied
    }
}
