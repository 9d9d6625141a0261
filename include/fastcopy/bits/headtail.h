/*
 * fastcopy/bits/headtail.h - the head/tail vocabulary shared by the inline
 * header (fastcopy/inline.h) and the library's C routines (src/portable/word.h,
 * src/x86/vec_copy.h).  Not an API of its own: it is installed because
 * inline.h includes it, and its names (fc__, FC__) may change.
 *
 * A move is a type T of W bytes with a load LD(p) and a store ST(p, v):
 * unaligned 4- and 8-byte words (below), words composed from byte accesses
 * for strict-alignment targets (portable/word.h), xmm, ymm or NEON vectors
 * (below), the library's zmm (vec_copy.h).  Over any move:
 *
 *   | primitive                          | n              | moves                          |
 *   |------------------------------------|----------------|--------------------------------|
 *   | fc__copy_1_3(d, s, n)              | 1..3           | bytes first, n / 2 and last    |
 *   | FC__HEAD_TAIL(name, K, T, W,       | K W .. 2 K W   | the first K and the last K     |
 *   |               LD, ST)              |                | moves, overlapping in between: |
 *   |                                    |                | "halves" (below)               |
 *   | FC__HEAD_TAIL_PAIRS(name, K, T, W, | K W .. 2 K W   | the same moves: "pairs"        |
 *   |               LD, ST)              |                |                                |
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
 *   | fc__ht_4x2                    | 4..8      | unaligned 32-bit words    | all targets      |
 *   | fc__ht_8x2, _8x4, _8x8        | 8..16 ... | unaligned 64-bit words    | all targets      |
 *   | fc__ht_16x2, _16x4 .. _16x16  | 16..32 ...| xmm or NEON q registers   | __SSE2__, NEON   |
 *   | fc__ht_32x2, _32x4, _32x8     | 32..64 ...| ymm registers             | __AVX2__         |
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

#define FC__HT_FN static inline __attribute__((always_inline))

/* ---- moves ---------------------------------------------------------------- */

typedef uint64_t __attribute__((may_alias, aligned(1))) fc__u64u;
typedef uint32_t __attribute__((may_alias, aligned(1))) fc__u32u;
typedef uint16_t __attribute__((may_alias, aligned(1))) fc__u16u;

#define FC__LD8U(p) (*(const fc__u64u *)(const void *)(p))
#define FC__ST8U(p, v) (*(fc__u64u *)(void *)(p) = (v))
#define FC__LD4U(p) (*(const fc__u32u *)(const void *)(p))
#define FC__ST4U(p, v) (*(fc__u32u *)(void *)(p) = (v))

#if defined(__SSE2__)
#define FC__HT_V16 1
typedef __m128i fc__v16;
#define FC__LD16(p) _mm_loadu_si128((const __m128i *)(const void *)(p))
#define FC__ST16(p, v) _mm_storeu_si128((__m128i *)(void *)(p), (v))
#elif defined(__ARM_NEON)
#define FC__HT_V16 1
typedef uint8x16_t fc__v16;
#define FC__LD16(p) vld1q_u8((const uint8_t *)(const void *)(p))
#define FC__ST16(p, v) vst1q_u8((uint8_t *)(void *)(p), (v))
#else
#define FC__HT_V16 0
#endif

#if defined(__AVX2__)
#define FC__HT_V32 1
typedef __m256i fc__v32;
#define FC__LD32(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define FC__ST32(p, v) _mm256_storeu_si256((__m256i *)(void *)(p), (v))
#else
#define FC__HT_V32 0
#endif

/* ---- 1..3 bytes ----------------------------------------------------------- */

/* 1 <= n <= 3: the first byte, byte n / 2 and the last cover every byte. */
FC__HT_FN void fc__copy_1_3(unsigned char *fc__d, const unsigned char *fc__s, size_t fc__n)
{
    unsigned char fc__a = fc__s[0], fc__m = fc__s[fc__n >> 1], fc__z = fc__s[fc__n - 1];
    fc__d[0] = fc__a;
    fc__d[fc__n >> 1] = fc__m;
    fc__d[fc__n - 1] = fc__z;
}

/* ---- the first K and the last K moves ------------------------------------- */

