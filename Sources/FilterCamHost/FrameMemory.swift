import CFilterCamShim

/// Keeps resident memory flat over many pipelines in one process, without making other
/// elements' allocations dearer.
///
/// glibc serves a large block with mmap until the first one is freed, then raises its
/// threshold to that size, so later frames come from the heap of whichever thread's arena
/// allocates them, and a freed frame's space stays in that arena. A FilterCam element adds
/// threads (its worker, its appsrc's task), new ones each time a pipeline starts, and
/// glibc gives threads up to 8 arenas per core; the free space at the top of a thread's
/// arena is not given back even by `malloc_trim`. So 200 create/play/stop cycles of
/// `filtercam filter=sepia` in one process grew by 1–4 MB (12 MB in an older build), a
/// frame or two left in each of several arenas, where `videobalance` stayed flat; with
/// two arenas, once in a while by one 640×480 frame. With a single arena, and free memory
/// given back when an element goes to NULL (`fc_return_free_memory`, in C), the growth is
/// 24–80 kB. Small blocks still go through each thread's own cache (glibc's tcache), so a
/// single arena cost no measurable CPU in a two-encoder pipeline. Where the host program
/// chose its own limit (`MALLOC_ARENA_MAX`) it is kept.
///
/// An earlier fix pinned glibc's mmap threshold at 128 KiB for the whole process instead.
/// That made every large block that any element allocates without a pool a fresh mapping:
/// `filesrc ! rawvideoparse` frames at 720p cost ~2.8 ms of page faults each once
/// FilterCam was in the pipeline, and none without it.
enum FrameMemory {
    private static let applied: Void = { _ = fc_use_one_arena() }()

    /// Once, when the first element starts (before most threads have their arena).
    static func useOneArena() {
        _ = applied
    }
}
