import CGStreamer
import CFilterCamShim
import FilterCore

/// The STREAM_START and SEGMENT events that leave the element are upstream's own, each
/// sent once where upstream sent it, as through `videoflip`. The appsrc makes events of its
/// own: a STREAM_START with its own stream-id and group-id (a stream told apart by its id,
/// a new group in gapless playback, were lost), and after a flush GstBaseSrc sends the
/// segment it had before (the one from before a seek), then the frame's new one, each with
/// a fresh seqnum, so downstream saw the old segment first and never the seek's seqnum.
///
/// Here the appsrc's STREAM_START is replaced by upstream's (the appsrc sends its own as
/// its task starts, before upstream's has come: it is held until the next thing leaves),
/// and a later one of upstream's (a new stream mid-way) goes through the appsrc's queue as
/// a marker, in order. A segment the appsrc sends is held back until a frame (or another serialized
/// event) follows it; only the last one held goes out, as the upstream event it copies
/// (its seqnum and running-time offset kept).
final class StreamEventRelay: Sendable {
    private struct State {
        /// The appsrc's segment event waiting for what follows it.
        var heldSegment: GstOwned<GstEvent>?
        /// The appsrc's STREAM_START, waiting for upstream's to stand in for it.
        var heldStreamStart: GstOwned<GstEvent>?
        /// Whether the appsrc's own went out (upstream's had not come when something had to
        /// follow it: after READY the appsrc sends its caps at once); upstream's then follows.
        var sentOwnStreamStart = false
        /// Upstream's segment events of the last frames and events handed over, newest first.
        var upstream: [GstOwned<GstEvent>] = []
        /// The upstream segment sent last (nil: none since the start or the last flush); kept,
        /// so that its address is not another event's.
        var lastSent: GstOwned<GstEvent>?
        /// Upstream's latest STREAM_START (nil: none yet).
        var streamStart: GstOwned<GstEvent>?
        /// Upstream's later STREAM_STARTs, whose markers are in the appsrc's queue.
        var markedStreamStarts: [GstOwned<GstEvent>] = []
    }
    private let state = Locked(State())
    private static let remembered = 4
    /// The event this relay is sending (its own probe lets it pass).
    private let sending = Locked<UInt>(0)
    /// The marker that stands for upstream's next STREAM_START in the appsrc's queue.
    private static let markerName = "filtercam-stream-start"

    // MARK: the worker's side

    /// The worker hands over a frame or an event that came under `event` (before the push).
    func remember(upstream event: GstOwned<GstEvent>) {
        state.withLock { s in
            if s.upstream.first?.pointer == event.pointer { return }
            s.upstream.insert(event, at: 0)
            if s.upstream.count > Self.remembered { s.upstream.removeLast() }
        }
    }

    /// Upstream sends a STREAM_START: it stands in for the appsrc's own (`midStream`:
    /// false), or comes after what is queued now (the returned marker goes into the
    /// appsrc's queue).
    func streamStarts(_ event: GstOwned<GstEvent>, midStream: Bool) -> UnsafeMutablePointer<GstEvent>? {
        let marked = state.withLock { s -> Bool in
            s.streamStart = event
            let marked = midStream || s.sentOwnStreamStart
            s.sentOwnStreamStart = false
            if marked { s.markedStreamStarts.append(event) }
            return marked
        }
        return marked ? gst_event_new_custom(GST_EVENT_CUSTOM_DOWNSTREAM, gst_structure_new_empty(Self.markerName)) : nil
    }

    /// The element stopped (READY): what it knew of the stream is gone.
    func forgetStream() {
        state.withLock { s in
            s = State()
        }
    }

    // MARK: the appsrc's src pad (its probes, on the streaming thread)

    /// A frame leaves: what is held goes before it (the segment as upstream's event for
    /// the frame's own segment).
    func beforeFrame(on pad: UnsafeMutablePointer<GstPad>) {
        sendHeldStreamStart(on: pad)
        sendHeldSegment(on: pad, beforeFrame: true)
    }

