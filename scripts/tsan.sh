#!/usr/bin/env bash
# The thread-stress, live-drop, state-cycle, element-skeleton, snapshot, camera-failure, live face-worker, mailbox, work-queue, row-splitter and recording tests under ThreadSanitizer.
# Prints the number of TSan reports (0 expected) and exits non-zero on any, or when the run
# does not finish.
set -euo pipefail
cd "$(dirname "$0")/.."
SCRATCH=${SCRATCH:-.build-tsan}
# The test bundle only: the executables, the fuzz targets and the example are not needed here.
swift build --product FilterCamPackageTests --scratch-path "$SCRATCH" -Xswiftc -sanitize=thread 2>&1 | { grep -e "error" -e "Build" || true; }
# The face detector's library, which the live face test loads from beside the test bundle.
swift build --product filtercamfaces --scratch-path "$SCRATCH" -Xswiftc -sanitize=thread 2>&1 | { grep -e "error" -e "Build" || true; }
[ "${1:-}" != --build-only ] || exit 0   # scripts/build-for-tests.sh builds ahead of the run
log=$(mktemp)
trap 'rm -f "$log"' EXIT
tests=0
TSAN_OPTIONS="halt_on_error=0" swift test --scratch-path "$SCRATCH" --skip-build -Xswiftc -sanitize=thread \
  --filter "ReliabilityTests.testTwoThreads|ElementHostTests|StreamBehaviourTests.testLiveSource|ReliabilityTests.testStateCycles|SnapshotTests.testStillDecodes|CameraFailureTests|FaceDetectionTests.testLivePath|FrameMailboxTests|WorkQueueTests|RowSplitterTests|RecordingTests.testRecordCommand|RecordingTests.testSound" \
  > "$log" 2>&1 || tests=$?
grep -E "Executed .* tests" "$log" | tail -1
grep -E "error: .*XCT" "$log" | head -5 || true
reports=$(grep -c "WARNING: ThreadSanitizer" "$log" || true)
echo "ThreadSanitizer reports: $reports"
if [ "$reports" != 0 ]; then
  grep -A12 "WARNING: ThreadSanitizer" "$log" | head -40
  exit 1
fi
# Under TSan the code runs 5-15x slower, so a live test's frame counts can fall short by
# chance; those assertions are checked in the plain `swift test` run. Here a failed
# assertion is shown, and only a run that did not finish (a crash, a hang) fails.
if [ "$tests" != 0 ] && grep -qE "Test Suite '(All|Selected) tests' (passed|failed)" "$log"; then
  echo "(assertion failures above are timing under ThreadSanitizer's slowdown; the plain run checks them)"
  exit 0
fi
exit $tests
