#!/bin/sh
# fastcopy-info prints the profile paths it built from FASTCOPY_PROFILE,
# XDG_CONFIG_HOME and HOME escaped as the library's warnings are (fc__warn):
# a byte that is not printable ASCII as \xHH, the backslash as \\.  Each
# variable gets an ESC sequence, a newline, a non-UTF-8 byte (0xff) and a
# backslash: the output must hold no byte other than printable ASCII and the
# line ends, and must show the escaped path.
#   sh check_info_escape.sh FASTCOPY-INFO
set -u
info=$1
esc=$(printf '\033')
ff=$(printf '\377')
nl='
'
bad="/fc-test${esc}[31mred${nl}line${ff}back\\slash"
want='/fc-test\x1b[31mred\x0aline\xffback\\slash'
fails=0

# run NAME EXPECTED-PATH VAR=VALUE...: fastcopy-info --decisions with that environment
run() {
    name=$1 expect=$2
    shift 2
    out=$(env -u FASTCOPY_PROFILE -u XDG_CONFIG_HOME -u FASTCOPY_TUNE -u FASTCOPY_IMPL "$@" "$info" --decisions)
    rc=$?
    if [ $rc -ne 0 ]; then
        echo "FAIL: $name: fastcopy-info exited $rc"
        fails=$((fails + 1))
        return
    fi
    # every byte that is not printable ASCII or a line end
    raw=$(printf '%s' "$out" | LC_ALL=C tr -d '\n -~' | od -An -tx1 | tr -d ' \n')
    if [ -n "$raw" ]; then
        echo "FAIL: $name: raw control or non-ASCII bytes in the output: $raw"
        printf '%s\n' "$out" | grep -a 'fc-test' | od -c | head -20
        fails=$((fails + 1))
        return
    fi
    if ! printf '%s\n' "$out" | grep -aqF -- "  $expect: absent or unreadable"; then
        printf "FAIL: %s: the escaped path '%s' is not in the output:\n" "$name" "$expect"
        printf '%s\n' "$out" | grep -a -A4 '^profile:'
        fails=$((fails + 1))
        return
    fi
    printf 'ok: %s: %s\n' "$name" "$(printf '%s\n' "$out" | grep -aF -- "$expect")"
}

run FASTCOPY_PROFILE "$want" "FASTCOPY_PROFILE=$bad"
run XDG_CONFIG_HOME "$want/fastcopy/profile" "XDG_CONFIG_HOME=$bad" HOME=/nonexistent
run HOME "$want/.config/fastcopy/profile" "HOME=$bad"
if [ $fails -ne 0 ]; then
    echo "info-escape: $fails case(s) failed"
    exit 1
fi
echo "info-escape: 3 cases passed"
