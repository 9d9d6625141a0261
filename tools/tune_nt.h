/*
 * tune_nt.h - fastcopy-tune's non-temporal decision, apart from the
 * measurement so that tests/test_tune_nt.c can feed it recorded figures.
 *
 * In: the sizes measured (ascending), at each the time with NT from every size
 * over the time without NT, for one stream (r1) and four interleaved (r4); the
 * A/A noise band; the default threshold and stream count.
 *   - streams first: 4 if r4 / r1 (geometric mean over every size) is below
 *     1 - band, 1 if above 1 + band, else the default;
 *   - then, on the chosen stream count's column, `from`: the smallest size
 *     from which NT wins beyond the band at every larger size.  Below the
 *     default, that moves the threshold down; above it, the threshold moves up
 *     (to `from`, or to never) only if NT lost beyond the band at a size in
 *     [default, from): where it merely failed to win, the default stands.
 * Before 2026-11-27 the threshold was read off the one-stream column alone: on
 * Emerald Rapids, where one stream took 1.5-1.8x the cached copy's time and
 * four 0.66-0.81x, that turned NT off (400 MiB then ran at 0.58-0.74x glibc's
 * speed in fcbench large).
 */
#ifndef FASTCOPY_TUNE_NT_H
#define FASTCOPY_TUNE_NT_H

#include <math.h>
#include <stddef.h>

#include "tune_confirm.h"

#define TUNE_NT_NEVER ((size_t)-1)

struct tune_nt_choice {
    size_t nt;     /* threshold, or TUNE_NT_NEVER */
    size_t pages;  /* 1 or 4 */
    double x4;     /* geometric mean of r4 / r1 */
};

/* the stream count alone: 4 if r4 / r1 (geometric mean) is below 1 - band, 1 if above 1 + band, else the default */
static inline size_t tune_nt_pages(const double *r1, const double *r4, size_t ns, double noise, size_t def_pages,
                                   double *x4_out)
{
    double lg = 0, x4 = 1.0;
    for (size_t i = 0; i < ns; i++) lg += log(r4[i] / r1[i]);
    if (ns) x4 = exp(lg / (double)ns);
    if (x4_out) *x4_out = x4;
    return x4 < 1 - noise ? 4 : x4 > 1 + noise ? 1 : def_pages;
}

/* the threshold on one column r (the chosen stream count's) */
static inline size_t tune_nt_threshold(const size_t *sizes, const double *r, size_t ns, double noise, size_t def_nt)
{
    size_t from = TUNE_NT_NEVER;
    for (size_t i = ns; i-- > 0;) {
        if (r[i] < 1 - noise) from = sizes[i];
        else break; /* NT must win at every larger size */
    }
    int lost_above_default = 0;
    for (size_t i = 0; i < ns; i++)
        if (sizes[i] >= def_nt && sizes[i] < from && r[i] > 1 + noise) lost_above_default = 1;
    if (from != TUNE_NT_NEVER && (from < def_nt || lost_above_default)) return from;
    if (from == TUNE_NT_NEVER && lost_above_default) return TUNE_NT_NEVER; /* loses above the default, never wins */
    return def_nt;
}

static inline struct tune_nt_choice tune_nt_decide(const size_t *sizes, const double *r1, const double *r4, size_t ns,
                                                   double noise, size_t def_nt, size_t def_pages)
{
    struct tune_nt_choice c = {def_nt, def_pages, 1.0};
    c.pages = tune_nt_pages(r1, r4, ns, noise, def_pages, &c.x4);
    c.nt = tune_nt_threshold(sizes, c.pages == 4 ? r4 : r1, ns, noise, def_nt);
    return c;
}

/* Two measurements (tune_confirm.h): the stream count where both choose the
 * same, else the default; then each measurement's threshold on that count's
 * column, and of the two the one nearer the default where both moved it the
 * same way (else the default). */
static inline struct tune_nt_choice tune_nt_decide2(const size_t *sizes, const double *r1a, const double *r4a,
                                                    const double *r1b, const double *r4b, size_t ns, double noise,
                                                    size_t def_nt, size_t def_pages)
{
    struct tune_nt_choice c = {def_nt, def_pages, 1.0};
    double xb;
    size_t pa = tune_nt_pages(r1a, r4a, ns, noise, def_pages, &c.x4), pb = tune_nt_pages(r1b, r4b, ns, noise, def_pages, &xb);
    c.pages = pa == pb ? pa : def_pages;
    size_t ta = tune_nt_threshold(sizes, c.pages == 4 ? r4a : r1a, ns, noise, def_nt);
    size_t tb = tune_nt_threshold(sizes, c.pages == 4 ? r4b : r1b, ns, noise, def_nt);
    c.nt = tune_combine(ta, tb, def_nt); /* TUNE_NT_NEVER is the largest: "up" to never only if both say so */
    return c;
}

#endif
