"""Caps negotiation through the FilterCam elements, next to videoflip and videocrop:
a caps filter after the element chooses the format (and, across a turn, the size)
upstream, as it does through any GstBaseTransform element; a CAPS query on the
element's src pad answers what upstream can give, carried across the element.

Each case runs a few 64x48 frames into fakesink (cheap); the reference is what the stock
element negotiates in the same pipeline.
"""
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


class SrcPadAnswersWhatUpstreamGives(unittest.TestCase):
    def test_src_pad_caps_follow_upstream_across_the_turn(self):
        upstream = "video/x-raw,format=NV12,width=64,height=48"
        ours = src_pad_answer("filtercam orientation=90r", upstream)
        stock = src_pad_answer("videoflip video-direction=90r", upstream)
        self.assertTrue(ours.is_equal(stock), f"{ours.to_string()} vs videoflip {stock.to_string()}")
        first = ours.get_structure(0)
        self.assertEqual((first.get_value("format"), first.get_value("width"), first.get_value("height")), ("NV12", 48, 64))

    def test_src_pad_caps_keep_to_the_formats_the_element_takes(self):
        caps = src_pad_answer("fcsepia", "identity")
        self.assertFalse(caps.is_any())
        self.assertTrue(caps.can_intersect(Gst.Caps.from_string("video/x-raw,format=I420")))
        self.assertFalse(caps.can_intersect(Gst.Caps.from_string("video/x-raw,format=GRAY8")))


if __name__ == "__main__":
    unittest.main()
