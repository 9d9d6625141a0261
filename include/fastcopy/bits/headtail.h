/*
 * fastcopy/bits/headtail.h - the head/tail vocabulary shared by the inline
 * header (fastcopy/inline.h) and the library's C routines (src/portable/word.h,
 * src/x86/vec_copy.h).  Not an API of its own: it is installed because
 * inline.h includes it, and its names (fc_ht_*, FC_HT_*, FC_HEAD_TAIL*) may
 * change.  None is reserved to the implementation (no leading underscore, no
 * double underscore), so a C++ build with -Wreserved-identifier stays quiet.
 *
 * A move is a type T of W bytes with a load LD(p) and a store ST(p, v):
 * unaligned 4- and 8-byte words (below), words composed from byte accesses
 * for strict-alignment targets (portable/word.h), xmm, ymm or NEON vectors
 * (below), the library's zmm (vec_copy.h).  Over any move:
 *
 *   | primitive                           | n              | moves                          |
 *   |-------------------------------------|----------------|--------------------------------|
 *   | fc_ht_copy_1_3(d, s, n)             | 1..3           | bytes first, n / 2 and last    |
 *   | FC_HEAD_TAIL(name, K, T, W, LD, ST) | K W .. 2 K W   | the first K and the last K     |
 *   |                                     |                | moves, overlapping in between: |
 *   |                                     |                | "halves" (below)               |
 *   | FC_HEAD_TAIL_PAIRS(name, K, T, W,   | K W .. 2 K W   | the same moves: "pairs"        |
 *   |                    LD, ST)          |                |                                |
 *
 * Both define `name(d, s, n)`; K is a literal 1, 2, 4 or 8.  Every load comes
 * before the first store, so they are correct for buffers that overlap in
 * either direction (memmove), and no byte outside [s, s + n) or [d, d + n) is
 * touched.  They differ in the order of the moves and in how the tail is
 * addressed, which the compilers keep (D44):
 *   halves  the head's K loads, the tail's K, then the stores in that order;
 *           tail move i at s + (n - (K - i) W), base + index, nothing
 *           computed ahead of the loads (vec_copy.h's ladder and memmove,
 *           word.h);
 *   pairs   head move i, then tail move i; the tail from one pointer,
 *           s + n - K W, plus i W (the shared instances below, used by the
 *           inline header; for K = 1 the two orders are the same).
 *
 * Instances for the moves every user shares, named W x (2 K) - the number of
 * W-byte moves they make:
 *
 *   | instance                      | n         | moves                     | where            |
 *   |-------------------------------|-----------|---------------------------|------------------|
 *   | fc_ht_4x2                     | 4..8      | unaligned 32-bit words    | all targets      |
 *   | fc_ht_8x2, _8x4, _8x8         | 8..16 ... | unaligned 64-bit words    | all targets      |
 *   | fc_ht_16x2, _16x4 .. _16x16   | 16..32 ...| xmm or NEON q registers   | __SSE2__, NEON   |
 *   | fc_ht_32x2, _32x4, _32x8      | 32..64 ...| ymm registers             | __AVX2__         |
 *
 * The unaligned word moves go through may_alias, aligned(1) types: legal
 * under strict aliasing; a target without cheap misaligned access gets byte
 * accesses from the compiler.  Nothing here calls a function, at any
 * optimisation level: only vector intrinsics (always_inline in the
 * compilers' headers) and plain loads and stores.  GNU C (gcc or clang), C99
 * or later, or C++.
 */
#ifndef FASTCOPY_BITS_HEADTAIL_H
#define FASTCOPY_BITS_HEADTAIL_H

#include <stddef.h>
#include <stdint.h>

#if defined(__AVX2__)
#include <immintrin.h>
#elif defined(__SSE2__)
#include <emmintrin.h>
#elif defined(__ARM_NEON)
#include <arm_neon.h>
#endif

#define FC_HT_FN static inline __attribute__((always_inline))

/* ---- moves ---------------------------------------------------------------- */

