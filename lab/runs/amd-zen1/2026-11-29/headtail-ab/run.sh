#!/bin/bash
# lab/runs/amd-zen1/2026-11-29/headtail-ab/run.sh OLD NEW [CC]
# OLD, NEW: commits (or directories holding include/); builds variant.c against
# each (old twice) at -O2 and -O2 -mavx2 and runs main.c's A/B in three
# placements.  Run from the repository root.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
old=$1 new=$2 cc=${3:-gcc}
w=$(mktemp -d)
inc() { if [ -d "$1/include" ]; then echo "$1/include"; else mkdir -p "$w/$1" && git archive "$1" include | tar -x -C "$w/$1" && echo "$w/$1/include"; fi; }
io=$(inc "$old") in=$(inc "$new")
for fl in "-O2" "-O2 -mavx2"; do
  $cc $fl -c -I"$io" -DV=old "$here/variant.c" -o "$w/old.o"
  $cc $fl -c -I"$io" -DV=old2 "$here/variant.c" -o "$w/old2.o"
  $cc $fl -c -I"$in" -DV=new "$here/variant.c" -o "$w/new.o"
  $cc -O2 "$here/main.c" "$w/old.o" "$w/old2.o" "$w/new.o" -o "$w/ab"
  for m in "0 0" "63 127" "1 1"; do
    set -- $m
    echo "== $cc $fl, dst + (i & $1), src + (i & $2): $old -> $new"
    DM=$1 SM=$2 "$w/ab"
  done
done
rm -rf "$w"
