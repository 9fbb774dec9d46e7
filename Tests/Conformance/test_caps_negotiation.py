"""Caps negotiation through the FilterCam elements, next to videoflip and videocrop:
a caps filter after the element chooses the format (and, across a turn, the size)
upstream, as it does through any GstBaseTransform element; a CAPS query on the
element's src pad answers what upstream can give, carried across the element.

Each case runs a few 64x48 frames into fakesink (cheap); the reference is what the stock
element negotiates in the same pipeline.
"""
import threading
import unittest

from support import Gst, require_plugin, run_to_eos

require_plugin()

FORMATS = ["I420", "NV12", "YUY2"]


def negotiated(description):
    """The caps at the source's src pad and at the sink's, after 2 frames to EOS."""
    pipeline = Gst.parse_launch(
        f"videotestsrc name=src num-buffers=2 ! video/x-raw,width=64,height=48 ! {description} ! fakesink name=sink")
    run_to_eos(pipeline)
    caps = [pipeline.get_by_name(n).get_static_pad(p).get_current_caps() for n, p in (("src", "src"), ("sink", "sink"))]
    pipeline.set_state(Gst.State.NULL)
    return [(c.get_structure(0).get_value("format"), c.get_structure(0).get_value("width"),
             c.get_structure(0).get_value("height")) for c in caps]


def negotiated_from_any_size(description):
    """As `negotiated`, the source's size left to negotiation (videotestsrc fixates it
    nearest its default 320x240 among what the caps allow)."""
    pipeline = Gst.parse_launch(f"videotestsrc name=src num-buffers=2 ! {description} ! fakesink name=sink")
    run_to_eos(pipeline)
    caps = [pipeline.get_by_name(n).get_static_pad(p).get_current_caps() for n, p in (("src", "src"), ("sink", "sink"))]
    pipeline.set_state(Gst.State.NULL)
    return [(c.get_structure(0).get_value("format"), c.get_structure(0).get_value("width"),
             c.get_structure(0).get_value("height")) for c in caps]


def src_pad_answer(element, upstream):
    """What ELEMENT's src pad answers to a CAPS query with UPSTREAM caps before it."""
    pipeline = Gst.parse_launch(f"videotestsrc ! {upstream} ! {element} name=e ! fakesink")
    caps = pipeline.get_by_name("e").get_static_pad("src").query_caps(None)
    pipeline.set_state(Gst.State.NULL)
    return caps


