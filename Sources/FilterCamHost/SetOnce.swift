import FilterCore

/// A value its owner sets once, right after its own init: an element's parts include the
/// element itself, which cannot be named before its init is done. Read from any thread.
final class SetOnce<Value: Sendable>: Sendable {
    private let stored = Locked<Value?>(nil)

    func set(_ value: Value) {
        stored.withLock { v in
            precondition(v == nil, "set once")
            v = value
        }
    }

    var value: Value {
        guard let value = stored.withLock({ $0 }) else { preconditionFailure("read before it was set") }
        return value
    }
}
