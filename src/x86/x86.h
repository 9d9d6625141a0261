/* Entry points of the x86-64 implementations (registered in src/registry.c):
 * src/x86/sse2.c, avx2.c (with avx2_ladder.S), avx512.c, avx512_ymmloop.c,
 * avx512_masked.c and erms.c.  What they read of the CPU layer (the settings,
 * rep movsb) is in src/cpu/x86.h. */
#ifndef FC_X86_H
#define FC_X86_H

#include <stddef.h>

#include "portable/portable.h"

FC_DECLARE_IMPL(sse2);
FC_DECLARE_IMPL(avx2);
FC_DECLARE_IMPL(avx512);
FC_DECLARE_IMPL(avx512_ymmloop);
FC_DECLARE_IMPL(avx512_masked);
FC_DECLARE_IMPL(erms);

/* avx2_ladder.S's way into avx2.c (vec_copy.h): n > 256, and memcpy's page split */
void *fc_avx2_large(void *dst, const void *src, size_t n);
void *fc_avx2_split(void *dst, const void *src, size_t n);

#endif
