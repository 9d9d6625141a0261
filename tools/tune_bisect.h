/*
 * tune_bisect.h - fastcopy-tune's refinement of a boundary that the grid of
 * measured sizes left between two adjacent sizes, apart from the measurement
 * (a callback decides one size) so that tests/test_tune_bisect.c can drive it
 * with a timing model.
 *
 * Why: on a Zen 5 guest (2026-11-29, --quick) rep movsb lost at 24 KiB
 * (1.15x) and won at 32 KiB (0.59x); the window's lower bound went to 32 KiB,
 * and 28000-32767 B then ran at 42-63% of the copy ceiling against 98-101%
 * with the defaults (on from 24 KiB): the true crossover lay near 26 KiB.
 *
 * A vote per size: TUNE_ON where the feature (rep movsb, NT stores, the
 * in-order path) wins beyond the band, TUNE_OFF where it loses beyond it,
 * TUNE_NEUTRAL within it; a neutral size takes the default's choice.  Every
 * probe is decided as a grid point is: where its first measurement would
 * differ from the default's choice, it is measured again and counts only if
 * both agree (tune_confirm.h), else it is neutral.
 *
 * tune_bisect: lo has one side, hi the other (after neutral -> default); the
 * default's choice is the same on the whole open interval (lo, hi) (the
 * default's own bounds are among the grid sizes).  It probes the middle
 * (a multiple of 64 bytes) and keeps the half whose ends differ, until
 * hi - lo <= res, or two probes in a row came out neutral (both halves within
 * the band), or max_probes.  The sizes strictly between the last lo and hi
 * were not resolved: they take the default's side, so the boundary is lo + 1
 * where the default there is on hi's side, else hi.
 */
#ifndef FASTCOPY_TUNE_BISECT_H
#define FASTCOPY_TUNE_BISECT_H

#include <stddef.h>

#include "tune_confirm.h"

enum { TUNE_OFF = 0, TUNE_ON = 1, TUNE_NEUTRAL = 2 };
#define TUNE_BISECT_NEVER ((size_t)-1)

/* decide(ctx, n): TUNE_ON, TUNE_OFF or TUNE_NEUTRAL for size n (one measurement) */
typedef int (*tune_decide_fn)(void *ctx, size_t n);

/* A vote from ratios (time with the feature / without): gm, the geometric
 * mean over the placements; worst, the highest: on only where it wins beyond
 * the band and loses at no placement beyond it. */
static inline int tune_vote(double gm, double worst, double band)
{
    return gm < 1 - band && worst < 1 + band ? TUNE_ON : gm > 1 + band ? TUNE_OFF : TUNE_NEUTRAL;
}

static inline int tune_resolve(int vote, int def_side) { return vote == TUNE_NEUTRAL ? def_side : vote; }

/* One probe as a grid point is decided: a second measurement where the first
 * differs from the default's choice; neutral unless both agree. */
static inline int tune_probe(tune_decide_fn decide, void *ctx, size_t n, int def_side)
{
    int v = decide(ctx, n);
    if (v != TUNE_NEUTRAL && v != def_side) v = tune_agree(v, decide(ctx, n), TUNE_NEUTRAL);
    return v;
}

/* The boundary between lo and hi: sizes below it take lo's side, sizes from
 * it on hi's side (side_hi).  def_side: the default's choice on (lo, hi). */
static inline size_t tune_bisect(size_t lo, size_t hi, int side_hi, int def_side, size_t res, unsigned max_probes,
                                 tune_decide_fn decide, void *ctx, unsigned *probes)
{
    unsigned neutral_run = 0, n_probes = 0;
    while (hi - lo > res && n_probes < max_probes && neutral_run < 2) {
        size_t mid = (lo + (hi - lo) / 2) & ~(size_t)63;
        if (mid <= lo || mid >= hi) break;
        int v = tune_probe(decide, ctx, mid, def_side);
        n_probes++;
        neutral_run = v == TUNE_NEUTRAL ? neutral_run + 1 : 0;
        if (tune_resolve(v, def_side) == side_hi) hi = mid;
        else lo = mid;
    }
    if (probes) *probes += n_probes;
    return def_side == side_hi ? lo + 1 : hi;
}

/* A threshold from which a feature is used (NT stores, the in-order path, the
 * rep movsb window's lower bound), chosen on the grid sizes[0..ns) as t:
 * refined between the grid size below t and t where t moved from def_t and
 * is a grid size above the smallest. */
static inline size_t tune_bisect_threshold(const size_t *sizes, size_t ns, size_t t, size_t def_t, size_t res,
                                           unsigned max_probes, tune_decide_fn decide, void *ctx, unsigned *probes)
{
    if (t == def_t) return t;
    for (size_t i = 1; i < ns; i++)
        if (sizes[i] == t) {
            size_t lo = sizes[i - 1];
            int def_side = lo + 1 >= def_t ? TUNE_ON : TUNE_OFF;
            return tune_bisect(lo, t, TUNE_ON, def_side, res, max_probes, decide, ctx, probes);
        }
    return t;
}

/* ---- the rep movsb window: [min, max), max TUNE_BISECT_NEVER = up to the NT threshold */

struct tune_window {
    size_t min, max;
};

/* The longest run of sizes on: [first, the next size measured), or up to
 * NEVER when the run reaches the last size; {0, 0} when none is on. */
static inline struct tune_window tune_window_of(const int *on, const size_t *sizes, size_t ns)
{
    struct tune_window w = {0, 0};
    size_t best_lo = 0, best_len = 0;
    for (size_t i = 0; i < ns;) {
        if (on[i] != TUNE_ON) {
            i++;
            continue;
        }
        size_t j = i;
        while (j < ns && on[j] == TUNE_ON) j++;
        if (j - i > best_len) best_lo = i, best_len = j - i;
        i = j;
    }
    if (best_len) {
        w.min = sizes[best_lo];
        w.max = best_lo + best_len < ns ? sizes[best_lo + best_len] : TUNE_BISECT_NEVER;
    }
    return w;
}

/* The window from the grid, each bound that moved from the default's refined
 * between its two grid sizes (decide: rep movsb at one size). */
static inline struct tune_window tune_window_refine(struct tune_window w, const size_t *sizes, size_t ns,
                                                    size_t def_min, size_t def_max, size_t res, unsigned max_probes,
                                                    tune_decide_fn decide, void *ctx, unsigned *probes)
{
    if (w.min >= w.max) return w;
    int def_open = def_min < def_max;
    size_t min = w.min, max = w.max;
    if (!def_open || w.min != def_min)
        for (size_t i = 1; i < ns; i++)
            if (sizes[i] == w.min) {
                size_t lo = sizes[i - 1];
                int def_side = def_open && lo + 1 >= def_min && lo + 1 < def_max ? TUNE_ON : TUNE_OFF;
                min = tune_bisect(lo, w.min, TUNE_ON, def_side, res, max_probes, decide, ctx, probes);
            }
    if (w.max != TUNE_BISECT_NEVER && (!def_open || w.max != def_max))
        for (size_t j = 1; j < ns; j++)
            if (sizes[j] == w.max) {
                size_t lo = sizes[j - 1];
                int def_side = def_open && lo + 1 >= def_min && lo + 1 < def_max ? TUNE_ON : TUNE_OFF;
                max = tune_bisect(lo, w.max, TUNE_OFF, def_side, res, max_probes, decide, ctx, probes);
            }
    w.min = min;
    w.max = max > min ? max : min + 1; /* cannot happen: min <= sizes[i] <= sizes[j - 1] < max */
    return w;
}

#endif
