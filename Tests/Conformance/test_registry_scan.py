"""The filtercam program when GStreamer's registry scan runs inside it (GST_REGISTRY_FORK=no)
and finds libgstfiltercam.so new or changed: the scan loads the plugin's own copy of the
elements into the program. Its commands then found "no filtercam element" of theirs, and
the element classes named a factory the registry had dropped."""
import os
import shutil
import subprocess
import tempfile
import unittest

PLUGIN_DIR = os.environ.get("GST_PLUGIN_PATH", "").split(":")[0]
FILTERCAM = os.path.join(PLUGIN_DIR, "filtercam")


@unittest.skipUnless(os.path.exists(FILTERCAM), "no filtercam program in the build folder")
class ScanInsideTheProgram(unittest.TestCase):
    def test_commands_reach_the_element_after_an_in_process_scan_of_an_updated_plugin(self):
        home = tempfile.mkdtemp(prefix="fc-scan-")
        self.addCleanup(shutil.rmtree, home, True)
        plugins = os.path.join(home, ".local", "share", "gstreamer-1.0", "plugins")
        os.makedirs(plugins)
        plugin = os.path.join(plugins, "libgstfiltercam.so")
        shutil.copy(os.path.join(PLUGIN_DIR, "libgstfiltercam.so"), plugin)   # installed as `make install` does
        env = {k: v for k, v in os.environ.items() if k != "GST_PLUGIN_PATH"}
        env.update(HOME=home, GST_REGISTRY=os.path.join(home, "registry.bin"))
        listed = subprocess.run(["gst-inspect-1.0", "filtercam"], env=env, capture_output=True, text=True, timeout=60)
        self.assertIn(plugin, listed.stdout, "the installed plugin is in the registry")
        os.utime(plugin)   # updated: the next scan loads it
        run = subprocess.run([FILTERCAM, "launch", "videotestsrc num-buffers=300 is-live=true ! video/x-raw,width=64,height=48 ! filtercam ! fakesink"],
                             input="filter mono\nzoom-in\nquit\n", env=dict(env, GST_REGISTRY_FORK="no"),
                             capture_output=True, text=True, timeout=60)
        self.assertEqual(run.returncode, 0, run.stderr[-1500:])
        self.assertNotIn("command error", run.stderr)
        self.assertIn("filter: mono", run.stderr)
        self.assertIn("zoom: ", run.stderr)
        # The registry the scan wrote still gives stock tools the elements from the file.
        listed = subprocess.run(["gst-inspect-1.0", "filtercam"], env=env, capture_output=True, text=True, timeout=60)
        self.assertIn(plugin, listed.stdout)
        self.assertIn("lens-crop", listed.stdout)
