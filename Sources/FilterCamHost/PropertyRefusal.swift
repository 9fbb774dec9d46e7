import FilterCore
import CGStreamer
import CFilterCamShim
import Glibc
import Synchronization

/// What happens to a property value an element cannot take (a GObject setter cannot
/// fail): the previous value stays. While the element runs, the refusal is a WARNING on
/// the bus; before it runs (a pipeline description) it is kept and becomes an ERROR when
/// the element starts, so `filtercam launch` fails with the message.
package final class PropertyRefusal: Sendable {
    private let elementPointer: GstPointer<GstElement>
    private var element: UnsafeMutablePointer<GstElement> { elementPointer.pointer }
    private let pending = Locked<String?>(nil)

    init(element: UnsafeMutablePointer<GstElement>) {
        elementPointer = GstPointer(element)
    }

    func refuse(_ property: String, _ value: String, _ why: String) {
        let text = "\(GStreamer.name(of: element)): invalid \(property) \(value.quotedForMessage): \(why)"
        var state = GST_STATE_NULL, next = GST_STATE_NULL
        gst_element_get_state(element, &state, &next, 0)
        if state.rawValue >= GST_STATE_PAUSED.rawValue {
            if Self.collector.collect(text) { return }   // the setter reports it itself
            fc_post_warning(element, text, nil)
        } else {
            pending.withLock { $0 = text }
        }
    }

    /// Call before the element leaves NULL: fails the state change with the kept error.
    func check(_ transition: GstStateChange) -> Bool {
        guard fc_transition_current(transition) == Int32(GST_STATE_NULL.rawValue),
              let error = pending.withLock({ e -> String? in defer { e = nil }; return e }) else { return true }
        fc_post_error(element, error, nil)
        return false
    }
}

extension PropertyRefusal {
    /// Runs `body` (which sets properties) and returns the refusals it caused on this
    /// thread while the elements run, instead of posting them as warnings: a program that sets a value and says whether it
    /// took (`set` on filtercam's command line) reports a refusal once, in its own words,
    /// not as a success line followed by a bus warning.
    package static func collecting(_ body: () throws -> Void) rethrows -> [String] {
        try collector.run(body)
    }

    fileprivate static let collector = RefusalCollector()
}

/// The refusals of the threads inside `PropertyRefusal.collecting` (a thread's own list,
/// in a thread-specific slot: a setter runs on the thread that sets).
private final class RefusalCollector: Sendable {
    /// The innermost `run`'s list on this thread (unretained: `run` keeps it alive).
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// One `collecting` call's list.
    private final class Refusals {
        var texts: [String] = []
    }

    func run(_ body: () throws -> Void) rethrows -> [String] {
        let outer = pthread_getspecific(Self.key)
        let refusals = Refusals()
        defer { pthread_setspecific(Self.key, outer) }
        try withExtendedLifetime(refusals) {
            pthread_setspecific(Self.key, Unmanaged.passUnretained(refusals).toOpaque())
            try body()
        }
        return refusals.texts
    }

    /// Whether a `run` on this thread took the refusal.
    func collect(_ text: String) -> Bool {
        guard let slot = pthread_getspecific(Self.key) else { return false }
        Unmanaged<Refusals>.fromOpaque(slot).takeUnretainedValue().texts.append(text)
        return true
    }
}

