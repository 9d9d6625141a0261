/*
 * peak's kernels: the copy loops that set the machine's copy ceilings
 * (bench/scenarios/peak.c), timed beside the contenders by sizes and large too.
 *
 * For each level a copy of n bytes is made whose src + dst (2n) fill about
 * half the level (L1, L2, L3) or four times the last-level cache (DRAM), buffers
 * page-aligned, by every kernel below; the level's peak is the best kernel's
 * median throughput (bytes copied, counted once).  Kernels are best cases, not
 * copy routines: aligned, n a multiple of 256, no size ladder.
 *
 *   kernel        where                   loop
 *   word-loop     everywhere              8 x 8-byte words
 *   sse2-loop     x86-64                  4 x 16 B unaligned loads, aligned stores
 *   avx2-loop     x86-64 with AVX2        4 x 32 B
 *   avx512-loop   x86-64 with AVX-512F    4 x 64 B
 *   rep-movsb     x86-64 with ERMS        one rep movsb
 *   sse2-nt       x86-64                  as sse2-loop, non-temporal stores, sfence
 *   avx2-nt       x86-64 with AVX2        as avx2-loop, non-temporal stores, sfence
 *   avx512-nt     x86-64 with AVX-512F    as avx512-loop, non-temporal stores, sfence
 *   avx2-nt4      x86-64 with AVX2        avx2-nt over four pages at once: 16 KiB blocks, each
 *                                         step 4 x 32 B at one offset of four consecutive pages
 *   avx2-nt-pf    x86-64 with AVX2        avx2-nt with a prefetchnta of every source line 2 KiB
 *                                         ahead, as fastcopy's NT loop does: without it the
 *                                         DRAM "ceiling" was below fastcopy's own NT loop
 *                                         (D42)
 *   neon-loop     AArch64                 4 x 16 B (ld1/st1)
 *
 * This file is built with -fno-builtin (and gcc's
 * -fno-tree-loop-distribute-patterns): no loop may become a memcpy call.
 */
#include "harness.h"

#include <string.h>

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#elif defined(__aarch64__)
#include <arm_neon.h>
#endif

static void *word_loop(void *d, const void *s, size_t n)
{
    unsigned long *dw = d;
    const unsigned long *sw = s;
    for (size_t i = 0; i < n / sizeof *dw; i += 8) {
        unsigned long a = sw[i], b = sw[i + 1], c = sw[i + 2], e = sw[i + 3];
        unsigned long f = sw[i + 4], g = sw[i + 5], h = sw[i + 6], k = sw[i + 7];
        dw[i] = a, dw[i + 1] = b, dw[i + 2] = c, dw[i + 3] = e;
        dw[i + 4] = f, dw[i + 5] = g, dw[i + 6] = h, dw[i + 7] = k;
    }
    return d;
}

#if defined(__x86_64__)
/* One body per vector width: 4 unaligned loads, then 4 stores (STORE: aligned or streaming). */
#define VEC_KERNEL(name, attr, T, W, LOAD, STORE, FENCE)                                            \
    attr static void *name(void *d, const void *s, size_t n)                                        \
    {                                                                                               \
        char *dp = d;                                                                               \
        const char *sp = s;                                                                         \
        for (size_t i = 0; i < n; i += 4 * W) {                                                     \
            T a = LOAD((const T *)(sp + i)), b = LOAD((const T *)(sp + i + W));                      \
            T c = LOAD((const T *)(sp + i + 2 * W)), e = LOAD((const T *)(sp + i + 3 * W));          \
            STORE((T *)(dp + i), a);                                                                \
            STORE((T *)(dp + i + W), b);                                                            \
            STORE((T *)(dp + i + 2 * W), c);                                                        \
            STORE((T *)(dp + i + 3 * W), e);                                                        \
        }                                                                                           \
        FENCE;                                                                                      \
        return d;                                                                                   \
    }
#define NOFENCE ((void)0)
VEC_KERNEL(sse2_loop, , __m128i, 16, _mm_loadu_si128, _mm_store_si128, NOFENCE)
VEC_KERNEL(sse2_nt, , __m128i, 16, _mm_loadu_si128, _mm_stream_si128, _mm_sfence())
VEC_KERNEL(avx2_loop, __attribute__((target("avx2"))), __m256i, 32, _mm256_loadu_si256, _mm256_store_si256, NOFENCE)
VEC_KERNEL(avx2_nt, __attribute__((target("avx2"))), __m256i, 32, _mm256_loadu_si256, _mm256_stream_si256,
           _mm_sfence())
#define LOAD512(p) _mm512_loadu_si512((const void *)(p))
#define STORE512(p, v) _mm512_store_si512((void *)(p), v)
#define STREAM512(p, v) _mm512_stream_si512((void *)(p), v)
VEC_KERNEL(avx512_loop, __attribute__((target("avx512f"))), __m512i, 64, LOAD512, STORE512, NOFENCE)
VEC_KERNEL(avx512_nt, __attribute__((target("avx512f"))), __m512i, 64, LOAD512, STREAM512, _mm_sfence())

