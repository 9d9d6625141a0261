#!/bin/sh
# libfastcopy-record.so in a process whose library copies inside its ifunc
# resolver (ifunc_copylib.c): the process must run, and its record must count
# the resolver's copies (made before the recorder was relocated):
# 3 offset pairs x 301 sizes per function, and memcpy's one more.
#   ifunc_record_test.sh DIR COMMAND...   (LD_PRELOAD / QEMU_SET_ENV from ctest)
set -u
dir=$1; shift
mkdir -p "$dir" && rm -f "$dir"/rec.*
FASTCOPY_RECORD_DIR=$dir "$@" || { echo "FAIL: $* exited with $?"; exit 1; }
set -- "$dir"/rec.*
[ -e "$1" ] || { echo "FAIL: no record in $dir"; exit 1; }
awk '$1 == "fn" { for (i = 2; i <= 5; i++) f[i] += $i }
     END { printf "calls by function: memcpy %d memmove %d mempcpy %d bcopy %d\n", f[2], f[3], f[4], f[5]
           if (f[2] < 904 || f[3] < 903 || f[4] < 903 || f[5] < 903) { print "FAIL: the resolver'\''s copies are not all counted"; exit 1 }
           print "ok: the resolver'\''s copies are counted" }' "$@"
