# 32-bit x86 Linux: gcc-i686-linux-gnu; tests under qemu-i386.  A glibc target
# outside the four with raw-syscall dispatch: FASTCOPY_DISPATCH=auto must pick
# the function pointer there, and the portable entries must hold on ILP32.
set(FASTCOPY_CROSS_ARCH i686)
set(FASTCOPY_QEMU qemu-i386)
set(FASTCOPY_QEMU_ARGS "")
include(${CMAKE_CURRENT_LIST_DIR}/cross-linux-gnu.cmake)
