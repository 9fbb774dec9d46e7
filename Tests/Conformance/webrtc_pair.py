"""Two webrtcbins in one process, a sender and a receiver signalled directly (offer,
answer and ICE candidates handed across in Python), as a WebRTC application starts a
call. The frames that reach the receiver's syncing sink in the first seconds show how
an element upstream of the sender copes with the start-up burst."""
import threading

from support import Counter, Gst, play_for, sink_pad

# The first call in a process makes the DTLS certificate (an RSA key: a random search,
# seconds on a loaded machine) while the sender holds its frames; made here once, so
# every measured call starts alike instead of the first (identity's) paying for all.
Gst.ElementFactory.make("dtlsdec")


def _promise(on_reply):
    return Gst.Promise.new_with_change_func(lambda promise: on_reply(promise.get_reply()))


def frames_received(element, seconds=5.0, size=(320, 240)):
    """(frames into the sender's encoder, frames at the receiver's syncing sink, the element's `frames-dropped` or None) in the first `seconds` of a call
    whose sender runs its camera through ELEMENT (named `tested` when it has counters)."""
    w, h = size
    pipeline = Gst.parse_launch(
        f"videotestsrc is-live=true ! video/x-raw,format=BGRx,width={w},height={h},framerate=30/1 ! {element} ! "
        "videoconvert ! queue ! vp8enc name=encoder deadline=1 cpu-used=8 ! rtpvp8pay ! "
        "application/x-rtp,media=video,encoding-name=VP8,payload=96 ! webrtcbin name=send bundle-policy=max-bundle "
        "webrtcbin name=recv bundle-policy=max-bundle")
    send, recv = pipeline.get_by_name("send"), pipeline.get_by_name("recv")
    encoded = Counter(sink_pad(pipeline, "encoder"))
    received = {}
    linked = threading.Event()

    def on_recv_pad(_, pad):
        if pad.get_direction() != Gst.PadDirection.SRC:
            return
        decode = Gst.parse_bin_from_description(
            "rtpvp8depay ! vp8dec ! videoconvert ! fakesink name=shown sync=true", True)
        pipeline.add(decode)
        decode.sync_state_with_parent()
        pad.link(decode.get_static_pad("sink"))
        received["counter"] = Counter(decode.get_by_name("shown").get_static_pad("sink"))
        linked.set()

    def on_offer(reply):
        offer = reply.get_value("offer")
        send.emit("set-local-description", offer, None)
        recv.emit("set-remote-description", offer, None)
        recv.emit("create-answer", None, _promise(on_answer))

    def on_answer(reply):
        answer = reply.get_value("answer")
        recv.emit("set-local-description", answer, None)
        send.emit("set-remote-description", answer, None)

    send.connect("on-negotiation-needed", lambda element: element.emit("create-offer", None, _promise(on_offer)))
    send.connect("on-ice-candidate", lambda _, mline, candidate: recv.emit("add-ice-candidate", mline, candidate))
    recv.connect("on-ice-candidate", lambda _, mline, candidate: send.emit("add-ice-candidate", mline, candidate))
    recv.connect("pad-added", on_recv_pad)
    pipeline.set_state(Gst.State.PLAYING)
    try:
        play_for(pipeline, seconds)
    finally:
        tested = pipeline.get_by_name("tested")
        dropped = tested.get_property("frames-dropped") if tested and tested.find_property("frames-dropped") else None
        counts = encoded.count, received["counter"].count if linked.is_set() else 0, dropped
        pipeline.set_state(Gst.State.NULL)
    return counts


if __name__ == "__main__":
    for element in ["identity", "filtercam filter=sepia", "fcsepia"]:
        print(element, frames_received(element))
