/*
 * fastcopy/inline.h - fc_memcpy_inline(): memcpy for small and compile-time-
 * constant sizes, inlined at the call site.
 *
 *   #include <fastcopy/inline.h>      (also includes <fastcopy.h>; link fastcopy)
 *   void *fc_memcpy_inline(void *restrict dst, const void *restrict src, size_t n);
 *
 * What it is for: the rte_memcpy use case - packet headers, descriptors,
 * small records - where a call (PLT + ifunc-chosen routine) costs as much as
 * the copy.  The function is `static inline` and always_inline: there is no
 * call for n <= FC_INLINE_MAX, and when n is a compile-time constant the size
 * ladder below folds away at -O1 and above, leaving a few loads and stores
 * (tests/inline_fold.c + check_inline.cmake check the disassembly of n = 1, 3,
 * 8, ... 256: no call, no branch).  No __builtin_constant_p is needed: the
 * function is always inlined, so a constant n reaches every compare.  Larger
 * n calls the library's fc_memcpy (the routine chosen for the CPU at load
 * time: loops, 4K-aliasing choice, non-temporal stores).
 * Same contract as ISO C memcpy: returns dst, the buffers must not overlap.
 *
 * Size policy (V = the widest vector the translation unit is compiled for):
 *
 *   | n         | AVX2 (V = 32)          | SSE2, NEON (V = 16)    | no vectors (8-byte words) |
 *   |-----------|------------------------|------------------------|---------------------------|
 *   | 0         | nothing                | nothing                | nothing                   |
 *   | 1..3      | bytes first, middle (n / 2), last                                           |
 *   | 4..7      | first 4 and last 4 bytes (two overlapping 32-bit moves)                     |
 *   | 8..15     | first 8 and last 8 bytes (two overlapping 64-bit moves)                     |
 *   | 16..32    | 1 + 1 x 16 (xmm)       | 1 + 1 x 16             | 2 + 2 x 8                 |
 *   | 33..64    | 1 + 1 x 32             | 2 + 2 x 16             | 4 + 4 x 8                 |
 *   | 65..128   | 2 + 2 x 32             | 4 + 4 x 16             | fc_memcpy                 |
 *   | 129..256  | 4 + 4 x 32             | 8 + 8 x 16             | fc_memcpy                 |
 *   | > 256     | fc_memcpy              | fc_memcpy              | fc_memcpy                 |
 *
 * "k + k x W": the first k and the last k W-byte blocks, overlapping in the
 * middle; every load of a class is made before its first store.  These
 * moves are fastcopy/bits/headtail.h's (installed with this header, not an
 * API of its own), the same primitives the library's C routines build their
 * small classes from.  The AVX2
 * build copies 16..32 with xmm registers: no ymm state touched, so no
 * vzeroupper is needed for those sizes.  Every access stays inside
 * [src, src + n) and [dst, dst + n): no over-read.
 *
 * FC_INLINE_MAX (256 with vectors, 64 without) is 8 vector registers from
 * each end: the largest block that is all loads, then all stores, with no loop
 * (16 ymm/xmm registers on x86-64, 32 on AArch64), and where fastcopy's own
 * avx2 routine stops using straight-line blocks (its 8W class; above it come
 * the loops, direction and 4K-aliasing choice and non-temporal stores, which do
 * not belong at every call site).  128..256 B is also where DPDK found a call
 * costly (D21), so an SSE2-only build inlines up to 256
 * too.  Without vectors (riscv64, s390x, ...) the limit is 64: 8 words from
 * each end would not fit the registers, and a call is cheap next to 65 bytes
 * copied a word at a time.
 *
 * ISA selection, by the predefined macros of the translation unit that
 * includes this header (no runtime dispatch, nothing probed):
 *   __AVX2__ (x86, -mavx2 / -march=haswell...)  32-byte ymm (16-byte xmm for 16..32)
 *   __SSE2__ (every x86-64; i386 with -msse2)   16-byte xmm
 *   __ARM_NEON (every AArch64)                  16-byte NEON q registers
 *   otherwise                                   unaligned 8-, 4- and 1-byte scalar moves
 * The unaligned scalar moves are accesses through may_alias, aligned(1)
 * typedefs; where the target's unaligned accesses are not cheap the compiler
 * splits them itself: gcc 12's default riscv64 tuning assembles each word
 * from byte loads and shifts (correct, no call, but about 3 instructions a
 * byte); -mno-strict-align, or a -mtune for a core with fast misaligned
 * access, gives ld/sd.
 *
 * No libc call, at any optimisation level (-O0 included): no memcpy, no
 * __builtin_memcpy, no struct copy, no loop a compiler could turn into a call;
 * only vector intrinsics (always_inline in the compilers' headers) and scalar
 * moves.  The only call is fc_memcpy for n > FC_INLINE_MAX.  Checked by
 * tests/check_inline.cmake: the undefined symbols of a test object at -O0, -O2
 * and -O3 are fc_memcpy and nothing else.
 *
 * Language: C99 or later with GNU C extensions (attributes, vector
 * intrinsics): gcc or clang; a C89 compilation stops with an #error (fastcopy.h
 * alone works from C89).  Also compiles as C++ (restrict becomes __restrict).
 * Silent under
 * -Wall -Wextra -Warray-bounds -Wstringop-overflow -Wconversion -Wcast-qual
 * -Wshadow -Wundef -Werror at -O0/-O2/-O3 with gcc 12 and clang 14
 * (tests/inline_warn.c).
 */
