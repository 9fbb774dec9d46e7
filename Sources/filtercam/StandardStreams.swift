import CFilterCamShim
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The three standard streams as a program may find them.
enum StandardStreams {
    /// Opens /dev/null on any of fds 0–2 the caller closed (`filtercam launch … >&-`):
    /// otherwise the next file opened takes that number, and what is meant for the
    /// stream (`fdsink fd=1`, a print) goes into it, e.g. into the `--messages` file.
    /// Opened for reading only, so that writing to a closed stdout still fails (EBADF,
    /// said and exit status 1, as `ls >&-`): opened for writing, the listing, the raw
    /// frames of `fdsink fd=1` and the messages went nowhere with status 0.
    static func reopenClosed() {
        for fd in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(fd, F_GETFD) == -1 && errno == EBADF {
            let null = open("/dev/null", O_RDONLY)
            if null >= 0 && null != fd {   // lowest free number: `fd` itself unless a lower one is closed too
                dup2(null, fd)
                close(null)
            }
        }
    }

    /// What was printed and not yet written, written; an output that cannot take it (a full
    /// disk: `filtercam filters > /dev/full`) is said, and fails the command, as in
    /// coreutils. A reader gone (`filtercam filters | head -1`) is not an error.
    static func finish(status: Int32) -> Int32 {
        let failure = fc_flush_standard_output()
        // A pipe's error is its reader gone (the errno of an earlier write is not kept).
        var info = stat()
        let pipe = fstat(STDOUT_FILENO, &info) == 0 && (info.st_mode & S_IFMT == S_IFIFO || info.st_mode & S_IFMT == S_IFSOCK)
        guard failure != 0, failure != EPIPE, !pipe else { return status }
        let reason = String(cString: strerror(failure))
        FileHandle.standardError.write("filtercam: cannot write the output: \(reason)\n")
        return status == 0 ? 1 : status
    }
}