#define FC__REP1(X, W, M) X(0, W, M)
#define FC__REP2(X, W, M) X(0, W, M) X(1, W, M)
#define FC__REP4(X, W, M) FC__REP2(X, W, M) X(2, W, M) X(3, W, M)
#define FC__REP8(X, W, M) FC__REP4(X, W, M) X(4, W, M) X(5, W, M) X(6, W, M) X(7, W, M)
#define FC__HT_LD_HEAD(i, W, LD) fc__h[i] = LD(fc__s + (i) * (W));
#define FC__HT_ST_HEAD(i, W, ST) ST(fc__d + (i) * (W), fc__h[i]);
/* halves: tail move i at s + (n - (K - i) W) */
#define FC__HT_LD_TAIL(i, W, LD) fc__t[i] = LD(fc__s + (fc__n - (fc__k - (i)) * (W)));
#define FC__HT_ST_TAIL(i, W, ST) ST(fc__d + (fc__n - (fc__k - (i)) * (W)), fc__t[i]);
/* pairs: tail move i at (s + n - K W) + i W */
#define FC__HT_LD_PAIR(i, W, LD) FC__HT_LD_HEAD(i, W, LD) fc__t[i] = LD(fc__se + (i) * (W));
#define FC__HT_ST_PAIR(i, W, ST) FC__HT_ST_HEAD(i, W, ST) ST(fc__de + (i) * (W), fc__t[i]);

#define FC__HT_OPEN(name, K, T)                                                                    \
    FC__HT_FN void name(unsigned char *fc__d, const unsigned char *fc__s, size_t fc__n)            \
    {                                                                                              \
        T fc__h[K], fc__t[K];
/* halves: the head's K moves, then the tail's (loads, then stores) */
#define FC__HEAD_TAIL(name, K, T, W, LD, ST)                                                       \
    FC__HT_OPEN(name, K, T)                                                                        \
    const size_t fc__k = (K);                                                                      \
    FC__REP##K(FC__HT_LD_HEAD, W, LD) FC__REP##K(FC__HT_LD_TAIL, W, LD)                            \
    FC__REP##K(FC__HT_ST_HEAD, W, ST) FC__REP##K(FC__HT_ST_TAIL, W, ST) }
/* pairs: head move i, then tail move i (loads, then stores), the tail
 * addressed from its first byte */
#define FC__HEAD_TAIL_PAIRS(name, K, T, W, LD, ST)                                                 \
    FC__HT_OPEN(name, K, T)                                                                        \
    const unsigned char *fc__se = fc__s + fc__n - (W) * (K);                                       \
    unsigned char *fc__de = fc__d + fc__n - (W) * (K);                                             \
    FC__REP##K(FC__HT_LD_PAIR, W, LD) FC__REP##K(FC__HT_ST_PAIR, W, ST) }

FC__HEAD_TAIL_PAIRS(fc__ht_4x2, 1, uint32_t, 4, FC__LD4U, FC__ST4U) /* 4 <= n <= 8 */
FC__HEAD_TAIL_PAIRS(fc__ht_8x2, 1, uint64_t, 8, FC__LD8U, FC__ST8U) /* 8 <= n <= 16 */
FC__HEAD_TAIL_PAIRS(fc__ht_8x4, 2, uint64_t, 8, FC__LD8U, FC__ST8U) /* 16 <= n <= 32 */
FC__HEAD_TAIL_PAIRS(fc__ht_8x8, 4, uint64_t, 8, FC__LD8U, FC__ST8U) /* 32 <= n <= 64 */
#if FC__HT_V16
FC__HEAD_TAIL_PAIRS(fc__ht_16x2, 1, fc__v16, 16, FC__LD16, FC__ST16)  /* 16 <= n <= 32 */
FC__HEAD_TAIL_PAIRS(fc__ht_16x4, 2, fc__v16, 16, FC__LD16, FC__ST16)  /* 32 <= n <= 64 */
FC__HEAD_TAIL_PAIRS(fc__ht_16x8, 4, fc__v16, 16, FC__LD16, FC__ST16)  /* 64 <= n <= 128 */
FC__HEAD_TAIL_PAIRS(fc__ht_16x16, 8, fc__v16, 16, FC__LD16, FC__ST16) /* 128 <= n <= 256 */
#endif
#if FC__HT_V32
FC__HEAD_TAIL_PAIRS(fc__ht_32x2, 1, fc__v32, 32, FC__LD32, FC__ST32) /* 32 <= n <= 64 */
FC__HEAD_TAIL_PAIRS(fc__ht_32x4, 2, fc__v32, 32, FC__LD32, FC__ST32) /* 64 <= n <= 128 */
FC__HEAD_TAIL_PAIRS(fc__ht_32x8, 4, fc__v32, 32, FC__LD32, FC__ST32) /* 128 <= n <= 256 */
#endif

#endif /* FASTCOPY_BITS_HEADTAIL_H */
