"""A WHEP player that is not FilterCam's page: GStreamer's own webrtcbin (PyGObject) offers
to receive H.264, POSTs the offer as RFC 9725 says (Content-Type: application/sdp, every
candidate in it), applies the 201's answer, decodes what arrives and finally DELETEs the
resource the Location header named. Proves the server speaks standard WHEP, not only to
its own page."""
import threading
import time
import urllib.error
import urllib.request

import gi
gi.require_version("GstSdp", "1.0")
gi.require_version("GstWebRTC", "1.0")
from gi.repository import GstSdp, GstWebRTC  # noqa: E402

from support import Counter, Gst  # noqa: E402

H264 = ("application/x-rtp,media=video,encoding-name=H264,payload=102,clock-rate=90000,"
        "packetization-mode=(string)1,profile-level-id=(string)42e01f")


class WhepResult:
    def __init__(self):
        self.status = None       # the POST's status
        self.location = None     # the viewer's resource
        self.answer = ""
        self.frames = 0          # decoded frames
        self.deleted = None      # the DELETE's status


def _offer(webrtc):
    """Creates the offer, sets it, waits for every candidate; returns the SDP text."""
    made = threading.Event()
    webrtc.connect("notify::ice-gathering-state",
                   lambda element, _: made.set() if element.get_property("ice-gathering-state") == GstWebRTC.WebRTCICEGatheringState.COMPLETE else None)
    created = Gst.Promise.new()
    webrtc.emit("create-offer", None, created)
    created.wait()
    reply = created.get_reply()   # kept: the offer lives in this copy of the reply
    offer = reply.get_value("offer")
    applied = Gst.Promise.new()
    webrtc.emit("set-local-description", offer, applied)
    applied.wait()
    made.wait(10)
    return webrtc.get_property("local-description").sdp.as_text()


def dead_offer():
    """A real offer (webrtcbin's) without its candidates, whose player is gone at once: a
    viewer that will never connect, and whose checks never fail either (a closed port on
    loopback would fail them within seconds)."""
    pipeline = Gst.Pipeline.new()
    webrtc = Gst.ElementFactory.make("webrtcbin")
    webrtc.set_property("bundle-policy", GstWebRTC.WebRTCBundlePolicy.MAX_BUNDLE)
    pipeline.add(webrtc)
    webrtc.emit("add-transceiver", GstWebRTC.WebRTCRTPTransceiverDirection.RECVONLY, Gst.Caps.from_string(H264))
    pipeline.set_state(Gst.State.PLAYING)
    try:
        return "".join(line for line in _offer(webrtc).splitlines(keepends=True) if not line.startswith("a=candidate:"))
    finally:
        pipeline.set_state(Gst.State.NULL)


def watch(base_url, frames=30, timeout=10.0, headers=None):
    """Watches `base_url`/whep until `frames` frames are decoded (at most `timeout` s after
    the answer); returns a WhepResult."""
    result = WhepResult()
    pipeline = Gst.Pipeline.new()
    webrtc = Gst.ElementFactory.make("webrtcbin")
    webrtc.set_property("bundle-policy", GstWebRTC.WebRTCBundlePolicy.MAX_BUNDLE)
    pipeline.add(webrtc)
    webrtc.emit("add-transceiver", GstWebRTC.WebRTCRTPTransceiverDirection.RECVONLY, Gst.Caps.from_string(H264))
    counter = {}

    def on_pad(_, pad):
        if pad.get_direction() != Gst.PadDirection.SRC:
            return
        decode = Gst.parse_bin_from_description("rtph264depay ! avdec_h264 ! fakesink name=shown sync=false", True)
        pipeline.add(decode)
        decode.sync_state_with_parent()
        pad.link(decode.get_static_pad("sink"))
        counter["shown"] = Counter(decode.get_by_name("shown").get_static_pad("sink"))
    webrtc.connect("pad-added", on_pad)
    pipeline.set_state(Gst.State.PLAYING)
    try:
        offer = _offer(webrtc)
        request = urllib.request.Request(base_url + "/whep", data=offer.encode(), method="POST",
                                         headers={"Content-Type": "application/sdp", **(headers or {})})
        try:
            with urllib.request.urlopen(request, timeout=15) as response:
                result.status, result.location = response.status, response.headers.get("Location")
                result.answer = response.read().decode()
        except urllib.error.HTTPError as error:
            result.status, result.answer = error.code, error.read().decode(errors="replace")
            return result
        _, sdp = GstSdp.SDPMessage.new_from_text(result.answer)
        answer = GstWebRTC.WebRTCSessionDescription.new(GstWebRTC.WebRTCSDPType.ANSWER, sdp)
        applied = Gst.Promise.new()
        webrtc.emit("set-remote-description", answer, applied)
        applied.wait()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and (counter["shown"].count if "shown" in counter else 0) < frames:
            time.sleep(0.05)
        result.frames = counter["shown"].count if "shown" in counter else 0
        if result.location:
            leave = urllib.request.Request(base_url + result.location, method="DELETE", headers=headers or {})
            try:
                with urllib.request.urlopen(leave, timeout=15) as response:
                    result.deleted = response.status
            except urllib.error.HTTPError as error:
                result.deleted = error.code
    finally:
        pipeline.set_state(Gst.State.NULL)
    return result


if __name__ == "__main__":
    import sys
    r = watch(sys.argv[1])
    print(r.status, r.location, r.frames, r.deleted)
