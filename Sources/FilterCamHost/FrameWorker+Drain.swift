import CGStreamer
import CFilterCamShim
import FilterCore

/// A DRAIN query from upstream (a decoder about to reallocate its buffers, a pool owner
/// wanting them back) is answered once every frame that came before it has left the
/// element and downstream has drained too, as `queue` answers it: a marker goes through
/// the mailbox, the worker and the appsrc behind those frames, and when it leaves the
/// appsrc the query goes on downstream. It was answered at once, with frames still inside
/// (in-place filters hold upstream's own buffers), and never reached downstream.
struct DrainProgress {
    /// Drains asked for, the newest whose marker left the appsrc, and the newest called off
    /// by a flush or a stop (its marker thrown away with the frames).
    var asked = 0
    var left = 0
    var calledOff = 0
    /// The element is stopping: a drain asked for now is refused at once (its marker
    /// would find the mailbox closed).
    var stopping = false
}

extension FrameWorker {
    private static let markerName = "filtercam-drain"

    /// Upstream's DRAIN query (its streaming thread, serialized): waits for the frames
    /// before it to leave, then asks downstream. False when a flush or a stop called it off.
    func drain(_ query: UnsafeMutablePointer<GstQuery>) -> Bool {
        guard let number = drains.withLock({ d -> Int? in
            guard !d.stopping else { return nil }
            d.asked += 1
            return d.asked
        }) else { return false }
        let structure = StructureBuilder(Self.markerName)
        structure.set("number", number)
        let marker = gst_event_new_custom(GST_EVENT_CUSTOM_DOWNSTREAM, structure.structure)!
        mailbox.put(.event(HandedEvent(event: GstOwned(marker),
                                       segmentEvent: GstOwned(gst_pad_get_sticky_event(sinkPad, GST_EVENT_SEGMENT, 0)))))
        let drained = drains.wait(until: { $0.left >= number || $0.calledOff >= number }) { $0.left >= number }
        guard drained == true, let pad = GstOwned(gst_element_get_static_pad(element, "src")) else { return false }
        return gst_pad_peer_query(pad.pointer, query) != 0
    }

    /// A downstream event leaving the appsrc: true when it is a drain's marker (dropped
    /// here: the frames before it have left).
    func takeDrainMarker(_ event: UnsafeMutablePointer<GstEvent>) -> Bool {
        guard event.pointee.type == GST_EVENT_CUSTOM_DOWNSTREAM, let structure = gst_event_get_structure(event),
              gst_structure_has_name(structure, Self.markerName) != 0 else { return false }
        var number: gint = 0
        _ = gst_structure_get_int(structure, "number", &number)
        drains.withLockAndWake { $0.left = max($0.left, Int(number)) }
        return true
    }

    /// A flush or a stop (`stopping`: until the next start): the markers waiting are thrown
    /// away with the frames, and the drains waiting for them end.
    func callOffDrains(stopping: Bool = false) {
        drains.withLockAndWake { d in
            d.calledOff = d.asked
            if stopping { d.stopping = true }
        }
    }

    /// A new run takes drains again.
    func startDrains() {
        drains.withLock { $0.stopping = false }
    }
}
