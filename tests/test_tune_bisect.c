/*
 * test_tune_bisect.c - fastcopy-tune's bisection (tools/tune_bisect.h) and
 * validation (tools/tune_validate.h) driven by synthetic timing models in
 * place of measurements: the same functions the tool calls, with a model's
 * decide() and measure().
 *
 *   1. Zen 5 (2026-11-29): the vector loop falls off at 26000 B (L1), rep
 *      movsb is steady: off below, on above; the default window starts at
 *      24 KiB.  The grid alone (24 KiB off, 32 KiB on) puts movsb_min at
 *      32 KiB, slower than the default at 26000-32767 B; bisection and
 *      validation put it within 1 KiB of 26000 B and are nowhere slower than
 *      the default on a fine sweep.
 *   2. rep movsb wins at every size the decision measures (multiples of
 *      64 B) and loses at every other size: validation drops the window.
 *   3. two settings moved, a good window and an inorder_min that loses
 *      below the default: only inorder_min is dropped.
 *   4. bisection alone: a crossover at each of several places, a noisy
 *      middle (two neutral probes: stop, the default's side), the
 *      threshold form (NT, inorder_min).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tune_bisect.h"
#include "tune_validate.h"

#define KIB ((size_t)1024)
#define MIB (1024 * KIB)
#define NEVER ((size_t)-1)

static int failures;

static void check(int ok, const char *what)
{
    printf("%s: %s\n", ok ? "ok" : "FAIL", what);
    failures += !ok;
}

/* ---- the model ------------------------------------------------------------------------ */

struct model {
    size_t cliff;        /* the vector loop: 250 B/ns below, 100 B/ns from here */
    int rep_odd_slow;    /* rep movsb at half speed where n % 64 != 0 */
    size_t inorder_good; /* the in-order path: 0.9x from here, 1.3x below */
    unsigned long seed;  /* noise: +-0.5% per reading (0: none) */
    unsigned long calls; /* decide() calls */
};

static double model_rep(const struct model *m, size_t n) { return (20 + n / 162.0) * (m->rep_odd_slow && n % 64 ? 2 : 1); }
static double model_vec(const struct model *m, size_t n) { return 5 + n / (n < m->cliff ? 250.0 : 100.0); }

/* ns for one copy of n bytes (dst `behind` src mod 4096 or not) under settings s, noise-free */
static double model_time(const struct model *m, const struct tune_settings *s, size_t n, int behind)
{
    const size_t *v = s->v;
    double t;
    if (n >= v[TUNE_NT]) t = n / 40.0;
    else if (n >= v[TUNE_MOVSB_MIN] && n < v[TUNE_MOVSB_MAX]) t = model_rep(m, n);
    else t = model_vec(m, n);
    if (behind && n >= v[TUNE_INORDER]) t *= n >= m->inorder_good ? 0.9 : 1.3;
    return t;
}

static double noise(struct model *m)
{
    if (!m->seed) return 1;
    m->seed = m->seed * 6364136223846793005UL + 1442695040888963407UL;
    return 1 + ((double)(m->seed >> 33) / (double)(1UL << 31) - 0.5) * 0.01;
}

/* the measurement: tune_measure_fn on the model (a distribution case: its mean size) */
static void model_measure(void *ctx, const struct tune_settings *cfg, size_t k, const struct tune_vcase *c, size_t nc,
                          double *t)
{
    struct model *m = ctx;
    for (size_t i = 0; i < nc; i++)
        for (size_t j = 0; j < k; j++) t[i * k + j] = model_time(m, &cfg[j], c[i].n, c[i].so > c[i].dof) * noise(m);
}

/* the window's decision at one size, as the tool's: rep movsb at every size / never, 4 placements, band 2% */
static int model_decide_rep(void *ctx, size_t n)
{
    struct model *m = ctx;
    double lg = 0, hi = 0;
    for (int p = 0; p < 4; p++) {
        double r = model_rep(m, n) * noise(m) / (model_vec(m, n) * noise(m));
        lg += log(r);
        if (r > hi) hi = r;
    }
    m->calls++;
    return tune_vote(exp(lg / 4), hi, 0.02);
}

/* the grid's window: every size voted, neutral -> the default's choice */
static struct tune_window grid_window(struct model *m, const size_t *sizes, size_t ns, size_t dmin, size_t dmax, int *on)
{
    for (size_t i = 0; i < ns; i++)
        on[i] = tune_resolve(tune_probe(model_decide_rep, m, sizes[i], sizes[i] >= dmin && sizes[i] < dmax), sizes[i] >= dmin && sizes[i] < dmax);
    return tune_window_of(on, sizes, ns);
}

static struct tune_settings settings(size_t mn, size_t mx, size_t nt, size_t io)
{
    struct tune_settings s = {{0}};
    s.v[TUNE_IMPL] = 0;
    s.v[TUNE_MOVSB_MIN] = mn;
    s.v[TUNE_MOVSB_MAX] = mx;
    s.v[TUNE_MOVSB_GAP] = 0;
    s.v[TUNE_NT] = nt;
    s.v[TUNE_NT_PAGES] = 1;
    s.v[TUNE_INORDER] = io;
    return s;
}

