#!/usr/bin/env bash
# The README's main command (make bench): build, self-check the registry, then
# fcbench all (the scenarios that exist so far); tables and JSON go to bench-results/.
# (The HTML report and the remaining scenarios come with the rest of the
# fcbench issue.)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
tools/setup-deps.sh main
cmake -S . -B build/release -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/release >/dev/null
build/release/fastcopy-info
mkdir -p bench-results
echo
echo "== fcbench all (tables: bench-results/all.txt, data: bench-results/all.json)"
build/release/fcbench all --json bench-results/all.json | tee bench-results/all.txt |
  grep -E 'CLIFF|^ n =|fall below|^#|MBytes' || true
