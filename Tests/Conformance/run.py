"""Runs the conformance suite (unittest discovery in this folder, verbose) and then
prints its thirty slowest tests, so a test that grows slow is seen before it times out."""
import os
import shutil
import sys
import tempfile
import time
import unittest


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


# The tests' temporary folders (tempfile.mkdtemp: screenshots, stills, recordings) and
# those of the programs they start (TMPDIR: child scripts, Chromium) go into one folder of
# this run, removed at its end, so runs leave nothing in /tmp (they left 20-50 MB and a few
# hundred folders each).
tempfile.tempdir = os.environ["TMPDIR"] = tempfile.mkdtemp(prefix="fc-conformance-run-")
try:
    suite = unittest.defaultTestLoader.discover(".", pattern=sys.argv[1] if len(sys.argv) > 1 else "test*.py")
    result = unittest.TextTestRunner(verbosity=2, resultclass=TimedResult).run(suite)
finally:
    shutil.rmtree(tempfile.tempdir, ignore_errors=True)
print("\nslowest tests:", file=sys.stderr)
for seconds, name in sorted(result.durations, reverse=True)[:30]:
    print(f"  {seconds:6.1f} s  {name}", file=sys.stderr)
sys.exit(0 if result.wasSuccessful() else 1)
