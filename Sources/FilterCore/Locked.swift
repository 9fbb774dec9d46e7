#if canImport(Glibc)
import Glibc
#endif

/// A value behind a pthread mutex, with a condition variable for threads that wait for
/// it to change: settings written from the application's threads and read once per frame
/// by the worker, and the hand-overs between threads (mailboxes, work queues).
///
/// The project's one lock type. `Synchronization.Mutex` would do the same, but
/// ThreadSanitizer cannot see its futex-based locking (the Synchronization library is not
/// instrumented) and reports every access as a race; pthread mutexes and conditions are
/// intercepted, so TSan runs stay meaningful.
public final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private var mutex = pthread_mutex_t()
    private var condition = pthread_cond_t()

    /// `recursive`: the thread holding the lock may take it again (a critical section that
    /// calls back into code that locks, as a camera switch inside a state change).
    public init(_ value: Value, recursive: Bool = false) {
        self.value = value
        var mutexAttributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&mutexAttributes)
        if recursive { pthread_mutexattr_settype(&mutexAttributes, Int32(PTHREAD_MUTEX_RECURSIVE)) }
        pthread_mutex_init(&mutex, &mutexAttributes)
        pthread_mutexattr_destroy(&mutexAttributes)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)   // deadlines immune to clock changes
        pthread_cond_init(&condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(&condition)
        pthread_mutex_destroy(&mutex)
    }

    @discardableResult
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return try body(&value)
    }

    /// Takes the lock for a critical section that cannot be one closure (it spans the two
    /// calls around a state change); every `lock()` needs its `unlock()` on the same thread.
    public func lock() { pthread_mutex_lock(&mutex) }
    public func unlock() { pthread_mutex_unlock(&mutex) }

    /// Runs `body` under the lock and then wakes every thread waiting in `wait(until:)`:
    /// for changes a waiter may be waiting for.
    @discardableResult
    public func withLockAndWake<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(&mutex)
        defer {
            pthread_cond_broadcast(&condition)
            pthread_mutex_unlock(&mutex)
        }
        return try body(&value)
    }

    /// Waits until `ready` holds (checked under the lock, again after every wake-up), then
    /// runs `body` under the same lock. With `timeout` (seconds), returns nil when it ran out.
    public func wait<Result>(until ready: (Value) -> Bool, timeout: Double? = nil,
                             then body: (inout Value) throws -> Result) rethrows -> Result? {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        var deadline = timespec()
        if let timeout {
            clock_gettime(CLOCK_MONOTONIC, &deadline)
            let ns = Int(deadline.tv_nsec) + Int(timeout * 1e9)
            deadline.tv_sec += ns / 1_000_000_000
            deadline.tv_nsec = ns % 1_000_000_000
        }
        while !ready(value) {
            if timeout == nil {
                pthread_cond_wait(&condition, &mutex)
            } else if pthread_cond_timedwait(&condition, &mutex, &deadline) == ETIMEDOUT && !ready(value) {
                return nil
            }
        }
        return try body(&value)
    }
}
