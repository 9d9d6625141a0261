#!/usr/bin/env bash
# The README's main command (make bench): build, self-check the registry, then
# the fcbench scenarios that exist so far; tables and JSON go to bench-results/.
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
for s in cliffs sizes; do
  echo
  echo "== fcbench $s (tables: bench-results/$s.txt, data: bench-results/$s.json)"
  build/release/fcbench "$s" --json "bench-results/$s.json" | tee "bench-results/$s.txt" | grep -E 'CLIFF|^ n =|fall below|^#' || true
done
