import Glibc

/// Writes a whole buffer to a file descriptor: again after a short write or a signal
/// (EINTR), until every byte went or the system said why not. One loop for the stills, the
/// messages and the benchmark's JSON, which each had their own.
public enum WholeWrite {
    /// Writes `bytes` to `fd`; returns how many bytes went and, when not all of them, the
    /// error that stopped it (ENOSPC when the system wrote nothing and said nothing).
    public static func write(_ bytes: UnsafeRawBufferPointer, to fd: Int32) -> (written: Int, error: Int32?) {
        var written = 0
        while written < bytes.count {
            let n = Glibc.write(fd, bytes.baseAddress! + written, bytes.count - written)
            if n > 0 { written += n; continue }
            if n < 0 && errno == EINTR { continue }
            return (written, n < 0 ? errno : ENOSPC)
        }
        return (written, nil)
    }
}
