/* A standalone harness for the Emerald Rapids lease of 2026-11-27 09:35 (not part of the build;
 * see the README beside it).  Fixed placements: src at `so`, dst at `do` bytes past a page start
 * in two page-aligned mappings; each kernel timed over 2,000,000 / (n / 64 + 20) calls, kernels
 * alternated, argv[1] rounds (default 15), medians in GB/s.
 *   MODE 1: ways around split loads at relatively misaligned placements (sh_*: aligned loads
 *           shifted into place by vpermt2b; us_fwd: aligned loads, unaligned stores; ul32_fwd:
 *           ymm) against the unaligned-load zmm loop (ul_*)
 *   MODE 2: fastcopy's loop shapes bare (ul_fwd4, ul_bwd4: 4 edge vectors preloaded) against
 *           one-vector edges (ul_fwd, ul_bwd)
 *   MODE 3: the avx512 entry compiled in six ways (var.c, var-build.sh)
 * gcc -O2 -mavx512f -mavx512bw -mavx512vbmi -DMODE=N micro.c libfastcopy.a */
#define _GNU_SOURCE
#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#ifndef MODE
#define MODE 1
#endif
typedef unsigned char u8;
void *fc_memcpy(void *, const void *, size_t);
#if MODE == 3
void *fc_vA_memcpy(void *, const void *, size_t); void *fc_vB_memcpy(void *, const void *, size_t);
void *fc_vC_memcpy(void *, const void *, size_t); void *fc_vD_memcpy(void *, const void *, size_t);
void *fc_vE_memcpy(void *, const void *, size_t); void *fc_vF_memcpy(void *, const void *, size_t);
#endif

__attribute__((noinline)) void *ul_fwd(u8 *d, const u8 *s, size_t n)
{
    __m512i h = _mm512_loadu_si512(s), t = _mm512_loadu_si512(s + n - 64);
    size_t skip = 64 - ((uintptr_t)d & 63);
    u8 *dp = d + skip, *dend = d + n;
    const u8 *sp = s + skip;
    while ((size_t)(dend - dp) > 256) {
        __m512i a = _mm512_loadu_si512(sp), b = _mm512_loadu_si512(sp + 64), c = _mm512_loadu_si512(sp + 128),
                e = _mm512_loadu_si512(sp + 192);
        _mm512_store_si512(dp, a); _mm512_store_si512(dp + 64, b); _mm512_store_si512(dp + 128, c); _mm512_store_si512(dp + 192, e);
        dp += 256; sp += 256;
    }
    for (; dend - dp > 64; dp += 64, sp += 64) _mm512_store_si512(dp, _mm512_loadu_si512(sp));
    _mm512_storeu_si512(dend - 64, t);
    _mm512_storeu_si512(d, h);
    return d;
}

__attribute__((noinline)) void *ul_bwd(u8 *d, const u8 *s, size_t n)
{
    __m512i h = _mm512_loadu_si512(s), t = _mm512_loadu_si512(s + n - 64);
    u8 *dend = d + n;
    size_t skip = (((uintptr_t)dend - 1) & 63) + 1;
    u8 *dp = dend - skip;
    const u8 *sp = s + n - skip;
    while ((size_t)(dp - d) > 256) {
        dp -= 256; sp -= 256;
        __m512i e = _mm512_loadu_si512(sp + 192), c = _mm512_loadu_si512(sp + 128), b = _mm512_loadu_si512(sp + 64),
                a = _mm512_loadu_si512(sp);
        _mm512_store_si512(dp + 192, e); _mm512_store_si512(dp + 128, c); _mm512_store_si512(dp + 64, b); _mm512_store_si512(dp, a);
    }
    for (; dp - d > 64;) { dp -= 64; sp -= 64; _mm512_store_si512(dp, _mm512_loadu_si512(sp)); }
    _mm512_storeu_si512(d, h);
    _mm512_storeu_si512(dend - 64, t);
    return d;
}

static const u8 iota[64] __attribute__((aligned(64))) = {
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31,
    32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63};

