/* Zen 4 L1d-edge harness, 2026-11-27 (not part of the build; results in fwd-pipe-ab.txt beside it).
 * gcc -O2 -mavx2 l1edge-harness.c -ldl; ./a.out N GAP BATCHES SRC_OFF (GAP a multiple of 32: aligned stores).
 * It dlopens three builds of libfastcopy.so: /tmp/ab/base.so (0859204), /tmp/ab/p2f0.so and /tmp/ab/pipe.so
 * (fwd-pipe.patch with FC_FWD_PIPE 2 and FC_PIPE_FWD_MAX 0, and with FC_FWD_PIPE 1).  The first 12-process table
 * in fwd-pipe-ab.txt came from the first 6 kernels alone, with HEAD's fc_memcpy linked in as "fc". */
#define _GNU_SOURCE
#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <dlfcn.h>
typedef unsigned char u8;
void *fc_memcpy(void *, const void *, size_t);
#define LD(p) _mm256_loadu_si256((const __m256i *)(p))
#define ST(p, v) _mm256_store_si256((__m256i *)(p), v)
__attribute__((noinline)) void *k_fwd(u8 *d, const u8 *s, size_t n)
{
    for (size_t i = 0; i < n; i += 128) {
        __m256i a = LD(s + i), b = LD(s + i + 32), c = LD(s + i + 64), e = LD(s + i + 96);
        ST(d + i, a); ST(d + i + 32, b); ST(d + i + 64, c); ST(d + i + 96, e);
    }
    return d;
}
__attribute__((noinline)) void *k_bwd(u8 *d, const u8 *s, size_t n)
{
    for (size_t i = n; i; ) {
        i -= 128;
        __m256i e = LD(s + i + 96), c = LD(s + i + 64), b = LD(s + i + 32), a = LD(s + i);
        ST(d + i + 96, e); ST(d + i + 64, c); ST(d + i + 32, b); ST(d + i, a);
    }
    return d;
}
/* stores trail loads by 256 bytes */
__attribute__((noinline)) void *k_lag256(u8 *d, const u8 *s, size_t n)
{
    __m256i a0 = LD(s), a1 = LD(s + 32), a2 = LD(s + 64), a3 = LD(s + 96);
    __m256i b0 = LD(s + 128), b1 = LD(s + 160), b2 = LD(s + 192), b3 = LD(s + 224);
    size_t i = 256;
    for (; i < n; i += 256) {
        ST(d + i - 256, a0); ST(d + i - 224, a1); ST(d + i - 192, a2); ST(d + i - 160, a3);
        a0 = LD(s + i); a1 = LD(s + i + 32); a2 = LD(s + i + 64); a3 = LD(s + i + 96);
        ST(d + i - 128, b0); ST(d + i - 96, b1); ST(d + i - 64, b2); ST(d + i - 32, b3);
        b0 = LD(s + i + 128); b1 = LD(s + i + 160); b2 = LD(s + i + 192); b3 = LD(s + i + 224);
    }
    ST(d + i - 256, a0); ST(d + i - 224, a1); ST(d + i - 192, a2); ST(d + i - 160, a3);
    ST(d + i - 128, b0); ST(d + i - 96, b1); ST(d + i - 64, b2); ST(d + i - 32, b3);
    return d;
}
/* two streams: low half forward and high half forward, interleaved */
__attribute__((noinline)) void *k_two(u8 *d, const u8 *s, size_t n)
{
    size_t h = n / 2;
    for (size_t i = 0; i < h; i += 64) {
        __m256i a = LD(s + i), b = LD(s + i + 32), c = LD(s + h + i), e = LD(s + h + i + 32);
        ST(d + i, a); ST(d + i + 32, b); ST(d + h + i, c); ST(d + h + i + 32, e);
    }
    return d;
}
__attribute__((noinline)) void *k_movsb(u8 *d, const u8 *s, size_t n)
{
    void *r = d;
    __asm__ volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
    return r;
}

