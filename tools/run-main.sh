#!/usr/bin/env bash
# The README's main command (make bench).  For now: build, print the registry
# and self-check every implementation; fcbench will take this over.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
tools/setup-deps.sh main
cmake -S . -B build/release -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/release >/dev/null
build/release/fastcopy-info
