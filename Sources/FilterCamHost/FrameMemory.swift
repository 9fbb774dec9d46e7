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
/// The heap's top: glibc gives free memory at the top of the heap back to the kernel once
/// it exceeds its trim threshold, which slides to twice the largest block freed so far,
/// two frames. FilterCam holds a frame or two longer than a plain element (its mailbox,
/// its worker), so frames that a source allocates one by one (`filesrc ! rawvideoparse`)
/// are freed a few at once, the top passes two frames, goes back, and the next frames
/// fault it in again: 64–135 page faults a 720p YUY2 frame (0.3–0.7 ms of system time) where
/// `identity` and `videoflip` had none. The thresholds are set at once to the ceilings
/// that glibc's own rule stops at (large blocks from the heap up to 32 MiB, trim beyond
/// 64 MiB free); memory still goes back when an element stops. Where the host set
/// `MALLOC_MMAP_THRESHOLD_` or `MALLOC_TRIM_THRESHOLD_` both are left to it.
///
/// An earlier fix pinned glibc's mmap threshold at 128 KiB for the whole process instead.
/// That made every large block that any element allocates without a pool a fresh mapping:
/// `filesrc ! rawvideoparse` frames at 720p cost ~2.8 ms of page faults each once
/// FilterCam was in the pipeline, and none without it.
enum FrameMemory {
    private static let applied: Void = { _ = fc_settle_allocator() }()

    /// Once, when the first element starts (before most threads have their arena).
    static func settleAllocator() {
        _ = applied
    }
}