/* loads of the next 128 B before the stores of the current 128 B */
__attribute__((noinline)) void *k_lag128(u8 *d, const u8 *s, size_t n)
{
    __m256i a0 = LD(s), a1 = LD(s + 32), a2 = LD(s + 64), a3 = LD(s + 96);
    size_t i = 128;
    for (; i < n; i += 128) {
        __m256i b0 = LD(s + i), b1 = LD(s + i + 32), b2 = LD(s + i + 64), b3 = LD(s + i + 96);
        ST(d + i - 128, a0); ST(d + i - 96, a1); ST(d + i - 64, a2); ST(d + i - 32, a3);
        a0 = b0; a1 = b1; a2 = b2; a3 = b3;
    }
    ST(d + i - 128, a0); ST(d + i - 96, a1); ST(d + i - 64, a2); ST(d + i - 32, a3);
    return d;
}
__attribute__((noinline)) void *k_fwd2(u8 *d, const u8 *s, size_t n)
{
    for (size_t i = 0; i < n; i += 64) {
        __m256i a = LD(s + i), b = LD(s + i + 32);
        ST(d + i, a); ST(d + i + 32, b);
    }
    return d;
}
/* backward with stores trailing loads by 256 bytes */
__attribute__((noinline)) void *k_blag256(u8 *d, const u8 *s, size_t n)
{
    size_t i = n - 256;
    __m256i a0 = LD(s + i + 128), a1 = LD(s + i + 160), a2 = LD(s + i + 192), a3 = LD(s + i + 224);
    __m256i b0 = LD(s + i), b1 = LD(s + i + 32), b2 = LD(s + i + 64), b3 = LD(s + i + 96);
    while (i) {
        i -= 256;
        ST(d + i + 384, a0); ST(d + i + 416, a1); ST(d + i + 448, a2); ST(d + i + 480, a3);
        a0 = LD(s + i + 128); a1 = LD(s + i + 160); a2 = LD(s + i + 192); a3 = LD(s + i + 224);
        ST(d + i + 256, b0); ST(d + i + 288, b1); ST(d + i + 320, b2); ST(d + i + 352, b3);
        b0 = LD(s + i); b1 = LD(s + i + 32); b2 = LD(s + i + 64); b3 = LD(s + i + 96);
    }
    ST(d + 128, a0); ST(d + 160, a1); ST(d + 192, a2); ST(d + 224, a3);
    ST(d, b0); ST(d + 32, b1); ST(d + 64, b2); ST(d + 96, b3);
    return d;
}

