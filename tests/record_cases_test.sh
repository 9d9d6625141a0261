#!/bin/sh
# The recorder's hardening (issue 43 items 6-8, 11, 12) on tests/record_cases.c:
#   record_cases_test.sh CASE FCBENCH RECORD_LIB RECORD_CASES WORKDIR
# CASE:
#   names      a process never replaces another's record: files of its own
#              pid already there (a reused pid), and two processes that are
#              both pid 1 (`unshare -pf`, where it works)
#   partial    fcbench record skips a record cut short (in a line, and before
#              its last line) or whose counts disagree, and uses none of its
#              counts
#   write-fail a record that cannot be written (RLIMIT_FSIZE; a full tmpfs
#              where mounting works) leaves no file and says so on stderr
#   fork       a child made without atfork handlers (syscall(SYS_fork),
#              _Fork, clone, vfork + _exit) counts its own copies only
#   threads    20,000 short-lived threads: memory stays bounded, every count
#              is kept (those made after the thread's block went back, too)
#   long-dir   a FASTCOPY_RECORD_DIR too long for a record's path is refused
#              with one message; a long one that fits still works
set -u
case=$1 fcbench=$2 lib=$3 target=$4 work=$5/$1
export FCBENCH_RECORD_LIB=$lib # fcbench record preloads this one
rm -rf "$work" && mkdir -p "$work" || exit 1
fail=0
check() { # description, value, expected
  if [ "$2" = "$3" ]; then echo "ok   $1: $2"; else echo "FAIL: $1: $2, want $3"; fail=1; fi
}
# count I (from 0) of line KEY in fcbench's PREFIX.txt
raw() { awk -v k="$2" -v i="$3" '$1 == k { print $(i + 2); exit }' "$1.txt"; }
# count I of line KEY summed over the files given
sum() { k=$1 i=$2; shift 2; awk -v k="$k" -v i="$i" '$1 == k { s += $(i + 2) } END { print s + 0 }' "$@"; }
# run the target directly with the recorder, records into DIR
direct() { d=$1; shift; FASTCOPY_RECORD_DIR=$d LD_PRELOAD=$lib "$target" "$@"; }

case $case in
names)
  d=$work/squat && mkdir -p "$d"
  direct "$d" squat 500 || fail=1
  check "files of the same pid kept" "$(grep -l '^planted$' "$d"/rec.* | wc -l)" 5
  set -- $(grep -L '^planted$' "$d"/rec.*)
  check "records written beside them" "$#" 1
  [ $# = 1 ] && check "its memcpy calls of 17 B" "$(sum size 17 "$1")" 500
  if unshare -pf true 2>/dev/null; then
    "$fcbench" record -o "$work/ns" -- sh -c "unshare -pf $target copies 1000 19; unshare -pf $target copies 1000 19" \
      > "$work/ns.out" 2>&1 || { cat "$work/ns.out"; fail=1; }
    check "calls of 19 B of two processes that are both pid 1 (unshare -pf)" "$(raw "$work/ns" size 19)" 2000
  else
    echo "skip: unshare -pf does not work here (the same-pid files above cover the reuse)"
  fi
  ;;
partial)
  mkdir -p "$work/src" && direct "$work/src" copies 3000 23 || fail=1
  set -- "$work"/src/rec.*
  [ $# = 1 ] && [ -s "$1" ] || { echo "FAIL: no record in $work/src"; exit 1; }
  full=$1
  head -c "$(($(wc -c < "$full") / 2))" "$full" > "$work/cut-in-line"   # in the size line
  sed '$d' "$full" > "$work/cut-last-line"                              # all but its last line
  sed 's/^calls .*/calls 1/' "$full" > "$work/miscounted"                # calls disagrees with fn
  for v in cut-in-line cut-last-line miscounted; do
    "$fcbench" record -o "$work/$v" -- "$target" plant "$work/$v" 1000 > "$work/$v.out" 2>&1
    cat "$work/$v.out"
    check "$v: processes" "$(awk '$1 == "processes" { print $2 }' "$work/$v.txt")" 1
    check "$v: calls" "$(awk '$1 == "calls" { print $2 }' "$work/$v.txt")" 1000
    check "$v: calls of 23 B (the partial record's)" "$(raw "$work/$v" size 23)" 0
    check "$v: calls in the src alignment histogram" "$(awk '$1 == "salign" { for (i = 2; i <= NF; i++) s += $i; print s }' "$work/$v.txt")" 1000
    check "$v: said skipped" "$(grep -c 'rec.planted: .*skipped' "$work/$v.out")" 1
  done
  ;;
write-fail)
  d=$work/fsize && mkdir -p "$d"
  # RLIMIT_FSIZE of 2 KB, SIGXFSZ ignored: write fails with EFBIG
  sh -c 'trap "" XFSZ; ulimit -f 4; exec env FASTCOPY_RECORD_DIR="$1" LD_PRELOAD="$2" "$3" copies 1000 17' sh \
    "$d" "$lib" "$target" 2> "$work/fsize.err"
  cat "$work/fsize.err"
  check "RLIMIT_FSIZE: files left" "$(ls -A "$d" | wc -l)" 0
  check "RLIMIT_FSIZE: said not written" "$(grep -c '^fastcopy-record: cannot write .*not written' "$work/fsize.err")" 1
  d=$work/tmpfs && mkdir -p "$d"
  if unshare -m sh -c 'mount -t tmpfs -o size=4k tmpfs "$1"' sh "$d" 2>/dev/null; then
    unshare -m sh -c 'mount -t tmpfs -o size=4k tmpfs "$1" || exit 1
      env FASTCOPY_RECORD_DIR="$1" LD_PRELOAD="$2" "$3" copies 1000 17 2> "$4"
      ls -A "$1" > "$5"' sh "$d" "$lib" "$target" "$work/tmpfs.err" "$work/tmpfs.ls"
    cat "$work/tmpfs.err"
    check "full tmpfs: files left" "$(wc -l < "$work/tmpfs.ls")" 0
    check "full tmpfs: said not written" "$(grep -c '^fastcopy-record: cannot write .*No space left.*not written' "$work/tmpfs.err")" 1
  else
    echo "skip: no tmpfs mount here (unshare -m, mount)"
  fi
  ;;