/* forward: dst stores aligned, src loads aligned, each output = bytes r..r+63 of two adjacent src blocks */
__attribute__((noinline)) void *sh_fwd(u8 *d, const u8 *s, size_t n)
{
    __m512i h = _mm512_loadu_si512(s), h2 = _mm512_loadu_si512(s + 64), t = _mm512_loadu_si512(s + n - 64);
    size_t skip = 64 - ((uintptr_t)d & 63);
    u8 *dp = d + skip, *dend = d + n;
    const u8 *sp = s + skip;
    size_t r = (uintptr_t)sp & 63;
    if (r > skip) dp += 64, sp += 64;  /* keep the first aligned load inside src */
    const u8 *sa = sp - r, *send = s + n;
    __m512i idx = _mm512_add_epi8(_mm512_load_si512(iota), _mm512_set1_epi8((char)r));
    __m512i p = _mm512_load_si512(sa);
    while (send - sa >= 5 * 64) {
        __m512i a = _mm512_load_si512(sa + 64), b = _mm512_load_si512(sa + 128), c = _mm512_load_si512(sa + 192),
                e = _mm512_load_si512(sa + 256);
        _mm512_store_si512(dp, _mm512_permutex2var_epi8(p, idx, a));
        _mm512_store_si512(dp + 64, _mm512_permutex2var_epi8(a, idx, b));
        _mm512_store_si512(dp + 128, _mm512_permutex2var_epi8(b, idx, c));
        _mm512_store_si512(dp + 192, _mm512_permutex2var_epi8(c, idx, e));
        p = e; sa += 256; dp += 256;
    }
    for (; dend - dp > 64; dp += 64) _mm512_store_si512(dp, _mm512_loadu_si512(s + (dp - d)));
    _mm512_storeu_si512(dend - 64, t);
    _mm512_storeu_si512(d, h);
    _mm512_storeu_si512(d + 64, h2);
    return d;
}

__attribute__((noinline)) void *sh_bwd(u8 *d, const u8 *s, size_t n)
{
    __m512i h = _mm512_loadu_si512(s), t = _mm512_loadu_si512(s + n - 64), t2 = _mm512_loadu_si512(s + n - 128);
    u8 *dend = d + n;
    size_t skip = (((uintptr_t)dend - 1) & 63) + 1; /* 1..64 */
    u8 *dp = dend - skip;                              /* aligned: the block [dp-64, dp) next */
    const u8 *sp = s + n - skip;                       /* the src byte for dp */
    size_t r = (uintptr_t)sp & 63;                     /* block below dp: src [sp-64, sp) = aligned [sa-64, sa+64) at r */
    /* the top aligned load is [sp - r, sp - r + 64) when r > 0: must end inside src: sp - r + 64 <= s + n */
    if (64 - r > skip) dp -= 64, sp -= 64;
    const u8 *sa = sp - r; /* aligned; the block [dp-64,dp) = bytes r..r+63 of [sa-64, sa+64) */
    __m512i idx = _mm512_add_epi8(_mm512_load_si512(iota), _mm512_set1_epi8((char)r));
    __m512i p = _mm512_load_si512(sa); /* upper */
    while (sa - s >= 4 * 64) {
        __m512i a = _mm512_load_si512(sa - 64), b = _mm512_load_si512(sa - 128), c = _mm512_load_si512(sa - 192),
                e = _mm512_load_si512(sa - 256);
        _mm512_store_si512(dp - 64, _mm512_permutex2var_epi8(a, idx, p));
        _mm512_store_si512(dp - 128, _mm512_permutex2var_epi8(b, idx, a));
        _mm512_store_si512(dp - 192, _mm512_permutex2var_epi8(c, idx, b));
        _mm512_store_si512(dp - 256, _mm512_permutex2var_epi8(e, idx, c));
        p = e; sa -= 256; dp -= 256;
    }
    for (; dp - d > 64;) { dp -= 64; _mm512_store_si512(dp, _mm512_loadu_si512(s + (dp - d))); }
    _mm512_storeu_si512(d, h);
    _mm512_storeu_si512(dend - 128, t2);
    _mm512_storeu_si512(dend - 64, t);
    return d;
}