#ifndef FASTCOPY_INLINE_H
#define FASTCOPY_INLINE_H

#include <stddef.h>
#include <stdint.h>

#include <fastcopy.h>

#if !defined(__GNUC__)
#error "fastcopy/inline.h needs gcc or clang (GNU C attributes)"
#endif
#if !defined(__cplusplus) && (!defined(__STDC_VERSION__) || __STDC_VERSION__ < 199901L)
#error "fastcopy/inline.h needs C99 or later (static inline, restrict); fastcopy.h alone works from C89"
#endif

#include <fastcopy/bits/headtail.h>

#if defined(__AVX2__)
#define FC_INLINE_VEC 32
#elif defined(__SSE2__) || defined(__ARM_NEON)
#define FC_INLINE_VEC 16
#else
#define FC_INLINE_VEC 8
#endif

/* Largest n copied inline; above it fc_memcpy is called. */
#if FC_INLINE_VEC >= 16
#define FC_INLINE_MAX 256
#else
#define FC_INLINE_MAX 64
#endif

#ifdef __cplusplus
#define FC_INLINE_RESTRICT __restrict
#else
#define FC_INLINE_RESTRICT restrict
#endif

/* n < 16 (all targets).  The moves are fastcopy/bits/headtail.h's, shared
 * with the library's own small classes: "W x m" is m moves of W bytes, the
 * first m / 2 and the last m / 2, every load before the first store. */
FC_HT_FN void fc_inline_lt16(unsigned char *d, const unsigned char *s, size_t n)
{
    if (n >= 8) {
        fc_ht_8x2(d, s, n);
    } else if (n >= 4) {
        fc_ht_4x2(d, s, n);
    } else if (n) {
        fc_ht_copy_1_3(d, s, n);
    } else {
        /* n = 0 writes nothing.  Said to the compiler as "dst may have been
         * written" (an empty asm, no instruction): without it gcc's
         * -Wmaybe-uninitialized flags a caller that passes a local buffer
         * on after copying a possibly-zero n into it, as it would not after
         * memcpy. */
        __asm__ __volatile__("" : : "r"(d) : "memory");
    }
}

/* The ladder.  Sizes below 16 first (one compare for the most common ones). */
FC_HT_FN void *fc_memcpy_inline(void *FC_INLINE_RESTRICT dst, const void *FC_INLINE_RESTRICT src, size_t n)
{
    unsigned char *d = (unsigned char *)dst;
    const unsigned char *s = (const unsigned char *)src;
    if (n < 16) {
        fc_inline_lt16(d, s, n);
        return dst;
    }
    if (n > FC_INLINE_MAX) return fc_memcpy(dst, src, n);
#if FC_INLINE_VEC == 32
    if (n <= 32)
        fc_ht_16x2(d, s, n);
    else if (n <= 64)
        fc_ht_32x2(d, s, n);
    else if (n <= 128)
        fc_ht_32x4(d, s, n);
    else
        fc_ht_32x8(d, s, n);
#elif FC_INLINE_VEC == 16
    if (n <= 32)
        fc_ht_16x2(d, s, n);
    else if (n <= 64)
        fc_ht_16x4(d, s, n);
    else if (n <= 128)
        fc_ht_16x8(d, s, n);
    else
        fc_ht_16x16(d, s, n);
#else
    if (n <= 32)
        fc_ht_8x4(d, s, n);
    else
        fc_ht_8x8(d, s, n);
#endif
    return dst;
}

#undef FC_INLINE_RESTRICT

#endif /* FASTCOPY_INLINE_H */
