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
/// Here the appsrc's STREAM_START is replaced by upstream's as it passes (the appsrc sends
/// its own as its task starts, before upstream's has come through the worker: it waits for
/// it, however long upstream takes to start; only a frame or event handed over without one
/// lets the appsrc's own go first), and a later one of upstream's (a new stream mid-way) goes
/// through the appsrc's queue as a marker, replaced by it in order. A segment the appsrc
/// sends is held back until a frame (or another serialized event) follows it; only the last
/// one held goes out, as the upstream event it copies (its seqnum and running-time offset
/// kept). A GAP or a tag goes out after the segment it came under.
final class StreamEventRelay: Sendable {
    private struct State {
        /// The appsrc's segment event waiting for what follows it.
        var heldSegment: GstOwned<GstEvent>?
        /// Whether the appsrc's own STREAM_START went out (upstream's had not come in time);
        /// upstream's then follows.
        var sentOwnStreamStart = false
        /// The element is stopping or flushing: the appsrc's STREAM_START waits no more.
        var stopping = false
        /// The element is stopping (to READY): the appsrc's STREAM_START goes nowhere.
        var stopped = false
        /// The worker has handed over a frame or an event (upstream sent no STREAM_START
        /// before it): the appsrc's own goes first.
        var handedOver = false
        /// Upstream's segment events of the last frames and events handed over, newest first.
        var upstream: [GstOwned<GstEvent>] = []
        /// The upstream segment sent last (nil: none since the start or the last flush); kept,
        /// so that its address is not another event's.
        var lastSent: GstOwned<GstEvent>?
        /// Upstream's latest STREAM_START (nil: none yet).
        var streamStart: GstOwned<GstEvent>?
        /// Upstream's later STREAM_STARTs, whose markers are in the appsrc's queue.
        var markedStreamStarts: [GstOwned<GstEvent>] = []
        /// Events in the appsrc's queue that need their own segment before them (a GAP, a
        /// tag), each with the upstream segment it came under, oldest first.
        var eventSegments: [(event: UInt, segment: GstOwned<GstEvent>)] = []
        /// The last STREAM_START and SEGMENT this relay sent (kept, so that their addresses
        /// are not another event's). The pad keeps each as its sticky event and sends it
        /// again before the next item when the peer was flushing; such a copy goes through.
        var relayedStreamStart: GstOwned<GstEvent>?
        var relayedSegment: GstOwned<GstEvent>?

        func relayed(_ event: UnsafeMutablePointer<GstEvent>) -> Bool {
            relayedStreamStart?.pointer == event || relayedSegment?.pointer == event
        }
    }
    private let state = Locked(State())
    private static let remembered = 4
    /// The marker that stands for upstream's next STREAM_START in the appsrc's queue.
    private static let markerName = "filtercam-stream-start"

    // MARK: the worker's side

    /// The worker hands over a frame or an event that came under `event` (before the push).
    func remember(upstream event: GstOwned<GstEvent>) {
        state.withLockAndWake { s in
            s.handedOver = true
            if s.upstream.first?.pointer == event.pointer { return }
            s.upstream.insert(event, at: 0)
            if s.upstream.count > Self.remembered { s.upstream.removeLast() }
        }
    }

    /// The events that go out after the segment they came under, which the worker notes
    /// (`remember(_:for:)`): a GAP, as a frame, and a tag (sticky events after the segment).
    static func needsOwnSegment(_ type: GstEventType) -> Bool {
        type == GST_EVENT_GAP || type == GST_EVENT_TAG
    }

    /// The worker hands over `event` (a GAP or a tag), which came under `segment`: it goes
    /// out after that segment, not after whichever upstream segment came last by then (a GAP
    /// was sent under the next stream segment, and its own was lost).
    func remember(_ segment: GstOwned<GstEvent>, for event: UnsafeMutablePointer<GstEvent>) {
        state.withLock { s in
            s.eventSegments.append((UInt(bitPattern: event), segment))
            if s.eventSegments.count > 16 { s.eventSegments.removeFirst() }
        }
    }

    /// Upstream sends a STREAM_START: it stands in for the appsrc's own (`midStream`:
    /// false), or comes after what is queued now (the returned marker goes into the
    /// appsrc's queue).
    func streamStarts(_ event: GstOwned<GstEvent>, midStream: Bool) -> UnsafeMutablePointer<GstEvent>? {
        let marked = state.withLockAndWake { s -> Bool in
            s.streamStart = event
            let marked = midStream || s.sentOwnStreamStart
            s.sentOwnStreamStart = false
            if marked { s.markedStreamStarts.append(event) }
            return marked
        }
        return marked ? gst_event_new_custom(GST_EVENT_CUSTOM_DOWNSTREAM, gst_structure_new_empty(Self.markerName)) : nil
    }

    /// The element is flushing, or the stream ended without a STREAM_START: an appsrc
    /// STREAM_START waiting for upstream's goes out as it is; the element is stopping
    /// (`elementStops`): it goes nowhere (a foreign one left at every stop).
    func stopWaiting(elementStops: Bool = false) {
        state.withLockAndWake { s in
            s.stopping = true
            if elementStops { s.stopped = true }
        }
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
        sendHeldSegment(on: pad, beforeFrame: true)
    }

    /// What the probe does with an event leaving the appsrc.
    enum Outcome {
        /// Goes on as it is.
        case pass
        /// The relay took it (the probe answers HANDLED: a sticky event dropped is sent
        /// again before every frame).
        case taken
        /// Goes on as this event instead (the probe's reference to the old one is dropped).
        case replaced(by: UnsafeMutablePointer<GstEvent>)
        /// Goes no further.
        case drop
    }