fork)
  for kind in sysfork _Fork clone vfork; do
    "$fcbench" record -o "$work/$kind" -- "$target" fork $kind 1000 7 > "$work/$kind.out" 2>&1
    rc=$?
    if [ $rc = 77 ]; then echo "skip: $kind (no _Fork in this C library)"; continue; fi
    [ $rc = 0 ] || { cat "$work/$kind.out"; echo "FAIL: $kind: exit status $rc"; fail=1; continue; }
    procs=2
    [ $kind = vfork ] && procs=1 # the child shares the parent's memory and leaves by _exit
    check "$kind: processes" "$(awk '$1 == "processes" { print $2 }' "$work/$kind.txt")" $procs
    check "$kind: the parent's memcpy of 17 B, counted once" "$(raw "$work/$kind" size 17)" 1000
    check "$kind: the child's bcopy of 33 B" "$(raw "$work/$kind" size 33)" 7
    check "$kind: the parent's memmove of 5 B after the child" "$(raw "$work/$kind" size 5)" 1
  done
  ;;
threads)
  "$fcbench" record -o "$work/t" -- "$target" threads 20000 10 > "$work/t.out" 2>&1 || { cat "$work/t.out"; fail=1; }
  grep '^growth' "$work/t.out"
  rss=$(awk '$1 == "growth" { print $3 }' "$work/t.out") vm=$(awk '$1 == "growth" { print $5 }' "$work/t.out")
  check "VmRSS growth under 20 MB" "$([ "${rss:-999999}" -lt 20480 ] && echo yes || echo "no ($rss kB)")" yes
  check "VmSize growth under 100 MB (4 thread stacks: 33 MB)" "$([ "${vm:-999999}" -lt 102400 ] && echo yes || echo "no ($vm kB)")" yes
  check "memcpy calls of 77 B (10 per thread)" "$(raw "$work/t" size 77)" 200000
  check "calls of 91 B (2 per thread, after its block went back)" "$(raw "$work/t" size 91)" 40000
  ;;
long-dir)
  # a directory whose path is L bytes long, of components of at most 200
  mkpath() {
    p=$work/l
    while [ ${#p} -lt $(($1 - 201)) ]; do p=$p/$(printf '%0200d' 0); done
    p=$p/$(printf "%0$(($1 - ${#p} - 1))d" 0)
    mkdir -p "$p" && echo "$p"
  }
  for len in 4090 4095; do
    d=$(mkpath $len) || exit 1
    direct "$d" copies 10 17 2> "$work/err"
    cat "$work/err"
    check "FASTCOPY_RECORD_DIR of $len bytes: files written" "$(ls -A "$d" | wc -l)" 0
    check "FASTCOPY_RECORD_DIR of $len bytes: refused once" "$(grep -c '^fastcopy-record: FASTCOPY_RECORD_DIR is '$len' bytes long.*not written' "$work/err")" 1
  done
  d=$(mkpath 4000) || exit 1
  direct "$d" copies 10 17 || fail=1
  check "FASTCOPY_RECORD_DIR of 4000 bytes: records written" "$(ls "$d" | grep -c '^rec\.')" 1
  ;;
*)
  echo "usage: record_cases_test.sh names|partial|write-fail|fork|threads|long-dir FCBENCH LIB RECORD_CASES WORKDIR"
  exit 2
  ;;
esac
[ $fail = 0 ] && echo "record $case: all checks passed"
exit $fail
