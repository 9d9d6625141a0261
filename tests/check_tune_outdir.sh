#!/bin/sh
# fastcopy-tune checks the profile's directory before it measures anything
# (a full run takes a minute): a directory that does not exist and cannot be
# made, a regular file in a directory's place, a directory it may not write
# (root: a sysfs directory, and a read-only bind mount where unshare allows
# one), the profile's path naming a directory.  Each must fail within a few
# seconds, with nothing measured, naming the directory and the errno's text;
# a writable new directory must pass the check and leave no file behind.
#   sh check_tune_outdir.sh FASTCOPY-TUNE WORKDIR
set -u
tune=$1
work=$2
rm -rf "$work"
mkdir -p "$work/isdir" "$work/locked" || exit 1
: > "$work/file"
chmod 0555 "$work/locked"
fails=0 cases=0 skips=0
now_ms() { echo $(($(date +%s%N) / 1000000)); }

# refused NAME PROFILE-PATH DIR-NAMED ERRNO-TEXT [PREFIX...]: PREFIX (a wrapper such as unshare) runs it
refused() {
    name=$1 prof=$2 dir=$3 text=$4
    shift 4
    start=$(now_ms)
    "$@" timeout 8 "$tune" --quick -o "$prof" > "$work/out" 2> "$work/err"
    rc=$?
    took=$(($(now_ms) - start))
    cases=$((cases + 1))
    msg=$(cat "$work/err")
    if [ $rc -eq 0 ] || [ $rc -eq 124 ]; then
        echo "FAIL: $name: exit status $rc after $took ms (it measured): $msg"
        fails=$((fails + 1))
    elif [ $took -ge 5000 ]; then
        echo "FAIL: $name: $took ms before it failed (measured first?): $msg"
        fails=$((fails + 1))
    elif grep -q '^defaults:' "$work/out"; then
        echo "FAIL: $name: it started measuring: $(head -3 "$work/out")"
        fails=$((fails + 1))
    elif ! grep -qF -- "$dir" "$work/err" || ! grep -qF -- "$text" "$work/err"; then
        echo "FAIL: $name: the message does not name '$dir' and '$text': $msg"
        fails=$((fails + 1))
    else
        echo "ok: $name ($took ms): $msg"
    fi
}

skip() {
    echo "skip: $1"
    skips=$((skips + 1))
}

if [ -d /proc/self ]; then # procfs: no directory can be made in it, even by root
    refused missing-dir /proc/fastcopy-test-missing-$$/profile /proc/fastcopy-test-missing-$$ "No such file or directory"
else
    skip "missing-dir (/proc is not mounted)"
fi
refused file-as-dir "$work/file/profile" "$work/file" "Not a directory"
refused profile-is-dir "$work/isdir" "$work/isdir" "Is a directory"
if [ "$(id -u)" != 0 ]; then
    refused no-write-permission "$work/locked/profile" "$work/locked" "Permission denied"
else
    skip "no-write-permission (root passes the permission bits; the sysfs and read-only cases stand in)"
fi
if [ -d /sys/kernel ] && [ "$(stat -f -c %T /sys/kernel 2> /dev/null)" = sysfs ]; then
    refused sysfs-dir /sys/kernel/fastcopy-test-profile /sys/kernel "Permission denied"
else
    skip "sysfs-dir (no sysfs at /sys)"
fi
mkdir -p "$work/ro"
if [ "$(id -u)" = 0 ] && unshare -m sh -c "mount --bind -o ro '$work/ro' '$work/ro'" 2> /dev/null; then
    refused read-only-mount "$work/ro/profile" "$work/ro" "Read-only file system" \
        unshare -m sh -c "mount --bind -o ro '$work/ro' '$work/ro' && exec \"\$@\"" sh
else
    skip "read-only-mount (needs root and unshare -m)"
fi

# a writable directory still to be made: the check passes (measuring starts: stopped after 2 s)
timeout 2 "$tune" --quick -o "$work/new/sub/profile" > "$work/out" 2> "$work/err"
rc=$?
cases=$((cases + 1))
left=$(ls -A "$work/new/sub" 2> /dev/null | grep -v '^profile$')
if { [ $rc -ne 124 ] && [ $rc -ne 0 ]; } || [ ! -d "$work/new/sub" ] || [ -n "$left" ]; then
    echo "FAIL: writable-new-dir: exit status $rc, left in the directory: '$left': $(cat "$work/err")"
    fails=$((fails + 1))
else
    echo "ok: writable-new-dir (directory made, nothing left behind; exit status $rc)"
fi
chmod 0755 "$work/locked"
if [ $fails -ne 0 ]; then
    echo "tune-outdir: $fails of $cases case(s) failed"
    exit 1
fi
echo "tune-outdir: $cases cases passed, $skips skipped"
