#!/usr/bin/env bash
# Does fcbench reproduce on this machine?  Runs `fcbench sizes` twice, back to
# back, and checks with `fcbench compare` that every case of n >= 1 KiB agrees
# within 5% (median time per call).  Exit 0 if so, 1 if not (the cases are
# listed), so it can gate a benchmark host.
#   scripts/fcbench-repro.sh [fcbench options, e.g. --impl libc,fc --samples 21]
# Results: bench-results/repro-{1,2}.json.  Needs a Release build
# (build/release/fcbench, as make bench leaves it).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
fcbench=${FCBENCH:-$root/build/release/fcbench}
[ -x "$fcbench" ] || { echo "fcbench-repro: build first (make bench, or cmake --build build/release)" >&2; exit 2; }
out=$root/bench-results
mkdir -p "$out"
for i in 1 2; do
  echo "== fcbench sizes $* (run $i of 2)"
  "$fcbench" sizes "$@" --json "$out/repro-$i.json" | grep '^# background' || true
done
exec "$fcbench" compare "$out/repro-1.json" "$out/repro-2.json" --min-n 1024 --max-diff 0.05
