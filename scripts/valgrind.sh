#!/usr/bin/env bash
# valgrind memcheck on two runs of different length through filtercam (chain, orientation,
# lens, faces, stills). Prints the bytes definitely and indirectly lost in each (after
# scripts/valgrind.supp: allocations that live as long as the process); exits non-zero
# if either run loses any.
# valgrind 3.19 cannot read the DWARF 5 debug info this toolchain writes, so it runs on a
# copy of the release binary without debug info (function names stay, from the symbols).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "valgrind.sh: valgrind is not installed (apt-get install valgrind)" >&2; exit 1; }
swift build -c release --product filtercam 2>&1 | grep -e error -e "Build" || true
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
strip --strip-debug -o "$out/filtercam" .build/release/filtercam
status=0
for n in 20 100; do
  valgrind --leak-check=full --errors-for-leak-kinds=definite --show-leak-kinds=definite \
    --suppressions=scripts/valgrind.supp --error-exitcode=9 \
    "$out/filtercam" launch "videotestsrc num-buffers=$n pattern=ball \
    ! video/x-raw,format=BGRA,width=160,height=120,framerate=30/1 \
    ! filtercam filter=\"sepia, vignette\" orientation=90r lens=0.1,0.1,0.8,0.8 detect-faces=true \
      snapshot-every=10 flash=false snapshot-location=$out/s-%03d.jpg ! fakesink" > "$out/log-$n" 2>&1 || status=1
  definite=$(grep -o "definitely lost: [0-9,]* bytes" "$out/log-$n" || echo "no leak summary")
  indirect=$(grep -o "indirectly lost: [0-9,]* bytes" "$out/log-$n" || echo "no leak summary")
  errors=$(grep -o "ERROR SUMMARY: [0-9]* errors" "$out/log-$n" || echo "no summary")
  echo "$n frames: $definite, $indirect; $errors"
done
exit $status
