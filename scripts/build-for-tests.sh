#!/usr/bin/env bash
# Builds everything `make test` runs before any test runs, the three build folders at once:
# the debug test bundle and the release build (.build), the AddressSanitizer/libFuzzer build
# (.build-fuzz: the fuzz targets, and filtercam for LeakSanitizer) and the ThreadSanitizer
# build (.build-tsan). One Swift build keeps two cores about two-thirds busy (a module
# waits for the modules it imports, a release module is one compile), so together they
# take about two-thirds of the time one after another; no test runs meanwhile, so none is
# timed on a busy machine. Each build's output goes to a log, printed when it fails.
set -uo pipefail
cd "$(dirname "$0")/.."
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT

# The test bundle alone in debug (its tests run the release binaries, FILTERCAM_BUILD_DIR),
# and the face library its in-process face searches load from beside it: `--build-tests`
# also linked every debug program, ~30 s of CPU more.
(swift build --product FilterCamPackageTests && swift build --product filtercamfaces && swift build -c release) >"$logs/plain" 2>&1 &
plain=$!
(set -e; for product in filtercam-fuzz filtercam filtercamfaces; do SCRATCH=.build-fuzz scripts/asan-build.sh "$product"; done) \
  >"$logs/address-sanitizer" 2>&1 &
address=$!
scripts/tsan.sh --build-only >"$logs/thread-sanitizer" 2>&1 &
thread=$!

status=0
for build in plain:$plain address-sanitizer:$address thread-sanitizer:$thread; do
  name=${build%%:*}
  if wait "${build##*:}"; then
    echo "build ($name): $(grep -E "Build (of product .*)?complete" "$logs/$name" | tail -1)"
  else
    echo "build ($name) FAILED:"
    tail -40 "$logs/$name"
    status=1
  fi
done
exit $status
