"""What is drawn on the picture in a real window (Xvfb, real keys and clicks, screenshots),
in RGB and in I420 frames: the on-screen display's banners and lens outline, the countdown,
the help card, the effects gallery; and a recording started from the window, which keeps
its full frame rate."""
import os
import subprocess
import sys
import tempfile
import time

from support import Gst, drain_bus, image_pixel, rendered
from window_support import close_to, eventually, probe_frames_and_duration, probe_stream, rendered_pixel, WindowTestCase


class WindowDisplay(WindowTestCase):
    def test_osd_shows_the_filter_title_then_clears(self):
        spots = [(x, 22) for x in (140, 160, 180)]   # top centre, where the banner goes
        for f in self.each_osd_format():
            with self.subTest(source_format=f):
                sepia = [rendered_pixel("filtercam filter=sepia", x, y, source_format=f) for x, y in spots]
                mono = [rendered_pixel("filtercam filter=mono", x, y, source_format=f) for x, y in spots]
                pipeline, fc = self.window_pipeline("osd=true", f)
                try:
                    self.wait_until_shown(spots, sepia, "the title shown at start did not go")
                    self.xdotool("mousemove", "100", "200", "key", "n")
                    self.wait_until_covered(spots, sepia, "banner")
                    # Cleared: the picture under it is the new filter's (mono), as rendered without osd.
                    self.wait_until_shown(spots, mono, "the banner did not clear after its 1.5 s")
                finally:
                    self.close(pipeline)

    def test_osd_shows_the_zoom_and_the_still_count_then_clears(self):
        spots = [(x, 22) for x in (140, 160, 180)]   # top centre, where the banner goes
        for f in self.each_osd_format():
            with self.subTest(source_format=f):
                folder = tempfile.mkdtemp(prefix="fc-osd-still-")
                sepia = [rendered_pixel("filtercam filter=sepia", x, y, source_format=f) for x, y in spots]
                zoomed = [rendered_pixel("filtercam filter=sepia zoom=1.25", x, y, source_format=f) for x, y in spots]
                pipeline, fc = self.window_pipeline(f"osd=true flash=false snapshot-location={folder}/s-%05d.jpg", f)
                try:
                    self.wait_until_shown(spots, sepia, "the title shown at start did not go")
                    # A still: the banner comes once the file is written, and goes; the picture stays.
                    self.xdotool("mousemove", "100", "200", "key", "s")
                    self.wait_until_covered(spots, sepia, "still banner")
                    self.assertEqual(os.listdir(folder), ["s-00000.jpg"])
                    self.wait_until_shown(spots, sepia, "the still banner did not clear")
                    # Zoom: the banner over the zoomed picture, then the zoomed picture alone, as
                    # filtercam renders it at that zoom without osd.
                    self.xdotool("key", "plus")
                    self.assertEqual(eventually(lambda: round(fc.get_property("zoom"), 6) == 1.25) and 1.25,
                                     round(fc.get_property("zoom"), 6))
                    self.wait_until_covered(spots, zoomed, "zoom banner")
                    self.wait_until_shown(spots, zoomed, "the zoom banner did not clear")
                finally:
                    self.close(pipeline)

    def test_t_counts_down_on_the_picture_then_takes_one_still(self):
        # The middle of the picture, where the 3-2-1 goes, a third of it high: a tester found
        # a digit 20 px high at the top, smaller than a filter's title.
        spots = [(160, y) for y in (90, 120, 150)]
        folder = tempfile.mkdtemp(prefix="fc-countdown-")
        sepia = [rendered_pixel("filtercam filter=sepia", x, y, source_format="I420") for x, y in spots]
        pipeline, fc = self.window_pipeline(f"osd=true flash=false snapshot-location={folder}/c-%02d.jpg", "I420")
        try:
            self.wait_until_shown(spots, sepia, "the title shown at start did not go")
            pressed = time.monotonic()
            self.xdotool("mousemove", "100", "200", "key", "t")
            self.assertTrue(eventually(lambda: all(self.region_differs(a, b) for a, b in zip(sepia, self.shown(spots))), 2.5),
                            "no large countdown in the middle of the picture")
            if time.monotonic() - pressed < 2.9:
                self.assertEqual(os.listdir(folder), [], "a still before the count ended")
            self.assertTrue(eventually(lambda: os.listdir(folder) == ["c-00.jpg"], 15), os.listdir(folder))
            self.assertGreaterEqual(time.monotonic() - pressed, 3.0)
            self.wait_until_shown(spots, sepia, "the countdown and the still's banner did not clear")
            self.assertEqual(os.listdir(folder), ["c-00.jpg"], "one still")
        finally:
            self.close(pipeline)

    def test_v_records_while_the_window_keeps_its_full_rate(self):
        # 720p30 I420 as a camera gives it, the picture moving (the encoder works as on a
        # camera's), the on-screen display on; ximagesink, syncing, counts what is shown.
        self.fresh_display("1280x800")
        folder = tempfile.mkdtemp(prefix="fc-record-")
        os.environ["DISPLAY"] = self.display
        pipeline = Gst.parse_launch(
            "videotestsrc is-live=true horizontal-speed=4 ! video/x-raw,format=I420,width=1280,height=720,framerate=30/1 ! "
            f"filtercam name=fc filter=sepia osd=true record-location={folder}/v-%05d.mp4 ! "
            "videoconvert ! ximagesink name=window sync=true")
        fc = pipeline.get_by_name("fc")
        pipeline.set_state(Gst.State.PLAYING)
        try:
            self.assertTrue(eventually(lambda: rendered(pipeline, "window") >= 30 and self.window_count() > 0, 15),
                            "the window shows no picture")
            shown0, t0 = rendered(pipeline, "window"), time.monotonic()
            time.sleep(2)   # the rate before, for comparison
            before = (rendered(pipeline, "window") - shown0) / (time.monotonic() - t0)
            self.xdotool("mousemove", "640", "400", "key", "v")
            self.assertTrue(eventually(lambda: fc.get_property("record"), 5), "v did not start a recording")
            started = time.monotonic()
            time.sleep(0.5)   # the recording under way
            shown0, t0, dropped0 = rendered(pipeline, "window"), time.monotonic(), fc.get_property("frames-dropped")
            # The red dot (720 lines: centre near (34, 32)) and the length, on the screen.
            dot = self.shown([(34, 32)])[0]
            self.assertTrue(dot[0] > 160 and dot[1] < 90 and dot[2] < 90, f"no red dot on the screen: {dot}")
            time.sleep(5)   # the measuring interval
            fps = (rendered(pipeline, "window") - shown0) / (time.monotonic() - t0)
            late = fc.get_property("frames-dropped") - dropped0
            self.xdotool("key", "v")
            self.assertTrue(eventually(lambda: not fc.get_property("record"), 5), "v did not stop the recording")
            recorded = time.monotonic() - started
            saved = []
            eventually(lambda: saved.extend(m.get_structure() for m in drain_bus(pipeline, Gst.MessageType.ELEMENT)
                                            if m.get_structure().get_name() == "recording-saved") or saved, 10)
        finally:
            self.close(pipeline)
        self.assertEqual(len(saved), 1, "one recording, finished")
        path = saved[0].get_string("path")
        frames, seconds = probe_frames_and_duration(path)
        print(f"\n  window (ximagesink, sync=true) at 720p30: {before:.1f} fps, while recording {fps:.1f} fps "
              f"({late} dropped by filtercam as late); "
              f"recorded {recorded:.2f} s -> {frames} frames ({seconds:.2f} s in the file, "
              f"{saved[0].get_value('dropped')} dropped)", file=sys.stderr)
        self.assertGreaterEqual(fps, 29, "the preview's rate while recording")
        self.assertEqual(probe_stream(path), ("h264", "yuv420p", "High"))
        self.assertAlmostEqual(frames, recorded * 30, delta=recorded * 30 * 0.02,
                               msg=f"{frames} frames for {recorded:.2f} s recorded")
        # Not in the file: the dot's place shows the picture (the first frame, decoded).
        png = os.path.join(folder, "first.png")
        subprocess.run(["gst-launch-1.0", "-q", "filesrc", f"location={path}", "!", "qtdemux", "!", "h264parse", "!",
                        "avdec_h264", "!", "videoconvert", "!", "pngenc", "snapshot=true", "!", "filesink", f"location={png}"],
                       check=True, timeout=30)
        r, g, b = image_pixel(png, 34, 32)
        self.assertFalse(r > 160 and g < 90 and b < 90, f"the red dot is in the file: {(r, g, b)}")

    def test_help_card_on_h(self):
        spots = [(120, 110), (160, 120), (200, 130)]   # bright bars under the card's box
        for f in self.each_osd_format():
            with self.subTest(source_format=f):
                plain = [rendered_pixel("identity", x, y, source_format=f) for x, y in spots]
                pipeline, fc = self.window_pipeline("osd=true filter=none", f)
                try:
                    self.wait_until_shown(spots, plain, "the picture")
                    self.xdotool("mousemove", "100", "200", "key", "h")
                    self.assertTrue(eventually(lambda: all(self.region_differs(a, b) for a, b in zip(plain, self.shown(spots)))),
                                    f"no help card: {plain} -> {self.shown(spots)}")
                    self.xdotool("key", "h")
                    self.wait_until_shown(spots, plain, "the help card did not go")
                    # The program's key list goes with the opening only (a second h said it again).
                    asked = [m for m in drain_bus(pipeline, Gst.MessageType.APPLICATION)
                             if m.get_structure().get_name() == "filtercam-command" and m.get_structure().get_string("command") == "help"]
                    self.assertEqual(len(asked), 1)
                finally:
                    self.close(pipeline)

    def test_help_card_and_gallery_take_turns(self):
        # (20, 20): in the gallery's first thumbnail, outside the card; (160, 120): under
        # the card's box. References: the picture, and the gallery without a card.
        spots = [(20, 20), (160, 120)]
        picture = [rendered_pixel("identity", x, y, source_format="I420") for x, y in spots]
        gallery = [rendered_pixel("filtercam filter=none gallery=true", x, y, source_format="I420") for x, y in spots]
        pipeline, fc = self.window_pipeline("osd=true filter=none", "I420")
        try:
            self.wait_until_shown(spots, picture, "the picture")
            self.xdotool("mousemove", "100", "200", "key", "h")
            self.wait_until_covered(spots[1:], picture[1:], "help card")
            # g opens the gallery and closes the card: every thumbnail shows.
            self.press_until(["key", "g"], lambda: fc.get_property("gallery"), True)
            self.wait_until_shown(spots, gallery, "the card over the gallery")
            # h in the gallery: the card in place of the thumbnails (the gallery's grey).
            self.xdotool("key", "h")
            self.assertTrue(eventually(lambda: close_to(self.shown(spots[:1]), [(32, 32, 32)], 3)
                                       and self.region_differs(self.shown(spots[1:])[0], gallery[1])),
                            f"no card in place of the thumbnails: {self.shown(spots)}")
            # Esc closes the card alone, back to the thumbnails; so does a click, which
            # chooses nothing.
            self.xdotool("key", "Escape")
            self.wait_until_shown(spots, gallery, "Esc did not bring the thumbnails back")
            self.xdotool("key", "h")
            self.assertTrue(eventually(lambda: close_to(self.shown(spots[:1]), [(32, 32, 32)], 3)), "h again")
            self.click(160, 120)
            self.wait_until_shown(spots, gallery, "a click did not close the card")
            self.assertEqual((fc.get_property("gallery"), fc.get_property("filter")), (True, "none"))
        finally:
            self.close(pipeline)

    def test_osd_outlines_the_lens_while_it_moves_then_clears(self):
        # The lens (80,60 160x120 in 320x240): its outline's white line runs on the pixels
        # x 80 and 239, y 60 and 179, over bars of every colour (and the black strip).
        edges = [(80, 120), (160, 60), (239, 120), (160, 179)]
        inside = [(120, 100), (200, 140)]
        for f in self.each_osd_format():
            with self.subTest(source_format=f):
                plain = [rendered_pixel("identity", x, y, source_format=f) for x, y in edges + inside]
                pipeline, fc = self.window_pipeline("osd=true filter=none lens=0.25,0.25,0.5,0.5", f)
                try:
                    # Set at start, the lens is outlined for 1.5 s, then the picture is plain.
                    self.wait_until_shown(edges + inside, plain, "the outline shown at start did not go")
                    fc.set_property("lens", "0.25,0.25,0.5,0.5")   # as a click or an arrow key sets it
                    self.assertTrue(eventually(lambda: all(self.region_differs(a, b)
                                                           for a, b in zip(plain, self.shown(edges))), 1.2),
                                    f"no outline on every edge: {plain[:4]} -> {self.shown(edges)}")
                    self.assertTrue(close_to(self.shown(inside), plain[4:]), "the outline is drawn inside the lens")
                    self.wait_until_shown(edges, plain[:4], "the outline did not clear after its 1.5 s")
                finally:
                    self.close(pipeline)

    def test_gallery_opens_on_g_and_a_click_chooses_through_the_letterbox(self):
        # One window for every step: I420 frames (as the shipped window pipelines), turned
        # so that the window letterboxes the picture, then the gallery: 3x3 cells of 0.312 x
        # 0.28 of the frame (gaps 0.016 and 0.02, GalleryLayoutTests), the picture fitted in each.
        pipeline, fc = self.turned_in_glimagesink("I420")
        after = self.press_until

        def on_screen(x, y):
            """Output pixel (x, y) of the turned 480x640 frame where the window shows it."""
            return int(140 + x * 0.75), int(y * 0.75)

        try:
            after(["key", "g"], lambda: fc.get_property("gallery"), True)
            # Cell 0 (none) and cell 2 (mono): 132x178 pictures at (8, 12) and (330, 12) of
            # the frame; in each, the turned SMPTE bars run down the right 2/3, the yellow
            # bar 1.5/7 of the way down (178 × 1.5/7 = 38). The margin left of the cells is
            # the gallery's grey.
            spots = [on_screen(8 + 100, 12 + 38), on_screen(330 + 100, 12 + 38), on_screen(3, 320)]
            self.assertTrue(eventually(lambda: close_to(self.shown(spots[2:]), [(32, 32, 32)], 3), 5),
                            f"no gallery on the screen: {self.shown(spots)}")
            none, mono, _ = self.shown(spots)
            self.assertTrue(none[0] > 150 and none[1] > 150 and none[2] < 80, f"none shows yellow: {none}")
            self.assertTrue(max(mono) - min(mono) <= 3 and mono[0] > 100, f"mono shows grey: {mono}")
            # Keys move the selection, which is the filter; pages wrap.
            after(["key", "Right"], lambda: fc.get_property("filter"), "mono")
            after(["key", "Next"], lambda: fc.get_property("filter"), "sharpen amount=2")
            after(["key", "Prior"], lambda: fc.get_property("filter"), "mono")
            # A click at 0.70 of the frame's width, 0.46 of its height: cell 5 (posterize,
            # column 2, row 1). Without the letterbox taken out it would be window x 392 /
            # 640 = 0.61: column 1 (invert).
            x, y = on_screen(0.70 * 480, 0.46 * 640)
            self.xdotool("mousemove", str(x), str(y), "click", "1")
            self.assertEqual(eventually(lambda: not fc.get_property("gallery")) and fc.get_property("filter"), "posterize")
            # Closed: the turned picture, posterized (the blue bar, 6.5/7 down, x 319 of 480).
            spot = on_screen(319, 594)
            expected = rendered_pixel("filtercam orientation=90r filter=posterize", 319, 594, size=(640, 480),
                                      source_format="I420")
            sepia = rendered_pixel("filtercam orientation=90r filter=sepia", 319, 594, size=(640, 480), source_format="I420")
            self.assertFalse(close_to([expected], [sepia], 20), "the spot tells the two filters apart")
            # ±6: glimagesink turns I420 into RGB with its own shader, not videoconvert.
            self.assertTrue(eventually(lambda: close_to(self.shown([spot]), [expected], 6)),
                            f"the chosen filter on the picture: {self.shown([spot])} vs {expected}, sepia {sepia}")
            # g opens it again, Esc closes it.
            after(["key", "g"], lambda: fc.get_property("gallery"), True)
            after(["key", "Escape"], lambda: fc.get_property("gallery"), False)
            self.assertEqual(fc.get_property("filter"), "posterize")
        finally:
            self.close(pipeline)
