import CGStreamer

/// A GStreamer type whose references Swift can own: how one reference is given back.
package protocol GstReferenceCounted {
    static func release(_ pointer: UnsafeMutablePointer<Self>)
}

/// A mini object (caps, buffer, event, message, query): given back with gst_mini_object_unref.
package protocol GstMiniObjectType: GstReferenceCounted {}
extension GstMiniObjectType {
    package static func release(_ pointer: UnsafeMutablePointer<Self>) {
        gst_mini_object_unref(UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GstMiniObject.self))
    }
}

/// A GstObject (element, pad, bus, clock, device monitor): given back with gst_object_unref.
package protocol GstObjectType: GstReferenceCounted {}
extension GstObjectType {
    package static func release(_ pointer: UnsafeMutablePointer<Self>) { gst_object_unref(pointer) }
}

extension GstCaps: GstMiniObjectType {}
extension GstBuffer: GstMiniObjectType {}
extension GstEvent: GstMiniObjectType {}
extension GstMessage: GstMiniObjectType {}
extension GstQuery: GstMiniObjectType {}
extension GstPad: GstObjectType {}
extension GstElement: GstObjectType {}
extension GstBus: GstObjectType {}
extension GstClock: GstObjectType {}
extension GstDeviceMonitor: GstObjectType {}

/// One reference to a GStreamer object or mini object that Swift owns, given back when
/// the last Swift reference goes: no unref is written by hand next to a call that returns
/// a new reference (`transfer full`). Bind it to a local (kept to the end of its scope
/// past C calls); a temporary may go before the call that uses its `pointer`.
package final class GstOwned<Object: GstReferenceCounted>: Sendable {
    private let reference: GstPointer<Object>
    package var pointer: UnsafeMutablePointer<Object> { reference.pointer }

    /// Takes over `pointer`'s reference.
    package init(_ pointer: UnsafeMutablePointer<Object>) {
        reference = GstPointer(pointer)
    }

    /// Takes over the reference of a call that may return nil.
    package convenience init?(_ pointer: UnsafeMutablePointer<Object>?) {
        guard let pointer else { return nil }
        self.init(pointer)
    }

    deinit { Object.release(reference.pointer) }
}

extension GstOwned where Object == GstElement {
    /// Owns an element that may still be floating (just made or parsed): sinks it.
    package convenience init(sinking element: UnsafeMutablePointer<GstElement>) {
        gst_object_ref_sink(UnsafeMutableRawPointer(element))
        self.init(element)
    }

    /// The child named `name` of this bin, borrowed: the bin keeps it while it lives.
    package func child(named name: String) -> UnsafeMutablePointer<GstElement>? {
        GstOwned(gst_bin_get_by_name(pointer.asBin, name))?.pointer
    }
}
