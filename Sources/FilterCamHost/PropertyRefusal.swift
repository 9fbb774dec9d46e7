import FilterCore
import CGStreamer
import CFilterCamShim
import Synchronization

/// What happens to a property value an element cannot take (a GObject setter cannot
/// fail): the previous value stays. While the element runs, the refusal is a WARNING on
/// the bus; before it runs (a pipeline description) it is kept and becomes an ERROR when
/// the element starts, so `filtercam launch` fails with the message.
final class PropertyRefusal: @unchecked Sendable {
    private let element: UnsafeMutablePointer<GstElement>
    private let pending = Locked<String?>(nil)

    init(element: UnsafeMutablePointer<GstElement>) {
        self.element = element
    }

    func refuse(_ property: String, _ value: String, _ why: String) {
        let text = "\(GStreamer.name(of: element)): invalid \(property) \(value.quotedForMessage): \(why)"
        var state = GST_STATE_NULL, next = GST_STATE_NULL
        gst_element_get_state(element, &state, &next, 0)
        if state.rawValue >= GST_STATE_PAUSED.rawValue {
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
