#if canImport(Glibc)
import Glibc
#endif

/// The monotonic clock (CLOCK_MONOTONIC, as Dispatch's uptime), read without Dispatch or
/// Foundation: the elements link only what every pipeline needs.
public enum MonotonicClock {
    /// Nanoseconds since an arbitrary start.
    @inline(__always)
    public static var nanoseconds: UInt64 {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return UInt64(t.tv_sec) &* 1_000_000_000 &+ UInt64(t.tv_nsec)
    }

    /// Seconds since the same start.
    public static var seconds: Double { Double(nanoseconds) / 1e9 }
}
