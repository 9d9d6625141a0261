#!/bin/sh
# Installs the build into a staging prefix, then builds and runs a consumer with
# find_package(fastcopy) (shared and static targets) and with pkg-config.
set -eu
build=$1 consumer=$2 cc=$3
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
if command -v pkg-config >/dev/null; then
  PKG_CONFIG_PATH=$(dirname "$pc") pkg-config --exists --print-errors "fastcopy >= 0.1"
  echo "pkg-config: $(PKG_CONFIG_PATH=$(dirname "$pc") pkg-config --modversion fastcopy)"
fi
echo "install-consumers: 3 consumers built and ran"
