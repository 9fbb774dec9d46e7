"""The X server going away under a running window, as Ctrl-C under `xvfb-run` does it (the
signal reaches the whole process group: Xvfb quits with the program). Xlib's answer is
exit(1) from the sink's thread; the app must instead say the display went away, finish
a recording from the window so that it plays, and end with exit status 1, as when the
window is closed."""
import os
import re
import shutil
import signal
import subprocess
import tempfile
import threading
import unittest

from window_support import CLI, probe_frames_and_duration

# A small live picture (the default camera or test picture costs more to encode).
SOURCE = "videotestsrc is-live=true ! video/x-raw,width=320,height=240,framerate=30/1"


class DisplayLoss(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not os.path.exists(CLI):
            raise unittest.SkipTest("no release build of filtercam (make test builds it)")
        if shutil.which("xvfb-run") is None:
            raise unittest.SkipTest("xvfb-run is not installed (make test installs xvfb)")

    def ctrl_c_under_xvfb_run(self, command, ready):
        """`xvfb-run filtercam launch preview` in a process group of its own, COMMAND on its
        stdin; once a stderr line matches READY (and, recording, the file has frames), Ctrl-C
        to the whole group. Returns the app's exit status, stderr and the working folder."""
        folder = tempfile.mkdtemp(prefix="fc-xvfb-")
        # xvfb-run (a shell) dies of the Ctrl-C at once; a shell that waits on reports the
        # app's own exit status.
        report = 'trap : INT; "$@"; echo "filtercam exit status $?" >&2'
        # -a from the top of this process's display numbers (run.py gives each its own).
        first_free = os.environ.get("FILTERCAM_TEST_DISPLAYS", "90-119").split("-")[1]
        cli = subprocess.Popen(["xvfb-run", "-a", "-n", first_free, "-s", "-screen 0 640x480x24", "sh", "-c", report, "sh",
                                CLI, "launch", "preview"],
                               cwd=folder, env=dict(os.environ, SOURCE=SOURCE), start_new_session=True,
                               stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        lines, seen = [], threading.Event()

        def read():
            for line in cli.stderr:
                lines.append(line)
                if re.search(ready, line):
                    seen.set()
        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        try:
            cli.stdin.write(command + "\n")
            cli.stdin.flush()
            self.assertTrue(seen.wait(60), "".join(lines))
            if command == "record":
                # A second of frames in the file (mp4mux writes them as they come, the index at the end).
                recording = os.path.join(folder, "recording-00000.mp4")
                self.assertTrue(self.eventually(lambda: os.path.exists(recording) and os.path.getsize(recording) > 30_000),
                                "".join(lines))
            os.killpg(cli.pid, signal.SIGINT)
            reader.join(60)   # until the app and its shell are gone (stderr closed)
        finally:
            if reader.is_alive():
                os.killpg(cli.pid, signal.SIGKILL)
            cli.wait(10)
        err = "".join(lines)
        status = re.search(r"^filtercam exit status (\d+)$", err, re.M)
        self.assertIsNotNone(status, err)
        return int(status.group(1)), err, folder

    @staticmethod
    def eventually(check, timeout=30):
        event = threading.Event()
        for _ in range(int(timeout / 0.05)):
            if check():
                return True
            event.wait(0.05)
        return check()

    def assert_ended_as_for_a_closed_window(self, status, err, folder):
        self.assertRegex(err, r"ERROR: the display :\d+ went away", err)
        self.assertNotIn("XIO", err, "Xlib ended the process")
        self.assertIn("filtercam filtercam0: processed=", err, "the session ran to its end")
        self.assertEqual(status, 1, err)
        self.assertFalse([f for f in os.listdir(folder) if f.startswith("core")], "a core file")

    def test_ctrl_c_under_xvfb_run_finishes_the_recording(self):
        status, err, folder = self.ctrl_c_under_xvfb_run("record", r"^recording recording-00000\.mp4")
        self.assert_ended_as_for_a_closed_window(status, err, folder)
        said = re.search(r"recorded recording-00000\.mp4: [\d.]+ s, .* \((\d+) frames", err)
        self.assertIsNotNone(said, err)
        frames, seconds = probe_frames_and_duration(os.path.join(folder, "recording-00000.mp4"))
        self.assertGreater(seconds, 0.5)
        self.assertEqual(frames, int(said.group(1)), "the file holds the frames the app reported")

    def test_ctrl_c_under_xvfb_run_without_a_recording_ends_cleanly(self):
        status, err, folder = self.ctrl_c_under_xvfb_run("filter mono", r"^filter: mono")
        self.assert_ended_as_for_a_closed_window(status, err, folder)
        self.assertNotIn("recorded", err)


if __name__ == "__main__":
    unittest.main(verbosity=2)
