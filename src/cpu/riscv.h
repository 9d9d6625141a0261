/* RISC-V CPU facts for dispatch (src/cpu/riscv.c); safe in ifunc resolvers. */
#ifndef FC_CPU_RISCV_H
#define FC_CPU_RISCV_H

/* Registry probes: nonzero if the CPU has RVV 1.0 usable from user space /
 * if the kernel reports misaligned scalar accesses as FAST. */
int fc__riscv_has_v(void);
int fc__riscv_misaligned_fast(void);

#endif
