#!/usr/bin/env bash
# usage: scripts/asan-build.sh PRODUCT — builds PRODUCT with AddressSanitizer and libFuzzer's
# instrumentation into $SCRATCH (.build-fuzz). fuzz.sh (filtercam-fuzz) and lsan.sh
# (filtercam) both build here with the same compiler flags, so the modules they share
# compile once. Prints the build's errors and its last line only.
set -euo pipefail
cd "$(dirname "$0")/.."
link=()
# (Not for the fuzz targets, which define it, nor for the face detector's library.)
if [ "$1" != filtercam-fuzz ] && [ "$1" != filtercamfaces ]; then
  # The libFuzzer runtime comes with the flags; its main (never this program's: SwiftPM
  # links main to PRODUCT_main) calls LLVMFuzzerTestOneInput, which only the fuzz targets
  # define. Linker flags only, so the compiled modules are reused.
  link=(-Xlinker --defsym -Xlinker "LLVMFuzzerTestOneInput=${1//-/_}_main")
fi
swift build --product "$1" --scratch-path "${SCRATCH:-.build-fuzz}" \
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING -Xswiftc -use-ld=lld "${link[@]}" 2>&1 \
  | { grep -e "error" -e "Build" || true; }