/* as k_lag128, but the loop offset by 32 bytes (as fastcopy's, whose head vector covers the first 32) */
__attribute__((noinline)) void *k_lag128o(u8 *d, const u8 *s, size_t n)
{
    __m256i h = LD(s), t0 = LD(s + n - 128), t1 = LD(s + n - 96), t2 = LD(s + n - 64), t3 = LD(s + n - 32);
    size_t i = 32;
    __m256i a0 = LD(s + i), a1 = LD(s + i + 32), a2 = LD(s + i + 64), a3 = LD(s + i + 96);
    for (i += 128; n - i > 128; i += 128) {
        __m256i b0 = LD(s + i), b1 = LD(s + i + 32), b2 = LD(s + i + 64), b3 = LD(s + i + 96);
        ST(d + i - 128, a0); ST(d + i - 96, a1); ST(d + i - 64, a2); ST(d + i - 32, a3);
        a0 = b0; a1 = b1; a2 = b2; a3 = b3;
    }
    ST(d + i - 128, a0); ST(d + i - 96, a1); ST(d + i - 64, a2); ST(d + i - 32, a3);
    _mm256_storeu_si256((__m256i *)(d + n - 128), t0); _mm256_storeu_si256((__m256i *)(d + n - 96), t1);
    _mm256_storeu_si256((__m256i *)(d + n - 64), t2); _mm256_storeu_si256((__m256i *)(d + n - 32), t3);
    _mm256_storeu_si256((__m256i *)d, h);
    return d;
}
/* the same with the loop at 64 (a 64-byte head) */
__attribute__((noinline)) void *k_lag128e(u8 *d, const u8 *s, size_t n)
{
    __m256i h = LD(s), h1 = LD(s + 32), t0 = LD(s + n - 128), t1 = LD(s + n - 96), t2 = LD(s + n - 64), t3 = LD(s + n - 32);
    size_t i = 64;
    __m256i a0 = LD(s + i), a1 = LD(s + i + 32), a2 = LD(s + i + 64), a3 = LD(s + i + 96);
    for (i += 128; n - i > 128; i += 128) {
        __m256i b0 = LD(s + i), b1 = LD(s + i + 32), b2 = LD(s + i + 64), b3 = LD(s + i + 96);
        ST(d + i - 128, a0); ST(d + i - 96, a1); ST(d + i - 64, a2); ST(d + i - 32, a3);
        a0 = b0; a1 = b1; a2 = b2; a3 = b3;
    }
    ST(d + i - 128, a0); ST(d + i - 96, a1); ST(d + i - 64, a2); ST(d + i - 32, a3);
    _mm256_storeu_si256((__m256i *)(d + n - 128), t0); _mm256_storeu_si256((__m256i *)(d + n - 96), t1);
    _mm256_storeu_si256((__m256i *)(d + n - 64), t2); _mm256_storeu_si256((__m256i *)(d + n - 32), t3);
    _mm256_storeu_si256((__m256i *)d, h); _mm256_storeu_si256((__m256i *)(d + 32), h1);
    return d;
}
/* plain forward, loop offset by 32 */
__attribute__((noinline)) void *k_fwdo(u8 *d, const u8 *s, size_t n)
{
    __m256i h = LD(s), t0 = LD(s + n - 128), t1 = LD(s + n - 96), t2 = LD(s + n - 64), t3 = LD(s + n - 32);
    size_t i = 32;
    for (; n - i > 128; i += 128) {
        __m256i a = LD(s + i), b = LD(s + i + 32), c = LD(s + i + 64), e = LD(s + i + 96);
        ST(d + i, a); ST(d + i + 32, b); ST(d + i + 64, c); ST(d + i + 96, e);
    }
    _mm256_storeu_si256((__m256i *)(d + n - 128), t0); _mm256_storeu_si256((__m256i *)(d + n - 96), t1);
    _mm256_storeu_si256((__m256i *)(d + n - 64), t2); _mm256_storeu_si256((__m256i *)(d + n - 32), t3);
    _mm256_storeu_si256((__m256i *)d, h);
    return d;
}
typedef void *(*kf)(u8 *, const u8 *, size_t);
static const char *names[] = {"base", "fwd", "bwd", "lag256", "two", "movsb", "lag128", "fwd2", "blag256", "p2f0", "pipe", "lag128o", "lag128e", "fwdo"};
static kf ks[] = {(kf)0, k_fwd, k_bwd, k_lag256, k_two, k_movsb, k_lag128, k_fwd2, k_blag256, 0, 0, k_lag128o, k_lag128e, k_fwdo};
#define NK 14
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e9 + t.tv_nsec; }
static int cmp(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return x < y ? -1 : x > y; }
int main(int argc, char **argv)
{
    size_t n = argc > 1 ? strtoul(argv[1], 0, 0) : 16384, gap = argc > 2 ? strtoul(argv[2], 0, 0) : 0;
    int nb = argc > 3 ? atoi(argv[3]) : 41, calls = 1000;
    const char *so[] = {"/tmp/ab/base.so", "/tmp/ab/p2f0.so", "/tmp/ab/pipe.so"}; int slot[] = {0, 9, 10};
    for (int i = 0; i < 3; i++) { void *h = dlopen(so[i], RTLD_NOW | RTLD_LOCAL); if (!h) { printf("%s\n", dlerror()); return 1; } ks[slot[i]] = (kf)dlsym(h, "fc_memcpy"); }
    u8 *s = mmap(0, 1 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    u8 *d = mmap(0, 1 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    memset(s, 1, 1 << 20); memset(d, 2, 1 << 20);
    u8 *dd = d + gap; s += argc > 4 ? atoi(argv[4]) : 0;
    static double t[NK][1024];
    for (int b = 0; b < nb; b++)
        for (int k0 = 0; k0 < NK; k0++) {
            int k = (k0 + b) % NK;
            for (int w = 0; w < 50; w++) ks[k](dd, s, n);
            double t0 = now();
            for (int c = 0; c < calls; c++) { ks[k](dd, s, n); __asm__ volatile("" ::: "memory"); }
            t[k][b] = (now() - t0) / calls;
        }
    for (int k = 0; k < NK; k++) {
        if (memcmp(dd, s, n)) printf("BAD\n");
        qsort(t[k], nb, sizeof(double), cmp);
        printf("%-7s n=%zu gap=%zu  med %6.1f GB/s  p10 %6.1f  p90 %6.1f\n", names[k], n, gap, n / t[k][nb / 2], n / t[k][nb * 9 / 10], n / t[k][nb / 10]);
    }
    return 0;
}