class DownstreamChoosesTheFormat(unittest.TestCase):
    def test_a_format_after_the_element_is_asked_of_upstream(self):
        for element in ["filtercam filter=sepia", "fcsepia", "filtercam lens=0.25,0.25,0.5,0.5 zoom=2"]:
            for fmt in FORMATS:
                with self.subTest(element=element, format=fmt):
                    self.assertEqual(negotiated(f"{element} ! video/x-raw,format={fmt}"), [(fmt, 64, 48)] * 2)

    def test_an_encoder_after_the_element_gets_its_own_format(self):
        # x264enc takes I420 first: no videoconvert needed in between.
        self.assertEqual(negotiated("filtercam filter=mono ! x264enc speed-preset=ultrafast ! h264parse ! "
                                    "video/x-h264")[0][0], "I420")

    def test_a_turn_swaps_the_size_asked_upstream_like_videoflip(self):
        for fmt in FORMATS:
            after = f"video/x-raw,format={fmt},width=48,height=64"
            with self.subTest(format=fmt):
                ours = negotiated(f"filtercam orientation=90r ! {after}")
                self.assertEqual(ours, negotiated(f"videoflip video-direction=90r ! {after}"))
                self.assertEqual(ours, [(fmt, 64, 48), (fmt, 48, 64)])

    def test_a_lens_crop_leaves_the_size_free_like_videocrop(self):
        for fmt in FORMATS:
            with self.subTest(format=fmt):
                self.assertEqual(negotiated(f"filtercam lens=0.25,0.25,0.5,0.5 lens-crop=true ! video/x-raw,format={fmt}"),
                                 negotiated(f"videocrop left=16 right=16 top=12 bottom=12 ! video/x-raw,format={fmt}"))

    def test_a_fixed_size_after_a_lens_crop_is_asked_of_upstream_like_videocrop(self):
        # The centred half: 32x24 after it needs 64x48 before it, as videocrop with 16 and
        # 12 pixels off each side; across a 90° turn, 48x64 before it.
        after = "video/x-raw,format=BGRx,width=32,height=24"
        ours = negotiated_from_any_size(f"filtercam lens=0.25,0.25,0.5,0.5 lens-crop=true ! {after}")
        self.assertEqual(ours, negotiated_from_any_size(f"videocrop left=16 right=16 top=12 bottom=12 ! {after}"))
        self.assertEqual(ours, [("BGRx", 64, 48), ("BGRx", 32, 24)])
        turned = negotiated_from_any_size(f"filtercam lens=0.25,0.25,0.5,0.5 lens-crop=true orientation=90r ! {after}")
        self.assertEqual(turned, negotiated_from_any_size(
            f"videoflip video-direction=90r ! videocrop left=16 right=16 top=12 bottom=12 ! {after}"))
        self.assertEqual(turned, [("BGRx", 48, 64), ("BGRx", 32, 24)])

    def test_on_the_chroma_grid_every_size_giving_the_crop_is_offered_even_ones_first(self):
        # On YUV frames the lens's edges snap to even pixels, so 63, 64 and 65 wide all crop
        # to 32 (47, 48, 49 high to 24): all are offered, the even ones first (a source
        # taking a list's first gets 64x48); videotestsrc takes the one nearest its 320x240.
        for fmt in FORMATS:
            after = f"video/x-raw,format={fmt},width=32,height=24"
            with self.subTest(format=fmt):
                pipeline = Gst.parse_launch(f"filtercam name=e lens=0.25,0.25,0.5,0.5 lens-crop=true ! {after} ! fakesink")
                answer = pipeline.get_by_name("e").get_static_pad("sink").query_caps(None)
                pipeline.set_state(Gst.State.NULL)
                text = answer.to_string()
                self.assertIn(f"format=(string){fmt}, width=(int){{ 64, 63, 65 }}, height=(int){{ 48, 47, 49 }}", text)
                ours = negotiated_from_any_size(f"filtercam lens=0.25,0.25,0.5,0.5 lens-crop=true ! {after}")
                self.assertEqual(ours, [(fmt, 65, 49), (fmt, 32, 24)])

    def test_a_size_no_input_can_give_through_the_lens_is_refused_naming_both_sizes(self):
        # The left half of the picture cannot be 3 pixels wide on the chroma grid (its
        # edges are even): the source is asked for the nearest sizes, and the element's
        # first frame is refused with both sizes named (not the source's bare not-negotiated).
        pipeline = Gst.parse_launch("videotestsrc num-buffers=2 ! video/x-raw,format=I420,height=48 ! "
                                    "filtercam name=fc lens=0,0,0.5,1 lens-crop=true ! video/x-raw,width=3 ! fakesink")
        pipeline.set_state(Gst.State.PLAYING)
        message = pipeline.get_bus().timed_pop_filtered(10 * Gst.SECOND, Gst.MessageType.ERROR | Gst.MessageType.EOS)
        pipeline.set_state(Gst.State.NULL)
        self.assertIsNotNone(message)
        self.assertEqual(message.type, Gst.MessageType.ERROR)
        self.assertEqual(message.src.get_name(), "fc")
        text = message.parse_error()[0].message
        self.assertRegex(text, r"fc gives [24]x48 I420, what follows it takes 3 wide")

    def test_the_camera_source_gives_the_format_asked(self):
        pipeline = Gst.parse_launch("filtercamsrc camera=test:smpte num-buffers=2 ! "
                                    "video/x-raw,format=NV12 ! fakesink name=sink")
        run_to_eos(pipeline)
        caps = pipeline.get_by_name("sink").get_static_pad("sink").get_current_caps()
        pipeline.set_state(Gst.State.NULL)
        self.assertEqual(caps.get_structure(0).get_value("format"), "NV12")

    def test_a_format_no_element_takes_is_refused_at_link_time(self):
        # As with videoflip: the parser names the element and the caps.
        with self.assertRaises(Exception) as raised:
            Gst.parse_launch("videotestsrc ! filtercam name=fc ! video/x-raw,format=GRAY8 ! fakesink")
        self.assertIn("fc", str(raised.exception))


