import CFilterCamShim
import FoundationEssentials

/// Keeps resident memory flat over long runs and over many pipelines in one process.
///
/// glibc serves large blocks (frames, stills) with mmap, but after the first such block is
/// freed it raises its threshold to that size, so later frame-sized blocks come from the
/// heap: from the arena of whichever thread allocates them. A FilterCam element adds
/// threads (its worker, its appsrc's task), so frames land in several arenas, whose top
/// chunks glibc keeps when a pipeline stops. Measured without this: the soak grew by whole
/// frames each time the machine was busy; 200 create/play/stop cycles of
/// `filtercam filter=sepia` in one process grew by 12 MB and 500 by 2.7–8 MB, where
/// `videobalance` stayed flat. A fixed threshold at glibc's own starting value (128 KiB)
/// stops the raising: frames are mapped and unmapped whole, and the growth was under
/// 0.2 MB. It is set once, when the first element starts, and only where the host program
/// did not choose its own (the environment variable MALLOC_MMAP_THRESHOLD_).
enum FrameMemory {
    private static let applied: Void = {
        guard ProcessInfo.processInfo.environment["MALLOC_MMAP_THRESHOLD_"] == nil else { return }
        _ = fc_set_mmap_threshold(128 * 1024)
    }()

    static func keepFramesOutOfThreadArenas() {
        _ = applied
    }
}
