/*
 * test_tune_inorder.c - fastcopy-tune's decision on the in-order forward path
 * (tools/tune_inorder.h), on figures measured on real machines and on
 * made-up edge cases.
 */
#include <stdio.h>

#include "tune_confirm.h"
#include "tune_inorder.h"

#define KIB ((size_t)1024)

static int failures;

static void expect(const char *what, size_t got, size_t want)
{
    int ok = got == want;
    printf("%s: %s (inorder_min %zu)\n", ok ? "ok" : "FAIL", what, got);
    if (!ok) printf("    expected %zu\n", want), failures++;
}

int main(void)
{
    const size_t n[] = {2 * KIB, 4 * KIB, 8 * KIB, 16 * KIB};
    /* Emerald Rapids, 2026-11-27 09:35 lease (lab/runs/intel-emerald-rapids/2026-11-27-0935,
     * micro-3, dst 64 bytes behind src: speed / glibc's without the path over with it: 2 KiB 0.92 / 0.75,
     * 4 KiB 1.26 / 1.20; 8 and 16 KiB not measured there, taken as equal) with a 5% band: up to 4 KiB */
    {
        const double r[] = {0.75 / 0.92, 1.20 / 1.26, 1.0, 1.0};
        expect("EMR: loses at 2 KiB, within the band from 4 KiB", tune_inorder_decide(n, r, 4, 0.05, 2 * KIB), 4 * KIB);
        expect("EMR with a 3% band: loses at 4 KiB too", tune_inorder_decide(n, r, 4, 0.03, 2 * KIB), 8 * KIB);
    }
    /* Zen 4 (vec_copy.h: time with / without 0.96-0.99x at 2 KiB, 0.89-0.91x at 4 KiB, 0.96x at 16 KiB) */
    {
        const double r[] = {1 / 0.975, 1 / 0.90, 1 / 0.95, 1 / 0.96};
        expect("Zen 4: wins: the default kept", tune_inorder_decide(n, r, 4, 0.05, 2 * KIB), 2 * KIB);
    }
    /* made up: loses at every size -> never; loses at the largest only -> never */
    {
        const double r[] = {0.8, 0.8, 0.8, 0.8};
        expect("loses everywhere: never", tune_inorder_decide(n, r, 4, 0.05, 2 * KIB), TUNE_INORDER_NEVER);
        const double r2[] = {1.0, 1.0, 1.0, 0.9};
        expect("loses at 16 KiB: never", tune_inorder_decide(n, r2, 4, 0.05, 2 * KIB), TUNE_INORDER_NEVER);
    }
    /* a default above the smallest size (an exception or a profile said 8 KiB): wins below it move it down,
     * only over a contiguous run up to the default */
    {
        const double r[] = {1.2, 1.2, 1.0, 1.0};
        expect("wins below an 8 KiB default: down to 2 KiB", tune_inorder_decide(n, r, 4, 0.05, 8 * KIB), 2 * KIB);
        const double r2[] = {1.2, 1.0, 1.0, 1.0};
        expect("a gap at 4 KiB: the 8 KiB default kept", tune_inorder_decide(n, r2, 4, 0.05, 8 * KIB), 8 * KIB);
        const double r3[] = {1.2, 1.2, 1.2, 1.2};
        expect("never by default, wins everywhere: 2 KiB",
               tune_inorder_decide(n, r3, 4, 0.05, TUNE_INORDER_NEVER), 2 * KIB);
        const double r4[] = {1.0, 1.0, 1.0, 1.0};
        expect("never by default, no win: never", tune_inorder_decide(n, r4, 4, 0.05, TUNE_INORDER_NEVER),
               TUNE_INORDER_NEVER);
    }
    /* the tool's own sizes (1-16 KiB; the path measured at every one of them against none) */
    {
        const size_t m[] = {1 * KIB, 2 * KIB, 4 * KIB, 8 * KIB, 16 * KIB};
        /* Zen 4: 1.04-1.12x the time at 1 KiB (vec_copy.h), a gain from 4 KiB: the default kept */
        const double z4[] = {1 / 1.08, 1 / 0.975, 1 / 0.90, 1 / 0.95, 1 / 0.96};
        expect("Zen 4 with 1 KiB measured: loses below the default, the default kept",
               tune_inorder_decide(m, z4, 5, 0.05, 2 * KIB), 2 * KIB);
        const double down[] = {1.10, 1.10, 1.10, 1.0, 1.0};
        expect("wins beyond the band at 1 KiB too: down to 1 KiB", tune_inorder_decide(m, down, 5, 0.05, 2 * KIB),
               1 * KIB);
    }
    /* within the band everywhere: the default */
    {
        const double r[] = {0.97, 1.03, 0.98, 1.02};
        expect("noise only: the default kept", tune_inorder_decide(n, r, 4, 0.05, 2 * KIB), 2 * KIB);
    }
    /* two measurements (tune_confirm.h): the Zen 4 guest's full tuner before the rule, 2026-11-27 (run 19 of
     * lab/runs/amd-zen4/2026-11-27/tune-flips.txt: 1/2/4/8/16 KiB 0.818 0.920 1.025 1.012 1.018, band 2.1%)
     * moved the minimum to 4 KiB; with a second measurement like the other runs' (0.982 1.000 1.080 1.041
     * 1.020) the default stays; with the same loss twice it moves */
    {
        const size_t m[] = {1 * KIB, 2 * KIB, 4 * KIB, 8 * KIB, 16 * KIB};
        const double a[] = {0.818, 0.920, 1.025, 1.012, 1.018}, b[] = {0.982, 1.000, 1.080, 1.041, 1.020};
        const double a2[] = {0.830, 0.935, 1.030, 1.010, 1.015};
        size_t da = tune_inorder_decide(m, a, 5, 0.021, 2 * KIB);
        expect("Zen 4 run 19 alone: up to 4 KiB", da, 4 * KIB);
        expect("Zen 4 run 19, a second measurement disagrees: the default",
               tune_combine(da, tune_inorder_decide(m, b, 5, 0.021, 2 * KIB), 2 * KIB), 2 * KIB);
        expect("Zen 4 run 19, the same loss twice: up to 4 KiB",
               tune_combine(da, tune_inorder_decide(m, a2, 5, 0.021, 2 * KIB), 2 * KIB), 4 * KIB);
        /* a review's counterexample to the first rule (case by case): losses at 4 KiB in one, at 8 KiB in the
         * other - both raise the minimum (8 and 16 KiB), the case-by-case consensus had lowered it to 1 KiB */
        const double x[] = {1.10, 1.00, 0.90, 1.00, 1.00}, y[] = {1.10, 1.00, 1.00, 0.90, 1.00};
        expect("up in both, to 8 and to 16 KiB: 8 KiB",
               tune_combine(tune_inorder_decide(m, x, 5, 0.02, 2 * KIB), tune_inorder_decide(m, y, 5, 0.02, 2 * KIB),
                            2 * KIB),
               8 * KIB);
    }
    return failures != 0;
}
