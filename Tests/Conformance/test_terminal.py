"""`filtercam launch` in a real terminal (tmux): single keys, the ':' command line, the
hint for an unknown key, the effects gallery's keys, quitting with q."""
import os
import shutil
import subprocess
import tempfile
import time
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
CLI = os.path.join(ROOT, ".build", "release", "filtercam")


class TmuxCase(unittest.TestCase):
    """A tmux server of the test's own, its keys and its screen."""

    def start_tmux(self, command, env):
        """The test's own tmux server running COMMAND, killed when the test ends, also when
        its setUp fails (a tearDown does not run then, and the server stayed)."""
        subprocess.run(self.tmux + ["new-session", "-d", "-s", self.session, "-x", "200", "-y", "50", command],
                       check=True, env=env)
        self.addCleanup(subprocess.run, self.tmux + ["kill-server"], capture_output=True)

    def keys(self, *keys):
        subprocess.run(self.tmux + ["send-keys", "-t", self.session] + list(keys), check=True)

    def screen(self):
        # -J: a line the terminal wrapped (the key hint is longer than 200 columns) reads as one.
        return subprocess.run(self.tmux + ["capture-pane", "-p", "-J", "-t", self.session], capture_output=True,
                              text=True, check=True).stdout

    def wait_for(self, text, timeout=15):
        """The screen once it shows `text` (fails after `timeout` s, showing the screen)."""
        deadline = time.monotonic() + timeout
        while text not in self.screen():
            if time.monotonic() > deadline:
                self.fail(f"{text!r} did not appear within {timeout} s:\n{self.screen()}")
            time.sleep(0.05)
        return self.screen()


class Terminal(TmuxCase):
    def setUp(self):
        if shutil.which("tmux") is None or not os.path.exists(CLI):
            self.skipTest("needs tmux and a release build of filtercam (make test installs and builds both)")
        self.session = f"fc-test-{os.getpid()}-{self._testMethodName[5:25]}"
        # A tmux server of the test's own (its own socket): a user's tmux, or another
        # program starting or killing the default server meanwhile, cannot touch it.
        self.tmux = ["tmux", "-L", self.session]
        self.folder = tempfile.mkdtemp(prefix="fc-terminal-")
        command = (f"{CLI} launch 'videotestsrc is-live=true ! video/x-raw,width=160,height=120 ! videoconvert ! "
                   f"filtercam record-location={self.folder}/t-%05d.mp4 snapshot-location={self.folder}/s-%05d.jpg ! fakesink'; "
                   "echo EXIT=$?; sleep 30")
        env = {k: v for k, v in os.environ.items() if k != "TMUX"}
        self.start_tmux(command, env)
        # The hint comes once the pipeline plays, and says where the full list is.
        self.wait_for("(e.g. :set zoom=2); :help lists every command")

    def test_command_line_single_keys_hint_and_quit(self):
        self.keys(":", "set zoom=2", "Enter")
        screen = self.wait_for("set filtercam0.zoom = 2")
        self.assertIn("\nset filtercam0.zoom = 2", screen, "what the command did goes on a line of its own")
        self.keys(":", "set lens=2,2,1", "Enter")
        screen = self.wait_for("invalid lens")
        self.assertEqual(len([line for line in screen.splitlines() if "invalid lens" in line]), 1, screen)
        self.assertNotIn("set filtercam0.lens", screen, "a success line for a refused value")
        self.assertNotIn("snapshot", screen.split("set filtercam0.zoom")[0].split("':' for a command")[-1],
                         "the letters of 'set zoom=2' were taken as keys")
        # A command that cannot run keeps its typed line, as one that ran does; the error
        # goes below it (it replaced the typed text).
        self.keys(":", "set zoom", "Enter")
        screen = self.wait_for("command error")
        self.assertIn(":set zoom\n", screen, "the typed command line is gone")
        self.keys(":", "filtr", "Escape")
        self.wait_for("(cancelled)")
        self.keys("x")
        self.wait_for("unknown key")
        # The shipped looks are in the catalog with nothing set, last: p from none wraps to them.
        self.keys("p")
        self.wait_for("filter: look:warm-film")
        self.keys("p")
        self.wait_for("filter: look:teal-orange")
        self.keys("n", "n", "n")
        self.wait_for("filter: sepia")   # warm-film, none, then sepia
        # The window's keys work here too, and say what they changed as the window's do.
        for keys, line in [(["l"], "lens: 0.25,0.25,0.5,0.5"), (["Right"], "lens: 0.3,0.25,0.5,0.5"),
                           (["]"], "lens: 0.2375,0.1875,0.625,0.625"), (["m"], "mirror: on (orientation horiz)"),
                           (["+"], "zoom: 2.5"), (["-", "-"], "zoom: 1.6"), (["l"], "lens: off")]:
            self.keys(*keys)
            self.wait_for(line)
        # The effects gallery from the terminal: g, an arrow and PgDn move its selection (the
        # filter), a lone Esc closes it.
        # Esc with no gallery open calls off a countdown (Enter does not).
        for keys, line in [(["g"], "gallery: open"), (["Right"], "filter: mono"),
                           (["NPage"], "filter: sharpen amount=2"), (["Escape"], "gallery: closed"),
                           (["t"], "countdown: a still in 3 s"), (["Escape"], "countdown: cancelled")]:
            self.keys(*keys)
            self.wait_for(line)
        # v records, and the ':' line's `record` stops it: the file, then its length and size.
        self.keys("v")
        self.wait_for(f"recording {self.folder}/t-00000.mp4 (160x120, no sound)")
        time.sleep(0.5)
        self.keys(":", "record", "Enter")
        screen = self.wait_for(f"recorded {self.folder}/t-00000.mp4: ")
        self.assertRegex(screen, r"recorded .*t-00000\.mp4: \d+\.\d s, \d+ kB \(\d+ frames, no sound\)")
        # q while recording finishes the file first.
        self.keys("v")
        self.wait_for(f"recording {self.folder}/t-00001.mp4")
        self.keys("q")
        screen = self.wait_for("EXIT=")
        self.assertIn("EXIT=0", screen)
        self.assertIn(f"recorded {self.folder}/t-00001.mp4: ", screen)
        self.assertIn("processed=", screen)

    def test_a_line_printed_while_a_command_is_typed_goes_above_it(self):
        # A countdown's still is said while ':filter ve' is half typed: the line was written
        # onto the typed text (':filter vesaved …') and the typed text vanished.
        self.keys("t")
        self.wait_for("countdown: a still in 3 s")
        self.keys(":", "filter ve")
        screen = self.wait_for("saved ")
        lines = [line for line in screen.splitlines() if line.strip()]
        self.assertEqual(lines[-1], ":filter ve", screen)
        saved = [line for line in lines if "saved " in line]
        self.assertTrue(saved and saved[0].startswith("saved "), screen)
        self.keys("rtical-bars", "Escape")
        self.wait_for("(cancelled)")


