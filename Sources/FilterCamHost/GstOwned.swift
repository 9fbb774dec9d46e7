import CGStreamer
import Synchronization

/// How a C value Swift owns is given back, by its type. (Not a protocol the C types
/// conform to: other modules see GStreamer's types through more than one C module, and
/// there the compiler does not find a conformance declared here.)
private enum Ownership {
    case miniObject   // caps, buffer, event, message, query, sample: counted
    case object       // a GstObject: counted, may be floating
    case gObject      // a plain GObject (e.g. a Pango layout): counted
    case structure    // a GstStructure: one owner frees it

    init(of type: Any.Type) {
        if type == GstBuffer.self || type == GstCaps.self || type == GstEvent.self || type == GstMessage.self
            || type == GstQuery.self || type == GstMiniObject.self { self = .miniObject }
        else if type == GstElement.self || type == GstPad.self || type == GstObject.self || type == GstBus.self
            || type == GstClock.self || type == GstBufferPool.self || type == GstDevice.self
            || type == GstDeviceMonitor.self { self = .object }
        else if type == GObject.self { self = .gObject }
        else if type == GstStructure.self { self = .structure }
        else { preconditionFailure("FilterCam does not know how to own a \(type)") }
    }

    func release(_ pointer: UnsafeMutableRawPointer) {
        switch self {
        case .miniObject: gst_mini_object_unref(pointer.assumingMemoryBound(to: GstMiniObject.self))
        case .object: gst_object_unref(pointer)
        case .gObject: g_object_unref(pointer)
        case .structure: gst_structure_free(pointer.assumingMemoryBound(to: GstStructure.self))
        }
    }

    func retain(_ pointer: UnsafeMutableRawPointer) {
        switch self {
        case .miniObject: _ = gst_mini_object_ref(pointer.assumingMemoryBound(to: GstMiniObject.self))
        case .object: _ = gst_object_ref(pointer)
        case .gObject: _ = g_object_ref(pointer)
        case .structure: preconditionFailure("a GstStructure has one owner: copy it instead")
        }
    }
}

/// One reference to a GStreamer object or mini object that Swift owns, given back when
/// the last Swift reference goes: no unref is written by hand next to a call that returns
/// a new reference (`transfer full`). Bind it to a local (kept to the end of its scope
/// past C calls); a temporary may go before the call that uses its `pointer`.
///
/// The reference can leave earlier: `take()` hands it to a call that takes one, `release()`
/// gives it back now (so that the next holder has the object alone). Either happens once;
/// reading `pointer` after it is a programming error and stops the program.
package final class GstOwned<Object>: Sendable {
    /// The pointer's address; 0 once taken or released.
    private let address: Atomic<UInt>

    package var pointer: UnsafeMutablePointer<Object> {
        guard let pointer = UnsafeMutablePointer<Object>(bitPattern: address.load(ordering: .relaxed)) else {
            preconditionFailure("a \(Object.self) reference used after it was taken or released")
        }
        return pointer
    }

    /// Takes over `pointer`'s reference.
    package init(_ pointer: UnsafeMutablePointer<Object>) {
        _ = Ownership(of: Object.self)   // a type it cannot give back stops here, not at the end
        address = Atomic(UInt(bitPattern: pointer))
    }

    /// Takes over the reference of a call that may return nil.
    package convenience init?(_ pointer: UnsafeMutablePointer<Object>?) {
        guard let pointer else { return nil }
        self.init(pointer)
    }

    /// Hands the reference to a call that takes it (`transfer full`); this owner gives nothing back.
    package func take() -> UnsafeMutablePointer<Object> {
        guard let pointer = UnsafeMutablePointer<Object>(bitPattern: address.exchange(0, ordering: .relaxed)) else {
            preconditionFailure("a \(Object.self) reference taken twice")
        }
        return pointer
    }

    /// Gives the reference back now instead of when the last Swift reference goes.
    package func release() {
        if let pointer = UnsafeMutablePointer<Object>(bitPattern: address.exchange(0, ordering: .relaxed)) {
            Ownership(of: Object.self).release(pointer)
        }
    }

    deinit { release() }
}

extension GstOwned {
    /// Takes a reference of its own to `pointer` (one that is only borrowed).
    package convenience init(retaining pointer: UnsafeMutablePointer<Object>) {
        Ownership(of: Object.self).retain(pointer)
        self.init(pointer)
    }

    /// Takes over every object of a GList of references handed over (`transfer full`), and
    /// frees the list itself.
    package static func list(taking list: UnsafeMutablePointer<GList>?) -> [GstOwned<Object>] {
        var owned: [GstOwned<Object>] = []
        var node = list
        while let n = node {
            if let data = n.pointee.data { owned.append(GstOwned(data.assumingMemoryBound(to: Object.self))) }
            node = n.pointee.next
        }
        g_list_free(list)
        return owned
    }
}

extension GstOwned where Object == GstObject {
    /// Owns an object of a type Swift sees as opaque (an element factory, a plugin feature).
    package convenience init?(opaque pointer: OpaquePointer?) {
        guard let pointer else { return nil }
        self.init(UnsafeMutablePointer<GstObject>(pointer))
    }
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

    /// The element's bus, borrowed: the element keeps it while it lives.
    package var bus: UnsafeMutablePointer<GstBus>? {
        GstOwned<GstBus>(gst_element_get_bus(pointer))?.pointer
    }
}

extension GstOwned where Object == GstBuffer {
    /// This buffer when it can be written in place (it holds the only reference), else a
    /// copy that can (as gst_buffer_make_writable, which would take this owner's reference).
    package func writable() -> GstOwned<GstBuffer> {
        gst_mini_object_is_writable(UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GstMiniObject.self)) != 0
            ? self : GstOwned(gst_buffer_copy(pointer)!)
    }
}

/// One reference to a GstSample, given back when the last Swift reference goes (GstSample
/// is opaque to Swift, so it is held as the mini object it is).
package struct GstOwnedSample: Sendable {
    private let object: GstOwned<GstMiniObject>
    package var pointer: OpaquePointer { OpaquePointer(object.pointer) }

    /// Takes over `sample`'s reference.
    package init(_ sample: OpaquePointer) {
        object = GstOwned(UnsafeMutablePointer<GstMiniObject>(sample))
    }

    /// Takes over the reference of a call that may return nil (a pull that timed out).
    package init?(_ sample: OpaquePointer?) {
        guard let sample else { return nil }
        self.init(sample)
    }

    /// A new sample of `buffer` with `caps` and `segment` (it takes references of its own).
    package init(buffer: UnsafeMutablePointer<GstBuffer>, caps: UnsafeMutablePointer<GstCaps>?, segment: UnsafePointer<GstSegment>?) {
        self.init(gst_sample_new(buffer, caps, segment, nil)!)
    }

    /// What it carries, borrowed: the sample keeps them while it lives.
    package var buffer: UnsafeMutablePointer<GstBuffer>? { gst_sample_get_buffer(pointer) }
    package var caps: UnsafeMutablePointer<GstCaps>? { gst_sample_get_caps(pointer) }
    package var segment: UnsafeMutablePointer<GstSegment>? { gst_sample_get_segment(pointer) }
}

