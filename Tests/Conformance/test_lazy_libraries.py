"""What every pipeline pays at start: the plugin links only what every frame needs. OpenCV
(~45 ms of dynamic linking) lives in libfiltercamfaces.so beside the plugin, loaded on
the first face search; Pango and Cairo (~30 libraries with HarfBuzz, fontconfig, X11) are
loaded by the first on-screen display drawn. A pipeline without either loads neither."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
PLUGIN_DIR = os.environ.get("GST_PLUGIN_PATH", "").split(":")[0]
FACE_PICTURE = os.path.join(HERE, "..", "FilterCamHostTests", "Fixtures", "faces", "astronaut.png")


def needed_libraries(path):
    """The ELF NEEDED entries of a shared object, as the dynamic linker reads them."""
    out = subprocess.run(["readelf", "-d", path], capture_output=True, text=True, check=True).stdout
    return [line.split("[", 1)[1].split("]", 1)[0] for line in out.splitlines() if "(NEEDED)" in line]


# Runs in a fresh interpreter: a pipeline with neither faces nor a display, one with
# faces, one with a display, and the libraries mapped into the process after each (this
# process may have loaded them already).
CHILD = r"""
import json, sys
import gi
gi.require_version('Gst', '1.0')
from gi.repository import Gst
Gst.init(None)

def mapped():
    with open('/proc/self/maps') as f:
        return sorted({line.split()[-1].rsplit('/', 1)[-1] for line in f if '/' in line})

def run(description):
    pipeline = Gst.parse_launch(description)
    pipeline.set_state(Gst.State.PLAYING)
    faces = []
    bus = pipeline.get_bus()
    while True:
        msg = bus.timed_pop_filtered(30 * Gst.SECOND, Gst.MessageType.EOS | Gst.MessageType.ERROR | Gst.MessageType.ELEMENT)
        if msg is None or msg.type == Gst.MessageType.ERROR:
            sys.exit(f"{description}: {msg.parse_error() if msg else 'no EOS in 30 s'}")
        if msg.type == Gst.MessageType.EOS:
            break
        s = msg.get_structure()
        if s.get_name() == 'faces':
            faces.append(s.get_value('faces').__len__() if s.has_field('faces') else 0)
    pipeline.set_state(Gst.State.NULL)
    return faces