/* the worst ratio of s over def on a fine sweep (1 KiB - 128 KiB every 64 B, 20-34 KiB every byte, both
 * placement kinds), noise-free; *at: where */
static double worst_vs_default(const struct model *m, const struct tune_settings *s, const struct tune_settings *def,
                               size_t *at)
{
    double worst = 0;
    for (size_t n = 1; n <= 128 * KIB; n += (n >= 20 * KIB && n < 34 * KIB) ? 1 : 64)
        for (int b = 0; b < 2; b++) {
            double r = model_time(m, s, n, b) / model_time(m, def, n, b);
            if (r > worst) worst = r, *at = n;
        }
    return worst;
}

static const size_t grid[] = {2 * KIB, 8 * KIB, 16 * KIB, 24 * KIB, 32 * KIB, 64 * KIB, 256 * KIB, MIB, 4 * MIB, 16 * MIB};
enum { NG = sizeof grid / sizeof grid[0] };
static const char *const dname[] = {"distA", "distB"};
static const size_t dmean[] = {180, 1400};

static struct tune_validation validate(struct model *m, const struct tune_settings *def, const struct tune_settings *cand,
                                       const char *title)
{
    struct tune_vcase cases[256];
    size_t nc = tune_validate_cases(def, cand, MIB, 64 * MIB, dmean, dname, 2, cases, 256);
    struct tune_validation v;
    printf("\n-- validation: %s (%zu cases)\n", title, nc);
    tune_validate(def, cand, cases, nc, model_measure, m, stdout, &v);
    for (size_t i = 0; i < v.ndrop; i++)
        printf("   dropped %s: lost at %s (n %zu), %.3fx, alone %.3fx, band %.1f%%\n", tune_setting_name[v.drop[i].setting],
               cases[v.drop[i].casei].what, cases[v.drop[i].casei].n, v.drop[i].ratio, v.drop[i].own, 100 * v.drop[i].band);
    return v;
}

static int neutral(void *ctx, size_t n)
{
    (void)ctx, (void)n;
    return TUNE_NEUTRAL;
}

static int nt_from_12m(void *ctx, size_t n)
{
    (void)ctx;
    return n > 12 * MIB ? TUNE_ON : TUNE_OFF;
}

