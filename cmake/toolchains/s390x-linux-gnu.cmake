# s390x Linux, the big-endian target: gcc-s390x-linux-gnu; tests under qemu-s390x.
set(FASTCOPY_CROSS_ARCH s390x)
set(FASTCOPY_QEMU_ARGS "")
include(${CMAKE_CURRENT_LIST_DIR}/cross-linux-gnu.cmake)
