#!/usr/bin/env bash
# libFuzzer with AddressSanitizer on FilterCam's fuzz targets (Sources/filtercam-fuzz):
# the filter-chain syntax, lens strings, live commands, pipeline files with ${…},
# frames of any size/stride/format through orientation, zoom, lens and filters, and the
# filtercam element's text properties, and .cube look files.
#   scripts/fuzz.sh                          # every target, 60 s each
#   FUZZ_SECONDS=3600 scripts/fuzz.sh frame  # one target, an hour
#   FUZZ_SEED=1 scripts/fuzz.sh              # the same inputs every run (what `make test`
#                                            # does, so the suite never fails by chance)
# The corpus grows in $SCRATCH/corpus/TARGET between runs; Fuzz/seeds/TARGET holds the
# seeds and every input that once found a bug (the test suite replays them). An input
# that breaks a check is saved to fuzz-crashes/ and the script exits non-zero; replay it
# with the plain build: .build/debug/filtercam-fuzz --target=TARGET fuzz-crashes/FILE
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_EACH=${FUZZ_SECONDS:-60}
SCRATCH=${SCRATCH:-.build-fuzz}
TARGETS=("$@")
[ ${#TARGETS[@]} -gt 0 ] || TARGETS=(chain lens command pipeline-file frame property cube)

SCRATCH="$SCRATCH" scripts/asan-build.sh filtercam-fuzz
BIN="$SCRATCH/debug/filtercam-fuzz"
[ -x "$BIN" ] || { echo "fuzz.sh: the fuzz build failed" >&2; exit 1; }

mkdir -p fuzz-crashes
export SWIFT_BACKTRACE=enable=no   # a failed check should end the run at once
export LSAN_OPTIONS=suppressions=$PWD/scripts/lsan.supp
# One target: runs it, prints its line (and a failure's first lines) to $SCRATCH/fuzz-TARGET.result.
fuzz_target() {
  local target=$1 corpus="$SCRATCH/corpus/$1" log="$SCRATCH/fuzz-$1.log"
  mkdir -p "$corpus"
  # GLib has no frame pointers: the property target (GStreamer) needs the slow unwinder
  # for the suppressions to see whose allocation a leak at exit is.
  if [ "$target" = property ]; then export ASAN_OPTIONS=fast_unwind_on_malloc=0; else unset ASAN_OPTIONS; fi
  if "$BIN" --target="$target" -max_total_time="$SECONDS_EACH" -seed="${FUZZ_SEED:-0}" -max_len=512 -timeout=10 \
       -artifact_prefix=fuzz-crashes/"$target"- -print_final_stats=1 \
       "$corpus" "Fuzz/seeds/$target" >"$log" 2>&1; then
    runs=$(grep -o "stat::number_of_executed_units: *[0-9]*" "$log" | grep -o "[0-9]*$" || echo "?")
    echo "fuzz $target: $runs inputs in ${SECONDS_EACH} s, no failure (corpus: $(ls "$corpus" | wc -l) inputs)"
  else
    echo "fuzz $target: FAILED (log: $log)"
    grep -E "check failed|ERROR:|SUMMARY|Test unit written" "$log" | head -5
  fi
}

# Each libFuzzer process runs on one core: as many targets at once as there are cores
# (FUZZ_JOBS), each still for its full time.
jobs_at_once=${FUZZ_JOBS:-$(nproc)}
for target in "${TARGETS[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs_at_once" ]; do wait -n || true; done
  fuzz_target "$target" >"$SCRATCH/fuzz-$target.result" &
done
wait
failed=0
for target in "${TARGETS[@]}"; do
  cat "$SCRATCH/fuzz-$target.result"
  if grep -q "^fuzz $target: FAILED" "$SCRATCH/fuzz-$target.result"; then failed=1; fi
done
exit $failed