typedef uint64_t __attribute__((may_alias, aligned(1))) fc_ht_u64u;
typedef uint32_t __attribute__((may_alias, aligned(1))) fc_ht_u32u;
typedef uint16_t __attribute__((may_alias, aligned(1))) fc_ht_u16u;

#define FC_HT_LD8U(p) (*(const fc_ht_u64u *)(const void *)(p))
#define FC_HT_ST8U(p, v) (*(fc_ht_u64u *)(void *)(p) = (v))
#define FC_HT_LD4U(p) (*(const fc_ht_u32u *)(const void *)(p))
#define FC_HT_ST4U(p, v) (*(fc_ht_u32u *)(void *)(p) = (v))

#if defined(__SSE2__)
#define FC_HT_HAVE_V16 1
typedef __m128i fc_ht_v16;
#define FC_HT_LD16(p) _mm_loadu_si128((const __m128i *)(const void *)(p))
#define FC_HT_ST16(p, v) _mm_storeu_si128((__m128i *)(void *)(p), (v))
#elif defined(__ARM_NEON)
#define FC_HT_HAVE_V16 1
typedef uint8x16_t fc_ht_v16;
#define FC_HT_LD16(p) vld1q_u8((const uint8_t *)(const void *)(p))
#define FC_HT_ST16(p, v) vst1q_u8((uint8_t *)(void *)(p), (v))
#else
#define FC_HT_HAVE_V16 0
#endif

#if defined(__AVX2__)
#define FC_HT_HAVE_V32 1
typedef __m256i fc_ht_v32;
#define FC_HT_LD32(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define FC_HT_ST32(p, v) _mm256_storeu_si256((__m256i *)(void *)(p), (v))
#else
#define FC_HT_HAVE_V32 0
#endif

/* ---- 1..3 bytes ----------------------------------------------------------- */

/* 1 <= n <= 3: the first byte, byte n / 2 and the last cover every byte. */
FC_HT_FN void fc_ht_copy_1_3(unsigned char *fc_ht_d, const unsigned char *fc_ht_s, size_t fc_ht_n)
{
    unsigned char fc_ht_a = fc_ht_s[0], fc_ht_m = fc_ht_s[fc_ht_n >> 1], fc_ht_z = fc_ht_s[fc_ht_n - 1];
    fc_ht_d[0] = fc_ht_a;
    fc_ht_d[fc_ht_n >> 1] = fc_ht_m;
    fc_ht_d[fc_ht_n - 1] = fc_ht_z;
}

/* ---- the first K and the last K moves ------------------------------------- */

#define FC_HT_REP1(X, W, M) X(0, W, M)
#define FC_HT_REP2(X, W, M) X(0, W, M) X(1, W, M)
#define FC_HT_REP4(X, W, M) FC_HT_REP2(X, W, M) X(2, W, M) X(3, W, M)
#define FC_HT_REP8(X, W, M) FC_HT_REP4(X, W, M) X(4, W, M) X(5, W, M) X(6, W, M) X(7, W, M)
#define FC_HT_LD_HEAD(i, W, LD) fc_ht_h[i] = LD(fc_ht_s + (i) * (W));
#define FC_HT_ST_HEAD(i, W, ST) ST(fc_ht_d + (i) * (W), fc_ht_h[i]);
/* halves: tail move i at s + (n - (K - i) W) */
#define FC_HT_LD_TAIL(i, W, LD) fc_ht_t[i] = LD(fc_ht_s + (fc_ht_n - (fc_ht_k - (i)) * (W)));
#define FC_HT_ST_TAIL(i, W, ST) ST(fc_ht_d + (fc_ht_n - (fc_ht_k - (i)) * (W)), fc_ht_t[i]);
/* pairs: tail move i at (s + n - K W) + i W */
#define FC_HT_LD_PAIR(i, W, LD) FC_HT_LD_HEAD(i, W, LD) fc_ht_t[i] = LD(fc_ht_se + (i) * (W));
#define FC_HT_ST_PAIR(i, W, ST) FC_HT_ST_HEAD(i, W, ST) ST(fc_ht_de + (i) * (W), fc_ht_t[i]);

