/*
 * The targets on which early.c makes its own system calls (no libc), so that
 * dispatch can run inside an ifunc resolver: Linux on x86-64, AArch64, RV64
 * and s390x - the four that make test runs (natively and under qemu-user).
 * CMakeLists.txt includes this file to decide FASTCOPY_DISPATCH=auto: ifunc
 * on a glibc target listed here, a function pointer set by a constructor
 * everywhere else (where early.c falls back to libc's open/read/write, which
 * is only safe once libc is initialised).
 */
#ifndef FC_RAW_SYSCALLS_H
#define FC_RAW_SYSCALLS_H

#if defined(__linux__) &&                                                                          \
    (defined(__x86_64__) || defined(__aarch64__) || (defined(__riscv) && __riscv_xlen == 64) ||    \
     defined(__s390x__))
#define FC_RAW_SYSCALLS 1
#else
#define FC_RAW_SYSCALLS 0
#endif

#endif
