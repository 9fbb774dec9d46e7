#if canImport(Glibc)
import Glibc
#endif

/// A value behind a pthread mutex: settings written from the application's threads and
/// read once per frame by the worker.
///
/// `Synchronization.Mutex` would do the same, but ThreadSanitizer cannot see its
/// futex-based locking (the Synchronization library is not instrumented) and reports
/// every access as a race; pthread mutexes are intercepted, so TSan runs stay meaningful.
public final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private var mutex = pthread_mutex_t()

    public init(_ value: Value) {
        self.value = value
        pthread_mutex_init(&mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(&mutex)
    }

    @discardableResult
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return try body(&value)
    }
}
