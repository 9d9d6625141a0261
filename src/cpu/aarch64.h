/* AArch64 CPU facts for dispatch (src/cpu/aarch64.c); safe in ifunc resolvers. */
#ifndef FC_CPU_AARCH64_H
#define FC_CPU_AARCH64_H

/* AT_HWCAP as dispatch sees it (0 if unreadable). */
unsigned long fc__aarch64_hwcap(void);
/* Registry probe: nonzero if the kernel lets this process use SVE. */
int fc__aarch64_has_sve(void);

#endif
