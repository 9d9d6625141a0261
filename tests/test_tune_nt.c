/*
 * test_tune_nt.c - fastcopy-tune's non-temporal decision (tools/tune_nt.h) on
 * figures it printed on real machines, and on made-up edge cases.
 */
#include <stdio.h>
#include <stdlib.h>

#include "tune_nt.h"

#define KIB ((size_t)1024)
#define MIB (1024 * KIB)

static int failures;

static void expect(const char *what, struct tune_nt_choice c, size_t nt, size_t pages)
{
    int ok = c.nt == nt && c.pages == pages;
    printf("%s: %s (threshold %zu, %zu stream%s, x4/x1 %.3f)\n", ok ? "ok" : "FAIL", what, c.nt, c.pages,
           c.pages > 1 ? "s" : "", c.x4);
    if (!ok) printf("    expected threshold %zu, %zu streams\n", nt, pages), failures++;
}

int main(void)
{
    /* Emerald Rapids, fastcopy-tune --quick, 2026-11-27 07:50 (band 12.3%, default 14400 KiB x4): one stream
     * loses everywhere, four win everywhere - the old rule turned NT off here */
    {
        const size_t n[] = {7200 * KIB, 14400 * KIB, 28800 * KIB, 150 * MIB};
        const double r1[] = {1.789, 1.547, 1.508, 1.594}, r4[] = {0.808, 0.696, 0.659, 0.704};
        expect("EMR 07:50: 4 streams, down to 7200 KiB", tune_nt_decide(n, r1, r4, 4, 0.123, 14400 * KIB, 4),
               7200 * KIB, 4);
    }
    /* the same host, 08:03, --quick (band 18.0%): x4 at 7200 KiB 0.884 is inside the band: the default stands */
    {
        const size_t n[] = {7200 * KIB, 14400 * KIB, 28800 * KIB, 150 * MIB};
        const double r1[] = {1.965, 1.675, 1.518, 1.410}, r4[] = {0.884, 0.766, 0.659, 0.653};
        expect("EMR 08:03: 4 streams, the default kept", tune_nt_decide(n, r1, r4, 4, 0.180, 14400 * KIB, 4),
               14400 * KIB, 4);
    }
    /* EMR 2026-11-27 00:01 --quick: a 52.6% band, nothing decided: every default kept */
    {
        const size_t n[] = {7200 * KIB, 14400 * KIB, 28800 * KIB, 150 * MIB};
        const double r1[] = {0.811, 0.464, 0.475, 0.718}, r4[] = {0.773, 0.511, 0.409, 0.566};
        expect("EMR 00:01: a wide band keeps the defaults", tune_nt_decide(n, r1, r4, 4, 0.526, 14400 * KIB, 4),
               14400 * KIB, 4);
    }
    /* Zen 4 guest, full, 2026-11-27 08:02 (band 12.2%, default 16 MiB, one stream): one stream wins from 8 MiB,
     * four lose */
    {
        const size_t n[] = {8 * MIB, 16 * MIB, 24 * MIB, 32 * MIB, 48 * MIB, 64 * MIB};
        const double r1[] = {0.661, 0.536, 0.694, 0.716, 0.803, 0.641}, r4[] = {1.372, 1.036, 1.157, 1.172, 1.143, 1.077};
        expect("Zen 4: 1 stream, down to 8 MiB", tune_nt_decide(n, r1, r4, 6, 0.122, 16 * MIB, 1), 8 * MIB, 1);
    }
    /* made up: NT loses beyond the band above the default and never wins: never; fails to win only: kept */
    {
        const size_t n[] = {8 * MIB, 16 * MIB, 32 * MIB};
        const double lose[] = {1.3, 1.2, 1.25}, flat[] = {1.02, 0.98, 1.01};
        expect("NT loses above the default: never", tune_nt_decide(n, lose, lose, 3, 0.05, 16 * MIB, 1), TUNE_NT_NEVER,
               1);
        expect("NT neither wins nor loses: the default", tune_nt_decide(n, flat, flat, 3, 0.05, 16 * MIB, 1),
               16 * MIB, 1);
        /* wins only at the largest size, loses at the default: up to 32 MiB */
        const double up[] = {1.2, 1.2, 0.8};
        expect("NT wins only from 32 MiB: up", tune_nt_decide(n, up, up, 3, 0.05, 16 * MIB, 1), 32 * MIB, 1);
        expect("no sizes: the defaults", tune_nt_decide(n, up, up, 0, 0.05, 16 * MIB, 4), 16 * MIB, 4);
    }
    /* two measurements (tune_confirm.h): the Zen 4 guest's quick tuner, 2026-11-27 11:58 - the first read NT
     * 0.846 at 8 MiB (band 15%), the second 1.038 (band 30.5%): the 16 MiB default stays; where both win at
     * 8 MiB, the threshold moves, on the nearer-to-1 of the two */
    {
        const size_t n[] = {8 * MIB, 16 * MIB, 32 * MIB, 48 * MIB, 64 * MIB};
        const double r1a[] = {0.846, 0.599, 0.670, 0.658, 0.665}, r4a[] = {1.010, 0.888, 0.855, 0.862, 0.878};
        const double r1b[] = {1.038, 0.561, 0.653, 0.689, 0.719}, r4b[] = {1.861, 1.192, 1.184, 1.206, 1.185};
        expect("Zen 4 11:58, first alone: down to 8 MiB", tune_nt_decide(n, r1a, r4a, 5, 0.15, 16 * MIB, 1), 8 * MIB, 1);
        expect("Zen 4 11:58, both: the default stays",
               tune_nt_decide2(n, r1a, r4a, r1b, r4b, 5, 0.305, 16 * MIB, 1), 16 * MIB, 1);
        const double r1c[] = {0.60, 0.56, 0.65, 0.69, 0.72};
        expect("both win at 8 MiB: down to 8 MiB", tune_nt_decide2(n, r1a, r4a, r1c, r4b, 5, 0.15, 16 * MIB, 1),
               8 * MIB, 1);
        /* four streams where only one measurement says so: the default's count */
        const double r4w[] = {0.5, 0.4, 0.4, 0.4, 0.4};
        expect("4 streams in one measurement only: 1 stream",
               tune_nt_decide2(n, r1a, r4w, r1c, r4b, 5, 0.15, 16 * MIB, 1), 8 * MIB, 1);
        expect("4 streams in both: 4", tune_nt_decide2(n, r1a, r4w, r1c, r4w, 5, 0.15, 16 * MIB, 1), 8 * MIB, 4);
    }
    /* a review's counterexample to the first two-measurement rule (case by case): both measurements raise the
     * threshold, one to 32 MiB, one to never - the first rule turned NT off; now the lesser move, 32 MiB */
    {
        const size_t n[] = {16 * MIB, 32 * MIB, 64 * MIB};
        const double a[] = {1.2, 0.8, 0.8}, b[] = {1.2, 1.2, 1.0};
        expect("up in both, to 32 MiB and to never: 32 MiB", tune_nt_decide2(n, a, a, b, b, 3, 0.02, 16 * MIB, 1),
               32 * MIB, 1);
        const double c[] = {1.0, 0.8, 0.8};
        expect("up in one, down in none: the default", tune_nt_decide2(n, a, a, c, c, 3, 0.02, 16 * MIB, 1), 16 * MIB, 1);
    }
    {
        int ok = tune_combine(8, 12, 16) == 12 && tune_combine(32, 24, 16) == 24 && tune_combine(8, 32, 16) == 16 &&
                 tune_combine(16, 8, 16) == 16 && tune_combine((size_t)-1, 32, 16) == 32 && tune_agree(1, 1, 0) == 1 &&
                 tune_agree(1, 0, 0) == 0 && tune_agree(0, 1, 1) == 1;
        printf("%s: tune_combine / tune_agree\n", ok ? "ok" : "FAIL");
        failures += !ok;
    }
    printf(failures ? "test_tune_nt: %d failed\n" : "test_tune_nt: all passed\n", failures);
    return failures != 0;
}
