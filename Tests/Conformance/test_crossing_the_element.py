"""What crosses a FilterCam element as it crosses identity: the queries only upstream
can answer, the upstream events the worker has no part in (with upstream's result), and
the downstream events a demuxer or an application sends besides frames.

Through the element's inner appsrc a player saw no duration, seekable=false and no URI,
every seek "succeeded", a caps filter changed at run time after the element never got
upstream to renegotiate, and TOC, sticky or out-of-band custom, sink-message,
protection and instant-rate-change events stopped at the inner appsink, and a segment
in bytes (appsrc's default) gave a GStreamer-CRITICAL per frame. Each case runs
a few 16x16 or 64x48 frames and compares with identity in the same pipeline.
"""
import os
import subprocess
import sys
import threading
import unittest

from support import Gst, GstVideo, clip, require_plugin, wait_for

require_plugin()

ELEMENTS = ["filtercam filter=sepia", "fcmono"]


def upstream_answers(element):
    """The pipeline's answers to a player's queries, prerolled through ELEMENT."""
    pipeline = Gst.parse_launch(f"filesrc location={clip(2)} ! matroskademux ! {element} ! fakesink")
    pipeline.set_state(Gst.State.PAUSED)
    assert pipeline.get_state(10 * Gst.SECOND)[0] == Gst.StateChangeReturn.SUCCESS
    seeking = Gst.Query.new_seeking(Gst.Format.TIME)
    uri = Gst.Query.new_uri()
    answers = {"duration": pipeline.query_duration(Gst.Format.TIME),
               "seekable": pipeline.query(seeking) and seeking.parse_seeking()[1],
               "uri": pipeline.query(uri) and uri.parse_uri(),
               "converts": pipeline.query_convert(Gst.Format.TIME, Gst.SECOND, Gst.Format.BYTES)[0]}
    pipeline.set_state(Gst.State.NULL)
    return answers


def seek_result(element):
    """What a flushing seek returns when the source cannot seek (an application's stream)."""
    pipeline = Gst.parse_launch(f"appsrc stream-type=stream caps=video/x-raw,format=I420,width=16,height=16,"
                                f"framerate=30/1 ! {element} ! fakesink")
    pipeline.set_state(Gst.State.PLAYING)
    result = pipeline.seek_simple(Gst.Format.TIME, Gst.SeekFlags.FLUSH, Gst.SECOND)
    pipeline.set_state(Gst.State.NULL)
    return result


