# riscv64 Linux: gcc-riscv64-linux-gnu; tests under qemu-riscv64 with RVV 1.0 at VLEN 256.
set(FASTCOPY_CROSS_ARCH riscv64)
set(FASTCOPY_QEMU_ARGS -cpu rv64,v=true,vlen=256,vext_spec=v1.0)
include(${CMAKE_CURRENT_LIST_DIR}/cross-linux-gnu.cmake)
