#!/bin/sh
# The profile loader, seen through fastcopy-info: FASTCOPY_PROFILE naming a
# procfs file, a sysfs file, an empty file or one of more than 4096 bytes (a
# valid profile padded with comments) is refused with the loader's note and
# no profile is in use; a valid profile of exactly 4096 bytes is taken.
# (tests/test_profile_files.c shows that nothing is read from the refused ones.)
#   sh check_profile_files.sh FASTCOPY-INFO WORKDIR
set -u
info=$1
work=$2
rm -rf "$work"
mkdir -p "$work" || exit 1
fails=0 cases=0
sig=$("$info" --signature) || {
    echo "FAIL: fastcopy-info --signature"
    exit 1
}

# profile_of_size FILE BYTES: a valid profile (nt_threshold 96k) padded with comment lines to BYTES
profile_of_size() {
    body="fastcopy-profile 2
cpu $sig
nt_threshold 96k
end
"
    : > "$1"
    pad=$(($2 - ${#body}))
    while [ $pad -gt 0 ]; do # comment lines of up to 64 bytes (a line may have 255)
        n=$((pad > 64 ? 64 : pad))
        { head -c $((n - 1)) /dev/zero | tr '\0' '#'; echo; } >> "$1"
        pad=$((pad - n))
    done
    printf '%s' "$body" >> "$1"
    [ "$(wc -c < "$1")" -eq "$2" ] || echo "FAIL: $1 is not $2 bytes"
}

# run NAME PATH EXPECTED-NOTE (an ERE after "PATH: "), or "in use"
run() {
    name=$1 path=$2 note=$3
    cases=$((cases + 1))
    out=$(env -u FASTCOPY_TUNE -u FASTCOPY_IMPL FASTCOPY_PROFILE="$path" "$info" --decisions) || {
        echo "FAIL: $name: fastcopy-info exited $?"
        fails=$((fails + 1))
        return
    }
    got=$(printf '%s\n' "$out" | grep -aF -- "  $path: ")
    inuse=$(printf '%s\n' "$out" | grep -a '^profile: ')
    if [ "$note" = "in use" ]; then
        want_inuse="profile: $path"
    else
        want_inuse="profile: none in use"
    fi
    if ! printf '%s\n' "$got" | grep -qE -- "^  $path: $note\$" || [ "$inuse" != "$want_inuse" ] ||
        { [ "$note" != "in use" ] && printf '%s\n' "$out" | grep -q 'non-temporal stores from 96 KiB'; }; then
        echo "FAIL: $name: expected '$path: $note' and '$want_inuse', got:"
        printf '%s\n' "$out" | grep -a -A3 '^profile:'
        fails=$((fails + 1))
    else
        echo "ok: $name:$got"
    fi
}

refused='ignored: not a regular file, or a read error'
run procfs-status /proc/self/status "$refused"
run procfs-environ /proc/self/environ "$refused"
sysfs=""
for f in /sys/kernel/mm/transparent_hugepage/enabled /sys/kernel/kexec_loaded /sys/devices/system/cpu/online; do
    if [ -r "$f" ]; then
        sysfs=$f
        break
    fi
done
if [ -n "$sysfs" ]; then
    run sysfs "$sysfs" "$refused"
else
    echo "skip: sysfs (none of its usual files is readable here)"
fi
: > "$work/empty"
run empty "$work/empty" "ignored: empty"
profile_of_size "$work/size-4097" 4097
run size-4097 "$work/size-4097" "ignored: larger than 4096 bytes"
profile_of_size "$work/size-4096" 4096
run size-4096 "$work/size-4096" "in use"
if [ $fails -ne 0 ]; then
    echo "profile-files-info: $fails of $cases case(s) failed"
    exit 1
fi
echo "profile-files-info: $cases cases passed"
