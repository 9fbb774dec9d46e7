"""A real window, as a user meets it: a virtual X display (Xvfb), the README's first
example through the `filtercam` CLI, a screenshot of what it shows, the window's frame
rate into a syncing `ximagesink`, and the message when there is no display at all."""
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import unittest

from support import Counter, Gst, drain_bus, sink_pad
from window_support import (CLI, FIRST_EXAMPLE, ROOT, close_to, eventually, probe_frames_and_duration, rendered_pixel,
                            screenshot_pixel, WindowTestCase)


class Window(WindowTestCase):
    def test_readme_first_example_shows_sepia_in_a_window(self):
        env = dict(os.environ, DISPLAY=self.display)
        cli = subprocess.Popen([CLI, "launch", FIRST_EXAMPLE], env=env, stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            eventually(lambda: self.window_count() > 0 or cli.poll() is not None, 15)
            self.assertIsNone(cli.poll(), "filtercam exited: " + (cli.stderr.read() if cli.poll() is not None else ""))
            # The window opens at (0,0) without a window manager, at the video's 320x240.
            # It shows what the element makes: the same frame rendered to a file.
            for x, y in [(20, 100), (110, 100), (250, 100), (100, 220)]:
                with self.subTest(pixel=(x, y)):
                    expected = rendered_pixel("filtercam filter=sepia", x, y)
                    eventually(lambda: close_to([screenshot_pixel(self.display, x, y)], [expected]))
                    shown = screenshot_pixel(self.display, x, y)
                    original = rendered_pixel("identity", x, y)
                    for a, e in zip(shown, expected):
                        self.assertLessEqual(abs(a - e), 2, f"window {shown}, filtercam's output {expected}")
                    if original[0] != original[2]:
                        self.assertNotEqual(shown, original, "the window shows the unfiltered picture")
            # Outside the window the root stays black.
            self.assertEqual(screenshot_pixel(self.display, 600, 600), (0, 0, 0))
        finally:
            cli.send_signal(signal.SIGINT)
            out, err = cli.communicate(timeout=15)
        self.assertEqual(cli.returncode, 0, err[-2000:])

    def test_window_gets_the_full_frame_rate(self):
        os.environ["DISPLAY"] = self.display
        try:
            pipeline = Gst.parse_launch(
                "videotestsrc is-live=true ! video/x-raw,format=BGRx,width=640,height=480,framerate=30/1 ! tee name=t "
                "t. ! queue ! identity ! fakesink name=reference sync=true "
                "t. ! queue ! filtercam filter=sepia ! videoconvert ! ximagesink name=window sync=true")
            reference, window = Counter(sink_pad(pipeline, "reference")), Counter(sink_pad(pipeline, "window"))
            started = pipeline.set_state(Gst.State.PLAYING)
            if not eventually(lambda: window.count >= 30, 15):   # shown and running
                errors = [m.parse_error()[0].message for m in drain_bus(pipeline, Gst.MessageType.ERROR)]
                state = pipeline.get_state(0)
                pipeline.set_state(Gst.State.NULL)
                self.fail(f"no frames in the window: start {started.value_nick}, state {state[1].value_nick} "
                          f"(pending {state[2].value_nick}), {reference.count} at identity's sink, errors {errors}")
            r0, w0 = reference.count, window.count
            time.sleep(5)   # the measuring interval
            r1, w1 = reference.count, window.count
            pipeline.set_state(Gst.State.NULL)
        finally:
            del os.environ["DISPLAY"]
        fps, reference_fps = (w1 - w0) / 5, (r1 - r0) / 5
        print(f"\n  window (ximagesink, sync=true) at 30 fps live: {fps:.1f} fps; identity beside it {reference_fps:.1f}",
              file=sys.stderr)
        self.assertGreaterEqual(fps, 29)

    def test_click_centres_the_lens_where_clicked_in_every_orientation(self):
        # The window (no window manager) sits at (0,0) at the picture's size; the lens
        # (a quarter of each side) must be centred on the click, in the picture as shown.
        for orientation, (w, h) in [("identity", (320, 240)), ("90r", (240, 320)), ("horiz", (320, 240))]:
            with self.subTest(orientation=orientation):
                if orientation != "identity":
                    self.fresh_display()
                pipeline, fc = self.window_pipeline(f"orientation={orientation} lens=0,0,0.25,0.25")
                try:
                    x, y = int(w * 0.6), int(h * 0.55)
                    old = fc.get_property("lens")
                    self.click(x, y)
                    lens = self.lens_after_change(fc, old)
                    self.assertAlmostEqual(lens[0] + lens[2] / 2, x / w, delta=1.5 / w)
                    self.assertAlmostEqual(lens[1] + lens[3] / 2, y / h, delta=1.5 / h)
                    # On screen: filtered under the click, untouched far from it (the
                    # same frame rendered by filtercam without and with that lens).
                    original = rendered_pixel(f"filtercam orientation={orientation}", x, y, size=(320, 240))
                    filtered = rendered_pixel(f"filtercam orientation={orientation} filter=sepia", x, y, size=(320, 240))
                    shown = screenshot_pixel(self.display, x, y)
                    if not close_to([shown], [filtered]):   # the new lens may not be drawn yet
                        eventually(lambda: close_to([screenshot_pixel(self.display, x, y)], [filtered]))
                        shown = screenshot_pixel(self.display, x, y)
                    for a, e in zip(shown, filtered):
                        self.assertLessEqual(abs(a - e), 2, f"under the click {shown}, sepia {filtered}, original {original}")
                    corner = screenshot_pixel(self.display, 5, 5)
                    plain = rendered_pixel(f"filtercam orientation={orientation}", 5, 5, size=(320, 240))
                    for a, e in zip(corner, plain):
                        self.assertLessEqual(abs(a - e), 2, f"far corner {corner}, original {plain}")
                finally:
                    self.close(pipeline)

    def gl_window(self, source_format, properties):
        """A live 320x240 source through `filtercam name=fc PROPERTIES` into glimagesink (the
        OpenGL sink, Mesa under Xvfb), playing, once its window is shown; and the count of
        frames that reached it."""
        os.environ["DISPLAY"] = self.display
        pipeline = Gst.parse_launch(
            f"videotestsrc is-live=true ! video/x-raw,format={source_format},width=320,height=240,framerate=30/1 ! "
            f"filtercam name=fc {properties} ! glimagesink name=window")
        window = Counter(sink_pad(pipeline, "window"))
        pipeline.set_state(Gst.State.PLAYING)
        eventually(lambda: window.count >= 30 and self.window_count() > 0, 15)   # shown, running
        return pipeline, window

    def test_glimagesink_window_full_rate_and_click(self):
        # The OpenGL sink (Mesa under Xvfb): 30 fps into it, and its navigation places the lens.
        pipeline, window = self.gl_window("BGRx", "filter=sepia lens=0,0,0.25,0.25")
        try:
            before = window.count
            time.sleep(4)   # the measuring interval
            fps = (window.count - before) / 4
            print(f"\n  window (glimagesink) at 30 fps live: {fps:.1f} fps", file=sys.stderr)
            self.assertGreaterEqual(fps, 29)
            fc = pipeline.get_by_name("fc")
            self.xdotool("mousemove", "200", "120", "click", "1")
            lens = self.lens_after_change(fc, "0,0,0.25,0.25")
            self.assertAlmostEqual(lens[0] + lens[2] / 2, 200 / 320, delta=1.5 / 320)
            self.assertAlmostEqual(lens[1] + lens[3] / 2, 120 / 240, delta=1.5 / 240)
        finally:
            self.close(pipeline)

    def test_the_wheel_zooms_over_the_bars_of_a_turned_picture(self):
        # glimagesink sends the wheel as a press at the picture's clamped edge; presses in
        # the bars place nothing, and the wheel was taken for one: it did nothing there.
        pipeline, window = self.gl_window("I420", "")
        try:
            fc = pipeline.get_by_name("fc")
            fc.set_property("orientation", "90r")   # 240x320 in the 320x240 window: bars left and right
            before = window.count
            eventually(lambda: window.count >= before + 10, 10)
            self.press_until(["mousemove", "15", "120", "click", "4"], lambda: round(fc.get_property("zoom"), 6), 1.25)
            self.press_until(["mousemove", "305", "120", "click", "5"], lambda: round(fc.get_property("zoom"), 6), 1.0)
            self.xdotool("mousemove", "15", "120", "click", "1")   # a click there still places nothing
            time.sleep(0.4)   # a check that nothing happens can only wait (a dozen frames)
            self.assertEqual(fc.get_property("lens"), "0,0,1,1")
        finally:
            self.close(pipeline)

    def test_drag_moves_the_lens_with_the_pointer(self):
        pipeline, fc = self.window_pipeline("lens=0.25,0.25,0.5,0.5")
        try:
            # ximagesink reads input every 50 ms and hands a batch on motion first, buttons
            # after; a hand takes longer than that between pressing and moving.
            self.xdotool("mousemove", "160", "120", "mousedown", "1")
            time.sleep(0.2)
            self.xdotool("mousemove", "200", "140")
            eventually(lambda: abs(float(fc.get_property("lens").split(",")[0]) - (200 / 320 - 0.25)) < 0.01)
            self.xdotool("mousemove", "240", "160", "mouseup", "1")
            # Centre at (240, 160) of 320x240, clamped inside: x 0.5..1, y 0.417..0.917.
            eventually(lambda: fc.get_property("lens").startswith("0.5,"))
            lens = [float(v) for v in fc.get_property("lens").split(",")]
            self.assertAlmostEqual(lens[0], 0.5, places=2)
            self.assertAlmostEqual(lens[1] + lens[3] / 2, 160 / 240, places=2)
            self.xdotool("mousemove", "20", "20")   # no button held: the lens stays
            time.sleep(0.4)   # a check that nothing happens can only wait (a dozen frames)
            self.assertEqual([float(v) for v in fc.get_property("lens").split(",")], lens)
        finally:
            self.close(pipeline)

    def test_keys_and_wheel_in_the_window(self):
        pipeline, fc = self.window_pipeline("lens=0.25,0.25,0.5,0.5")
        try:
            after = self.press_until
            after(["mousemove", "100", "100", "key", "n"], lambda: fc.get_property("filter"), "mono")   # next after sepia
            after(["key", "p"], lambda: fc.get_property("filter"), "sepia")
            after(["key", "r"], lambda: fc.get_property("orientation").value_nick, "90r")
            after(["key", "plus"], lambda: round(fc.get_property("zoom"), 6), 1.25)
            after(["click", "5"], lambda: round(fc.get_property("zoom"), 6), 1.0)   # wheel towards the user: zoom out
            after(["key", "l"], lambda: fc.get_property("lens"), "0,0,1,1")
            after(["key", "l"], lambda: fc.get_property("lens"), "0.25,0.25,0.5,0.5")
            after(["key", "Left"], lambda: fc.get_property("lens"), "0.2,0.25,0.5,0.5")
            after(["key", "m"], lambda: fc.get_property("orientation").value_nick, "ul-lr")   # 90r, then mirrored
            after(["key", "bracketright"], lambda: float(fc.get_property("lens").split(",")[2]) > 0.5, True)
            self.xdotool("key", "q")
            quit_messages = []
            eventually(lambda: quit_messages.extend(
                m for m in drain_bus(pipeline, Gst.MessageType.APPLICATION)
                if m.get_structure().get_name() == "filtercam-command"
                and m.get_structure().get_string("command") == "quit") or quit_messages)
            time.sleep(0.4)   # and no second one (a check that nothing happens can only wait)
            quit_messages.extend(m for m in drain_bus(pipeline, Gst.MessageType.APPLICATION)
                                 if m.get_structure().get_name() == "filtercam-command")
            self.assertEqual(len(quit_messages), 1)
        finally:
            self.close(pipeline)

    def test_navigation_off_passes_events_upstream(self):
        os.environ["DISPLAY"] = self.display
        pipeline = Gst.parse_launch(
            "videotestsrc is-live=true ! video/x-raw,format=I420,width=320,height=240,framerate=30/1 ! "
            "navigationtest ! videoconvert ! filtercam name=fc navigation=false lens=0,0,0.25,0.25 ! videoconvert ! "
            "ximagesink name=window")
        seen = []
        test = pipeline.get_by_name("fc").get_static_pad("sink")
        test.add_probe(Gst.PadProbeType.EVENT_UPSTREAM,
                       lambda pad, info: (seen.append(info.get_event().type), Gst.PadProbeReturn.OK)[1])
        window = Counter(sink_pad(pipeline, "window"))
        pipeline.set_state(Gst.State.PLAYING)
        eventually(lambda: window.count >= 30 and self.window_count() > 0, 15)
        try:
            self.xdotool("mousemove", "100", "100", "click", "1")
            self.assertTrue(eventually(lambda: Gst.EventType.NAVIGATION in seen), "the click went upstream")
            self.assertEqual(pipeline.get_by_name("fc").get_property("lens"), "0,0,0.25,0.25")
        finally:
            self.close(pipeline)

    def start_with_a_picture(self, command):
        """`command` (a program and its arguments) on this display, once its window shows
        the picture."""
        process = subprocess.Popen(command, env=dict(os.environ, DISPLAY=self.display), stdin=subprocess.DEVNULL,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if not eventually(lambda: screenshot_pixel(self.display, 100, 100) != (0, 0, 0) or process.poll() is not None, 15) \
                or process.poll() is not None:
            ended = process.poll()
            windows = self.window_names()
            process.kill()
            out, err = process.communicate()
            self.fail(f"the window shows no picture ({'exited ' + str(ended) if ended is not None else 'running'}, "
                      f"windows {windows}): {out[-1500:]} {err[-1500:]}")
        return process

    def output_once_ended(self, process, timeout, failure):
        """`process`'s stdout and stderr once it has ended by itself within `timeout` s."""
        try:
            return process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.communicate()
            self.fail(failure)

    def launch_with_a_picture(self, element):
        """`filtercam launch` of a 320x240 test picture through `element` into an ximagesink
        window on this display, once the window shows the picture."""
        return self.start_with_a_picture([CLI, "launch", "videotestsrc is-live=true ! video/x-raw,width=320,height=240 ! "
                                          f"videoconvert ! {element} ! videoconvert ! ximagesink"])

    def test_each_window_is_titled_after_the_filter_its_keys_change(self):
        # Two windows of a tee, one filtercam in each branch: both were titled after the
        # first element's filter ("Sepia Tone" over the mono one).
        cli = self.start_with_a_picture([CLI, "launch", "videotestsrc is-live=true ! video/x-raw,width=320,height=240 ! tee name=t "
                                         "t. ! queue ! videoconvert ! filtercam filter=sepia ! videoconvert ! ximagesink "
                                         "t. ! queue ! videoconvert ! fcinvert ! filtercam filter=mono ! videoconvert ! ximagesink"])
        try:
            titled = lambda: sorted(n.split(" : ")[0] for n in self.window_names() if n.startswith("FilterCam"))
            self.assertTrue(eventually(lambda: titled() == ["FilterCam - Mono", "FilterCam - Sepia Tone"]),
                            f"window titles: {self.window_names()}")
        finally:
            cli.kill()
            cli.communicate()

    def test_q_in_the_window_quits_the_cli(self):
        cli = self.launch_with_a_picture("filtercam filter=sepia")
        try:
            # The window is titled after the app and its filter (ximagesink adds the program's name).
            self.assertTrue(eventually(lambda: any(n.startswith("FilterCam - Sepia Tone") for n in self.window_names())),
                            f"window titles: {self.window_names()}")
            self.xdotool("mousemove", "100", "100", "key", "n")
            self.assertTrue(eventually(lambda: any(n.startswith("FilterCam - Mono") for n in self.window_names())),
                            f"after n, window titles: {self.window_names()}")
            # WM_NAME too, as xprop reads it (an em dash read back as "â\302\200\302\224"). The
            # sink sets it in a request of its own, which may land a moment after the name
            # xwininfo reads: wait for it as well.
            def wm_names():
                windows = [w for w in self.top_window_ids()
                           if "FilterCam" in subprocess.run(["xprop", "-id", str(w), "_NET_WM_NAME"], env=dict(os.environ, DISPLAY=self.display),
                                                            capture_output=True, text=True).stdout]
                return [subprocess.run(["xprop", "-id", str(w), "WM_NAME"], env=dict(os.environ, DISPLAY=self.display, LANG="C.UTF-8"),
                                       capture_output=True, text=True).stdout.strip() for w in windows]
            mono = lambda names: names and all(re.match(r'WM_NAME\((STRING|UTF8_STRING)\) = "FilterCam - Mono', n) for n in names)
            self.assertTrue(eventually(lambda: mono(wm_names())), wm_names())
            self.xdotool("key", "Right", "key", "l", "key", "Right", "key", "bracketleft", "key", "m")
            self.xdotool("key", "q")
            out, err = cli.communicate(timeout=3)
        except subprocess.TimeoutExpired:
            cli.kill()
            self.fail("filtercam did not quit within 2 s of q in its window")
        self.assertEqual(cli.returncode, 0, err[-1000:])
        self.assertIn("processed=", err)
        self.assertIn("window: filter: mono", err, "a key in the window is echoed in the terminal")
        for line in ["window: lens: 0.25,0.25,0.5,0.5", "window: lens: 0.3,0.25,0.5,0.5", "window: lens: 0.35,0.3,0.4,0.4"]:
            self.assertIn(line, err, "the lens keys are echoed as in the terminal")
        # In words, and a refusal as the terminal says it: one line each.
        self.assertIn("\nwindow: mirror: on (orientation horiz)\n", err)
        self.assertIn("\nwindow: command error: the lens is off (the whole picture): 'l' or a click places one\n", err)

    def keys_until_the_end(self, element, *keys):
        """`filtercam launch` of a picture through `element`, `keys` pressed in its window at
        once; its stderr once it has ended by itself with status 0 (within 30 s)."""
        cli = self.launch_with_a_picture(element)
        self.xdotool("mousemove", "100", "100", "key", *keys)
        _, err = self.output_once_ended(cli, 30, f"filtercam did not end within 30 s of {' '.join(keys)} in its window")
        self.assertEqual(cli.returncode, 0, err[-1000:])
        return err

    def test_a_countdown_started_in_the_window_is_kept_when_q_follows(self):
        # t then q at once in the window: quit waits for the countdown's still, as it does
        # for a countdown typed in the terminal. Esc with no gallery open says nothing.
        folder = tempfile.mkdtemp(prefix="fc-window-countdown-")
        err = self.keys_until_the_end(f"filtercam snapshot-location={folder}/c-%03d.jpg", "Escape", "t", "q")
        self.assertIn("window: countdown: a still in 3 s", err)
        self.assertEqual(sorted(os.listdir(folder)), ["c-000.jpg"], err[-1000:])
        self.assertIn("snapshots=1", err)
        self.assertNotIn("gallery is closed", err)

    def test_q_after_stills_in_the_window_waits_for_every_still(self):
        # s s s s q at once: quit jumped ahead of the stills held behind the first one, and
        # those were lost without a word (1 or 2 of 3 saved).
        folder = tempfile.mkdtemp(prefix="fc-window-stills-")
        err = self.keys_until_the_end(f"filtercam snapshot-location={folder}/s-%03d.jpg", "s", "s", "s", "s", "q")
        self.assertEqual(sorted(os.listdir(folder)), [f"s-00{i}.jpg" for i in range(4)], err[-1000:])
        self.assertIn("snapshots=4", err)

    def test_q_in_the_window_ends_stock_gst_launch(self):
        # Under gst-launch-1.0 nobody takes the element's quit message: q did nothing (the
        # card says "q quit"). The element sends EOS once what v and t asked for is done
        # (v q made no file, t q lost the countdown's still); gst-launch-1.0 -e ends.
        folder = tempfile.mkdtemp(prefix="fc-window-gst-launch-")
        launch = self.start_with_a_picture(["gst-launch-1.0", "-e", "videotestsrc", "is-live=true", "!", "video/x-raw,width=320,height=240",
                                            "!", "videoconvert", "!", "filtercam", f"record-location={folder}/r-%d.mp4",
                                            f"snapshot-location={folder}/s-%d.jpg", "!", "videoconvert", "!", "ximagesink"])
        self.xdotool("mousemove", "100", "100", "key", "v", "t", "q")
        out, err = self.output_once_ended(launch, 20, "gst-launch-1.0 did not end after v t q in the window")
        self.assertEqual(launch.returncode, 0, err[-1000:])
        self.assertIn("Got EOS from element", out)
        self.assertNotIn("WARNING", out + err)
        frames, _ = probe_frames_and_duration(os.path.join(folder, "r-0.mp4"))
        self.assertGreater(frames, 0)
        self.assertTrue(os.path.getsize(os.path.join(folder, "s-0.jpg")) > 0, "the countdown's still")

    def test_closing_the_window_of_a_recording_ends_once_the_file_is_done(self):
        # A window closed (its close button) while a tee records to a file: the file was
        # done at once, but the program waited 10 s for an EOS the closed window never
        # gives, and called the ~300 frames that came meanwhile dropped.
        folder = tempfile.mkdtemp(prefix="fc-window-close-")
        path = os.path.join(folder, "tee.mp4")
        cli = self.start_with_a_picture([CLI, "launch", "videotestsrc is-live=true ! video/x-raw,format=I420,width=320,height=240,framerate=30/1 ! "
                                         "filtercam filter=sepia ! tee name=t ! queue ! videoconvert ! ximagesink t. ! queue ! "
                                         f"x264enc tune=zerolatency speed-preset=ultrafast ! mp4mux ! filesink location={path}"])
        windows = self.top_window_ids()
        self.assertEqual(len(windows), 1, windows)
        self.close_window(windows[0])
        _, err = self.output_once_ended(cli, 5, "filtercam did not end within 5 s of its window's closing (it waited 10 s)")
        self.assertEqual(cli.returncode, 1, err[-1000:])
        self.assertIn("Finishing the recording after the error", err)
        self.assertRegex(err, r"processed=\d+ dropped=0")
        frames, _ = probe_frames_and_duration(path)
        self.assertGreater(frames, 0, err[-1000:])

    def test_stills_asked_for_as_the_window_closes_are_each_said(self):
        # `s s s t` and the window closed at once (xdotool windowclose): the stills written
        # while the pipeline stopped had no `saved` line (3 files, 2 lines), and the
        # countdown's still was lost without a word.
        folder = tempfile.mkdtemp(prefix="fc-window-stills-")
        cli = self.launch_with_a_picture(f"filtercam snapshot-location={folder}/s-%d.jpg")
        windows = self.top_window_ids()
        self.assertEqual(len(windows), 1, windows)
        self.xdotool("mousemove", "100", "100", "key", "s", "key", "s", "key", "s", "key", "t", "windowclose", str(windows[0]))
        _, err = self.output_once_ended(cli, 10, "filtercam did not end within 10 s of its window's closing")
        self.assertEqual(cli.returncode, 1, err[-1000:])
        files = sorted(f for f in os.listdir(folder) if f.endswith(".jpg"))
        self.assertGreaterEqual(len(files), 1, err[-1500:])
        self.assertEqual(len(re.findall(r"^saved ", err, re.M)), len(files), err[-1500:])
        self.assertIn(f"snapshots={len(files)}", err)
        if "countdown: a still in" in err:
            self.assertIn("countdown called off: the pipeline stopped before the countdown's end", err)

    def test_rotate_letterboxes_the_whole_picture_in_the_preview_window(self):
        # The shipped preview pipeline, a test picture for the camera, r pressed in its window.
        env = dict(os.environ, DISPLAY=self.display, SOURCE="videotestsrc is-live=true ! video/x-raw,width=640,height=480",
                   FILTER="none", OSD="false")
        cli = subprocess.Popen([CLI, "launch", os.path.join(ROOT, "pipelines", "preview.pipeline")], env=env,
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            self.assertTrue(eventually(lambda: screenshot_pixel(self.display, 320, 240) != (0, 0, 0), 15),
                            "the window shows no picture")
            # glimagesink calls its window "OpenGL renderer"; the app titles it (no filter: the app alone).
            self.assertTrue(eventually(lambda: self.window_names() == ["FilterCam"]), f"window titles: {self.window_names()}")
            self.xdotool("mousemove", "320", "240", "key", "r")
            # 640x480 window; the turned 480x640 picture is scaled to 360x480 at x 140..500.
            # SMPTE bars turned clockwise: white at the top, blue at the bottom, the white
            # block of the bottom row on the left.
            eventually(lambda: screenshot_pixel(self.display, 50, 240) == (0, 0, 0))
            self.assertEqual(screenshot_pixel(self.display, 50, 240), (0, 0, 0), "left bar")
            self.assertEqual(screenshot_pixel(self.display, 600, 240), (0, 0, 0), "right bar")
            self.assertEqual(screenshot_pixel(self.display, 320, 5), (255, 255, 255), "top of the turned picture")
            self.assertEqual(screenshot_pixel(self.display, 320, 470), (0, 0, 255), "bottom of the turned picture")
            self.assertEqual(screenshot_pixel(self.display, 180, 120), (255, 255, 255), "its left edge")
            self.xdotool("key", "q")
            out, err = cli.communicate(timeout=3)
        finally:
            if cli.poll() is None:
                cli.kill()
        self.assertEqual(cli.returncode, 0, err[-1000:])

    def test_click_lands_on_the_lens_through_the_letterbox(self):
        pipeline, fc = self.turned_in_glimagesink("BGRx")
        try:
            self.xdotool("mousemove", "400", "120", "click", "1")
            lens = self.lens_after_change(fc, "0,0,1,1")
            # Window x 400 is picture x (400 - 140) * 480 / 360; y 120 is 160 of 640. A first
            # click places a half-size lens centred there, kept inside the picture.
            cx, cy = (400 - 140) / 360, 120 / 480
            self.assertAlmostEqual(lens[2], 0.5)
            self.assertAlmostEqual(lens[0], min(max(cx - 0.25, 0), 0.5), delta=0.01)
            self.assertAlmostEqual(lens[1], min(max(cy - 0.25, 0), 0.5), delta=0.01)
        finally:
            self.close(pipeline)

    def test_a_click_beside_the_picture_places_no_lens(self):
        pipeline, fc = self.turned_in_glimagesink("BGRx")
        try:
            # x 50 is in the bar left of the turned picture (x 140..500); the key after it
            # shows the click has been handled (the window's events come in order).
            self.xdotool("mousemove", "50", "240", "click", "1", "key", "n")
            self.assertTrue(eventually(lambda: fc.get_property("filter") != "sepia"), "the key after the click did nothing")
            self.assertEqual(fc.get_property("lens"), "0,0,1,1", "a click in the letterbox placed the lens")
        finally:
            self.close(pipeline)

    def test_no_display_fails_at_once_with_what_to_do(self):
        env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
        for target, hint in [(FIRST_EXAMPLE, "SINK=fakesink filtercam launch pipelines/preview.pipeline"),
                             ("preview", "SINK=fakesink filtercam launch preview,"),
                             # The file run, not preview.pipeline (as typed, quoted for a shell).
                             ("faces", "SINK=fakesink filtercam launch faces,"),
                             (os.path.join(ROOT, "pipelines", "snapshot.pipeline"), f"SINK=fakesink filtercam launch {ROOT}/pipelines/snapshot.pipeline,"),
                             (["pipelines/../pipelines/snapshot.pipeline"], "SINK=fakesink filtercam launch pipelines/../pipelines/snapshot.pipeline,")]:
            with self.subTest(target=target):
                words = target if isinstance(target, list) else [target]
                result = subprocess.run([CLI, "launch", *words], env=env, cwd=ROOT, capture_output=True, text=True, timeout=30)
                self.assertEqual(result.returncode, 1, result.stderr)
                self.assertIn("no display", result.stderr)
                self.assertIn(hint, result.stderr)
                self.assertIn("rawout.pipeline", result.stderr)
                if target == FIRST_EXAMPLE:
                    # The description typed is mended in place first (it was pointed at preview.pipeline).
                    self.assertIn("Without a window: put fakesink in place of autovideosink", result.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)