    /// An event leaves; true: the relay took it (the probe answers HANDLED: a sticky event
    /// dropped is sent again before every frame).
    func handle(_ event: UnsafeMutablePointer<GstEvent>, on pad: UnsafeMutablePointer<GstPad>) -> Bool {
        if sending.withLock({ $0 }) == UInt(bitPattern: event) { return false }
        switch event.pointee.type {
        case GST_EVENT_STREAM_START:
            if let upstream = state.withLock({ s in s.streamStart.flatMap { gst_event_ref($0.pointer) } }) {
                gst_event_unref(event)
                send(upstream, on: pad)
            } else {
                state.withLock { $0.heldStreamStart = GstOwned(event) }   // the probe's reference
            }
            return true
        case GST_EVENT_CUSTOM_DOWNSTREAM where gst_event_has_name(event, Self.markerName) != 0:
            gst_event_unref(event)
            sendHeldStreamStart(on: pad)
            sendHeldSegment(on: pad, beforeFrame: false)
            let marked = state.withLock { s in s.markedStreamStarts.isEmpty ? nil : gst_event_ref(s.markedStreamStarts.removeFirst().pointer) }
            if let marked { send(marked, on: pad) }
            return true
        case GST_EVENT_SEGMENT:
            sendHeldStreamStart(on: pad)
            state.withLock { $0.heldSegment = GstOwned(event) }
            return true
        case GST_EVENT_FLUSH_STOP:
            // What was held is from before the flush, and downstream has no segment now.
            state.withLock { s in
                s.heldSegment = nil
                s.lastSent = nil
            }
            return false
        case GST_EVENT_FLUSH_START:
            return false
        default:
            sendHeldStreamStart(on: pad)
            if event.pointee.type.rawValue & GST_EVENT_TYPE_SERIALIZED.rawValue != 0 { sendHeldSegment(on: pad, beforeFrame: false) }
            // A GAP needs a segment before it, as a frame does (before any frame the appsrc
            // has sent none): upstream's latest.
            if event.pointee.type == GST_EVENT_GAP { sendSegmentIfNoneWent(on: pad) }
            return false
        }
    }

    /// Sends a copy of `event` (a reference this takes) on `pad`, past the pad's own probe.
    /// A copy: the pad keeps what it sent as sticky events, and the same event sent again
    /// (upstream's segment once more after a flush, the appsrc's own held one) is taken as
    /// sent already and goes nowhere.
    private func send(_ event: UnsafeMutablePointer<GstEvent>, on pad: UnsafeMutablePointer<GstPad>) {
        let copy = UnsafeMutablePointer<GstEvent>(OpaquePointer(gst_mini_object_copy(UnsafeMutableRawPointer(event).assumingMemoryBound(to: GstMiniObject.self))))!
        gst_event_unref(event)
        sending.withLock { $0 = UInt(bitPattern: copy) }
        gst_pad_push_event(pad, copy)
        sending.withLock { $0 = 0 }
    }

    /// Upstream's STREAM_START in place of the appsrc's held one; if upstream's has not come
    /// yet, the appsrc's own (nothing may go before a STREAM_START), and upstream's follows
    /// when it comes (`streamStarts`).
    private func sendHeldStreamStart(on pad: UnsafeMutablePointer<GstPad>) {
        let event = state.withLock { s -> UnsafeMutablePointer<GstEvent>? in
            guard let held = s.heldStreamStart else { return nil }
            s.heldStreamStart = nil
            if let upstream = s.streamStart { return gst_event_ref(upstream.pointer) }
            s.sentOwnStreamStart = true
            return held.take()
        }
        if let event { send(event, on: pad) }
    }

    /// Sends the segment held, if one is: before a frame, upstream's event for the frame's
    /// own segment; before an event (a tag after a seek comes before the first frame, and
    /// the appsrc sends its old segment first), the segment the worker last handed over.
    /// One already sent is not sent again.
    private func sendHeldSegment(on pad: UnsafeMutablePointer<GstPad>, beforeFrame: Bool) {
        let event = state.withLock { s -> UnsafeMutablePointer<GstEvent>? in
            guard let held = s.heldSegment else { return nil }
            s.heldSegment = nil
            let chosen = beforeFrame ? Self.upstream(matching: held, among: s.upstream) : s.upstream.first
            guard let chosen else { return held.take() }
            guard chosen.pointer != s.lastSent?.pointer else { return nil }
            s.lastSent = chosen
            return gst_event_ref(chosen.pointer)
        }
        if let event { send(event, on: pad) }
    }

    /// Upstream's latest segment, when none went out since the start or the last flush.
    private func sendSegmentIfNoneWent(on pad: UnsafeMutablePointer<GstPad>) {
        let event = state.withLock { s -> UnsafeMutablePointer<GstEvent>? in
            guard s.lastSent == nil, let latest = s.upstream.first else { return nil }
            s.lastSent = latest
            return gst_event_ref(latest.pointer)
        }
        if let event { send(event, on: pad) }
    }

    /// Upstream's newest event with the same segment as `event` (nil: none known). The
    /// position is not compared: GStreamer moves it as frames pass (the appsrc's segment
    /// after a flush had the last frame's).
    private static func upstream(matching event: GstOwned<GstEvent>, among events: [GstOwned<GstEvent>]) -> GstOwned<GstEvent>? {
        var own: UnsafePointer<GstSegment>?
        gst_event_parse_segment(event.pointer, &own)
        guard let own = own?.pointee else { return nil }
        return events.first { candidate in
            var theirs: UnsafePointer<GstSegment>?
            gst_event_parse_segment(candidate.pointer, &theirs)
            guard let t = theirs?.pointee else { return false }
            return own.flags == t.flags && own.rate == t.rate && own.applied_rate == t.applied_rate && own.format == t.format
                && own.base == t.base && own.offset == t.offset && own.start == t.start && own.stop == t.stop
                && own.time == t.time && own.duration == t.duration
        }
    }
}
