#!/usr/bin/env bash
# The thread-stress, live-drop, state-cycle and snapshot tests under ThreadSanitizer.
# Prints the number of TSan reports (0 expected) and exits non-zero on any.
set -euo pipefail
cd "$(dirname "$0")/.."
SCRATCH=${SCRATCH:-.build-tsan}
swift build --build-tests --scratch-path "$SCRATCH" -Xswiftc -sanitize=thread
log=$(mktemp)
trap 'rm -f "$log"' EXIT
TSAN_OPTIONS="halt_on_error=0" swift test --scratch-path "$SCRATCH" --skip-build -Xswiftc -sanitize=thread \
  --filter "ReliabilityTests.testTwoThreads|StreamBehaviourTests.testLiveSource|ReliabilityTests.testStateCycles|SnapshotTests.testStillDecodes" 2>&1 | tee "$log" | grep -E "Executed .* tests" | tail -1
reports=$(grep -c "WARNING: ThreadSanitizer" "$log" || true)
echo "ThreadSanitizer reports: $reports"
[ "$reports" = 0 ]
