# aarch64 Linux: gcc-aarch64-linux-gnu; tests under qemu-aarch64 with SVE at 256 bits.
set(FASTCOPY_CROSS_ARCH aarch64)
set(FASTCOPY_QEMU_ARGS -cpu max,sve256=on)
include(${CMAKE_CURRENT_LIST_DIR}/cross-linux-gnu.cmake)
