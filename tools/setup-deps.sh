#!/usr/bin/env bash
# Installs what the README's commands need on Debian 12, or says what is missing.
#   tools/setup-deps.sh main   native build only
#   tools/setup-deps.sh test   + clang, cross compilers (riscv64, aarch64, s390x), qemu-user
set -euo pipefail
what=${1:-test}

# command -> Debian package
declare -A need=([cmake]=cmake [ninja]=ninja-build [gcc]=gcc [make]=make [pkg-config]=pkg-config [python3]=python3)
if [ "$what" = test ]; then
  need+=([clang]=clang [objdump]=binutils
         [riscv64-linux-gnu-gcc]=gcc-riscv64-linux-gnu [aarch64-linux-gnu-gcc]=gcc-aarch64-linux-gnu
         [s390x-linux-gnu-gcc]=gcc-s390x-linux-gnu
         [qemu-riscv64]=qemu-user [qemu-aarch64]=qemu-user [qemu-s390x]=qemu-user)
fi
missing=()
for cmd in "${!need[@]}"; do
  command -v "$cmd" >/dev/null 2>&1 || missing+=("${need[$cmd]}")
done
# static libc (fully static test executables) and the cross sysroots
[ -e /usr/lib/x86_64-linux-gnu/libc.a ] || [ "$(uname -m)" != x86_64 ] || missing+=(libc6-dev)
if [ "$what" = test ]; then
  [ -e /usr/riscv64-linux-gnu/lib/libc.a ] || missing+=(libc6-dev-riscv64-cross)
  [ -e /usr/aarch64-linux-gnu/lib/libc.a ] || missing+=(libc6-dev-arm64-cross)
  [ -e /usr/s390x-linux-gnu/lib/libc.a ] || missing+=(libc6-dev-s390x-cross)
fi

# Python modules for the fcbench tests/reports, from PyPI into the python3 on PATH.
py_modules() {
  [ "$what" = test ] || return 0
  command -v python3 >/dev/null 2>&1 || return 0
  python3 -c 'import jsonschema' 2>/dev/null && return 0
  echo "fastcopy: installing Python module jsonschema (pip)"
  python3 -m pip install --quiet jsonschema 2>/dev/null ||
    python3 -m pip install --quiet --break-system-packages jsonschema ||
    { echo "fastcopy: could not install jsonschema: python3 -m pip install jsonschema" >&2; return 1; }
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
command -v python3 >/dev/null && ! python3 -m pip --version >/dev/null 2>&1 && apt-get install -y -qq python3-pip >/dev/null
py_modules
