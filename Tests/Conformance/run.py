"""Runs the conformance suite (unittest discovery in this folder, verbose) and then
prints its thirty slowest tests, so a test that grows slow is seen before it times out."""
import sys
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


suite = unittest.defaultTestLoader.discover(".", pattern=sys.argv[1] if len(sys.argv) > 1 else "test*.py")
result = unittest.TextTestRunner(verbosity=2, resultclass=TimedResult).run(suite)
print("\nslowest tests:", file=sys.stderr)
for seconds, name in sorted(result.durations, reverse=True)[:30]:
    print(f"  {seconds:6.1f} s  {name}", file=sys.stderr)
sys.exit(0 if result.wasSuccessful() else 1)
