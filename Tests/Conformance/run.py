"""Runs the conformance suite (unittest, verbose) and then prints its thirty slowest tests,
so a test that grows slow is seen before it times out.

    run.py                  every test module, in two processes at once (see below)
    run.py PATTERN          the modules matching PATTERN (e.g. test_serve.py), in this process
    run.py --modules A B …  the named modules, in this process (what each of the two runs)

Why two at once: the suite waits far more than it computes. Its tests run live pipelines
at 30 fps into syncing sinks, windows and browsers, so 600 s of wall time use ~180 s of
CPU (under a third of the two cores when two processes run at once). Two processes,
each with its own temporary folder and its own range of X display numbers, halve the
wall time and still leave the machine mostly idle. Modules, not tests, are shared out:
a module's classes set up servers and displays once for their tests."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))

# Each module's wall time in a whole run (seconds), to share modules out evenly; a new
# module not listed here counts as MODULE_SECONDS_UNKNOWN until it is added.
MODULE_SECONDS = {
    "test_serve": 126, "test_live_rate": 85, "test_serve_web": 68, "test_window_display": 56,
    "test_conformance": 56, "test_serve_access": 46, "test_window": 41,
    "test_serve_web_controls": 28, "test_launch_output": 25, "test_lifecycle": 19,
    "test_thread_limit": 11, "test_pipewire_camera": 7, "test_terminal": 6, "test_install": 5,
    "test_lazy_libraries": 4, "test_display_loss": 3,
}
MODULE_SECONDS_UNKNOWN = 10
PROCESSES = 2
# X display numbers each process may use (window_support.VirtualDisplay): disjoint, so two
# processes never race for the same number.
DISPLAY_RANGES = ["90-104", "105-119"]


class TimedResult(unittest.TextTestResult):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.durations = []

    def startTest(self, test):
        self._started = time.monotonic()
        super().startTest(test)

    def stopTest(self, test):
        self.durations.append((time.monotonic() - self._started, test.id()))
        super().stopTest(test)


def run_here(suite):
    """Runs suite in this process; returns (success, durations)."""
    # The tests' temporary folders (tempfile.mkdtemp: screenshots, stills, recordings) and
    # those of the programs they start (TMPDIR: child scripts, Chromium) go into one folder
    # of this run, removed at its end, so runs leave nothing in /tmp (they left 20-50 MB and
    # a few hundred folders each).
    tempfile.tempdir = os.environ["TMPDIR"] = tempfile.mkdtemp(prefix="fc-conformance-run-")
    try:
        result = unittest.TextTestRunner(verbosity=2, resultclass=TimedResult).run(suite)
    finally:
        shutil.rmtree(tempfile.tempdir, ignore_errors=True)
    return result.wasSuccessful(), result.durations


def share_out(modules):
    """The modules in PROCESSES lists of about equal time: longest first, each to the list
    with the least time so far."""
    shares = [[] for _ in range(PROCESSES)]
    totals = [0] * PROCESSES
    for module in sorted(modules, key=lambda m: (-MODULE_SECONDS.get(m, MODULE_SECONDS_UNKNOWN), m)):
        least = totals.index(min(totals))
        shares[least].append(module)
        totals[least] += MODULE_SECONDS.get(module, MODULE_SECONDS_UNKNOWN)
    return shares


def relay(number, stream, out):
    """Copies one process's output line by line, each line marked with its process."""
    for line in iter(stream.readline, ""):
        out.write(f"[{number}] {line}")
        out.flush()


def run_in_processes():
    modules = sorted(name[:-3] for name in os.listdir(HERE) if name.startswith("test") and name.endswith(".py"))
    started = time.monotonic()
    report_folder = tempfile.mkdtemp(prefix="fc-conformance-durations-")
    children = []
    try:
        for number, share in enumerate(share_out(modules), start=1):
            report = os.path.join(report_folder, f"{number}.json")
            env = dict(os.environ, FILTERCAM_TEST_DISPLAYS=DISPLAY_RANGES[number - 1],
                       FILTERCAM_TEST_DURATIONS=report)
            child = subprocess.Popen([sys.executable, "-u", __file__, "--modules"] + share, cwd=HERE, env=env,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            relayer = threading.Thread(target=relay, args=(number, child.stdout, sys.stderr))
            relayer.start()
            children.append((number, share, child, relayer, report))
        durations, failed = [], []
        for number, share, child, relayer, report in children:
            status = child.wait()
            relayer.join()
            if status != 0:
                failed.append(f"process {number} ({', '.join(share)}): exit status {status}")
            if os.path.exists(report):
                with open(report) as f:
                    durations += [tuple(d) for d in json.load(f)]
    finally:
        for _, _, child, _, _ in children:
            if child.poll() is None:
                child.kill()
        shutil.rmtree(report_folder, ignore_errors=True)
    print(f"\n{len(durations)} tests in {PROCESSES} processes, {time.monotonic() - started:.0f} s", file=sys.stderr)
    print_slowest(durations)
    for line in failed:
        print(f"FAILED: {line}", file=sys.stderr)
    return not failed


def print_slowest(durations):
    print("\nslowest tests:", file=sys.stderr)
    for seconds, name in sorted(durations, reverse=True)[:30]:
        print(f"  {seconds:6.1f} s  {name}", file=sys.stderr)


def main(arguments):
    os.chdir(HERE)
    loader = unittest.defaultTestLoader
    if not arguments:
        return run_in_processes()
    if arguments[0] == "--modules":
        success, durations = run_here(loader.loadTestsFromNames(arguments[1:]))
        report = os.environ.get("FILTERCAM_TEST_DURATIONS")
        if report:
            with open(report, "w") as f:
                json.dump(durations, f)
            return success
    else:
        success, durations = run_here(loader.discover(".", pattern=arguments[0]))
    print_slowest(durations)
    return success


if __name__ == "__main__":
    sys.exit(0 if main(sys.argv[1:]) else 1)
