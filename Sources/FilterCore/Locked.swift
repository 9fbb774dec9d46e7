#if canImport(Glibc)
import Glibc
#endif

/// A value behind a pthread mutex, with a condition variable for threads that wait for
/// it to change: settings written from the application's threads and read once per frame
/// by the worker, and the hand-overs between threads (`WorkQueue`).
///
/// The project's one lock type. `Synchronization.Mutex` would do the same, but
/// ThreadSanitizer cannot see its futex-based locking (the Synchronization library is not
/// instrumented) and reports every access as a race; pthread mutexes and conditions are
/// intercepted, so TSan runs stay meaningful. A pthread call that fails is a broken
/// invariant (a lock used after it was destroyed, unlocked by another thread), so it stops
/// the program instead of going on unlocked.
public final class Locked<Value>: @unchecked Sendable {   // the value is only reached under the mutex
    private var value: Value
    // Allocated: a pthread object must not move, and a stored property's address is not stable.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    /// `recursive`: the thread holding the lock may take it again (a critical section that
    /// calls back into code that locks, as a camera switch inside a state change).
    public init(_ value: Value, recursive: Bool = false) {
        self.value = value
        var mutexAttributes = pthread_mutexattr_t()
        Self.check(pthread_mutexattr_init(&mutexAttributes), "pthread_mutexattr_init")
        if recursive {
            Self.check(pthread_mutexattr_settype(&mutexAttributes, Int32(PTHREAD_MUTEX_RECURSIVE)), "pthread_mutexattr_settype")
        }
        Self.check(pthread_mutex_init(mutex, &mutexAttributes), "pthread_mutex_init")
        pthread_mutexattr_destroy(&mutexAttributes)
        var attributes = pthread_condattr_t()
        Self.check(pthread_condattr_init(&attributes), "pthread_condattr_init")
        // Deadlines immune to clock changes.
        Self.check(pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC), "pthread_condattr_setclock")
        Self.check(pthread_cond_init(condition, &attributes), "pthread_cond_init")
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    private static func check(_ result: Int32, _ call: StaticString) {
        precondition(result == 0, "\(call) failed: error \(result)")
    }

    @discardableResult
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body(&value)
    }

    /// Takes the lock for a critical section that cannot be one closure (it spans the two
    /// calls around a state change); every `lock()` needs its `unlock()` on the same thread.
    public func lock() { Self.check(pthread_mutex_lock(mutex), "pthread_mutex_lock") }
    public func unlock() { Self.check(pthread_mutex_unlock(mutex), "pthread_mutex_unlock") }

    /// Runs `body` under the lock and then wakes every thread waiting in `wait(until:)`:
    /// for changes a waiter may be waiting for.
    @discardableResult
    public func withLockAndWake<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock()
        defer {
            Self.check(pthread_cond_broadcast(condition), "pthread_cond_broadcast")
            unlock()
        }
        return try body(&value)
    }

    /// Waits until `ready` holds (checked under the lock, again after every wake-up), then
    /// runs `body` under the same lock. With `timeout` (seconds), returns nil when it ran out.
    public func wait<Result>(until ready: (Value) -> Bool, timeout: Double? = nil,
                             then body: (inout Value) throws -> Result) rethrows -> Result? {
        lock()
        defer { unlock() }
        var deadline = timespec()
        if let timeout {
            clock_gettime(CLOCK_MONOTONIC, &deadline)
            let ns = Int(deadline.tv_nsec) + Int(timeout * 1e9)
            deadline.tv_sec += ns / 1_000_000_000
            deadline.tv_nsec = ns % 1_000_000_000
        }
        while !ready(value) {
            if timeout == nil {
                Self.check(pthread_cond_wait(condition, mutex), "pthread_cond_wait")
                continue
            }
            let result = pthread_cond_timedwait(condition, mutex, &deadline)
            if result == ETIMEDOUT { return ready(value) ? try body(&value) : nil }
            Self.check(result, "pthread_cond_timedwait")
        }
        return try body(&value)
    }
}

extension Locked where Value == Bool {
    /// Sets the flag; true for the one call that found it unset (the first of several that
    /// would each say or do something that must happen once).
    public func setFirst() -> Bool {
        withLock { set in
            defer { set = true }
            return !set
        }
    }
}
