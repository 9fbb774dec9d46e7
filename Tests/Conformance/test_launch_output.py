"""`filtercam launch` driven by another program (a wrapper, a home-automation script) that
reads its output when it can: a reader that stops reading must not stop the session."""
import fcntl
import os
import shutil
import signal
import subprocess
import tempfile
import termios
import time
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
CLI = os.path.join(ROOT, ".build", "release", "filtercam")

# About a thousand messages a second: a pipe's 64 KiB fill within a second.
CHATTY = "audiotestsrc is-live=true samplesperbuffer=48 ! level interval=1000000 ! fakesink"


def unread_bytes(fd):
    """How many bytes wait in the pipe behind FD (its read end)."""
    return int.from_bytes(fcntl.ioctl(fd, termios.FIONREAD, b"\0\0\0\0"), "little")


def wait_until_full(fd):
    """Waits until the pipe behind FD takes no more: 60 KB and more waiting, and no line
    added for a second while lines come a thousand a second (a pipe's room is counted in
    pages, so a full one holds a little less than 64 KiB, how much less varying)."""
    deadline = time.monotonic() + 30
    last, since = -1, time.monotonic()
    while True:
        now = unread_bytes(fd)
        if now != last:
            last, since = now, time.monotonic()
        elif now >= 60000 and time.monotonic() - since >= 1:
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"the messages pipe did not fill ({now} bytes waiting)")
        time.sleep(0.05)