/* aligned loads, unaligned stores */
__attribute__((noinline)) void *us_fwd(u8 *d, const u8 *s, size_t n)
{
    __m512i h = _mm512_loadu_si512(s), t = _mm512_loadu_si512(s + n - 64);
    size_t skip = 64 - ((uintptr_t)s & 63);
    u8 *dp = d + skip, *dend = d + n;
    const u8 *sp = s + skip;
    while ((size_t)(dend - dp) > 256) {
        __m512i a = _mm512_load_si512(sp), b = _mm512_load_si512(sp + 64), c = _mm512_load_si512(sp + 128),
                e = _mm512_load_si512(sp + 192);
        _mm512_storeu_si512(dp, a); _mm512_storeu_si512(dp + 64, b); _mm512_storeu_si512(dp + 128, c); _mm512_storeu_si512(dp + 192, e);
        dp += 256; sp += 256;
    }
    for (; dend - dp > 64; dp += 64, sp += 64) _mm512_storeu_si512(dp, _mm512_loadu_si512(sp));
    _mm512_storeu_si512(dend - 64, t);
    _mm512_storeu_si512(d, h);
    return d;
}
/* ymm: unaligned loads, aligned stores */
__attribute__((noinline)) void *ul32_fwd(u8 *d, const u8 *s, size_t n)
{
    __m256i h = _mm256_loadu_si256((const void *)s), t = _mm256_loadu_si256((const void *)(s + n - 32));
    size_t skip = 32 - ((uintptr_t)d & 31);
    u8 *dp = d + skip, *dend = d + n;
    const u8 *sp = s + skip;
    while ((size_t)(dend - dp) > 128) {
        __m256i a = _mm256_loadu_si256((const void *)sp), b = _mm256_loadu_si256((const void *)(sp + 32)), c = _mm256_loadu_si256((const void *)(sp + 64)),
                e = _mm256_loadu_si256((const void *)(sp + 96));
        _mm256_store_si256((void *)dp, a); _mm256_store_si256((void *)(dp + 32), b); _mm256_store_si256((void *)(dp + 64), c); _mm256_store_si256((void *)(dp + 96), e);
        dp += 128; sp += 128;
    }
    for (; dend - dp > 32; dp += 32, sp += 32) _mm256_store_si256((void *)dp, _mm256_loadu_si256((const void *)sp));
    _mm256_storeu_si256((void *)(dend - 32), t);
    _mm256_storeu_si256((void *)d, h);
    return d;
}

/* fc_loop_bwd's shape: 4 head vectors and the tail preloaded, loop while more than 4 vectors remain, head 4 and tail stored last */
__attribute__((noinline)) void *ul_bwd4(u8 *d, const u8 *s, size_t n)
{
    __m512i h0 = _mm512_loadu_si512(s), h1 = _mm512_loadu_si512(s + 64), h2 = _mm512_loadu_si512(s + 128), h3 = _mm512_loadu_si512(s + 192);
    __m512i t = _mm512_loadu_si512(s + n - 64);
    u8 *dend = d + n;
    size_t skip = (((uintptr_t)dend - 1) & 63) + 1;
    u8 *dp = dend - skip;
    const u8 *sp = s + n - skip;
    do {
        dp -= 256; sp -= 256;
        __m512i e = _mm512_loadu_si512(sp + 192), c = _mm512_loadu_si512(sp + 128), b = _mm512_loadu_si512(sp + 64),
                a = _mm512_loadu_si512(sp);
        _mm512_store_si512(dp + 192, e); _mm512_store_si512(dp + 128, c); _mm512_store_si512(dp + 64, b); _mm512_store_si512(dp, a);
    } while ((size_t)(dp - d) > 256);
    _mm512_storeu_si512(d, h0); _mm512_storeu_si512(d + 64, h1); _mm512_storeu_si512(d + 128, h2); _mm512_storeu_si512(d + 192, h3);
    _mm512_storeu_si512(dend - 64, t);
    return d;
}
/* fc_loop_fwd's shape: the head and 4 tail vectors preloaded */
__attribute__((noinline)) void *ul_fwd4(u8 *d, const u8 *s, size_t n)
{
    __m512i h = _mm512_loadu_si512(s);
    __m512i t0 = _mm512_loadu_si512(s + n - 256), t1 = _mm512_loadu_si512(s + n - 192), t2 = _mm512_loadu_si512(s + n - 128), t3 = _mm512_loadu_si512(s + n - 64);
    size_t skip = 64 - ((uintptr_t)d & 63);
    u8 *dp = d + skip, *dend = d + n;
    const u8 *sp = s + skip;
    do {
        __m512i a = _mm512_loadu_si512(sp), b = _mm512_loadu_si512(sp + 64), c = _mm512_loadu_si512(sp + 128),
                e = _mm512_loadu_si512(sp + 192);
        _mm512_store_si512(dp, a); _mm512_store_si512(dp + 64, b); _mm512_store_si512(dp + 128, c); _mm512_store_si512(dp + 192, e);
        dp += 256; sp += 256;
    } while ((size_t)(dend - dp) > 256);
    _mm512_storeu_si512(dend - 256, t0); _mm512_storeu_si512(dend - 192, t1); _mm512_storeu_si512(dend - 128, t2); _mm512_storeu_si512(dend - 64, t3);
    _mm512_storeu_si512(d, h);
    return d;
}

static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e9 + t.tv_nsec; }
typedef void *(*fn)(u8 *, const u8 *, size_t);
static void *libc_(u8 *d, const u8 *s, size_t n) { return memcpy(d, s, n); }
static void *fc_(u8 *d, const u8 *s, size_t n) { return fc_memcpy(d, s, n); }
static int cmpd(const void *a, const void *b) { double x = *(double *)a, y = *(double *)b; return x < y ? -1 : x > y; }