source = 'videotestsrc num-buffers=3 ! video/x-raw,format=I420,width=160,height=120'
run(f'{source} ! filtercam orientation=90r filter=sepia ! fakesink')
plain = mapped()
faces = run(f'filesrc location="{sys.argv[1]}" ! pngdec ! videoconvert ! video/x-raw,format=I420 ! filtercam detect-faces=true ! fakesink')
after_faces = mapped()
run(f'{source} ! filtercam osd=true lens-outline=true lens=0.25,0.25,0.5,0.5 ! fakesink')
print(json.dumps({'plain': plain, 'faces': after_faces, 'display': mapped(), 'found': faces}))
"""


@unittest.skipUnless(PLUGIN_DIR, "GST_PLUGIN_PATH names the build folder")
class LazyLibraries(unittest.TestCase):
    def test_plugin_links_no_opencv_pango_cairo_or_foundation(self):
        names = needed_libraries(os.path.join(PLUGIN_DIR, "libgstfiltercam.so"))
        self.assertIn("libgstreamer-1.0.so.0", names)   # the entries were read
        lazy = ("opencv", "pango", "cairo", "libFoundation.so", "ICU")
        self.assertEqual([n for n in names if any(part in n for part in lazy)], [], names)
        # The face library is what links OpenCV.
        self.assertIn("libopencv_objdetect.so.406", needed_libraries(os.path.join(PLUGIN_DIR, "libfiltercamfaces.so")))

    def test_opencv_and_pango_are_loaded_by_the_first_face_search_and_display(self):
        child = subprocess.run([sys.executable, "-c", CHILD, FACE_PICTURE], capture_output=True, text=True, timeout=60)
        self.assertEqual(child.returncode, 0, child.stderr[-2000:])
        seen = json.loads(child.stdout.strip().splitlines()[-1])
        loaded = lambda after, lib: any(f.startswith(lib) for f in seen[after])
        self.assertTrue(loaded("plain", "libgstfiltercam.so"))
        for lib in ("libfiltercamfaces.so", "libopencv_objdetect.so", "libpangocairo-1.0.so", "libcairo.so"):
            self.assertFalse(loaded("plain", lib), f"{lib} loaded by a pipeline with neither faces nor a display")
        for lib in ("libfiltercamfaces.so", "libopencv_objdetect.so"):
            self.assertTrue(loaded("faces", lib), f"{lib} not loaded by a face search")
        self.assertFalse(loaded("faces", "libpangocairo-1.0.so"), "Pango loaded by a face search without a display")
        self.assertEqual(seen["found"], [1], "the astronaut's one face")
        for lib in ("libpangocairo-1.0.so", "libcairo.so"):
            self.assertTrue(loaded("display", lib), f"{lib} not loaded by a display")

    def test_without_the_face_library_a_warning_names_it_and_the_stream_runs(self):
        folder = tempfile.mkdtemp(prefix="fc-lazy-")
        try:
            shutil.copy(os.path.join(PLUGIN_DIR, "libgstfiltercam.so"), folder)   # the plugin alone
            run = subprocess.run(["gst-launch-1.0", "videotestsrc", "num-buffers=5", "!", "video/x-raw,width=64,height=48",
                                  "!", "filtercam", "detect-faces=true", "!", "fakesink"],
                                 env=dict(os.environ, GST_PLUGIN_PATH=folder), capture_output=True, text=True, timeout=60)
        finally:
            shutil.rmtree(folder)
        self.assertEqual(run.returncode, 0, run.stderr[-1000:])
        out = run.stdout + run.stderr
        self.assertIn("WARNING", out)
        self.assertIn(os.path.join(folder, "libfiltercamfaces.so") + ": not there", out)
        self.assertIn("--product filtercamfaces", out)
        self.assertEqual(out.count("face detector library"), 1, out)   # once, not once per cascade
        self.assertIn("Got EOS", out)   # every frame went through: the stream ended normally

    def test_a_program_replaced_while_running_still_finds_the_face_library_beside_it(self):
        # A rebuild or an upgrade replaces the binary under a running filtercam: the kernel
        # then names it "PATH (deleted)", and the library beside it must still be found.
        program_source = os.path.join(PLUGIN_DIR, "filtercam")
        if not os.path.exists(program_source):
            self.skipTest("no filtercam program in the build folder")
        folder = tempfile.mkdtemp(prefix="fc-replaced-")
        try:
            for name in ("filtercam", "libfiltercamfaces.so"):
                shutil.copy(os.path.join(PLUGIN_DIR, name), folder)
            program, messages = os.path.join(folder, "filtercam"), os.path.join(folder, "messages.jsonl")
            said = open(os.path.join(folder, "stderr.txt"), "w+")
            env = {k: v for k, v in os.environ.items() if k != "GST_PLUGIN_PATH"}   # its own elements only
            face = (f"filesrc location={FACE_PICTURE} ! pngdec ! videoconvert ! imagefreeze is-live=true "
                    "! video/x-raw,framerate=30/1 ! filtercam ! fakesink")
            process = subprocess.Popen([program, "launch", f"--messages={messages}", face], stdin=subprocess.PIPE,
                                       stdout=subprocess.DEVNULL, stderr=said, text=True, env=env)
            os.unlink(program)   # running, replaced: nothing at its path now
            process.stdin.write("faces\n")   # the first face search, so the library's loading, comes after
            process.stdin.flush()
            # Until the face is found (OpenCV's first load takes seconds on a busy machine),
            # or the library's failure is said (the element's WARNING, on stderr).
            deadline, found, failed = time.monotonic() + 60, False, False
            while not (found or failed) and time.monotonic() < deadline and process.poll() is None:
                text = open(messages).read() if os.path.exists(messages) else ""
                found = '"faces":[{' in text
                failed = "face detector library" in open(said.name).read()
                time.sleep(0.05)
            process.communicate("quit\n", timeout=30)
            said.seek(0)
            err = said.read()
            said.close()
        finally:
            shutil.rmtree(folder)
        self.assertNotIn("face detector library", err)
        self.assertTrue(found, err[-1000:])
        self.assertEqual(process.returncode, 0, err[-1000:])




@unittest.skipUnless(os.geteuid() == 0 and shutil.which("setpriv"), "needs root and setpriv to run as a user files can be closed to")
class FaceLibraryClosed(unittest.TestCase):
    """An installed face library (PREFIX/lib/filtercam) that its user may not read, or
    whose folder it may not enter, is said as such: it was "not there" for a closed folder,
    and a closed file got OpenCV's package as the fix, its path said twice."""

    def warning_with(self, close):
        prefix = tempfile.mkdtemp(prefix="fc-closed-", dir="/tmp")   # the run's TMPDIR is closed to nobody
        try:
            plugins, library = os.path.join(prefix, "share", "gstreamer-1.0", "plugins"), os.path.join(prefix, "lib", "filtercam")
            os.makedirs(plugins)
            os.makedirs(library)
            shutil.copy(os.path.join(PLUGIN_DIR, "libgstfiltercam.so"), plugins)
            shutil.copy(os.path.join(PLUGIN_DIR, "libfiltercamfaces.so"), library)
            for folder, _, files in os.walk(prefix):
                os.chmod(folder, 0o755)
                for name in files:
                    os.chmod(os.path.join(folder, name), 0o755)
            closed = close(library)
            os.chmod(closed, 0o000)
            run = subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "env", f"HOME={prefix}",
                                  f"GST_REGISTRY={prefix}/registry.bin", f"GST_PLUGIN_PATH={plugins}",
                                  "gst-launch-1.0", "videotestsrc", "num-buffers=5", "!", "video/x-raw,width=64,height=48",
                                  "!", "filtercam", "detect-faces=true", "!", "fakesink"],
                                 capture_output=True, text=True, timeout=60)
            return run, closed
        finally:
            shutil.rmtree(prefix, ignore_errors=True)

    def test_an_unreadable_library_is_said_unreadable(self):
        run, closed = self.warning_with(lambda library: os.path.join(library, "libfiltercamfaces.so"))
        out = run.stdout + run.stderr
        self.assertEqual(run.returncode, 0, out[-1000:])
        self.assertIn(f"{closed}: cannot be read: Permission denied", out)
        self.assertNotIn("OpenCV", out)
        self.assertEqual(out.count(closed), 1, out)

    def test_a_library_in_a_closed_folder_is_not_said_missing(self):
        run, closed = self.warning_with(lambda library: library)
        out = run.stdout + run.stderr
        self.assertEqual(run.returncode, 0, out[-1000:])
        self.assertIn(os.path.join(closed, "libfiltercamfaces.so") + ": Permission denied", out)
        self.assertNotIn(os.path.join(closed, "libfiltercamfaces.so") + ": not there", out)
