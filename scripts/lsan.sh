#!/usr/bin/env bash
# LeakSanitizer on two runs of different length through filtercam (chain, orientation,
# lens, faces, stills, a recording). Allocations that live as long as the process are suppressed by
# name (scripts/lsan.supp); any other leak fails the script.
set -euo pipefail
cd "$(dirname "$0")/.."
# The fuzz build's scratch and flags (AddressSanitizer, which includes LeakSanitizer): after
# scripts/fuzz.sh only the filtercam module itself is left to compile.
SCRATCH=${SCRATCH:-.build-fuzz}
SCRATCH="$SCRATCH" scripts/asan-build.sh filtercam
# The face detector's library, which filtercam loads from beside itself for detect-faces.
SCRATCH="$SCRATCH" scripts/asan-build.sh filtercamfaces
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
status=0
for n in 50 200; do
  # GLib has no frame pointers: the slow unwinder lets the suppressions see whose allocation it is.
  ASAN_OPTIONS=detect_leaks=1:fast_unwind_on_malloc=0 LSAN_OPTIONS=suppressions=$PWD/scripts/lsan.supp \
    "$SCRATCH/debug/filtercam" launch "videotestsrc num-buffers=$n pattern=ball \
    ! video/x-raw,format=BGRA,width=160,height=120,framerate=30/1 \
    ! filtercam filter=\"sepia, vignette\" orientation=90r lens=0.1,0.1,0.8,0.8 detect-faces=true \
      snapshot-every=25 flash=false snapshot-location=$out/s-%03d.jpg record=true record-location=$out/r-%03d.mp4 \
    ! fakesink" > "$out/log-$n" 2>&1 || status=1
  grep -q "processed=$n " "$out/log-$n" || { echo "$n frames: the run did not finish"; tail -5 "$out/log-$n"; status=1; }
  echo "$n frames: $(grep "SUMMARY: AddressSanitizer" "$out/log-$n" || echo 'no leak reported')"
done
exit $status