    /// An event leaves: what becomes of it.
    func handle(_ event: UnsafeMutablePointer<GstEvent>, on pad: UnsafeMutablePointer<GstPad>) -> Outcome {
        // What this relay sent, sent again by the pad (it keeps its sticky copy and sends it
        // again after a flushing peer), goes through: taken for the appsrc's own, it was
        // held and copied anew each time, round and round while the peer flushed.
        if state.withLock({ $0.relayed(event) }) { return .pass }
        switch event.pointee.type {
        case GST_EVENT_STREAM_START:
            // The appsrc sends its own as its task starts, before upstream's has come through
            // the worker: it waits for upstream's and goes out as it, however late
            // upstream starts (after 2 s it went out as the appsrc's own, and upstream's
            // segment then came before its caps: camerabin's video branch). (Taken and sent
            // later from another probe, it was sent again and again by the pad, which keeps
            // a sticky event a probe took as not sent, and caps could go out before any
            // stream-start.)
            let (upstream, stopped) = state.wait(until: { $0.streamStart != nil || $0.stopping || $0.handedOver }) { s in
                (s.streamStart.flatMap { gst_event_ref($0.pointer) }, s.stopped)
            }!
            guard let upstream else {
                if stopped { return .drop }   // nothing follows it
                state.withLock { $0.sentOwnStreamStart = true }   // upstream's follows when it comes
                return .pass
            }
            gst_event_unref(event)
            return .replaced(by: relayed(upstream, on: pad))
        case GST_EVENT_CUSTOM_DOWNSTREAM where gst_event_has_name(event, Self.markerName) != 0:
            // Upstream's later STREAM_START, in the marker's place.
            sendHeldSegment(on: pad, beforeFrame: false)
            let marked = state.withLock { s -> UnsafeMutablePointer<GstEvent>? in
                guard !s.markedStreamStarts.isEmpty else { return nil }
                // Bound and kept to the ref: a temporary removed from the list was released
                // before `gst_event_ref` ran (release builds), and the event copied was freed
                // memory (GStreamer-CRITICALs, a crash in restarts and `concat`).
                let owned = s.markedStreamStarts.removeFirst()
                return withExtendedLifetime(owned) { gst_event_ref(owned.pointer) }
            }
            guard let marked else { return .drop }
            gst_event_unref(event)
            state.withLock { $0.lastSent = nil }   // the new stream's segment is still to come
            return .replaced(by: relayed(marked, on: pad))
        case GST_EVENT_SEGMENT:
            state.withLock { $0.heldSegment = GstOwned(event) }
            return .taken
        case GST_EVENT_FLUSH_STOP:
            // What was held is from before the flush, and downstream has no segment now.
            state.withLock { s in
                s.heldSegment = nil
                s.lastSent = nil
            }
            return .pass
        case GST_EVENT_FLUSH_START:
            return .pass
        default:
            // A GAP needs the segment it came under before it, as a frame does (before any
            // frame the appsrc has sent none). So does a tag (sticky events after the segment
            // come after it, as through identity: a new stream's tags went first). The
            // appsrc's segment held stays for the frame that follows.
            if Self.needsOwnSegment(event.pointee.type) {
                sendOwnSegment(of: event, on: pad)
            } else if event.pointee.type.rawValue & GST_EVENT_TYPE_SERIALIZED.rawValue != 0 {
                sendHeldSegment(on: pad, beforeFrame: false)
            }
            return .pass
        }
    }

    /// Sends `event` (a reference this takes) on `pad`, past the pad's own probe.
    private func send(_ event: UnsafeMutablePointer<GstEvent>, on pad: UnsafeMutablePointer<GstPad>) {
        gst_pad_push_event(pad, relayed(event, on: pad))
    }

    /// `event` (a reference this takes) as it goes out on `pad`, noted as this relay's
    /// (`relayed`): upstream's own event, as through a stock element, so that downstream
    /// takes it as the one it has (after an element swapped in, a copy was a new stream
    /// start and segment to every element after it, and a sink's QoS counts began again).
    /// A copy only where the pad holds that very event already: sent again (upstream's
    /// segment once more after a flush, the appsrc's own held one) it is taken as sent and
    /// goes nowhere.
    private func relayed(_ event: UnsafeMutablePointer<GstEvent>, on pad: UnsafeMutablePointer<GstPad>) -> UnsafeMutablePointer<GstEvent> {
        var out = event
        if GstOwned(gst_pad_get_sticky_event(pad, event.pointee.type, 0))?.pointer == event {
            out = UnsafeMutablePointer<GstEvent>(OpaquePointer(gst_mini_object_copy(UnsafeMutableRawPointer(event).assumingMemoryBound(to: GstMiniObject.self))))!
            gst_event_unref(event)
        }
        let relayed = GstOwned(retaining: out)
        state.withLock { s in
            if out.pointee.type == GST_EVENT_STREAM_START { s.relayedStreamStart = relayed } else { s.relayedSegment = relayed }
        }
        return out
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

    /// The segment `event` came under, when it is not the one sent last; for an event the
    /// worker did not note, upstream's latest when none went out since the start or the last flush.
    private func sendOwnSegment(of event: UnsafeMutablePointer<GstEvent>, on pad: UnsafeMutablePointer<GstPad>) {
        let segment = state.withLock { s -> UnsafeMutablePointer<GstEvent>? in
            let own = s.eventSegments.firstIndex { $0.event == UInt(bitPattern: event) }.map { s.eventSegments.remove(at: $0).segment }
            guard let chosen = own ?? (s.lastSent == nil ? s.upstream.first : nil), chosen.pointer != s.lastSent?.pointer else { return nil }
            s.lastSent = chosen
            return gst_event_ref(chosen.pointer)
        }
        if let segment { send(segment, on: pad) }
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