if __name__ == "__main__":
    unittest.main(verbosity=2)


class BackgroundJob(TmuxCase):
    """`filtercam launch … &` from an interactive shell, as a user starts a long recording:
    it stopped at once ("Stopped (tty output)", changing the terminal's modes from the
    background), for good: SIGINT, SIGTERM and SIGHUP left it stopped."""

    def setUp(self):
        if shutil.which("tmux") is None or not os.path.exists(CLI):
            self.skipTest("needs tmux and a release build of filtercam (make test installs and builds both)")
        self.session = f"fc-test-{os.getpid()}-background"
        self.tmux = ["tmux", "-L", self.session]
        env = {k: v for k, v in os.environ.items() if k != "TMUX"}
        self.start_tmux("bash --norc --noprofile -i", env)
        self.keys("echo READY", "Enter")
        self.wait_for("\nREADY")   # the shell reads keys (the typed line shows 'echo READY')

    def test_runs_in_the_background_and_takes_keys_after_fg(self):
        self.keys(f"{CLI} launch 'videotestsrc is-live=true ! video/x-raw,width=160,height=120 ! filtercam ! fakesink' &", "Enter")
        self.wait_for("keys are read once it is in the foreground (fg)")
        self.keys("jobs -l", "Enter")
        screen = self.wait_for("Running")
        self.assertNotIn("Stopped", screen)
        self.keys("fg", "Enter")
        self.wait_for(":help lists every command")   # key mode, once in the foreground
        self.keys("m")
        self.wait_for("mirror: on")
        self.keys("C-z")
        self.wait_for("Stopped")
        self.keys("bg", "Enter")
        self.keys("fg", "Enter")                      # no SIGCONT for a job already running
        self.keys("m")
        self.wait_for("mirror: off")
        self.keys("q")
        self.wait_for("processed=")
        self.keys("echo EXIT=$?", "Enter")
        self.wait_for("EXIT=0")
