#!/bin/sh
# fcbench record on tests/record_target.c: every count it must report, the
# files it must write, CMD's exit status passed on, and `fcbench dist --file`
# replaying the recording.
#   record_test.sh FCBENCH RECORD_TARGET WORKDIR
set -u
fcbench=$1 target=$2 work=$3
mkdir -p "$work" && rm -f "$work"/rec.*
"$fcbench" record -o "$work/rec" -- "$target" > "$work/out.txt" 2>&1
rc=$?
cat "$work/out.txt"
fail=0
check() { # description, value, expected
  if [ "$2" = "$3" ]; then echo "ok   $1: $2"; else echo "FAIL: $1: $2, want $3"; fail=1; fi
}
check "exit status passed on" "$rc" 3
check "records skipped or not written" "$(grep -c 'skipped\|not written' "$work/out.txt")" 0
for f in rec.csv rec.align.csv rec.txt; do
  [ -s "$work/$f" ] || { echo "FAIL: $work/$f missing"; fail=1; }
done
raw() { awk -v k="$1" -v i="$2" '$1 == k { print $(i + 2); exit }' "$work/rec.txt"; }
check "processes" "$(awk '$1 == "processes" { print $2 }' "$work/rec.txt")" 2
check "memcpy calls of 17 B" "$(raw size 17)" 1000
check "mempcpy calls of 100 B (2 threads)" "$(raw size 100)" 1000
check "bcopy calls of 33 B (forked child)" "$(raw size 33)" 7
check "calls of 8 B (__memcpy_chk)" "$(raw size 8)" 3
check "calls of 4096..8191 B (memmove 5000)" "$(raw big 12)" 10
check "calls by function: mempcpy" "$(raw fn 2)" 1000
check "calls by function: bcopy" "$(raw fn 3)" 7
check "calls by function: __memcpy_chk" "$(raw fn 4)" 3
check "calls by function: memmove" "$(raw fn 1)" 10
check "src % 64 = 3 (at least the 1000)" "$(test "$(raw salign 3)" -ge 1000 && echo yes)" yes
check "dst % 64 = 5 (at least the 1000)" "$(test "$(raw dalign 5)" -ge 1000 && echo yes)" yes
check "overlapping calls" "$(awk '$1 == "overlap_share" { print ($2 + 0 > 0) ? "some" : "none" }' "$work/rec.txt")" some
check "values in rec.csv" "$(tr ',' '\n' < "$work/rec.csv" | wc -l)" 4097
check "lines in rec.align.csv" "$(wc -l < "$work/rec.align.csv")" 2
"$fcbench" dist --file "$work/rec.csv" --impl libc,fc --samples 3 --quick > "$work/dist.txt" 2>&1
grep -q "offsets mod 64 drawn from the recording" "$work/dist.txt" && grep -q "^rec " "$work/dist.txt" &&
  echo "ok   fcbench dist --file replays it" || { cat "$work/dist.txt"; echo "FAIL: fcbench dist --file"; fail=1; }
[ $fail = 0 ] && echo "record: all checks passed"
exit $fail
