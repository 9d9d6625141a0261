/*
 * Exhaustive placement grid for every function under test.
 *
 *   small: n = 0..1024 x src_off 0..63 x dst_off 0..63 (--offsets N: 0..N-1,
 *          for the extra qemu runs of a vector routine), buffers in the middle
 *          of guard-paged arenas with 64 sentinel bytes checked on each side
 *          of dst; plus, for every mutual offset (dst_off - src_off) mod 64,
 *          four flush placements: src ending right at a PROT_NONE page, src
 *          starting right after one, and the same for dst; and dst across a
 *          page boundary at every position within 260 bytes of either end
 *          (132 off x86-64; every 64th between), with src placed for both
 *          copy directions.
 *   large: sizes from 2 KiB to 16 MiB (--max-size N: to N, for the slow
 *          emulated targets) around every power of two (+-1) and page
 *          multiples, at offset pairs covering every source shift and
 *          the four flush placements (fewer cases per size above 1 MiB), and
 *          dst across a page boundary 1..257 bytes from either end.
 *
 * Checks: the return value is dst; dst[0..n) equals src; no byte outside dst
 * changed (sentinels, or the guard page itself on a flush side); no access
 * beyond either buffer's page (the guard pages turn it into SIGSEGV, which
 * the crash handler reports with the case).  The source pattern never holds
 * the sentinel value, so a byte the copy skips can never look right.
 */
#include "harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SENT 0xA5
#define SIDE 64
#define MAXF 64

static unsigned long long ncases;

static void fill_source(unsigned char *p, size_t n, uint64_t seed)
{
    struct rng r;
    rng_seed(&r, seed);
    rng_fill(&r, p, n);
    for (size_t i = 0; i < n; i++)
        if (p[i] == SENT) p[i] = (unsigned char)~SENT;
}

/* One copy; [lo, hi) is the checked window around dst (sentinels outside dst). */
static void check_one(const struct fn_under_test *f, unsigned char *dst, const unsigned char *src, size_t n,
                      unsigned char *lo, unsigned char *hi)
{
    cur.n = (long long)n;
    void *ret = call_under_test(f, dst, src, n);
    if (ret != dst) fail("%s returned %p, expected dst %p", f->label, ret, (void *)dst);
    size_t at = first_diff(dst, src, n);
    if (at != (size_t)-1)
        fail("%s: dst[%zu] = 0x%02x, expected 0x%02x", f->label, at, dst[at], src[at]);
    static unsigned char sent[SIDE];
    if (!sent[0]) memset(sent, SENT, SIDE);
    size_t below = (size_t)(dst - lo), above = (size_t)(hi - (dst + n));
    if (memcmp(lo, sent, below) != 0 || memcmp(dst + n, sent, above) != 0) {
        for (unsigned char *p = lo; p < hi; p++) {
            if (p == dst) p += n;
            if (p < hi && *p != SENT)
                fail("%s wrote outside dst: byte at dst%+td changed to 0x%02x", f->label, p - dst, *p);
        }
    }
    memset(dst, SENT, n);
    ncases++;
}

static unsigned char *clamp_lo(unsigned char *p, const struct arena *a) { return p < a->lo ? a->lo : p; }
static unsigned char *clamp_hi(unsigned char *p, const struct arena *a) { return p > a->hi ? a->hi : p; }

/* The four flush placements for size n and mutual offset delta = (dst - src) mod 64. */
static void flush_placements(const struct fn_under_test *f, struct arena *S, struct arena *D, size_t n, size_t delta)
{
    size_t ps = page_size();
    unsigned char *src, *dst;
    cur.dist = (long long)delta;

    cur.placement = "src flush before guard";
    src = S->hi - n;
    dst = D->lo + ps + (((uintptr_t)src + delta) & 63);
    check_one(f, dst, src, n, dst - SIDE, clamp_hi(dst + n + SIDE, D));

    cur.placement = "src flush after guard";
    src = S->lo;
    dst = D->lo + ps + delta;
    check_one(f, dst, src, n, dst - SIDE, clamp_hi(dst + n + SIDE, D));

    cur.placement = "dst flush before guard";
    dst = D->hi - n;
    src = S->lo + ps + (((uintptr_t)dst - delta) & 63);
    check_one(f, dst, src, n, clamp_lo(dst - SIDE, D), D->hi);

    cur.placement = "dst flush after guard";
    dst = D->lo;
    src = S->lo + ps + ((0 - delta) & 63);
    check_one(f, dst, src, n, D->lo, clamp_hi(dst + n + SIDE, D));
}

static size_t noffsets = 64; /* --offsets N: src_off, dst_off in 0..N-1 (the flush placements keep all 64) */
static size_t max_large = (size_t)16 << 20; /* --max-size N: the large grid's sizes up to N + 1 */

