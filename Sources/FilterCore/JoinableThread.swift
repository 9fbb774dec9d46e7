import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A thread that its owner joins: when `join()` returns the thread is gone, not merely
/// finished with its work. Foundation's `Thread` is detached, so a stopped worker could
/// still be alive (and counted in `/proc/self/task`) a moment after its element reached
/// NULL; a host that creates and drops pipelines in a loop saw its thread count wobble.
///
/// The name (at most 15 bytes, the kernel's limit) shows in `top -H`, `gdb` and
/// `/proc/PID/task/*/comm`, so a thread left behind is easy to attribute.
public final class JoinableThread: Sendable {
    private let thread: pthread_t
    private let joined = Atomic<Bool>(false)

    /// Starts `body` on a new thread named `name`; nil when no thread can be made (a
    /// process or user at its thread limit, no memory for a stack), with `errno` saying
    /// why. Each owner says so in its own words: this stopped the whole process (a camera
    /// recording under a thread limit ended in SIGILL).
    public init?(name: String, _ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(Body(name: String(name.utf8.prefix(15)) ?? "filtercam", body))
        var thread = pthread_t()
        let created = pthread_create(&thread, nil, { argument in
            let body = Unmanaged<Body>.fromOpaque(argument!).takeRetainedValue()
            _ = setThreadName(pthread_self(), body.name)
            body.run()
            return nil
        }, box.toOpaque())
        guard created == 0 else {
            box.release()
            errno = created
            return nil
        }
        self.thread = thread
    }

    /// Why the last thread could not be made, in words (after a nil `init`).
    public static var whyNotStarted: String { String(cString: strerror(errno)) }

    /// Waits until the thread has exited. Call once, from another thread.
    public func join() {
        precondition(pthread_equal(thread, pthread_self()) == 0, "a thread cannot join itself")
        guard !joined.exchange(true, ordering: .acquiringAndReleasing) else { return }
        pthread_join(thread, nil)
    }

    deinit {
        if !joined.load(ordering: .acquiring) { pthread_detach(thread) }
    }

    private final class Body: Sendable {
        let name: String
        let run: @Sendable () -> Void
        init(name: String, _ run: @escaping @Sendable () -> Void) {
            self.name = name
            self.run = run
        }
    }
}

/// glibc's `pthread_setname_np`, which the Glibc module does not export (it is declared
/// only under `_GNU_SOURCE`).
@_silgen_name("pthread_setname_np")
func setThreadName(_ thread: pthread_t, _ name: UnsafePointer<CChar>) -> Int32
