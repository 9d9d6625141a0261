#!/usr/bin/env bash
# Instructions per copy for each implementation (valgrind callgrind: exact and
# repeatable, unlike timings on a shared machine).  Reproduces the table in docs/testing.md.
#   scripts/instr-count.sh [build-dir]     (default build/release, built if missing)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build/release}
command -v valgrind >/dev/null || { echo "instr-count: needs valgrind (apt-get install valgrind)" >&2; exit 1; }
[ -x "$build/instr-driver" ] || { cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null; cmake --build "$build" --target instr-driver >/dev/null; }
reps=100
# the entries available under valgrind's CPU model (no AVX-512 there), not the host's
impls=$(valgrind -q "$build/fastcopy-info" 2>/dev/null | awk 'NR>3 && $2=="yes" {print $1}') || true
[ -n "$impls" ] || impls="byte word-coaligned generic"
printf '%-22s' "n, placement"; for im in $impls; do printf ' %16s' "$im"; done; echo
for n in 32 64 4096; do
  for cs in "0 0 both-aligned" "3 3 co-misaligned" "1 0 src+1" "0 5 dst+5"; do
    set -- $cs
    printf '%-22s' "$n B, $3"
    for im in $impls; do
      ir=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null --collect-atstart=no --toggle-collect=run \
             "$build/instr-driver" "$im" "$n" "$1" "$2" $reps 2>&1 | sed -n 's/.*Collected : \([0-9]*\).*/\1/p')
      printf ' %16.1f' "$(echo "$ir / $reps" | bc -l)"
    done
    echo
  done
done