/* dst with a page boundary p bytes into it (0 < p < n), src anywhere with
 * (dst - src) mod 4096 = sep: the x86 routines split edge stores at page
 * boundaries (vec_copy.h), and this is where a split is wrong if it is. */
static void cross_one(const struct fn_under_test *f, struct arena *S, struct arena *D, size_t n, size_t p, size_t sep)
{
    size_t ps = page_size();
    /* the boundary: the first page boundary at least p + SIDE bytes above D->lo + ps */
    unsigned char *dst = D->lo + ps + (p + SIDE + ps - 1) / ps * ps - p;
    unsigned char *src = S->lo + ps + ((((uintptr_t)dst & 4095) - sep) & 4095);
    cur.dist = (long long)p; /* reported as dist: the boundary's offset in dst */
    cur.src_off = (long long)((uintptr_t)src & 63);
    cur.dst_off = (long long)((uintptr_t)dst & 63);
    check_one(f, dst, src, n, dst - SIDE, dst + n + SIDE);
}

/* (dst - src) mod 4096: mutual offsets 0, 1 and 33 far from 4K aliasing (the
 * x86 loops go forward), 97 (they go backward) and 3999 (dst 97 behind src:
 * from 2 KiB forward in address order, fc_loop_fwd_inorder, for W >= 32).
 * Elsewhere no routine treats a page boundary or 4K aliasing specially, and
 * the mid placements cover every source shift: three separations (shifts 0,
 * 1 and 7 mod 8, dst ahead and behind) keep the qemu runs short. */
#if defined(__x86_64__)
static const size_t cross_seps[] = {2048, 2049, 2081, 97, 3999};
#else
static const size_t cross_seps[] = {2048, 97, 3999};
#endif

/* Every boundary position within CROSS_NEAR bytes of either end of dst and
 * every 64th between.  x86-64: 260, the loops' edge stores (4 vectors of 64
 * at the tail, avx512) and then some, none of which may straddle the
 * boundary (vec_copy.h); elsewhere 132 (4 vectors of 32), which keeps the
 * qemu runs short. */
#if defined(__x86_64__)
#define CROSS_NEAR 260
#else
#define CROSS_NEAR 132
#endif
static void cross_placements(const struct fn_under_test *f, struct arena *S, struct arena *D, size_t n)
{
    cur.placement = "dst across a page boundary";
    for (size_t p = 1; p < n; p++) {
        if (p > CROSS_NEAR && p < n - CROSS_NEAR && p % 64) continue;
        for (size_t k = 0; k < sizeof cross_seps / sizeof cross_seps[0]; k++) cross_one(f, S, D, n, p, cross_seps[k]);
    }
}

static void grid_small(const struct fn_under_test *f, struct arena *S, struct arena *D)
{
    size_t ps = page_size();
    for (size_t n = 0; n <= 1024; n++) {
        cur.placement = "mid";
        cur.dist = -1;
        for (size_t so = 0; so < noffsets; so++) {
            cur.src_off = (long long)so;
            for (size_t dof = 0; dof < noffsets; dof++) {
                cur.dst_off = (long long)dof;
                unsigned char *src = S->lo + ps + so, *dst = D->lo + ps + dof;
                check_one(f, dst, src, n, dst - SIDE, dst + n + SIDE);
            }
        }
        cur.src_off = cur.dst_off = -1;
        for (size_t delta = 0; delta < 64; delta++) flush_placements(f, S, D, n, delta);
        cross_placements(f, S, D, n);
    }
}

/*
 * dst just behind src in the low 12 bits, (src - dst) mod 4096 = delta small,
 * at sizes from 2 KiB up: the x86 loops' in-order forward path (vec_copy.h,
 * fc_loop_fwd_inorder), whose head and tail lengths follow dst's alignment
 * and n: every dst_off 0..63 for n = 2040..2112 and 4089..4103, at deltas
 * on either side of each entry's window (4 loop vectors: 64, 128, 256).
 */
static void behind_placements(const struct fn_under_test *f, struct arena *S, struct arena *D)
{
    static const size_t deltas[] = {1, 2, 31, 32, 33, 63, 64, 65, 127, 128, 129, 255, 256, 257};
    size_t ps = page_size();
    cur.placement = "dst just behind src mod 4096";
    for (size_t n = 2040; n <= 4103; n = n == 2112 ? 4089 : n + 1)
        for (size_t dof = 0; dof < 64; dof++)
            for (size_t k = 0; k < sizeof deltas / sizeof deltas[0]; k++) {
                unsigned char *dst = D->lo + ps + dof;
                unsigned char *src = S->lo + ps + ((((uintptr_t)dst & 4095) + deltas[k]) & 4095);
                cur.dist = -(long long)deltas[k];
                cur.src_off = (long long)((uintptr_t)src & 63);
                cur.dst_off = (long long)dof;
                check_one(f, dst, src, n, dst - SIDE, dst + n + SIDE);
            }
}

