import CFilterCamShim

/// Keeps resident memory flat in long runs. glibc serves large blocks (frames, stills)
/// with mmap, but after the first such block is freed it raises its threshold to that size,
/// so later frame-sized blocks come from the heap and, when two are alive at once under
/// load (on several threads' arenas), stay resident: the soak grew by whole frames
/// (1200 KiB at 640×480) each time the machine was busy, and never gave them back.
/// A fixed threshold (glibc's own starting value) stops the raising. Measured under bursts
/// of load: 67 MB and flat, against 81 MB with the default. Host programs using the
/// plugin get the same with the environment variable MALLOC_MMAP_THRESHOLD_=131072.
enum MemoryPolicy {
    static func apply() {
        _ = fc_set_mmap_threshold(128 * 1024)
    }
}