int main(int argc, char **argv)
{
    size_t cap = 1 << 20;
    u8 *A = mmap(0, cap, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), *B = mmap(0, cap, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    memset(A, 1, cap); memset(B, 2, cap);
    /* correctness */
    for (size_t n = MODE == 1 ? 256 : 520; n < 3000; n += 37)
        for (int so = 0; so < 64; so += 5)
            for (int dd = 0; dd < 64; dd += 3) {
                for (size_t i = 0; i < n + 256; i++) A[i] = (u8)(i * 7 + 3), B[i] = 0xee;
                fn fs[8] = {ul_fwd, ul_bwd, sh_fwd, sh_bwd, us_fwd, ul32_fwd, ul_bwd4, ul_fwd4}; /* the last two: n > 512, as fc_loop_fwd/_bwd */
                for (int k = 0; k < (n > 512 ? 8 : 6); k++) {
                    memset(B, 0xee, n + 256);
                    fs[k](B + 64 + dd, A + 64 + so, n);
                    if (memcmp(B + 64 + dd, A + 64 + so, n) || B[63 + dd] != 0xee || B[64 + dd + n] != 0xee) { printf("BAD k%d n%zu so%d dd%d\n", k, n, so, dd); return 1; }
                }
            }
    puts("correct");
#if MODE == 1 /* the shifted loop and other ways around split loads */
    static const size_t ns[] = {1024, 4096, 16384, 65536};
    static const int pl[][2] = {{0, 0}, {52, 63}, {7, 51}, {22, 13}, {53, 63}, {0, 1}, {1, 0}, {0, 32}, {32, 0}};
    const char *names[] = {"libc", "fc", "ul_fwd", "ul_bwd", "sh_fwd", "sh_bwd", "us_fwd", "ul32_fwd"};
    fn fns[] = {libc_, fc_, ul_fwd, ul_bwd, sh_fwd, sh_bwd, us_fwd, ul32_fwd};
    int K = 8;
#elif MODE == 2 /* fc's loop shapes (edges preloaded) against one-vector edges */
    static const size_t ns[] = {513, 768, 1024, 1025, 2048, 4096};
    static const int pl[][2] = {{0, 0}, {0, 64}, {64, 0}, {0, 1024}};
    const char *names[] = {"libc", "fc", "ul_fwd", "ul_fwd4", "ul_bwd", "ul_bwd4"};
    fn fns[] = {libc_, fc_, ul_fwd, ul_fwd4, ul_bwd, ul_bwd4};
    int K = 6;
#else /* MODE 3: fc's avx512 entry compiled in with parts of its entry path left out (var.c) */
    static const size_t ns[] = {513, 768, 1024, 1025, 1536, 2048, 4096};
    static const int pl[][2] = {{0, 0}, {64, 0}, {0, 1024}, {5, 1029}};
    const char *names[] = {"libc", "fc", "vA", "vB", "vC", "vD", "vE", "vF", "ul_fwd4"};
    fn fns[] = {libc_, fc_, (fn)fc_vA_memcpy, (fn)fc_vB_memcpy, (fn)fc_vC_memcpy, (fn)fc_vD_memcpy, (fn)fc_vE_memcpy, (fn)fc_vF_memcpy, ul_fwd4};
    int K = 9;
#endif
    int S = argc > 1 ? atoi(argv[1]) : 15;
    printf("%-6s %-8s", "n", "so,do");
    for (int k = 0; k < K; k++) printf(" %8s", names[k]);
    printf("   (GB/s, median of %d)\n", S);
    for (size_t ni = 0; ni < sizeof ns / sizeof ns[0]; ni++)
        for (size_t pi = 0; pi < sizeof pl / sizeof pl[0]; pi++) {
            size_t n = ns[ni];
            u8 *s = A + 4096 * 4 + pl[pi][0], *d = B + 4096 * 4 + pl[pi][1];
            double t[9][64];
            long it = 2000000 / (n / 64 + 20);
            for (int r = 0; r < S; r++)
                for (int k = 0; k < K; k++) {
                    fns[k](d, s, n);
                    double t0 = now();
                    for (long i = 0; i < it; i++) { fns[k](d, s, n); __asm__ volatile("" ::: "memory"); }
                    t[k][r] = (now() - t0) / it;
                }
            printf("%-6zu %2d,%-5d", n, pl[pi][0], pl[pi][1]);
            for (int k = 0; k < K; k++) { qsort(t[k], S, sizeof(double), cmpd); printf(" %8.1f", n / t[k][S / 2]); }
            printf("\n");
        }
    return 0;
}
