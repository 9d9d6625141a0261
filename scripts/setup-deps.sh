#!/usr/bin/env bash
# Installs what the README's commands need on Debian 12, or says what is missing.
#   scripts/setup-deps.sh main   native build, the programs fcbench field runs (sqlite3, zstd), and
#                              DPDK's rte_memcpy.h (libdpdk-dev, x86-64: fcbench's peers rte-avx2/rte-avx512)
#   scripts/setup-deps.sh test   + libdpdk-dev (the test build compiles fcbench's peers), clang, cross compilers (riscv64, aarch64, s390x, i686), qemu-user,
#                              and the kernel target's: linux-source-6.12, qemu-system-riscv64
#   scripts/setup-deps.sh kernel-bench   the kernel target's + glib headers for the QEMU plugin
set -euo pipefail
what=${1:-test}

# command -> Debian package
declare -A need=([cmake]=cmake [ninja]=ninja-build [gcc]=gcc [make]=make [pkg-config]=pkg-config [python3]=python3)
if [ "$what" = main ]; then # fcbench field-programs (it skips a program that is missing)
  need+=([sqlite3]=sqlite3 [zstd]=zstd)
fi
if [ "$what" = test ]; then
  need+=([clang]=clang [objdump]=binutils
         [riscv64-linux-gnu-gcc]=gcc-riscv64-linux-gnu [aarch64-linux-gnu-gcc]=gcc-aarch64-linux-gnu
         [s390x-linux-gnu-gcc]=gcc-s390x-linux-gnu [i686-linux-gnu-gcc]=gcc-i686-linux-gnu
         [qemu-i386]=qemu-user
         [qemu-riscv64]=qemu-user [qemu-aarch64]=qemu-user [qemu-s390x]=qemu-user)
fi
if [ "$what" = test ] || [ "$what" = kernel-bench ]; then # kernel/test/run.sh
  need+=([riscv64-linux-gnu-gcc]=gcc-riscv64-linux-gnu [qemu-system-riscv64]=qemu-system-misc
         [qemu-riscv64]=qemu-user [flex]=flex [bison]=bison [bc]=bc [cpio]=cpio [xz]=xz-utils [patch]=patch)
fi
if [ "$what" = kernel-bench ]; then
  need+=([pkg-config]=pkg-config)
fi
missing=()
for cmd in "${!need[@]}"; do
  command -v "$cmd" >/dev/null 2>&1 || missing+=("${need[$cmd]}")
done
# fcbench's peers (bench/peers/): DPDK's rte_memcpy.h, header only; fcbench builds without it
if [ "$(uname -m)" = x86_64 ] && { [ "$what" = main ] || [ "$what" = test ]; }; then
  [ -e /usr/include/x86_64-linux-gnu/dpdk/rte_memcpy.h ] || missing+=(libdpdk-dev)
fi
# static libc (fully static test executables) and the cross sysroots
[ -e /usr/lib/x86_64-linux-gnu/libc.a ] || [ "$(uname -m)" != x86_64 ] || missing+=(libc6-dev)
if [ "$what" = test ]; then
  [ -e /usr/riscv64-linux-gnu/lib/libc.a ] || missing+=(libc6-dev-riscv64-cross)
  [ -e /usr/aarch64-linux-gnu/lib/libc.a ] || missing+=(libc6-dev-arm64-cross)
  [ -e /usr/s390x-linux-gnu/lib/libc.a ] || missing+=(libc6-dev-s390x-cross)
  [ -e /usr/i686-linux-gnu/lib/libc.a ] || missing+=(libc6-dev-i386-cross)
  # the HWASan runtime of the aarch64-hwasan target (a dependency of the cross gcc's libgcc-dev)
  ls /usr/lib/gcc-cross/aarch64-linux-gnu/*/libhwasan.so >/dev/null 2>&1 || missing+=(libhwasan0-arm64-cross)
fi
if [ "$what" = test ] || [ "$what" = kernel-bench ]; then
  [ -e /usr/src/linux-source-6.12.tar.xz ] || missing+=(linux-source-6.12)
  [ -e /usr/riscv64-linux-gnu/lib/libc.a ] || missing+=(libc6-dev-riscv64-cross)
fi
if [ "$what" = kernel-bench ]; then
  pkg-config --exists glib-2.0 2>/dev/null || missing+=(libglib2.0-dev)
fi

# Python modules: matplotlib for the report (make bench), + jsonschema for the
# tests.  Debian's own python3 gets Debian's packages; any other python3 on PATH
# (a venv, pyenv) gets them from PyPI.
py_modules() {
  command -v python3 >/dev/null 2>&1 || return 0
  local mods=(matplotlib) m todo=()
  [ "$what" = test ] && mods+=(jsonschema)
  for m in "${mods[@]}"; do python3 -c "import $m" 2>/dev/null || todo+=("$m"); done
  [ ${#todo[@]} -eq 0 ] && return 0
  if [ "$(python3 -c 'import sys; print(sys.prefix)')" = /usr ] && command -v apt-get >/dev/null; then
    if [ "$(id -u)" -ne 0 ]; then
      echo "fastcopy: missing Python modules ${todo[*]}: as root, apt-get install -y ${todo[*]/#/python3-}" >&2
      return 1
    fi
    echo "fastcopy: installing ${todo[*]/#/python3-}"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${todo[@]/#/python3-}" >/dev/null
  else
    echo "fastcopy: installing Python modules ${todo[*]} (pip, into $(command -v python3))"
    python3 -m pip install --quiet "${todo[@]}" 2>/dev/null ||
      python3 -m pip install --quiet --break-system-packages "${todo[@]}" ||
      { echo "fastcopy: could not install ${todo[*]}: python3 -m pip install ${todo[*]}" >&2; return 1; }
  fi
}

if [ ${#missing[@]} -eq 0 ]; then py_modules; exit $?; fi

mapfile -t missing < <(printf '%s\n' "${missing[@]}" | sort -u)
if [ "$(id -u)" -ne 0 ]; then
  echo "fastcopy: missing Debian packages: ${missing[*]}" >&2
  echo "fastcopy: install them as root:  apt-get install -y ${missing[*]}" >&2
  exit 1
fi
echo "fastcopy: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
if command -v python3 >/dev/null && [ "$(python3 -c 'import sys; print(sys.prefix)')" != /usr ] &&
   ! python3 -m pip --version >/dev/null 2>&1; then
  apt-get install -y -qq python3-pip >/dev/null
fi
py_modules
