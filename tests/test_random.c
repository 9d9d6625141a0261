/*
 * Seeded randomized differential test: every function under test against the
 * reference (libc memmove on a shadow copy of the arena).
 *
 * Per function: CASES cases (default 1,000,000; --cases N) with random size
 * (50% up to 64 B, 40% up to 1 KiB, 9.8% up to 8 KiB, 0.2% up to 256 KiB), random
 * source and destination anywhere in a 1 MiB guard-paged arena (one case in
 * eight flush against a guard page), and for memmove one case in two
 * overlapping at a random distance.  The seed is printed first and in any
 * failure; --seed S or FASTCOPY_TEST_SEED=S replays a run.
 */
#include "harness.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAXF 64
#define MARGIN 32

static void check_window(const struct fn_under_test *f, const unsigned char *arena, const unsigned char *shadow,
                         size_t span, size_t lo, size_t hi, size_t d)
{
    lo = lo < MARGIN ? 0 : lo - MARGIN;
    hi = hi + MARGIN > span ? span : hi + MARGIN;
    size_t at = first_diff(arena + lo, shadow + lo, hi - lo);
    if (at != (size_t)-1)
        fail("%s: byte at dst%+lld is 0x%02x, expected 0x%02x", f->label, (long long)(lo + at) - (long long)d,
             arena[lo + at], shadow[lo + at]);
}

static size_t pick_size(struct rng *r)
{
    uint64_t c = rng_below(r, 1000);
    if (c < 500) return (size_t)rng_below(r, 65);
    if (c < 900) return 65 + (size_t)rng_below(r, 1024 - 64);
    if (c < 998) return 1025 + (size_t)rng_below(r, 8192 - 1024);
    return 8193 + (size_t)rng_below(r, (256u << 10) - 8192);
}

int main(int argc, char **argv)
{
    install_crash_handler();
    uint64_t seed = 0, cases = 1000000;
    const char *env = getenv("FASTCOPY_TEST_SEED");
    if (env) seed = strtoull(env, NULL, 0);
    for (int i = 1; i + 1 < argc; i++) {
        if (strcmp(argv[i], "--seed") == 0) seed = strtoull(argv[i + 1], NULL, 0);
        if (strcmp(argv[i], "--cases") == 0) cases = strtoull(argv[i + 1], NULL, 0);
    }
    if (!seed) seed = ((uint64_t)time(NULL) << 20) ^ (uint64_t)clock() ^ 0x5eed;
    printf("random: seed %" PRIu64 " (replay: --seed %" PRIu64 "), %" PRIu64 " cases per function\n", seed, seed,
           cases);

    struct fn_under_test fns[MAXF];
    size_t nf = collect_functions(argc, argv, fns, MAXF);
    const size_t span = (size_t)1 << 20;
    struct arena A = arena_new(span);
    unsigned char *shadow = malloc(A.len);
    if (!shadow) fail("out of memory");
    struct rng r;
    rng_seed(&r, seed);
    rng_fill(&r, A.lo, A.len);
    memcpy(shadow, A.lo, A.len);
    cur.suite = "random";
    cur.seed = seed;
    uint64_t total = 0;
    for (size_t fi = 0; fi < nf; fi++) {
        const struct fn_under_test *f = &fns[fi];
        cur.fn = f->label;
        for (uint64_t k = 0; k < cases; k++) {
            cur.index = k;
            size_t n = pick_size(&r), s, d;
            int flush = rng_below(&r, 8) == 0;
            if (f->is_memmove && rng_below(&r, 2)) {
                long reach = (long)n + 64;
                long dist = (long)rng_below(&r, (uint64_t)(2 * reach + 1)) - reach;
                size_t lo = (size_t)(dist < 0 ? -dist : 0), hi = span - n - (size_t)(dist > 0 ? dist : 0);
                s = lo + (size_t)rng_below(&r, hi - lo + 1);
                if (flush) s = rng_below(&r, 2) ? lo : hi;
                d = s + (size_t)dist;
                cur.placement = "overlap";
                cur.dist = dist;
            } else {
                /* disjoint: src and dst in different halves */
                size_t half = span / 2;
                s = (size_t)rng_below(&r, half - n + 1);
                d = (size_t)rng_below(&r, half - n + 1);
                if (flush) {
                    s = rng_below(&r, 2) ? 0 : half - n;
                    d = rng_below(&r, 2) ? 0 : half - n;
                }
                if (rng_below(&r, 2))
                    d += half;
                else
                    s += half;
                cur.placement = "disjoint";
                cur.dist = (long long)d - (long long)s;
            }
            cur.n = (long long)n;
            cur.src_off = (long long)(s & 63);
            cur.dst_off = (long long)(d & 63);
            /* fresh source bytes so repeated copies never make the arena uniform */
            rng_fill(&r, A.lo + s, n);
            memcpy(shadow + s, A.lo + s, n);
            memmove(shadow + d, shadow + s, n);
            void *ret = call_under_test(f, A.lo + d, A.lo + s, n);
            if (ret != A.lo + d) fail("%s returned %p, expected dst %p", f->label, ret, (void *)(A.lo + d));
            /* windows of MARGIN bytes beyond each buffer (one window when they are close) */
            size_t gap = s < d ? d - s : s - d;
            if (gap <= n + 2 * MARGIN)
                check_window(f, A.lo, shadow, span, s < d ? s : d, (s < d ? d : s) + n, d);
            else {
                check_window(f, A.lo, shadow, span, s, s + n, d);
                check_window(f, A.lo, shadow, span, d, d + n, d);
            }
        }
        print_count(cur.suite, f->label, cases);
        total += cases;
    }
    print_count(cur.suite, "TOTAL", total);
    free(shadow);
    arena_free(&A);
    return 0;
}
