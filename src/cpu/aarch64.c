/*
 * AArch64 CPU detection for dispatch (Linux).
 *
 *   SVE:   HWCAP_SVE (bit 22 of AT_HWCAP): set by the kernel only where the
 *          CPU has SVE and the kernel saves its state for user space.
 *   ASIMD: HWCAP_ASIMD (bit 1) is part of the Linux LP64 ABI; the neon entry
 *          needs no probe, and fastcopy-info only prints the bit.
 *
 * Runs inside ifunc resolvers, before libc is usable: AT_HWCAP comes from
 * /proc/self/auxv through dispatch/early.c's raw system calls, not getauxval.
 * Cached after the first read (racing first callers store the same value).
 *
 * Test builds only (-DFC_TEST_HOOKS, the fastcopy_hooks library of
 * tests/CMakeLists.txt; never the installed library): FASTCOPY_TEST_HWCAP=HEX
 * replaces AT_HWCAP.
 */
#include <stdint.h>

#include "cpu/aarch64.h"
#include "dispatch/early.h"
#include "internal.h"

#if defined(__aarch64__) && defined(__linux__)

#define FC_AT_HWCAP 16
#define FC_HWCAP_SVE (1ul << 22)

#ifdef FC_TEST_HOOKS
static int fc_test_hwcap(unsigned long *v)
{
    char spec[32];
    if (!fc__early_getenv("FASTCOPY_TEST_HWCAP", spec, sizeof spec) || !spec[0]) return 0;
    uint64_t x = 0; /* hexadecimal, 0x or not (fc__parse_num, dispatch/early.c); 0 where no digit is */
    (void)fc__parse_num(spec, FC_NUM_HEX, &x);
    *v = (unsigned long)x;
    return 1;
}
#endif

static unsigned long fc_hwcap_cache; /* value | 1ul << 63 once read (bit 63 is unused by the kernel) */

unsigned long fc__aarch64_hwcap(void)
{
    unsigned long c = __atomic_load_n(&fc_hwcap_cache, __ATOMIC_RELAXED);
    if (c) return c & ~(1ul << 63);
    unsigned long v = 0;
#ifdef FC_TEST_HOOKS
    if (!fc_test_hwcap(&v))
#endif
    {
        int found;
        v = fc__auxv(FC_AT_HWCAP, &found);
    }
    __atomic_store_n(&fc_hwcap_cache, v | 1ul << 63, __ATOMIC_RELAXED);
    return v;
}

int fc__aarch64_has_sve(void) { return (fc__aarch64_hwcap() & FC_HWCAP_SVE) != 0; }

#endif
