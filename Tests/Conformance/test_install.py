"""`make install` / `make uninstall` for a user without root: stock gst-launch-1.0 finds
the plugin with no GST_PLUGIN_PATH and lists no blacklist entry (the face detector's library
is in lib/filtercam, outside the plugin folder GStreamer scans), the plugin and the installed
`filtercam` both find that library, `filtercam launch NAME` finds the shipped pipelines,
`filtercam filters --preview` the shipped photo, and the installed looks are in its catalog
with nothing set. Where GStreamer would not find the plugin by itself (XDG_DATA_HOME elsewhere)
install says so; DESTDIR stages the files; uninstall keeps pipeline files of the user's own."""
import os
import subprocess
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


class Install(unittest.TestCase):
    def test_install_then_uninstall(self):
        home = tempfile.mkdtemp(prefix="fc-home-")
        env = {k: v for k, v in os.environ.items() if k not in ("GST_PLUGIN_PATH", "XDG_DATA_HOME", "FILTERCAM_LOOKS")}
        env.update(HOME=home, GST_REGISTRY=os.path.join(home, "registry.bin"))
        # XDG_DATA_HOME elsewhere for make alone: GStreamer would look there, not in ~/.local/share.
        installed = subprocess.run(["make", "-s", "install"], cwd=ROOT, env=dict(env, XDG_DATA_HOME=os.path.join(home, "xdg")),
                                   check=True, capture_output=True, text=True, timeout=600)
        self.assertIn(f"note: GStreamer does not look in {home}/.local/share/gstreamer-1.0/plugins by itself", installed.stdout)
        self.assertIn(f"GST_PLUGIN_PATH={home}/.local/share/gstreamer-1.0/plugins", installed.stdout)
        staged = subprocess.run(["make", "-n", "install", "DESTDIR=/staging"], cwd=ROOT, env=env, check=True,
                                capture_output=True, text=True, timeout=60)
        self.assertIn(f"/staging{home}/.local/bin/filtercam", staged.stdout)
        self.assertIn(f"/staging{home}/.local/share/gstreamer-1.0/plugins/libgstfiltercam.so", staged.stdout)
        cli = os.path.join(home, ".local", "bin", "filtercam")
        self.assertTrue(os.access(cli, os.X_OK))
        inspect = subprocess.run(["gst-inspect-1.0", "filtercam"], env=env, capture_output=True, text=True, timeout=60)
        self.assertEqual(inspect.returncode, 0, inspect.stderr)
        self.assertIn("FilterCam", inspect.stdout)
        # The installed plugin folder alone (no system plugins): one plugin, no blacklist entry.
        plugins = os.path.join(home, ".local", "share", "gstreamer-1.0", "plugins")
        self.assertEqual(sorted(os.listdir(plugins)), ["libgstfiltercam.so"])
        self.assertTrue(os.path.exists(os.path.join(home, ".local", "lib", "filtercam", "libfiltercamfaces.so")))
        alone = dict(env, GST_PLUGIN_SYSTEM_PATH=tempfile.mkdtemp(prefix="fc-no-plugins-"),
                     GST_REGISTRY=os.path.join(home, "alone.bin"))
        counted = subprocess.run(["gst-inspect-1.0"], env=alone, capture_output=True, text=True, timeout=60)
        total = counted.stdout.strip().splitlines()[-1]
        self.assertTrue(total.startswith("Total count: 1 plugin"), total)
        self.assertNotIn("blacklist", total)
        run = subprocess.run(["gst-launch-1.0", "videotestsrc", "num-buffers=3", "!", "video/x-raw,format=BGRx",
                              "!", "filtercam", "filter=sepia", "detect-faces=true", "!", "fakesink"], env=env,
                             capture_output=True, text=True, timeout=60)
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertNotIn("face detector library", run.stdout + run.stderr)   # found beside the installed plugin
        faces = subprocess.run([cli, "launch", "videotestsrc num-buffers=3 ! filtercam detect-faces=true ! fakesink"], cwd=home,
                               capture_output=True, text=True, timeout=60, env=env)
        self.assertIn("processed=3", faces.stderr, faces.stderr[-500:])
        self.assertNotIn("face detector library", faces.stdout + faces.stderr)   # and by the installed filtercam
        # From another folder, by name, the installed copy of the pipeline files.
        launched = subprocess.run([cli, "launch", "rawout"], cwd=home, capture_output=True, timeout=60,
                                  env=dict(env, SOURCE="videotestsrc num-buffers=3", WIDTH="16", HEIGHT="8"))
        self.assertIn(b"processed=3", launched.stderr, launched.stderr[-500:])
        # The filter previews from the installed photo.
        previews = subprocess.run([cli, "filters", "--preview", "previews"], cwd=home, capture_output=True, text=True,
                                  timeout=60, env=env)
        self.assertEqual(previews.returncode, 0, previews.stderr)
        self.assertTrue(os.path.exists(os.path.join(home, "previews", "mono.png")), previews.stdout)
        # The installed looks are in the catalog with FILTERCAM_LOOKS unset (no package above
        # this binary to find them in), and so in the previews.
        self.assertTrue(os.path.exists(os.path.join(home, "previews", "look-teal-orange.png")), previews.stdout)
        listed = subprocess.run([cli, "filters"], capture_output=True, text=True, timeout=60, env=env)
        self.assertEqual(listed.returncode, 0, listed.stderr)
        self.assertRegex(listed.stdout, r"\nlook:teal-orange +Teal and orange — ")
        own = os.path.join(home, ".local", "share", "filtercam", "pipelines", "mine.pipeline")
        with open(own, "w") as f:
            f.write("videotestsrc ! fakesink\n")
        removed = subprocess.run(["make", "-s", "uninstall"], cwd=ROOT, env=env, check=True, capture_output=True,
                                 text=True, timeout=60)
        self.assertFalse(os.path.exists(cli))
        self.assertTrue(os.path.exists(own))   # the user's own file is kept, and named
        self.assertIn("kept", removed.stdout)
        self.assertIn("mine.pipeline", removed.stdout)
        self.assertEqual(os.listdir(os.path.dirname(own)), ["mine.pipeline"])   # the shipped ones are gone
        os.remove(own)
        subprocess.run(["make", "-s", "uninstall"], cwd=ROOT, env=env, check=True, capture_output=True, timeout=60)
        for library in ("libgstfiltercam.so", "libfiltercamfaces.so"):
            self.assertFalse(os.path.exists(os.path.join(home, ".local", "share", "gstreamer-1.0", "plugins", library)))
        self.assertFalse(os.path.exists(os.path.join(home, ".local", "lib", "filtercam")))
        self.assertFalse(os.path.exists(os.path.join(home, ".local", "share", "filtercam")))


if __name__ == "__main__":
    unittest.main(verbosity=2)