int main(void)
{
    int on[NG];
    /* 1. Zen 5 */
    {
        struct model m = {26000, 0, 0, 12345, 0};
        struct tune_settings def = settings(24 * KIB, NEVER, NEVER, 2 * KIB);
        struct tune_window g = grid_window(&m, grid, NG, 24 * KIB, NEVER, on);
        struct tune_settings old = settings(g.min, g.max, NEVER, 2 * KIB);
        size_t at = 0;
        double w_old = worst_vs_default(&m, &old, &def, &at);
        size_t first = 0, last = 0;
        for (size_t n = 20 * KIB; n < 40 * KIB; n++) {
            struct tune_settings one = old;
            if (model_time(&m, &one, n, 0) > 1.02 * model_time(&m, &def, n, 0)) {
                if (!first) first = n;
                last = n;
            }
        }
        printf("zen5 grid alone: window %zu .. %zu, worst %.2fx the default's time at %zu B; slower beyond 2%% at "
               "%zu-%zu B\n", g.min, g.max, w_old, at, first, last);
        check(g.min == 32 * KIB && g.max == NEVER, "zen5: the grid alone puts movsb_min at 32 KiB");
        check(w_old > 1.4 && first == 26000 && last == 32 * KIB - 1,
              "zen5: ... which is slower than the default at 26000-32767 B");
        unsigned probes = 0;
        struct tune_window w = tune_window_refine(g, grid, NG, 24 * KIB, NEVER, KIB, 12, model_decide_rep, &m, &probes);
        printf("zen5 bisected: window %zu .. %zu after %u probes\n", w.min, w.max, probes);
        check(w.max == NEVER && w.min + KIB >= 26000 && w.min <= 26000 + KIB, "zen5: movsb_min within 1 KiB of 26000 B");
        struct tune_settings cand = settings(w.min, w.max, NEVER, 2 * KIB);
        struct tune_validation v = validate(&m, &def, &cand, "zen5 (bisected window)");
        check(v.ndrop == 0 && !v.all_reverted && v.result.v[TUNE_MOVSB_MIN] == w.min, "zen5: validation keeps it");
        double w_new = worst_vs_default(&m, &v.result, &def, &at);
        printf("zen5 written: movsb_min %zu, worst %.4fx the default's time (at %zu B)\n", v.result.v[TUNE_MOVSB_MIN], w_new, at);
        check(w_new <= 1.0, "zen5: the written profile is nowhere slower than the default on a fine sweep");
        /* the grid's answer itself, validated: dropped (it loses at movsb_min - 1 KiB and halfway) */
        struct tune_validation vo = validate(&m, &def, &old, "zen5 (the grid alone's window)");
        check(vo.ndrop == 1 && vo.drop[0].setting == TUNE_MOVSB_MIN && vo.result.v[TUNE_MOVSB_MIN] == 24 * KIB,
              "zen5: validation drops the grid alone's window");
    }
    /* 2. rep movsb wins at the decided sizes only */
    {
        struct model m = {6000, 1, 0, 777, 0};
        struct tune_settings def = settings(0, 0, NEVER, 2 * KIB);
        struct tune_window g = grid_window(&m, grid, NG, 0, 0, on);
        unsigned probes = 0;
        struct tune_window w = tune_window_refine(g, grid, NG, 0, 0, KIB, 12, model_decide_rep, &m, &probes);
        printf("odd-slow: grid window %zu .. %zu, bisected %zu .. %zu (%u probes)\n", g.min, g.max, w.min, w.max, probes);
        check(w.min > 2 * KIB && w.min <= 8 * KIB && w.max == NEVER, "odd-slow: the decision opens a window");
        struct tune_settings cand = settings(w.min, w.max, NEVER, 2 * KIB);
        struct tune_validation v = validate(&m, &def, &cand, "rep movsb slow at sizes not a multiple of 64");
        check(v.ndrop == 1 && v.drop[0].setting == TUNE_MOVSB_MIN && v.result.v[TUNE_MOVSB_MIN] == 0 &&
                  v.result.v[TUNE_MOVSB_MAX] == 0,
              "odd-slow: validation drops the window (closed again)");
    }
    /* 3. a good window and a bad inorder_min: only inorder_min goes */
    {
        struct model m = {26000, 0, 2 * KIB, 99, 0};
        struct tune_settings def = settings(24 * KIB, NEVER, NEVER, 2 * KIB);
        struct tune_settings cand = settings(25 * KIB + 1, NEVER, NEVER, 1 * KIB);
        struct tune_validation v = validate(&m, &def, &cand, "a good window, a bad inorder_min");
        check(v.ndrop == 1 && v.drop[0].setting == TUNE_INORDER && v.result.v[TUNE_INORDER] == 2 * KIB &&
                  v.result.v[TUNE_MOVSB_MIN] == 25 * KIB + 1 && v.rounds == 2,
              "two moved: inorder_min dropped, the window kept, validated again");
    }
    /* 4. bisection alone */
    {
        struct model m = {0, 0, 0, 0, 0};
        int all = 1;
        for (size_t x = 24 * KIB + 7; x < 32 * KIB; x += 333) {
            m.cliff = x; /* rep movsb wins from about x (its fixed cost moves it by some bytes) */
            size_t b = tune_bisect(24 * KIB, 32 * KIB, TUNE_ON, TUNE_OFF, KIB, 12, model_decide_rep, &m, NULL);
            size_t b2 = tune_bisect(24 * KIB, 32 * KIB, TUNE_ON, TUNE_ON, KIB, 12, model_decide_rep, &m, NULL);
            if (b + KIB < x || b > x + KIB || b2 + KIB < x || b2 > x + KIB) {
                printf("   crossover %zu: boundary %zu / %zu\n", x, b, b2);
                all = 0;
            }
        }
        check(all, "bisect: within 1 KiB of every crossover in 24-32 KiB, either default");
    }
    {
        unsigned probes = 0;
        /* everything neutral: two probes, then the default's side (off: hi; on: lo + 1) */
        size_t b = tune_bisect(8 * KIB, 64 * KIB, TUNE_ON, TUNE_OFF, KIB, 12, neutral, NULL, &probes);
        check(b == 64 * KIB && probes == 2, "bisect: two neutral probes: stop, the default's side (off)");
        b = tune_bisect(8 * KIB, 64 * KIB, TUNE_ON, TUNE_ON, KIB, 12, neutral, NULL, NULL);
        check(b == 8 * KIB + 1, "bisect: two neutral probes: stop, the default's side (on)");
    }
    {
        /* threshold form: NT from 16 MiB on the grid (8 MiB off, default 32 MiB): refined down to 12 MiB's side */
        static const size_t nts[] = {8 * MIB, 16 * MIB, 32 * MIB};
        unsigned probes = 0;
        size_t t = tune_bisect_threshold(nts, 3, 16 * MIB, 32 * MIB, KIB, 30, nt_from_12m, NULL, &probes);
        check(t > 12 * MIB && t <= 12 * MIB + KIB, "bisect_threshold: NT down to within 1 KiB of 12 MiB");
        check(tune_bisect_threshold(nts, 3, 32 * MIB, 32 * MIB, KIB, 30, nt_from_12m, NULL, NULL) == 32 * MIB &&
                  tune_bisect_threshold(nts, 3, 8 * MIB, 32 * MIB, KIB, 30, nt_from_12m, NULL, NULL) == 8 * MIB,
              "bisect_threshold: not moved, or no grid size below: as it is");
    }
    printf(failures ? "test_tune_bisect: %d failed\n" : "test_tune_bisect: all passed\n", failures);
    return failures != 0;
}
