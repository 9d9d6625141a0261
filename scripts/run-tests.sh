#!/usr/bin/env bash
# The README's test command (make test): every suite on every target.
#
#   native-gcc    gcc, -Werror, with Ubuntu's       full suite + install/consumer + disassembly check
#                 default hardening (stack          + prove-rig (46 deliberate bugs must be caught,
#                 protector, CET)                     53 with AVX-512BW)
#   native-clang  clang, -Werror                    full suite (the fcbench smoke test and the
#                                                   report's selftest: in native-gcc only)
#   sanitize      gcc, ASan + UBSan                 full suite
#   riscv64       riscv64-linux-gnu-gcc, qemu-riscv64 -cpu rv64,v=true,vlen=256
#                                                   + prove-rig (its fc_copy_checked: 3 bugs)
#   aarch64       aarch64-linux-gnu-gcc, qemu-aarch64 -cpu max,sve256=on
#                                                   + sve at 128/512/2048 bits, AT_HWCAP dispatch
#                                                   + prove-rig (its assembly: 9 bugs)
#   s390x         s390x-linux-gnu-gcc (big-endian), qemu-s390x
#                                                   every suite but the heavy ones, plus
#                                                   generic's grid/grid-large/overlap/random
#                                                   (the byte-order-dependent copy)
#                                                   + prove-rig (its fc_copy_checked: 2 bugs)
#   aarch64-hwasan  aarch64 with -fsanitize=hwaddress  the heap suite (exact-size malloc'ed
#                                                     blocks) for generic and fc (ctest -L hwasan)
#   i686          i686-linux-gnu-gcc, qemu-i386      a glibc target without raw-syscall
#                 (ILP32)                            dispatch: pointer dispatch, every
#                                                     suite but the heavy ones, plus
#                                                     generic's grid/overlap/random
#                                                     + prove-rig (its fc_copy_checked: 2 bugs)
#   kernel        Linux 6.12 riscv64 stock and      the kernel's memcpy/usercopy KUnit suites, the
#                 with kernel/riscv/series, booted  riscv_copy suite (every fault position) and the
#                 under qemu-system-riscv64         guest's write(2) check (kernel/test/run.sh,
#                                                   docs/kernel.md)
#
# FASTCOPY_TARGETS="native-gcc riscv64" runs a subset.  Logs: build/<target>/test.log
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
scripts/setup-deps.sh test || exit 1

targets=${FASTCOPY_TARGETS:-native-gcc native-clang sanitize riscv64 aarch64 s390x aarch64-hwasan i686 kernel}
jobs=${FASTCOPY_JOBS:-$(nproc)}
summary=()
passed=0 failed=0

run_kernel() {
  local start=$SECONDS log=build/kernel.log rc
  mkdir -p build
  echo "== kernel: build and boot stock + patched Linux 6.12 under qemu-system-riscv64"
  kernel/test/run.sh build/kernel >"$log" 2>&1
  rc=$?
  sed -n '/^== /p; /^   /p; /^kernel: FAIL/p' "$log"
  [ $rc -eq 0 ] || echo "   (full log: $log)"
  summary+=("$(printf '%-13s %-50s %25s %5ds' kernel "$([ $rc -eq 0 ] && echo 'stock + patched booted, suites as expected' || echo FAILED)" "" $((SECONDS - start)))")
  return $rc
}

run_target() {
  local t=$1 dir=build/$t args=(-G Ninja -DFASTCOPY_WERROR=ON)
  [ "$t" = kernel ] && { run_kernel; return; }
  case $t in
    # with the hardening Ubuntu's gcc enables by default (a static binary's ifunc
    # resolver once crashed reading the stack canary before TLS existed)
    native-gcc)   args+=(-DCMAKE_C_COMPILER=gcc -DFASTCOPY_PROVE_RIG=ON "-DCMAKE_C_FLAGS=-fstack-protector-strong -fcf-protection" -DCMAKE_ASM_FLAGS=-fcf-protection) ;;
    native-clang) args+=(-DCMAKE_C_COMPILER=clang -DFASTCOPY_HOST_TESTS=OFF) ;;  # fcbench smoke, report selftest: gcc's
    sanitize)     args+=(-DCMAKE_C_COMPILER=gcc "-DFASTCOPY_SANITIZE=address,undefined" -DCMAKE_BUILD_TYPE=RelWithDebInfo) ;;
    riscv64|aarch64|s390x|i686) args+=(-DCMAKE_TOOLCHAIN_FILE="$root/cmake/toolchains/$t-linux-gnu.cmake" -DFASTCOPY_PROVE_RIG=ON) ;;
    aarch64-hwasan) args+=(-DCMAKE_TOOLCHAIN_FILE="$root/cmake/toolchains/aarch64-linux-gnu.cmake"
                           -DFASTCOPY_SANITIZE=hwaddress) ;;
    *) echo "unknown target $t"; return 1 ;;
  esac
  local start=$SECONDS log=$dir/test.log
  mkdir -p "$dir"
  echo "== $t: configure + build"
  local build=()
  [ "$t" = aarch64-hwasan ] && build=(--target test_heap)   # all its tests need
  if ! { cmake -S . -B "$dir" "${args[@]}" >"$dir/configure.log" 2>&1 && cmake --build "$dir" "${build[@]}" >"$dir/build.log" 2>&1; }; then
    tail -n 40 "$dir/configure.log" "$dir/build.log"
    summary+=("$(printf '%-13s FAILED to build' "$t")")
    return 1
  fi
  echo "== $t: ctest -j$jobs"
  local select=()
  case $t in
    aarch64-hwasan) select=(-L hwasan) ;;
    i686|s390x)     select=(-LE heavy) ;;  # their own cut of the heavy suites (tests/CMakeLists.txt)
  esac
  ctest --test-dir "$dir" -j"$jobs" -V "${select[@]}" >"$log" 2>&1
  local rc=$?
  # case counts per suite (summed over shards), then the random seeds for replay
  local counts
  counts=$(awk '/^[0-9]+: [a-z-]+ +TOTAL +[0-9,]+ cases ok$/ { s=$2; n=$4; gsub(",", "", n); sum[s]+=n; tot+=n }
                /^[0-9]+: api +registry\+dispatch checks/ { n=$(NF-2); gsub(",", "", n); api+=n; runs++ }
                END { for (k in sum) printf "%s %d, ", k, sum[k]; printf "api checks %d in %d runs|%d", api, runs, tot }' "$log")
  local cases=${counts##*|}
  echo "   cases: ${counts%|*}"
  echo "   random seeds: $(grep -oE 'random: seed [0-9]+' "$log" | awk '{printf "%s ", $3}')"
  grep -hE '^[0-9]+: (no-libc-calls|install-consumers|prove-rig):' "$log" | sed 's/^[0-9]*: /   /'
  local res
  res=$(grep -E 'tests passed, [0-9]+ tests failed out of' "$log" | tail -n 1)
  if [ $rc -ne 0 ]; then
    grep -E 'FAIL|Failed|\*\*\*' "$log" | head -n 30
    echo "   (full log: $log)"
  fi
  summary+=("$(printf '%-13s %-50s %12d copy cases %5ds' "$t" "${res:-ctest did not finish}" "${cases:-0}" $((SECONDS - start)))")
  return $rc
}

for t in $targets; do
  if run_target "$t"; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done

echo
echo "== summary (copy cases = grid + grid-large + overlap + random + inline, all functions)"
printf '%s\n' "${summary[@]}"
echo "suites: $passed passed, $failed failed"
[ $failed -eq 0 ]