def events_at_the_sink(element):
    """The kinds of downstream events that reach the sink when an application's source
    sends one of each between two frames (caps and segment left out)."""
    pipeline = Gst.parse_launch(f"appsrc name=src format=time caps=video/x-raw,format=I420,width=16,height=16,"
                                f"framerate=30/1 ! {element} ! fakesink name=sink")
    seen = set()

    def on_event(pad, info):
        event = info.get_event()
        structure = event.get_structure()
        seen.add(event.type.value_nick + (":" + structure.get_name() if structure else ""))
        return Gst.PadProbeReturn.OK

    pipeline.get_by_name("sink").get_static_pad("sink").add_probe(Gst.PadProbeType.EVENT_DOWNSTREAM, on_event)
    pipeline.set_state(Gst.State.PLAYING)
    src = pipeline.get_by_name("src")

    def frame(k):
        buffer = Gst.Buffer.new_allocate(None, 16 * 16 * 3 // 2, None)
        buffer.pts, buffer.duration = k * Gst.SECOND // 30, Gst.SECOND // 30
        return buffer

    src.emit("push-buffer", frame(0))
    pad = src.get_static_pad("src")
    for event in [Gst.Event.new_toc(Gst.Toc.new(Gst.TocScope.GLOBAL), False),
                  Gst.Event.new_custom(Gst.EventType.CUSTOM_DOWNSTREAM_STICKY, Gst.Structure.new_empty("app-sticky")),
                  Gst.Event.new_custom(Gst.EventType.CUSTOM_DOWNSTREAM_OOB, Gst.Structure.new_empty("app-oob")),
                  Gst.Event.new_custom(Gst.EventType.CUSTOM_DOWNSTREAM, Gst.Structure.new_empty("app-serial")),
                  Gst.Event.new_custom(Gst.EventType.CUSTOM_BOTH, Gst.Structure.new_empty("app-both")),
                  Gst.Event.new_sink_message("note", Gst.Message.new_application(None, Gst.Structure.new_empty("n"))),
                  Gst.Event.new_instant_rate_change(2.0, Gst.SegmentFlags.NONE),
                  Gst.Event.new_protection("11223344-5566-7788-99aa-bbccddeeff00",
                                           Gst.Buffer.new_allocate(None, 4, None), "test")]:
        pad.push_event(event)
    src.emit("push-buffer", frame(1))
    src.emit("end-of-stream")
    assert wait_for(pipeline, Gst.MessageType.EOS) is not None
    pipeline.set_state(Gst.State.NULL)
    return seen - {"caps:GstEventCaps", "segment:GstEventSegment"}


# An application's appsrc left at its default format (bytes), its frames timestamped.
BYTES_SEGMENT_SCRIPT = """
import gi; gi.require_version('Gst', '1.0')
from gi.repository import Gst
Gst.init(None)
pipeline = Gst.parse_launch('appsrc name=src caps=video/x-raw,format=I420,width=16,height=16,framerate=30/1 ! '
                            + ELEMENT + ' ! fakesink name=sink')
frames = []
pipeline.get_by_name('sink').get_static_pad('sink').add_probe(Gst.PadProbeType.BUFFER, lambda p, i: frames.append(1) or Gst.PadProbeReturn.OK)
pipeline.set_state(Gst.State.PLAYING)
for k in range(5):
    buffer = Gst.Buffer.new_allocate(None, 384, None)
    buffer.pts = k * Gst.SECOND // 30
    pipeline.get_by_name('src').emit('push-buffer', buffer)
pipeline.get_by_name('src').emit('end-of-stream')
message = pipeline.get_bus().timed_pop_filtered(10 * Gst.SECOND, Gst.MessageType.EOS | Gst.MessageType.ERROR)
pipeline.set_state(Gst.State.NULL)
print(message.type.first_value_nick if message else 'timeout', len(frames))
"""


class QueriesReachUpstream(unittest.TestCase):
    def test_duration_seeking_uri_and_convert_are_upstreams_answers(self):
        reference = upstream_answers("identity")
        self.assertTrue(reference["seekable"] and reference["duration"][0], reference)
        for element in ELEMENTS:
            self.assertEqual(upstream_answers(element), reference, element)


class UpstreamEventsCarryUpstreamsResult(unittest.TestCase):
    def test_a_seek_the_source_refuses_returns_false(self):
        self.assertFalse(seek_result("identity"))
        for element in ELEMENTS:
            self.assertFalse(seek_result(element), element)

    def test_a_caps_filter_changed_while_playing_renegotiates_upstream(self):
        for element in ELEMENTS + ["filtercam orientation=90r"]:
            pipeline = Gst.parse_launch(
                f"videotestsrc ! video/x-raw,format=I420 ! {element} ! "
                f"capsfilter name=after caps=video/x-raw,width=64,height=48 ! fakesink name=sink")
            sizes, first, changed = [], threading.Event(), threading.Event()

            def on_buffer(pad, info):
                structure = pad.get_current_caps().get_structure(0)
                sizes.append((structure.get_value("width"), structure.get_value("height")))
                first.set()
                if sizes[-1] == (32, 24):
                    changed.set()
                return Gst.PadProbeReturn.OK

            pipeline.get_by_name("sink").get_static_pad("sink").add_probe(Gst.PadProbeType.BUFFER, on_buffer)
            pipeline.set_state(Gst.State.PLAYING)
            self.assertTrue(first.wait(10), element)
            pipeline.get_by_name("after").set_property("caps", Gst.Caps.from_string("video/x-raw,width=32,height=24"))
            renegotiated = changed.wait(10)
            error = pipeline.get_bus().pop_filtered(Gst.MessageType.ERROR)
            pipeline.set_state(Gst.State.NULL)
            self.assertIsNone(error and error.parse_error()[0].message, element)
            self.assertTrue(renegotiated, f"{element}: frames stayed {sizes[-1]}")


class KeysTakenStayTaken(unittest.TestCase):
    def test_the_release_of_a_key_the_element_took_does_not_go_upstream(self):
        # `n` (next filter) is the element's; `x` is nobody's and goes on, press and release.
        pipeline = Gst.parse_launch("videotestsrc is-live=true ! video/x-raw,width=64,height=48,framerate=30/1 ! "
                                    "identity name=up ! filtercam name=fc ! fakesink name=sink")
        upstream = []
        pipeline.get_by_name("up").get_static_pad("src").add_probe(
            Gst.PadProbeType.EVENT_UPSTREAM, lambda pad, info: (upstream.append(
                (GstVideo.Navigation.event_get_type(info.get_event()).value_nick, GstVideo.Navigation.event_parse_key_event(info.get_event())[1]))
                if info.get_event().type == Gst.EventType.NAVIGATION else None, Gst.PadProbeReturn.OK)[1])
        pipeline.set_state(Gst.State.PLAYING)
        pipeline.get_state(10 * Gst.SECOND)
        pad = pipeline.get_by_name("sink").get_static_pad("sink")
        for event in [GstVideo.Navigation.event_new_key_press("n", 0), GstVideo.Navigation.event_new_key_release("n", 0),
                      GstVideo.Navigation.event_new_key_press("x", 0), GstVideo.Navigation.event_new_key_release("x", 0)]:
            pad.push_event(event)
        filter_now = pipeline.get_by_name("fc").get_property("filter")
        pipeline.set_state(Gst.State.NULL)
        self.assertNotEqual(filter_now, "none", "n did not change the filter")
        self.assertEqual(upstream, [("key-press", "x"), ("key-release", "x")])


class SegmentsInBytes(unittest.TestCase):
    def test_an_appsrc_in_its_default_format_passes_every_frame_without_a_critical(self):
        for element in ELEMENTS:
            run = subprocess.run([sys.executable, "-c", BYTES_SEGMENT_SCRIPT.replace("ELEMENT", repr(element))],
                                 capture_output=True, text=True, timeout=30, env=os.environ)
            self.assertEqual(run.stdout.split(), ["eos", "5"], f"{element}: {run.stdout} {run.stderr}")
            self.assertNotIn("CRITICAL", run.stderr, element)


class DownstreamEventsArriveAsThroughIdentity(unittest.TestCase):
    def test_toc_custom_sink_message_protection_and_instant_rate_change(self):
        reference = events_at_the_sink("identity")
        self.assertIn("instant-rate-change:GstEventInstantRateChange", reference)
        for element in ELEMENTS:
            self.assertEqual(events_at_the_sink(element), reference, element)


def queries_from_upstream(element, at):
    """Sends a custom query and a DRAIN from upstream's streaming thread as frame AT is
    about to enter ELEMENT (frames before it sent, non-live, non-syncing sink); returns
    the queries downstream saw, the drain's result and how many frames had reached the
    sink when it returned."""
    pipeline = Gst.parse_launch("videotestsrc num-buffers=12 ! video/x-raw,format=I420,width=64,height=48,framerate=30/1 ! "
                                f"identity name=up ! {element} ! fakesink name=sink")
    sink = pipeline.get_by_name("sink").get_static_pad("sink")
    frames, queries, result = [], [], {}
    sink.add_probe(Gst.PadProbeType.BUFFER, lambda pad, info: frames.append(1) or Gst.PadProbeReturn.OK)

    def on_query(pad, info):
        query = info.get_query()
        structure = query.get_structure()
        queries.append(structure.get_name() if query.type == Gst.QueryType.CUSTOM else query.type.value_nick)
        return Gst.PadProbeReturn.OK
    sink.add_probe(Gst.PadProbeType.QUERY_DOWNSTREAM, on_query)
    sent = [0]

    def on_frame(pad, info):
        if sent[0] == at:
            pad.peer_query(Gst.Query.new_custom(Gst.QueryType.CUSTOM, Gst.Structure.new_empty("app-query")))
            result["drained"] = pad.peer_query(Gst.Query.new_drain())
            result["frames"] = len(frames)
        sent[0] += 1
        return Gst.PadProbeReturn.OK
    pipeline.get_by_name("up").get_static_pad("src").add_probe(Gst.PadProbeType.BUFFER, on_frame)
    pipeline.set_state(Gst.State.PLAYING)
    assert wait_for(pipeline, Gst.MessageType.EOS) is not None
    pipeline.set_state(Gst.State.NULL)
    return [q for q in queries if q in ("app-query", "drain")], result


class QueriesFromUpstreamArriveAsThroughIdentity(unittest.TestCase):
    def test_a_custom_query_reaches_downstream_and_a_drain_returns_once_every_frame_before_it_has(self):
        # The drain returned at once with frames 5-7 still inside and reached no one; the
        # custom query was answered FALSE by the inner appsink.
        # Before the first frame too: the drain's marker waited with the events held for
        # that frame, which its own query kept from coming (until the pipeline stopped).
        for at in [8, 0]:
            reference = queries_from_upstream("identity", at)
            self.assertEqual(reference[0][:2], ["app-query", "drain"])
            self.assertEqual(reference[1], {"drained": True, "frames": at})
            for element in ELEMENTS + ["filtercam orientation=90r"]:
                with self.subTest(element=element, at=at):
                    self.assertEqual(queries_from_upstream(element, at), reference)


class CapsWithoutAFramerate(unittest.TestCase):
    def test_are_taken_as_variable_and_given_on_as_0_1_like_videoflip(self):
        # An application's appsrc often gives none; the element refused them: not-negotiated.
        def output_caps(element):
            pipeline = Gst.parse_launch("appsrc name=src format=time caps=video/x-raw,format=I420,width=64,height=48 ! "
                                        f"{element} ! fakesink name=sink")
            pipeline.set_state(Gst.State.PLAYING)
            src = pipeline.get_by_name("src")
            for k in range(3):
                buffer = Gst.Buffer.new_allocate(None, 64 * 48 * 3 // 2, None)
                buffer.pts = k * Gst.SECOND // 25
                src.emit("push-buffer", buffer)
            src.emit("end-of-stream")
            message = wait_for(pipeline, Gst.MessageType.EOS | Gst.MessageType.ERROR)
            caps = pipeline.get_by_name("sink").get_static_pad("sink").get_current_caps()
            pipeline.set_state(Gst.State.NULL)
            self.assertEqual(message.type, Gst.MessageType.EOS, message.parse_error() if message.type == Gst.MessageType.ERROR else "")
            return caps.to_string()
        reference = output_caps("videoflip")
        self.assertIn("framerate=(fraction)0/1", reference)
        for element in ELEMENTS:
            with self.subTest(element=element):
                self.assertEqual(output_caps(element), reference)


class SrcPadAcceptCaps(unittest.TestCase):
    def test_the_caps_it_gives_are_accepted(self):
        for element in ["identity"] + ELEMENTS:
            with self.subTest(element=element):
                pipeline = Gst.parse_launch("videotestsrc num-buffers=2 ! video/x-raw,format=I420,width=64,height=48 ! "
                                            f"{element} ! fakesink name=sink")
                pipeline.set_state(Gst.State.PAUSED)
                self.assertEqual(pipeline.get_state(10 * Gst.SECOND)[0], Gst.StateChangeReturn.SUCCESS)
                pad = pipeline.get_by_name("sink").get_static_pad("sink")
                query = Gst.Query.new_accept_caps(pad.get_current_caps())
                self.assertTrue(pad.peer_query(query))
                self.assertTrue(query.parse_accept_caps_result())
                refused = Gst.Query.new_accept_caps(Gst.Caps.from_string("video/x-raw,format=Y444,width=64,height=48"))
                pad.peer_query(refused)
                self.assertFalse(refused.parse_accept_caps_result())
                pipeline.set_state(Gst.State.NULL)


if __name__ == "__main__":
    unittest.main()
