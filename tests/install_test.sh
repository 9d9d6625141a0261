#!/bin/sh
# Installs the build into a staging prefix, then builds and runs a consumer with
# find_package(fastcopy) (shared and static targets) and with pkg-config; given
# a Python 3 (4th argument), runs the installed fcbench report script too.
set -eu
build=$1 consumer=$2 cc=$3 py=${4:-}
stage=$build/install-test
rm -rf "$stage"
cmake --install "$build" --prefix "$stage/prefix" >/dev/null
cmake -S "$consumer" -B "$stage/build" -DCMAKE_PREFIX_PATH="$stage/prefix" -DCMAKE_C_COMPILER="$cc" >/dev/null
cmake --build "$stage/build" >/dev/null
LD_LIBRARY_PATH="$stage/prefix/lib:$stage/prefix/lib64" "$stage/build/consumer_shared"
"$stage/build/consumer_static"
pc=$(ls "$stage"/prefix/lib*/pkgconfig/fastcopy.pc)
flags=$(sed -n 's/^Cflags: //p' "$pc" | sed "s|\${includedir}|$stage/prefix/include|")
libdir=$(dirname "$(dirname "$pc")")
"$cc" -o "$stage/consumer_pc" "$consumer/consumer.c" $flags -L"$libdir" -lfastcopy
LD_LIBRARY_PATH="$libdir" "$stage/consumer_pc"
# A shared library that calls fc_memcpy must get libfastcopy.so as DT_NEEDED,
# or it can be relocated before libfastcopy.so (docs/api.md, "Linking"): through the
# CMake target, and through pkg-config's flags even placed before the source
# under --as-needed (Ubuntu's default), where a plain -lfastcopy is dropped.
needed() {
  readelf -d "$1" | grep -q "NEEDED.*libfastcopy\.so" ||
    { echo "FAIL: $1 does not record libfastcopy.so as needed ($2)"; exit 1; }
  echo "$2: DT_NEEDED libfastcopy.so"
}
needed "$(ls "$stage"/build/libconsumer_lib.so)" "CMake fastcopy::fastcopy, --as-needed"
n=3
if command -v pkg-config >/dev/null; then
  export PKG_CONFIG_PATH=$(dirname "$pc")
  pkg-config --exists --print-errors "fastcopy >= 0.1"
  echo "pkg-config: $(pkg-config --modversion fastcopy)"
  # shellcheck disable=SC2046
  "$cc" -shared -fPIC -Wl,--as-needed $(pkg-config --define-variable=prefix="$stage/prefix" --cflags --libs fastcopy) -o "$stage/libconsumer_pc.so" \
    "$consumer/consumer_lib.c"
  needed "$stage/libconsumer_pc.so" "pkg-config --libs before the source, --as-needed"
  n=4
fi
# The installed preload object runs an unmodified program (this shell's cat:
# its copies bound to the shim, its output unchanged).
pre=$(ls "$stage"/prefix/lib*/libfastcopy-preload.so)
out=$(printf 'drop-in\n' | FASTCOPY_PRELOAD_REPORT=1 LD_PRELOAD="$pre" cat 2>"$stage/preload.err")
[ "$out" = drop-in ] && grep -q "^fastcopy-preload: memcpy" "$stage/preload.err" ||
  { echo "FAIL: LD_PRELOAD=$pre cat: output '$out', stderr '$(cat "$stage/preload.err")'"; exit 1; }
echo "preload: $pre under cat: $(cat "$stage/preload.err")"
n=$((n + 1))
# The installed report script (share/fastcopy/fcbench_report.py and its package
# fcreport/ beside it) through the installed fcbench: a report of a short pipe
# run (cli.py imports every command's module); no bytecode left in the
# installed tree.  The self test is not installed (tests/fcreport_selftest.py, fcbench-report-selftest).
if [ -n "$py" ]; then
  share=$stage/prefix/share/fastcopy
  "$stage/prefix/bin/fcbench" pipe --quick --json "$stage/pipe.json" >"$stage/pipe.txt" 2>&1 ||
    { echo "FAIL: installed fcbench pipe --quick:"; cat "$stage/pipe.txt"; exit 1; }
  FCBENCH_PYTHON="$py" FCBENCH_REPORT_PY="$share/fcbench_report.py" \
    "$stage/prefix/bin/fcbench" report "$stage/pipe.json" -o "$stage/report" >"$stage/report.txt" 2>&1 &&
    grep -q 'id="pipe"' "$stage/report/report.html" ||
    { echo "FAIL: installed fcbench report:"; cat "$stage/report.txt"; exit 1; }
  [ -z "$(find "$share" -name __pycache__)" ] || { echo "FAIL: __pycache__ in $share"; exit 1; }
  echo "report: installed $share/fcbench_report.py: fcbench report of a pipe run"
  n=$((n + 1))
fi
# Nothing of the lab is installed: no tests (the report's self test lives in
# tests/), no developer scripts (scripts/), no raw runs (lab/).
lab=$(find "$stage/prefix" \( -name 'selftest*' -o -name '*synthetic*' -o -name 'fcreport_*' -o -name 'run-*.sh' \
  -o -name 'prove-rig*' -o -name 'rv-audit*' -o -name 'setup-deps*' -o -name '*.json.gz' \) -print)
[ -z "$lab" ] || { echo "FAIL: installed from the lab: $lab"; exit 1; }
echo "install-consumers: $n consumers built and ran or checked"