/*
 * Up to 1 MiB: offset pairs that give every source shift after dst is aligned
 * (src_off 1..7 with dst_off 0), dst 100 bytes behind src (the x86 loops'
 * in-order forward path) and ahead of it (their backward loop), plus the
 * flush placements at two mutual offsets.  Above 1 MiB (where each case
 * costs milliseconds under qemu): the aligned pair, one misaligned pair whose
 * shift rotates with the size, and the flush placements at that same offset.
 */
static void grid_large(const struct fn_under_test *f, struct arena *S, struct arena *D)
{
    static const size_t pairs[][2] = {{0, 0}, {1, 0}, {2, 0}, {3, 0}, {4, 0}, {5, 0},
                                      {6, 0}, {7, 0}, {0, 1}, {3, 13}, {63, 62}, {100, 0}, {0, 100}};
    size_t ps = page_size(), sizes[80], ns = 0;
    for (int k = 11; k <= 24 && ((size_t)1 << k) <= max_large; k++)
        for (int d = -1; d <= 1; d++) sizes[ns++] = ((size_t)1 << k) + (size_t)(long)d;
    for (size_t m = 3; m <= 5; m += 2)
        for (int d = -1; d <= 1; d++) sizes[ns++] = m * ps + (size_t)(long)d;
    behind_placements(f, S, D);
    for (size_t i = 0; i < ns; i++) {
        size_t n = sizes[i], rot = 1 + i % 7, npairs = sizeof pairs / sizeof pairs[0];
        int huge = n > ((size_t)1 << 20);
        cur.placement = "mid";
        cur.dist = -1;
        for (size_t p = 0; p < npairs; p++) {
            size_t so = pairs[p][0], dof = pairs[p][1];
            if (huge && p > 0) {
                so = rot;
                dof = 0;
                p = npairs;
            }
            cur.src_off = (long long)so;
            cur.dst_off = (long long)dof;
            unsigned char *src = S->lo + ps + so, *dst = D->lo + ps + dof;
            check_one(f, dst, src, n, dst - SIDE, dst + n + SIDE);
        }
        cur.src_off = cur.dst_off = -1;
        flush_placements(f, S, D, n, huge ? rot : 0);
        if (!huge) flush_placements(f, S, D, n, 7);
        /* a page boundary near either end of dst (the loops' edge stores) */
        static const size_t near[] = {1, 31, 32, 33, 127, 128, 129, 7, 15, 63, 65, 200, 255, 256, 257};
        cur.placement = "dst across a page boundary";
        for (size_t k = 0; k < sizeof near / sizeof near[0]; k += huge ? 3 : 1)
            for (size_t j = 0; j < sizeof cross_seps / sizeof cross_seps[0]; j += huge ? 2 : 1) {
                cross_one(f, S, D, n, near[k], cross_seps[j]);
                cross_one(f, S, D, n, n - near[k], cross_seps[j]); /* the boundary near the end */
            }
    }
}

int main(int argc, char **argv)
{
    install_crash_handler();
    int large = argc > 1 && strcmp(argv[1], "large") == 0;
    for (int i = 1; i + 1 < argc; i++)
        if (strcmp(argv[i], "--offsets") == 0) {
            noffsets = strtoul(argv[i + 1], NULL, 0);
            if (noffsets < 1 || noffsets > 64) fail("--offsets wants 1..64");
        } else if (strcmp(argv[i], "--max-size") == 0) {
            max_large = strtoul(argv[i + 1], NULL, 0);
            if (max_large < 2048 || max_large > ((size_t)16 << 20)) fail("--max-size wants 2048..16777216");
        }
    struct fn_under_test fns[MAXF];
    size_t nf = collect_functions(argc, argv, fns, MAXF);
    size_t span = large ? ((size_t)16 << 20) + 1 + 2 * page_size() + 128 : 4 * page_size();
    struct arena S = arena_new(span), D = arena_new(span);
    fill_source(S.lo, S.len, 0x5eed);
    memset(D.lo, SENT, D.len);
    cur.suite = large ? "grid-large" : "grid";
    unsigned long long total = 0;
    for (size_t i = 0; i < nf; i++) {
        cur.fn = fns[i].label;
        ncases = 0;
        if (large)
            grid_large(&fns[i], &S, &D);
        else
            grid_small(&fns[i], &S, &D);
        print_count(cur.suite, fns[i].label, ncases);
        total += ncases;
    }
    print_count(cur.suite, "TOTAL", total);
    arena_free(&S);
    arena_free(&D);
    return 0;
}
