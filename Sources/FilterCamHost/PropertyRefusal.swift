import FilterCore
import CGStreamer
import CFilterCamShim
import Glibc
import Synchronization

/// What happens to a property value an element cannot take (a GObject setter cannot
/// fail): the previous value stays. While the element runs, the refusal is a WARNING on
/// the bus; before it runs (a pipeline description) it is kept and becomes an ERROR when
/// the element starts, so `filtercam launch` fails with the message. A kept value is tried
/// again whenever another property is taken before the start, since it may depend on it
/// (`filter=look:NAME` before the `looks=DIR` that adds NAME: a description's order
/// should not matter), and forgotten when its own property takes a later value.
package final class PropertyRefusal: Sendable {
    private let elementPointer: GstPointer<GstElement>
    private var element: UnsafeMutablePointer<GstElement> { elementPointer.pointer }

    /// A value refused before the start: the property's index, the value, the message.
    private struct Kept: Sendable {
        let index: Int
        let value: PropertyValue
        let property: String
        let valueText: String
        var text: String
    }
    private let kept = Locked<[Kept]>([])

    init(element: UnsafeMutablePointer<GstElement>) {
        elementPointer = GstPointer(element)
    }

    func refuse(_ index: Int, _ value: PropertyValue, _ property: String, _ valueText: String, _ why: String) {
        let text = message(property, valueText, why)
        if element.isRunning {
            if Self.collector.collect(text) { return }   // the setter reports it itself
            fc_post_warning(element, text, nil)
        } else {
            kept.withLock { k in
                k.removeAll { $0.index == index }
                k.append(Kept(index: index, value: value, property: property, valueText: valueText, text: text))
            }
        }
    }

    private func message(_ property: String, _ valueText: String, _ why: String) -> String {
        "\(GStreamer.name(of: element)): invalid \(property) \(valueText.quotedForMessage): \(why)"
    }

    /// Property `index` took a value: a value kept for it is forgotten, and the others are
    /// offered again to `retry`, which sets one and returns nil, or why it is still refused
    /// (the message then says so in today's terms: the valid choices may have grown).
    func taken(_ index: Int, retry: (Int, PropertyValue) -> String?) {
        let others = kept.withLock { k -> [Kept] in
            k.removeAll { $0.index == index }
            return k
        }
        guard !others.isEmpty else { return }
        var outcome: [Int: String?] = [:]
        for k in others { outcome[k.index] = .some(retry(k.index, k.value)) }
        kept.withLock { k in
            k = k.compactMap { entry in
                guard let result = outcome[entry.index] else { return entry }   // refused meanwhile
                guard let why = result else { return nil }
                var updated = entry
                updated.text = message(entry.property, entry.valueText, why)
                return updated
            }
        }
    }

    /// Call before each state change: a start (NULL -> READY, or READY -> PAUSED for a
    /// value refused in READY, which was kept and the stream then ran with the old one
    /// silently) fails with the kept errors (the first as the ERROR, any others as WARNINGs
    /// before it). They stay kept until their properties take other values: a second start
    /// with nothing changed fails again (it started with the old value, without a word).
    /// Never on the way down: NULL is always reached (set_state(NULL) after a refused start
    /// failed, NULL -> NULL, and posted the ERROR again each time).
    func check(_ transition: GstStateChange) -> Bool {
        let step = (fc_transition_current(transition), fc_transition_next(transition))
        let null = Int32(GST_STATE_NULL.rawValue), ready = Int32(GST_STATE_READY.rawValue), paused = Int32(GST_STATE_PAUSED.rawValue)
        guard step == (null, ready) || step == (ready, paused) else { return true }
        let errors = kept.withLock { $0 }
        guard let first = errors.first else { return true }
        for other in errors.dropFirst() { fc_post_warning(element, other.text, nil) }
        fc_post_error(element, first.text, nil)
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

