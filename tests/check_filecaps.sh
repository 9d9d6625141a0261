#!/bin/sh
# check_filecaps.sh FASTCOPY_INFO - the real secure-execution case that
# tests/test_secure.c simulates: a copy of fastcopy-info given a file
# capability and run by an ordinary user (uid 65534).  The kernel makes such
# a process non-dumpable, so /proc/self/auxv cannot be opened and its real and
# effective ids are equal; the library must still take it as secure and ignore
# FASTCOPY_IMPL.  A copy without the capability, run the same way, is the
# control.  Skipped (77) unless root with setcap and setpriv, on a filesystem
# that keeps capabilities.
info=$1
[ "$(id -u)" = 0 ] || { echo "skipped: not root"; exit 77; }
command -v setcap >/dev/null 2>&1 && command -v setpriv >/dev/null 2>&1 || { echo "skipped: no setcap or setpriv"; exit 77; }
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
chmod 755 "$d" && cp "$info" "$d/info" && chmod 755 "$d/info" || exit 1
run() { (cd / && setpriv --reuid=65534 --regid=65534 --clear-groups env FASTCOPY_IMPL=generic "$d/info" 2>&1); }
out=$(run) || { echo "FAIL: the control did not run:"; echo "$out"; exit 1; }
case $out in *"entry: generic  [FASTCOPY_IMPL]"*) ;; *) echo "FAIL: the control did not take FASTCOPY_IMPL:"; echo "$out"; exit 1 ;; esac
setcap cap_net_raw+ep "$d/info" 2>/dev/null || { echo "skipped: setcap failed here"; exit 77; }
out=$(run) || { echo "FAIL: the capability copy did not run:"; echo "$out"; exit 1; }
case $out in
*"secure-execution process: the environment is ignored"*) ;;
*) echo "FAIL: a file-capability process was not taken as secure:"; echo "$out"; exit 1 ;;
esac
case $out in *"entry: generic"*) echo "FAIL: FASTCOPY_IMPL was honoured:"; echo "$out"; exit 1 ;; esac
echo "ok: control honours FASTCOPY_IMPL; the file-capability copy is secure and ignores it"