/* avx2-nt with every source line prefetched PF_AHEAD bytes ahead (prefetch never faults). */
#define PF_AHEAD 2048
__attribute__((target("avx2"))) static void *avx2_nt_pf(void *d, const void *s, size_t n)
{
    char *dp = d;
    const char *sp = s;
    for (size_t i = 0; i < n; i += 128) {
        _mm_prefetch(sp + i + PF_AHEAD, _MM_HINT_NTA);
        _mm_prefetch(sp + i + PF_AHEAD + 64, _MM_HINT_NTA);
        __m256i a = _mm256_loadu_si256((const __m256i *)(sp + i)), b = _mm256_loadu_si256((const __m256i *)(sp + i + 32));
        __m256i c = _mm256_loadu_si256((const __m256i *)(sp + i + 64)), e = _mm256_loadu_si256((const __m256i *)(sp + i + 96));
        _mm256_stream_si256((__m256i *)(dp + i), a);
        _mm256_stream_si256((__m256i *)(dp + i + 32), b);
        _mm256_stream_si256((__m256i *)(dp + i + 64), c);
        _mm256_stream_si256((__m256i *)(dp + i + 96), e);
    }
    _mm_sfence();
    return d;
}

/* Four interleaved page streams (the Intel policy's large copy; glibc's large_memcpy_4x). */
__attribute__((target("avx2"))) static void *avx2_nt4(void *d, const void *s, size_t n)
{
    char *dp = d;
    const char *sp = s;
    size_t i = 0;
    for (; i + 4 * 4096 <= n; i += 4 * 4096)
        for (size_t o = 0; o < 4096; o += 128) {
            __m256i v[4][4];
            for (size_t p = 0; p < 4; p++)
                for (size_t k = 0; k < 4; k++) v[p][k] = _mm256_loadu_si256((const __m256i *)(sp + i + p * 4096 + o + 32 * k));
            for (size_t p = 0; p < 4; p++)
                for (size_t k = 0; k < 4; k++) _mm256_stream_si256((__m256i *)(dp + i + p * 4096 + o + 32 * k), v[p][k]);
        }
    avx2_nt(dp + i, sp + i, n - i); /* the rest (n is a multiple of 256), and the sfence */
    return d;
}

static void *rep_movsb(void *d, const void *s, size_t n)
{
    void *dd = d;
    __asm__ volatile("rep movsb" : "+D"(dd), "+S"(s), "+c"(n) : : "memory");
    return d;
}

static int has_erms(void)
{
    unsigned a, b, c, e;
    return __get_cpuid_count(7, 0, &a, &b, &c, &e) && (b & (1u << 9));
}
#elif defined(__aarch64__)
static void *neon_loop(void *d, const void *s, size_t n)
{
    uint8_t *dp = d;
    const uint8_t *sp = s;
    for (size_t i = 0; i < n; i += 64) {
        uint8x16_t a = vld1q_u8(sp + i), b = vld1q_u8(sp + i + 16), c = vld1q_u8(sp + i + 32),
                   e = vld1q_u8(sp + i + 48);
        vst1q_u8(dp + i, a);
        vst1q_u8(dp + i + 16, b);
        vst1q_u8(dp + i + 32, c);
        vst1q_u8(dp + i + 48, e);
    }
    return d;
}
#endif

static size_t kernels(struct contender *k)
{
    size_t m = 0;
#define ADD(nm, fn)                                                                                \
    do {                                                                                           \
        memset(&k[m], 0, sizeof k[m]);                                                            \
        snprintf(k[m].name, sizeof k[m].name, "%s", nm);                                          \
        k[m].memcpy_fn = k[m].memmove_fn = fn;                                                    \
        m++;                                                                                       \
    } while (0)
    ADD("word-loop", word_loop);
#if defined(__x86_64__)
    __builtin_cpu_init();
    ADD("sse2-loop", sse2_loop);
    if (__builtin_cpu_supports("avx2")) ADD("avx2-loop", avx2_loop);
    if (__builtin_cpu_supports("avx512f")) ADD("avx512-loop", avx512_loop);
    if (has_erms()) ADD("rep-movsb", rep_movsb);
    ADD("sse2-nt", sse2_nt);
    if (__builtin_cpu_supports("avx2")) ADD("avx2-nt", avx2_nt);
    if (__builtin_cpu_supports("avx512f")) ADD("avx512-nt", avx512_nt);
    if (__builtin_cpu_supports("avx2")) ADD("avx2-nt4", avx2_nt4);
    if (__builtin_cpu_supports("avx2")) ADD("avx2-nt-pf", avx2_nt_pf);
#elif defined(__aarch64__)
    ADD("neon-loop", neon_loop);
#endif
#undef ADD
    return m;
}

/* Every kernel (at most max), for `sizes` to time a ceiling at each size
 * beside the contenders; returns how many were written to k. */
size_t fcbench_peak_kernels(struct contender *k, size_t max)
{
    struct contender all[12];
    size_t nk = kernels(all), m = 0;
    for (size_t j = 0; j < nk && m < max; j++) k[m++] = all[j];
    return m;
}

/* The kernels that can set the DRAM ceiling (non-temporal stores and rep
 * movsb: a cached loop never does), for `large` to time beside the
 * contenders; returns how many were written to k (at most max). */
size_t fcbench_dram_kernels(struct contender *k, size_t max)
{
    struct contender all[12];
    size_t nk = kernels(all), m = 0;
    for (size_t j = 0; j < nk && m < max; j++)
        if (strstr(all[j].name, "-nt") || !strcmp(all[j].name, "rep-movsb")) k[m++] = all[j];
    return m;
}