class OutputNobodyReads(unittest.TestCase):
    def stop_while_unread(self, stop):
        """Runs the chatty pipeline with --messages on a pipe nobody reads; once the pipe is
        full, STOP(process) asks the run to end. Returns its status and its terminal lines."""
        process = subprocess.Popen([CLI, "launch", "--messages", CHATTY], stdin=subprocess.PIPE,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            wait_until_full(process.stdout.fileno())
            stop(process)
            status = process.wait(timeout=30)
            return status, process.stderr.read().decode()
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()

    def test_a_full_messages_pipe_does_not_stop_the_signals(self):
        # The session's loop wrote each line itself: with the pipe full it sat in write(),
        # and SIGTERM, two Ctrl-C and Ctrl-\ were ignored until the reader read again.
        status, stderr = self.stop_while_unread(lambda process: process.send_signal(signal.SIGTERM))
        # The EOS goes out and the run ends although nobody reads; the lines the reader
        # never took are counted and fail the run, as lost messages do.
        self.assertEqual(status, 1, stderr)
        self.assertIn("Terminated (SIGTERM): sending EOS", stderr)
        self.assertRegex(stderr, r"\d+ message lines were not written: stdout was not read")

    def test_messages_and_terminal_in_one_pipe_nobody_reads_still_stop(self):
        # `2>&1` into a pipe nobody reads: the end's own lines were written directly and
        # waited for good, SIGTERM and all.
        process = subprocess.Popen([CLI, "launch", "--messages", CHATTY], stdin=subprocess.DEVNULL,
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        try:
            wait_until_full(process.stdout.fileno())
            process.send_signal(signal.SIGTERM)
            self.assertEqual(process.wait(timeout=30), 1)
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()

    def test_a_command_is_taken_while_the_messages_pipe_is_full(self):
        def quit(process):
            process.stdin.write(b"quit\n")
            process.stdin.flush()
        status, stderr = self.stop_while_unread(quit)
        self.assertIn("Quit: sending EOS", stderr)
        self.assertEqual(status, 1, stderr)
        self.assertRegex(stderr, r"message lines were not written")


class MessagesReaderGone(unittest.TestCase):
    def test_a_reader_gone_is_said_once_and_is_no_failure(self):
        # `--messages … | head -1`: the lines after it were lost without a word (a reader
        # done is not an error: the status stays 0).
        folder = tempfile.mkdtemp(prefix="fc-gone-")
        process = subprocess.Popen([CLI, "launch", "--messages", "videotestsrc is-live=true ! video/x-raw,width=32,height=24 ! "
                                    f"filtercam flash=false snapshot-location={folder}/s-%d.jpg ! fakesink"],
                                   stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            process.stdin.write(b"snapshot\n")
            process.stdin.flush()
            self.assertTrue(process.stdout.readline().startswith(b"{"), "no message line")
            process.stdout.close()   # the reader is gone
            for command in [b"snapshot\n", b"snapshot\n", b"quit\n"]:
                process.stdin.write(command)
                process.stdin.flush()
            status = process.wait(timeout=30)
            stderr = process.stderr.read().decode()
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
            shutil.rmtree(folder, ignore_errors=True)
        self.assertEqual(status, 0, stderr)
        self.assertEqual(stderr.count("the reader of the messages (stdout) has gone: the messages from here on are lost"), 1, stderr)
        self.assertIn("snapshots=3", stderr)


class EndOfStreamThatTakesLong(unittest.TestCase):
    """quit (or Ctrl-C) waits for EOS while frames still reach the sinks, as gst-launch-1.0
    -e does, and at most FILTERCAM_EOS_WAIT seconds (10 by default) without any."""

    def quit_recording(self, between, seconds_a_frame):
        folder = tempfile.mkdtemp(prefix="fc-drain-")
        self.addCleanup(shutil.rmtree, folder, True)
        path = os.path.join(folder, "drain.mp4")
        # Not live: the queue before the slow identity is full when quit comes. The still
        # asked for first makes quit wait for frames to flow (a quit before the first frame
        # ends an empty recording at once).
        run = subprocess.run([CLI, "launch", "videotestsrc ! video/x-raw,format=I420,width=64,height=48,framerate=30/1 ! "
                              f"filtercam filter=sepia flash=false snapshot-location={folder}/still-%d.jpg ! {between} ! "
                              f"identity sleep-time={int(seconds_a_frame * 1e6)} ! "
                              f"x264enc tune=zerolatency speed-preset=ultrafast ! mp4mux ! filesink location={path}"],
                             input="snapshot\nquit\n", capture_output=True, text=True, timeout=60,
                             env=dict(os.environ, FILTERCAM_EOS_WAIT="1"))
        return run, path

    def test_a_recording_still_draining_is_waited_for(self):
        # 30 frames at 0.1 s each, 3 s of draining: cut off after the wait (10 s by default,
        # 1 s here) the file had no index and the status was 130, as for a second Ctrl-C.
        run, path = self.quit_recording("queue max-size-buffers=30 max-size-time=0 max-size-bytes=0", 0.1)
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertIn("EOS is still on its way", run.stderr)
        self.assertNotIn("unfinished", run.stderr)
        probe = subprocess.run(["ffprobe", "-v", "error", "-count_frames", "-show_entries", "stream=nb_read_frames",
                                "-of", "csv=p=0", path], capture_output=True, text=True, timeout=30)
        self.assertEqual(probe.returncode, 0, probe.stderr)
        self.assertGreaterEqual(int(probe.stdout.strip()), 30, "the frames waiting when quit came are not all in the file")

    def test_a_drain_that_stops_moving_ends_the_wait_as_a_failure(self):
        # Nothing reaches the sinks for the whole wait: stopped, the file said empty and why,
        # exit status 1 (a failure, not an interrupt).
        run, path = self.quit_recording("queue", 30)
        self.assertEqual(run.returncode, 1, run.stderr)
        self.assertIn("EOS did not arrive within 1 s; stopping anyway", run.stderr)
        self.assertIn(f"nothing was written to {path}: it is empty (stopped before the EOS reached it)", run.stderr)


class MessagesBesideTheTerminal(unittest.TestCase):
    def test_in_one_pipe_each_still_is_said_after_its_message(self):
        # Written by two threads, `2>&1` showed a still's "saved" before its JSON.
        folder = tempfile.mkdtemp(prefix="fc-order-")
        run = subprocess.run([CLI, "launch", "--messages", "videotestsrc num-buffers=40 ! video/x-raw,width=32,height=24 ! "
                              f"filtercam snapshot-every=1 flash=false snapshot-location={folder}/s-%d.jpg ! fakesink"],
                             stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=60)
        self.assertEqual(run.returncode, 0, run.stdout[-2000:])
        lines = run.stdout.splitlines()
        said = [i for i, line in enumerate(lines) if line.startswith("saved ")]
        self.assertEqual(len(said), 40, run.stdout[-2000:])
        for i in said:
            path = lines[i].split(" ")[1]
            message = next(j for j, line in enumerate(lines) if '"snapshot-saved"' in line and f'"path":"{path}"' in line)
            self.assertLess(message, i, f"{path}: said before its message")


class MessagesFileThatFills(unittest.TestCase):
    def test_a_line_cut_short_by_a_full_file_is_taken_back(self):
        # A full disk (here a file-size limit) cut the last line: a JSON-lines reader found
        # half an object at the end. The file now ends with the last whole line.
        import json
        import resource
        out = os.path.join(tempfile.mkdtemp(prefix="fc-full-"), "m.json")
        limit = lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (3000, 3000))
        run = subprocess.run([CLI, "launch", f"--messages={out}", "audiotestsrc num-buffers=200 ! level interval=1000000 ! fakesink"],
                             stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60, preexec_fn=limit)
        self.assertEqual(run.returncode, 1, run.stderr)
        self.assertIn("cannot write messages to", run.stderr)
        text = open(out).read()
        self.assertTrue(text.endswith("\n"), text[-200:])
        for line in text.splitlines():
            json.loads(line)


class BenchJSONThatDoesNotFit(unittest.TestCase):
    def test_the_earlier_file_is_kept_and_the_reason_is_the_systems(self):
        # On a full disk (here a file-size limit) the JSON file was left empty, the earlier
        # one lost, under Foundation's "There isn't enough space".
        import resource
        out = os.path.join(tempfile.mkdtemp(prefix="fc-bench-"), "b.json")
        open(out, "w").write('{"old": 1}\n')
        limit = lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (100, 100))
        run = subprocess.run([CLI, "bench", "--only", "copy", "--sizes", "16x16", "--runs", "1", "--json", out],
                             stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120, preexec_fn=limit)
        self.assertEqual(run.returncode, 1, run.stderr)
        self.assertIn(f"cannot write '{out}': File too large", run.stderr)
        self.assertEqual(open(out).read(), '{"old": 1}\n')
        self.assertEqual(os.listdir(os.path.dirname(out)), ["b.json"])


class SummaryOfWhatRan(unittest.TestCase):
    def test_an_element_inside_playbin_gets_its_summary_line(self):
        # playbin's video-filter and video-sink leave the bin as the pipeline stops: the
        # filter's summary line and the file sink's `wrote` line were missing.
        from support import clip
        uri = "file://" + clip(1)
        out = os.path.join(tempfile.mkdtemp(prefix="fc-playbin-"), "frames.raw")
        run = subprocess.run([CLI, "launch", "playbin", f"uri={uri}", 'video-filter="filtercam name=fc filter=sepia"',
                              f'video-sink="filesink location={out} sync=false"', "audio-sink=fakesink"],
                             stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertRegex(run.stderr, r"filtercam fc: processed=30 dropped=0")
        self.assertGreater(os.path.getsize(out), 0)
        self.assertIn(f"wrote {out} (", run.stderr)

    def stop_after(self, change):
        """Records into a folder of its own; once the file has data, CHANGE(folder, file)
        and quit. Returns the file, the status and the terminal's lines."""
        folder = tempfile.mkdtemp(prefix="fc-gone-")
        out = os.path.join(folder, "rec.mkv")
        process = subprocess.Popen([CLI, "launch", f"videotestsrc is-live=true ! video/x-raw,width=64,height=48 ! filtercam ! "
                                    f"matroskamux ! filesink location={out}"], stdin=subprocess.PIPE,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            deadline = time.monotonic() + 30
            while not (os.path.exists(out) and os.path.getsize(out) > 0):
                self.assertLess(time.monotonic(), deadline, "the recording never began")
                time.sleep(0.05)
            change(folder, out)
            _, stderr = process.communicate("quit\n", timeout=30)
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
        return out, process.returncode, stderr

    def test_a_file_removed_while_written_is_said_lost(self):
        # Its folder removed while recording: the "wrote" line was left out, exit status 0.
        out, status, stderr = self.stop_after(lambda folder, out: shutil.rmtree(folder))
        self.assertIn(f"{out} is no longer there", stderr)
        self.assertEqual(status, 1, stderr)

    def test_a_file_renamed_while_written_is_not_lost(self):
        # Renamed, its data is kept: it was called lost, exit status 1.
        out, status, stderr = self.stop_after(lambda folder, out: os.rename(out, out + ".kept"))
        self.assertIn(f"{out} was moved or renamed while it was written", stderr)
        self.assertEqual(status, 0, stderr)


if __name__ == "__main__":
    unittest.main()