class LinkedIntoARunningPipeline(unittest.TestCase):
    """The usual recipe for adding an element to a playing pipeline (a blocking probe,
    unlink, link, sync state) where the format flowing is one the element does not take
    (videotestsrc's default ABGR64_LE): upstream picks again, as for videoflip. The
    element posted an ERROR for the old caps (most applications stop on one) while the
    stream went on in a format it takes."""

    def inserted(self, factory):
        pipeline = Gst.parse_launch("videotestsrc is-live=true ! video/x-raw,width=64,height=48,framerate=30/1 "
                                    "! identity name=up ! fakesink name=sink signal-handoffs=true")
        up, sink = pipeline.get_by_name("up"), pipeline.get_by_name("sink")
        formats, seen = [], threading.Condition()

        def handoff(_sink, _buffer, pad):
            with seen:
                formats.append(pad.get_current_caps().get_structure(0).get_value("format"))
                seen.notify_all()
        sink.connect("handoff", handoff)
        pipeline.set_state(Gst.State.PLAYING)
        with seen:
            self.assertTrue(seen.wait_for(lambda: len(formats) >= 2, 20), "the pipeline never played")
        element = Gst.ElementFactory.make(factory)

        def relink(pad, _info):
            pad.unlink(sink.get_static_pad("sink"))
            pipeline.add(element)
            up.link(element)
            element.link(sink)
            element.sync_state_with_parent()
            return Gst.PadProbeReturn.REMOVE
        before = len(formats)
        up.get_static_pad("src").add_probe(Gst.PadProbeType.BLOCK_DOWNSTREAM, relink)
        with seen:
            self.assertTrue(seen.wait_for(lambda: len(formats) >= before + 10, 20), f"{factory}: frames stopped after the insertion")
        errors = []
        while (message := pipeline.get_bus().pop_filtered(Gst.MessageType.ERROR)) is not None:
            errors.append(message.parse_error()[0].message)
        pipeline.set_state(Gst.State.NULL)
        return formats[0], formats[-1], errors

    def test_upstream_picks_again_and_no_error_is_posted_as_for_videoflip(self):
        for factory in ("videoflip", "filtercam", "fcsepia"):
            first, last, errors = self.inserted(factory)
            self.assertEqual(first, "ABGR64_LE", "the case this test is about: a format the element does not take")
            self.assertEqual(errors, [], factory)
            self.assertNotEqual(last, "ABGR64_LE", factory)


class SrcPadAnswersWhatUpstreamGives(unittest.TestCase):
    def test_src_pad_caps_follow_upstream_across_the_turn(self):
        upstream = "video/x-raw,format=NV12,width=64,height=48"
        ours = src_pad_answer("filtercam orientation=90r", upstream)
        stock = src_pad_answer("videoflip video-direction=90r", upstream)
        self.assertTrue(ours.is_equal(stock), f"{ours.to_string()} vs videoflip {stock.to_string()}")
        first = ours.get_structure(0)
        self.assertEqual((first.get_value("format"), first.get_value("width"), first.get_value("height")), ("NV12", 48, 64))

    def test_src_pad_caps_follow_upstream_across_the_lens_crop(self):
        upstream = "video/x-raw,format=NV12,width=64,height=48"
        ours = src_pad_answer("filtercam lens=0.25,0.25,0.5,0.5 lens-crop=true", upstream)
        stock = src_pad_answer("videocrop left=16 right=16 top=12 bottom=12", upstream)
        first = ours.get_structure(0)
        self.assertEqual((first.get_value("format"), first.get_value("width"), first.get_value("height")), ("NV12", 32, 24))
        self.assertTrue(ours.is_subset(stock), f"{ours.to_string()} vs videocrop {stock.to_string()}")

    def test_src_pad_caps_keep_to_the_formats_the_element_takes(self):
        caps = src_pad_answer("fcsepia", "identity")
        self.assertFalse(caps.is_any())
        self.assertTrue(caps.can_intersect(Gst.Caps.from_string("video/x-raw,format=I420")))
        self.assertFalse(caps.can_intersect(Gst.Caps.from_string("video/x-raw,format=GRAY8")))


if __name__ == "__main__":
    unittest.main()
