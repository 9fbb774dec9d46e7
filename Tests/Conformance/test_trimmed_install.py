"""A GStreamer install that lacks a plugin FilterCam's elements are built from (the app
plugin's appsink/appsrc, videorate): the elements can still be made, inspected and
linked, and refuse to start with an error naming what is missing. They crashed whatever
process made them (SIGILL), stock gst-inspect-1.0 included."""
import glob
import os
import shutil
import subprocess
import tempfile
import unittest

PLUGIN_DIR = os.environ.get("GST_PLUGIN_PATH", "").split(":")[0]
FILTERCAM = os.path.join(PLUGIN_DIR, "filtercam")
SYSTEM_PLUGINS = os.path.dirname((glob.glob("/usr/lib/*/gstreamer-1.0/libgstcoreelements.so") or [""])[0])


@unittest.skipUnless(SYSTEM_PLUGINS, "no system GStreamer plugin folder found")
class TrimmedInstall(unittest.TestCase):
    def without(self, plugin_file):
        """An environment whose system plugins are all but PLUGIN_FILE (links in a folder
        of this test's own, a registry of its own)."""
        folder = tempfile.mkdtemp(prefix="fc-trimmed-")
        self.addCleanup(shutil.rmtree, folder, True)
        plugins = os.path.join(folder, "plugins")
        os.mkdir(plugins)
        for path in glob.glob(os.path.join(SYSTEM_PLUGINS, "*.so")):
            if os.path.basename(path) != plugin_file:
                os.symlink(path, os.path.join(plugins, os.path.basename(path)))
        return dict(os.environ, GST_PLUGIN_SYSTEM_PATH=plugins, GST_REGISTRY=os.path.join(folder, "registry.bin"))

    def run_in(self, env, command):
        return subprocess.run(command, env=env, capture_output=True, text=True, timeout=60)

    def test_without_appsink_and_appsrc_the_filters_inspect_and_say_what_is_missing(self):
        env = self.without("libgstapp.so")
        self.assertNotEqual(self.run_in(env, ["gst-inspect-1.0", "appsink"]).returncode, 0, "the app plugin is left out")
        for element in ("fcsepia", "filtercam"):
            inspect = self.run_in(env, ["gst-inspect-1.0", element])
            self.assertEqual(inspect.returncode, 0, inspect.stderr[-800:])
            self.assertIn("Pad Templates", inspect.stdout)
            run = self.run_in(env, ["gst-launch-1.0", "videotestsrc", "num-buffers=3", "!", element, "!", "fakesink"])
            said = run.stdout + run.stderr
            self.assertGreater(run.returncode, 0, said[-800:])   # a failure, not a signal (SIGILL was -4 here, 132 in a shell)
            self.assertEqual(said.count(f"{element}0 cannot start: GStreamer's appsink, appsrc cannot be made here"), 1, said[-800:])
            self.assertIn("gstreamer1.0-plugins-base", said)
        if os.path.exists(FILTERCAM):
            inspect = self.run_in(env, [FILTERCAM, "inspect", "filtercam"])
            self.assertEqual(inspect.returncode, 0, inspect.stderr[-800:])
            self.assertIn("lens", inspect.stdout)

    def test_without_videorate_the_camera_source_says_so(self):
        env = self.without("libgstvideorate.so")
        run = self.run_in(env, ["gst-launch-1.0", "filtercamsrc", "num-buffers=3", "!", "fakesink"])
        said = run.stdout + run.stderr
        self.assertGreater(run.returncode, 0, said[-800:])
        self.assertIn("filtercamsrc0 cannot start: GStreamer's videorate cannot be made here", said)
        # The filters need no videorate: they run.
        run = self.run_in(env, ["gst-launch-1.0", "videotestsrc", "num-buffers=3", "!", "fcsepia", "!", "fakesink"])
        self.assertEqual(run.returncode, 0, (run.stdout + run.stderr)[-800:])

    def test_a_missing_stock_element_is_named_with_its_package(self):
        # record.pipeline without x264enc said 'no element "x264enc"  did you mean "x265enc"?':
        # a look-alike, not what to install.
        if not os.path.exists(FILTERCAM):
            self.skipTest("no release build of filtercam")
        env = self.without("libgstx264.so")
        run = self.run_in(env, [FILTERCAM, "launch", "videotestsrc num-buffers=3 ! x264enc ! fakesink"])
        said = run.stdout + run.stderr
        self.assertNotEqual(run.returncode, 0, said[-800:])
        self.assertIn("x264enc comes in the Debian package gstreamer1.0-plugins-ugly", said)
        self.assertNotIn("x265enc", said)