#define FC_HT_OPEN(name, K, T)                                                                     \
    FC_HT_FN void name(unsigned char *fc_ht_d, const unsigned char *fc_ht_s, size_t fc_ht_n)       \
    {                                                                                              \
        T fc_ht_h[K], fc_ht_t[K];
/* halves: the head's K moves, then the tail's (loads, then stores) */
#define FC_HEAD_TAIL(name, K, T, W, LD, ST)                                                        \
    FC_HT_OPEN(name, K, T)                                                                         \
    const size_t fc_ht_k = (K);                                                                    \
    FC_HT_REP##K(FC_HT_LD_HEAD, W, LD) FC_HT_REP##K(FC_HT_LD_TAIL, W, LD)                          \
    FC_HT_REP##K(FC_HT_ST_HEAD, W, ST) FC_HT_REP##K(FC_HT_ST_TAIL, W, ST) }
/* pairs: head move i, then tail move i (loads, then stores), the tail
 * addressed from its first byte */
#define FC_HEAD_TAIL_PAIRS(name, K, T, W, LD, ST)                                                  \
    FC_HT_OPEN(name, K, T)                                                                         \
    const unsigned char *fc_ht_se = fc_ht_s + fc_ht_n - (W) * (K);                                 \
    unsigned char *fc_ht_de = fc_ht_d + fc_ht_n - (W) * (K);                                       \
    FC_HT_REP##K(FC_HT_LD_PAIR, W, LD) FC_HT_REP##K(FC_HT_ST_PAIR, W, ST) }

FC_HEAD_TAIL_PAIRS(fc_ht_4x2, 1, uint32_t, 4, FC_HT_LD4U, FC_HT_ST4U) /* 4 <= n <= 8 */
FC_HEAD_TAIL_PAIRS(fc_ht_8x2, 1, uint64_t, 8, FC_HT_LD8U, FC_HT_ST8U) /* 8 <= n <= 16 */
FC_HEAD_TAIL_PAIRS(fc_ht_8x4, 2, uint64_t, 8, FC_HT_LD8U, FC_HT_ST8U) /* 16 <= n <= 32 */
FC_HEAD_TAIL_PAIRS(fc_ht_8x8, 4, uint64_t, 8, FC_HT_LD8U, FC_HT_ST8U) /* 32 <= n <= 64 */
#if FC_HT_HAVE_V16
FC_HEAD_TAIL_PAIRS(fc_ht_16x2, 1, fc_ht_v16, 16, FC_HT_LD16, FC_HT_ST16)  /* 16 <= n <= 32 */
FC_HEAD_TAIL_PAIRS(fc_ht_16x4, 2, fc_ht_v16, 16, FC_HT_LD16, FC_HT_ST16)  /* 32 <= n <= 64 */
FC_HEAD_TAIL_PAIRS(fc_ht_16x8, 4, fc_ht_v16, 16, FC_HT_LD16, FC_HT_ST16)  /* 64 <= n <= 128 */
FC_HEAD_TAIL_PAIRS(fc_ht_16x16, 8, fc_ht_v16, 16, FC_HT_LD16, FC_HT_ST16) /* 128 <= n <= 256 */
#endif
#if FC_HT_HAVE_V32
FC_HEAD_TAIL_PAIRS(fc_ht_32x2, 1, fc_ht_v32, 32, FC_HT_LD32, FC_HT_ST32) /* 32 <= n <= 64 */
FC_HEAD_TAIL_PAIRS(fc_ht_32x4, 2, fc_ht_v32, 32, FC_HT_LD32, FC_HT_ST32) /* 64 <= n <= 128 */
FC_HEAD_TAIL_PAIRS(fc_ht_32x8, 4, fc_ht_v32, 32, FC_HT_LD32, FC_HT_ST32) /* 128 <= n <= 256 */
#endif

#endif /* FASTCOPY_BITS_HEADTAIL_H */
