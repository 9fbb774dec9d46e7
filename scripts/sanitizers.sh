#!/usr/bin/env bash
# The short sanitizer runs of `make test`: the thread tests under ThreadSanitizer (a build
# folder of their own) beside libFuzzer and then LeakSanitizer (which share the fuzz
# build's folder, so they run one after the other): on two cores the two lines overlap
# and `make test` stays within its 20 minutes. ThreadSanitizer's lines come after the
# others'; the status is non-zero when any run fails.
set -uo pipefail
cd "$(dirname "$0")/.."
tsan_log=$(mktemp)
trap 'rm -f "$tsan_log"' EXIT
scripts/timed.sh "thread sanitizer" scripts/tsan.sh > "$tsan_log" 2>&1 &
tsan=$!
FUZZ_SECONDS=3 FUZZ_SEED=1 scripts/timed.sh "fuzz" scripts/fuzz.sh
fuzz_status=$?
scripts/timed.sh "leak sanitizer" scripts/lsan.sh
lsan_status=$?
wait "$tsan"
tsan_status=$?
cat "$tsan_log"
[ "$fuzz_status" = 0 ] && [ "$lsan_status" = 0 ] && [ "$tsan_status" = 0 ]
