/*
 * memmove overlap suite for every memmove under test.
 *
 *   every distance dst - src from -(n+64) to n+64, for n = 0..600 (both
 *   directions, overlapping and just-not-overlapping), each at two source
 *   alignments and once with dst across a page boundary; plus large overlaps
 *   (4 KiB .. 1 MiB) at the distances that stress word, page and half-length
 *   boundaries.
 *
 * Each case first refills its window (src and dst, 32 bytes beyond each end)
 * with fresh random bytes; a shadow copy of the arena gets the same move from
 * the reference (a copy through a temporary buffer), and afterwards the whole
 * window must equal the shadow.
 */
#include "harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXF 64
#define MARGIN 32

static unsigned char *tmpbuf;
static struct rng fresh; /* refills each case's window: repeated moves would wear the data down to one value */
static unsigned long long ncases;

static void ref_move(unsigned char *d, const unsigned char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) tmpbuf[i] = s[i];
    for (size_t i = 0; i < n; i++) d[i] = tmpbuf[i];
}

static void one(const struct fn_under_test *f, struct arena *A, unsigned char *shadow, size_t src_at, long dist,
                size_t n)
{
    unsigned char *src = A->lo + src_at, *dst = src + dist;
    size_t dst_at = src_at + (size_t)dist;
    cur.n = (long long)n;
    cur.dist = dist;
    cur.src_off = (long long)(src_at & 63);
    cur.dst_off = (long long)(dst_at & 63);
    size_t lo = (dist < 0 ? dst_at : src_at) - MARGIN, hi = (dist < 0 ? src_at : dst_at) + n + MARGIN;
    rng_fill(&fresh, A->lo + lo, hi - lo);
    memcpy(shadow + lo, A->lo + lo, hi - lo);
    ref_move(shadow + dst_at, shadow + src_at, n);
    void *ret = call_under_test(f, dst, src, n);
    if (ret != dst) fail("%s returned %p, expected dst %p", f->label, ret, (void *)dst);
    size_t at = first_diff(A->lo + lo, shadow + lo, hi - lo);
    if (at != (size_t)-1) {
        long rel = (long)(lo + at) - (long)dst_at;
        fail("%s: byte at dst%+ld is 0x%02x, expected 0x%02x (%s)", f->label, rel, A->lo[lo + at], shadow[lo + at],
             rel < 0 || rel >= (long)n ? "outside dst" : "inside dst");
    }
    ncases++;
}

int main(int argc, char **argv)
{
    install_crash_handler();
    struct fn_under_test fns[MAXF];
    size_t nf = collect_functions(argc, argv, fns, MAXF);
    const size_t big = (size_t)1 << 20, span = 4 * big;
    struct arena A = arena_new(span);
    unsigned char *shadow = malloc(A.len);
    tmpbuf = malloc(span);
    if (!shadow || !tmpbuf) fail("out of memory");
    struct rng r;
    rng_seed(&r, 0x0e71a9);
    rng_seed(&fresh, 0xf2e5);
    rng_fill(&r, A.lo, A.len);
    memcpy(shadow, A.lo, A.len);
    cur.suite = "overlap";
    unsigned long long total = 0;
    for (size_t i = 0; i < nf; i++) {
        if (!fns[i].is_memmove) continue;
        cur.fn = fns[i].label;
        ncases = 0;
        cur.placement = "small";
        for (size_t n = 0; n <= 600; n++) {
            long reach = (long)n + 64;
            for (long dist = -reach; dist <= reach; dist++) {
                one(&fns[i], &A, shadow, 4096, dist, n);
                one(&fns[i], &A, shadow, 8192 + 1 + (size_t)((n * 7 + (size_t)(dist + reach)) % 63), dist, n);
                /* dst across a page boundary in its middle: x86 memcpy splits such
                 * copies there; a memmove must keep its all-loads-first copy */
                one(&fns[i], &A, shadow, (size_t)((long)(16384 - n / 2 - 1) - dist), dist, n);
            }
        }
        cur.placement = "large";
        static const size_t sizes[] = {4096, 65536 + 7, (1u << 20) + 3};
        for (size_t k = 0; k < 3; k++) {
            size_t n = sizes[k];
            long d[] = {1, 7, 8, 9, 63, 64, 65, 4095, 4096, 4097, (long)n / 2, (long)n - 1, (long)n};
            for (size_t j = 0; j < sizeof d / sizeof d[0]; j++)
                for (int sign = -1; sign <= 1; sign += 2)
                    for (size_t al = 0; al < 2; al++) one(&fns[i], &A, shadow, big + 64 + al * 3, sign * d[j], n);
        }
        /* a page boundary under dst's first or last 1..64 bytes, for sizes around
         * every width's loop threshold: the x86 loops move the bytes beyond the
         * boundary first there (no store straddles it), which must hold for
         * every overlap */
        cur.placement = "page edge";
        static const size_t esz[] = {129, 200, 257, 300, 513, 700, 1025, 1500, 2049, 4096, 4097, 8191};
        for (size_t k = 0; k < sizeof esz / sizeof esz[0]; k++) {
            size_t n = esz[k];
            long d[] = {1, 2, 7, 8, 31, 32, 33, 63, 64, 65, 127, 128, 129, (long)n / 2, (long)n - 1};
            for (size_t j = 0; j < sizeof d / sizeof d[0]; j++)
                for (int sign = -1; sign <= 1; sign += 2)
                    for (size_t e = 1; e <= 64; e++) {
                        long dist = sign * d[j];
                        size_t pg = 2 * big; /* a page boundary, far from the arena's ends */
                        one(&fns[i], &A, shadow, (size_t)((long)(pg - e) - dist), dist, n);     /* dst starts e below */
                        one(&fns[i], &A, shadow, (size_t)((long)(pg + e - n) - dist), dist, n); /* dst ends e above */
                    }
        }
        print_count(cur.suite, fns[i].label, ncases);
        total += ncases;
    }
    print_count(cur.suite, "TOTAL", total);
    free(shadow);
    free(tmpbuf);
    arena_free(&A);
    return 0;
}
