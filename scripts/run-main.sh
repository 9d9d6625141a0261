#!/usr/bin/env bash
# The README's main command (make bench): set-up, build, registry self-check,
# then `fcbench all` (tables: bench-results/all.txt, data: all.json + all.csv)
# and `fcbench report` (bench-results/report.html + PNGs), then `fcbench targets`
# (the x86-64 issue's targets read off that run: bench-results/targets.txt), for the defaults and,
# on x86-64, for the profile fastcopy-tune --quick wrote (bench-results/profile).
# fcbench all includes the peers (rte-avx2, rte-avx512: DPDK's rte_memcpy, where setup-deps installed
# libdpdk-dev and the CPU can) and the packet scenario; the report opens with them.
# FCBENCH_ARGS adds options to fcbench all (e.g. "--impl libc,generic" or "--quick").
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
scripts/setup-deps.sh main
cmake -S . -B build/release -G Ninja -DCMAKE_BUILD_TYPE=Release | grep 'fcbench peers' || true
cmake --build build/release >/dev/null
FASTCOPY_PROFILE=off build/release/fastcopy-info
mkdir -p bench-results
# Plots of an earlier run (other contenders, other sizes) must not survive into this report, nor
# its target lines beside this run's tables when this run is cut short.
rm -f bench-results/fcbench-*.png bench-results/report.html bench-results/targets.txt bench-results/profile \
  bench-results/tune.txt
# fastcopy-tune's quick profile for this machine, into bench-results/ (never the user's
# configuration); fcbench times it as tuned[ENTRY] beside the defaults (FASTCOPY_PROFILE=off:
# whatever profile this user has, fc[...] and the registry entries run with the defaults).
tuned=()
if [ -x build/release/fastcopy-tune ]; then
  echo
  echo "== fastcopy-tune --quick (bench-results/profile, bench-results/tune.txt)"
  build/release/fastcopy-tune --quick -o bench-results/profile >bench-results/tune.txt
  grep -E '^   -> |^profile written' bench-results/tune.txt || true
  tuned=(--tuned bench-results/profile)
fi
echo
echo "== fcbench all (tables: bench-results/all.txt, data: bench-results/all.json, all.csv)"
# shellcheck disable=SC2086
FASTCOPY_PROFILE=off build/release/fcbench all ${FCBENCH_ARGS:-} "${tuned[@]}" --json bench-results/all.json --csv bench-results/all.csv |
  tee bench-results/all.txt | grep -E 'CLIFF|^ n =|fall below|^#|MBytes|^(L1|L2|L3|DRAM) ' || true
echo
echo "== fcbench report"
build/release/fcbench report bench-results/all.json -o bench-results
echo
echo "== fcbench targets (bench-results/targets.txt)"
build/release/fcbench targets bench-results/all.json | tee bench-results/targets.txt
