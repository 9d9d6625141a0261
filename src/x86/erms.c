/*
 * erms - rep movsb, for measurement (fcbench --impl erms): low rank, never
 * the default.  CPUs with ERMS (CPUID.7.0:EBX bit 9) promise a fast rep movsb;
 * how fast depends on the CPU family, size, alignment and distance (on AMD
 * Zen 3 it is slow for misaligned destinations and short distances, and
 * backward rep movsb is slow everywhere: ../shared/docs/field-notes.md).
 *
 *   memcpy:  rep movsb for every n.
 *   memmove: rep movsb (forward) unless dst lies inside (src, src + n), where
 *            forward would overwrite unread source bytes; those copies go to
 *            the avx2 (or sse2) memmove, which copies backward.
 */
#if defined(__x86_64__)
#include <stdint.h>

#include "cpu/x86.h"
#include "x86/x86.h"

void *fc_erms_memcpy(void *restrict dst, const void *restrict src, size_t n)
{
    fc__rep_movsb(dst, src, n);
    return dst;
}

void *fc_erms_memmove(void *dst, const void *src, size_t n)
{
    if ((uintptr_t)dst - (uintptr_t)src >= n) { /* dst <= src or no overlap */
        fc__rep_movsb(dst, src, n);
        return dst;
    }
    return fc__x86_info()->avx2 ? fc_avx2_memmove(dst, src, n) : fc_sse2_memmove(dst, src, n);
}
#endif
