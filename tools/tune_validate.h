/*
 * tune_validate.h - fastcopy-tune's last phase: the candidate profile (every
 * setting that moved) against the library's defaults on cases the decisions
 * did not use; a moved setting whose change loses beyond the noise band
 * anywhere is dropped (back to the default).  Apart from the measurement (a
 * callback times configurations on cases) so that tests/test_tune_bisect.c
 * can drive it with a timing model.
 *
 * One round: the configurations default, default again (the A/A pair),
 * candidate, and for each moved setting (group) the default with that
 * setting alone, all on every case.  The band is the larger of 2% and the
 * 90th percentile of |A'/A - 1| (as every phase's); a case's ratio is the
 * candidate's time over the geometric mean of the two default readings.  A
 * case where the candidate loses beyond the band is measured again (those
 * cases only, tune_confirm.h): it counts as lost only where both
 * measurements lose beyond the wider of the two bands.  For each lost case
 * the setting to blame: the only one that moved; else each whose own
 * configuration lost beyond the band in both measurements; else the one with
 * the worst own ratio there.  The blamed settings go back to the default and
 * the next round measures what is left, at most TUNE_VALIDATE_ROUNDS rounds;
 * where the last round still drops something, every setting goes back (a
 * candidate is written only as measured).
 *
 * The rep movsb bounds are one setting where either window is closed or
 * where reverting one alone would leave min > max (the library refuses a
 * reversed window).
 */
#ifndef FASTCOPY_TUNE_VALIDATE_H
#define FASTCOPY_TUNE_VALIDATE_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tune_confirm.h"

enum { TUNE_IMPL, TUNE_MOVSB_MIN, TUNE_MOVSB_MAX, TUNE_MOVSB_GAP, TUNE_NT, TUNE_NT_PAGES, TUNE_INORDER, TUNE_NSETTINGS };
static const char *const tune_setting_name[TUNE_NSETTINGS] = {"impl",         "movsb_min", "movsb_max",  "movsb_gap",
                                                              "nt_threshold", "nt_pages",  "inorder_min"};
#define TUNE_VALIDATE_ROUNDS 3
#define TUNE_VALIDATE_MAXCFG (3 + TUNE_NSETTINGS)

/* v[TUNE_IMPL]: an index the measurement understands; sizes in bytes,
 * (size_t)-1 = never (movsb_max: up to the NT threshold); a closed window is 0, 0 */
struct tune_settings {
    size_t v[TUNE_NSETTINGS];
};

struct tune_vcase {
    size_t n;        /* bytes (for a distribution: its mean size) */
    size_t so, dof;  /* src and dst offsets in their pages */
    int dist;        /* -1: a fixed size; else a size distribution (its index) */
    char what[40];   /* why this case: "movsb_min - 1 KiB", "sweep", "GoogleA" */
};

/* t[i * k + j]: ns per call of configuration cfg[j] on case c[i] */
typedef void (*tune_measure_fn)(void *ctx, const struct tune_settings *cfg, size_t k, const struct tune_vcase *c,
                                size_t nc, double *t);

struct tune_drop {
    int setting;   /* TUNE_* (its group's first member) */
    size_t casei;  /* the case it lost at */
    double ratio;  /* candidate / default there (geometric mean of the two measurements) */
    double own;    /* the setting alone / default there */
    double band;
};

struct tune_validation {
    struct tune_settings result; /* what survived */
    unsigned rounds;
    size_t ndrop;
    struct tune_drop drop[TUNE_NSETTINGS];
    int all_reverted; /* the last round still lost: every setting back to the default */
    size_t cases_measured; /* case measurements, over every round and confirmation */
    double band;           /* the last round's A/A band (0: nothing measured) */
};

static int tune_cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The noise band from A/A ratios: max(2%, the 90th percentile of |A'/A - 1|). */
static inline double tune_band(const double *aa, size_t n)
{
    double *v = malloc((n + 1) * sizeof *v);
    if (!v) abort();
    for (size_t i = 0; i < n; i++) v[i] = fabs(aa[i] - 1.0);
    qsort(v, n, sizeof *v, tune_cmp_d);
    double q = n ? v[(size_t)(0.9 * (double)(n - 1) + 0.5)] : 0;
    free(v);
    return q > 0.02 ? q : 0.02;
}

/* The group of setting k: the first setting that must go back with it. */
static inline int tune_group(const struct tune_settings *def, const struct tune_settings *cand, int k)
{
    if (k == TUNE_MOVSB_MAX) {
        int dopen = def->v[TUNE_MOVSB_MIN] < def->v[TUNE_MOVSB_MAX], copen = cand->v[TUNE_MOVSB_MIN] < cand->v[TUNE_MOVSB_MAX];
        if (!dopen || !copen || cand->v[TUNE_MOVSB_MIN] > def->v[TUNE_MOVSB_MAX] ||
            def->v[TUNE_MOVSB_MIN] > cand->v[TUNE_MOVSB_MAX])
            return TUNE_MOVSB_MIN;
    }
    return k;
}

/* Where a setting moved: the groups that differ (group leaders), in order. */
static inline size_t tune_moved(const struct tune_settings *def, const struct tune_settings *cand, int *g)
{
    size_t m = 0;
    for (int k = 0; k < TUNE_NSETTINGS; k++) {
        if (tune_group(def, cand, k) != k) continue;
        int differs = def->v[k] != cand->v[k];
        for (int j = k + 1; j < TUNE_NSETTINGS; j++)
            if (tune_group(def, cand, j) == k) differs |= def->v[j] != cand->v[j];
        if (differs) g[m++] = k;
    }
    return m;
}

/* s with group leader k (of the pair def, cand) set to `from`'s values */
static inline void tune_set_group(struct tune_settings *s, const struct tune_settings *from,
                                  const struct tune_settings *def, const struct tune_settings *cand, int k)
{
    for (int j = 0; j < TUNE_NSETTINGS; j++)
        if (tune_group(def, cand, j) == k) s->v[j] = from->v[j];
}

/* One measurement of the cases idx[0..n): r[i] candidate / default, own[i * m + g]
 * the group's own configuration / default; returns the band. */
static inline double tune_validate_measure(const struct tune_settings *def, const struct tune_settings *cand,
                                           const int *g, size_t m, const struct tune_vcase *cases, const size_t *idx,
                                           size_t n, tune_measure_fn meas, void *ctx, double *r, double *own,
                                           double *tdef, double *tcand)
{
    struct tune_settings cfg[TUNE_VALIDATE_MAXCFG];
    size_t k = 3 + m;
    cfg[0] = cfg[1] = *def;
    cfg[2] = *cand;
    for (size_t j = 0; j < m; j++) {
        cfg[3 + j] = *def;
        tune_set_group(&cfg[3 + j], cand, def, cand, g[j]);
    }
    struct tune_vcase *c = calloc(n + 1, sizeof *c);
    double *t = calloc(n * k + 1, sizeof *t), *aa = calloc(n + 1, sizeof *aa);
    if (!c || !t || !aa) abort();
    for (size_t i = 0; i < n; i++) c[i] = cases[idx[i]];
    meas(ctx, cfg, k, c, n, t);
    for (size_t i = 0; i < n; i++) {
        double d = sqrt(t[i * k] * t[i * k + 1]);
        aa[i] = t[i * k + 1] / t[i * k];
        r[i] = t[i * k + 2] / d;
        if (tdef) tdef[i] = d;
        if (tcand) tcand[i] = t[i * k + 2];
        for (size_t j = 0; j < m; j++) own[i * m + j] = t[i * k + 3 + j] / d;
    }
    double band = tune_band(aa, n);
    free(c);
    free(t);
    free(aa);
    return band;
}

static inline const char *tune_vcase_place(const struct tune_vcase *c, char *buf, size_t len)
{
    if (c->dist >= 0) snprintf(buf, len, "batch");
    else snprintf(buf, len, "%zu/%zu", c->so, c->dof);
    return buf;
}

/* Validates cand against def on cases[0..nc); the table of each round and
 * what was dropped go to log (NULL: nothing printed). */
static inline void tune_validate(const struct tune_settings *def, const struct tune_settings *cand,
                                 const struct tune_vcase *cases, size_t nc, tune_measure_fn meas, void *ctx, FILE *log,
                                 struct tune_validation *out)
{
    memset(out, 0, sizeof *out);
    struct tune_settings cur = *cand;
    size_t *idx = calloc(nc + 1, sizeof *idx), *lost = calloc(nc + 1, sizeof *lost);
    double *r = calloc(nc + 1, sizeof *r), *own = calloc(nc * TUNE_NSETTINGS + 1, sizeof *own);
    double *r2 = calloc(nc + 1, sizeof *r2), *own2 = calloc(nc * TUNE_NSETTINGS + 1, sizeof *own2);
    double *td = calloc(nc + 1, sizeof *td), *tc = calloc(nc + 1, sizeof *tc);
    if (!idx || !lost || !r || !own || !r2 || !own2 || !td || !tc) abort();
    for (size_t i = 0; i < nc; i++) idx[i] = i;
    for (;;) {
        int g[TUNE_NSETTINGS];
        size_t m = tune_moved(def, &cur, g);
        if (!m) break;
        if (out->rounds == TUNE_VALIDATE_ROUNDS) { /* the last round dropped something: not measured as it is */
            out->all_reverted = 1;
            cur = *def;
            if (log) fprintf(log, "   still losing after %d rounds: every setting back to the default\n", TUNE_VALIDATE_ROUNDS);
            break;
        }
        out->rounds++;
        double band = tune_validate_measure(def, &cur, g, m, cases, idx, nc, meas, ctx, r, own, td, tc);
        out->cases_measured += nc;
        out->band = band;
        size_t nl = 0;
        for (size_t i = 0; i < nc; i++)
            if (r[i] > 1 + band) lost[nl++] = i;
        double band2 = band;
        if (nl) { /* measured again: lost only where both lose */
            band2 = tune_validate_measure(def, &cur, g, m, cases, lost, nl, meas, ctx, r2, own2, NULL, NULL);
            out->cases_measured += nl;
            if (band2 < band) band2 = band;
        }
        if (log) {
            fprintf(log, "\n   round %u: moved", out->rounds);
            for (size_t j = 0; j < m; j++) fprintf(log, " %s", tune_setting_name[g[j]]);
            fprintf(log, "; A/A band %.1f%%%s\n   %-22s %10s %9s %11s %11s %7s %6s  %s\n", 100 * band,
                    nl ? " (the cases losing beyond it measured again)" : "", "case", "n", "src/dst", "default ns",
                    "tuned ns", "ratio", "band", "verdict");
        }
        int blame[TUNE_NSETTINGS] = {0};
        size_t li = 0;
        for (size_t i = 0; i < nc; i++) {
            int is_lost = li < nl && lost[li] == i;
            const char *verdict = r[i] < 1 - band ? "wins" : r[i] > 1 + band ? "loses" : "=";
            char again[48] = "";
            if (is_lost) {
                double rb = r2[li], gmr = sqrt(r[i] * rb);
                int confirmed = r[i] > 1 + band2 && rb > 1 + band2;
                snprintf(again, sizeof again, ", again %.3f%s", rb, confirmed ? ": LOST" : ": not again");
                if (confirmed) {
                    int who = -1, any = 0;
                    double worst = 0;
                    for (size_t j = 0; j < m; j++) {
                        double o1 = own[i * m + j], o2 = own2[li * m + j];
                        if (m == 1 || (o1 > 1 + band2 && o2 > 1 + band2)) {
                            any = 1;
                            if (!blame[g[j]] && out->ndrop < TUNE_NSETTINGS)
                                out->drop[out->ndrop++] = (struct tune_drop){g[j], i, gmr, sqrt(o1 * o2), band2};
                            blame[g[j]] = 1;
                        }
                        if (sqrt(o1 * o2) > worst) worst = sqrt(o1 * o2), who = (int)j;
                    }
                    if (!any && who >= 0) {
                        if (!blame[g[who]] && out->ndrop < TUNE_NSETTINGS)
                            out->drop[out->ndrop++] = (struct tune_drop){g[who], i, gmr, worst, band2};
                        blame[g[who]] = 1;
                    }
                }
                li++;
            }
            if (log) {
                char pl[32];
                fprintf(log, "   %-22s %10zu %9s %11.1f %11.1f %7.3f %5.1f%%  %s%s\n", cases[i].what, cases[i].n,
                        tune_vcase_place(&cases[i], pl, sizeof pl), td[i], tc[i], r[i], 100 * band, verdict, again);
            }
        }
        int dropped = 0;
        struct tune_settings start = cur; /* the groups as this round measured them */
        for (int k = 0; k < TUNE_NSETTINGS; k++)
            if (blame[k]) {
                tune_set_group(&cur, def, def, &start, k);
                dropped = 1;
            }
        if (!dropped) break;
    }
    out->result = cur;
    free(idx);
    free(lost);
    free(r);
    free(own);
    free(r2);
    free(own2);
    free(td);
    free(tc);
}

/* ---- the cases ---------------------------------------------------------------------- */

static inline void tune_vcase_add(struct tune_vcase *out, size_t *nc, size_t cap, size_t n, size_t so, size_t dof,
                                  int dist, const char *what, size_t max_n)
{
    if (*nc >= cap || n == 0 || n > max_n) return;
    for (size_t i = 0; i < *nc; i++)
        if (out[i].dist == dist && out[i].n == n && out[i].so == so && out[i].dof == dof) return;
    struct tune_vcase *c = &out[(*nc)++];
    c->n = n, c->so = so, c->dof = dof, c->dist = dist;
    snprintf(c->what, sizeof c->what, "%s", what);
}

/* Around one boundary that moved from old to x (either may be never: (size_t)-1):
 * x - 1 KiB, x - 1, x, x + 1 KiB, old - 1, old and halfway between, at two placements. */
static inline void tune_vcase_boundary(struct tune_vcase *out, size_t *nc, size_t cap, const char *name, size_t x,
                                       size_t old, const size_t pl[2][2], size_t max_n)
{
    static const size_t never = (size_t)-1;
    char what[40];
    for (size_t p = 0; p < 2; p++) {
        if (x != never && x > 0) {
            if (x > 1024) {
                snprintf(what, sizeof what, "%s - 1 KiB", name);
                tune_vcase_add(out, nc, cap, x - 1024, pl[p][0], pl[p][1], -1, what, max_n);
            }
            snprintf(what, sizeof what, "%s - 1", name);
            tune_vcase_add(out, nc, cap, x - 1, pl[p][0], pl[p][1], -1, what, max_n);
            tune_vcase_add(out, nc, cap, x, pl[p][0], pl[p][1], -1, name, max_n);
            snprintf(what, sizeof what, "%s + 1 KiB", name);
            tune_vcase_add(out, nc, cap, x + 1024, pl[p][0], pl[p][1], -1, what, max_n);
        }
        if (old != never && old > 0 && old != x) {
            snprintf(what, sizeof what, "default %s - 1", name);
            tune_vcase_add(out, nc, cap, old - 1, pl[p][0], pl[p][1], -1, what, max_n);
            snprintf(what, sizeof what, "default %s", name);
            tune_vcase_add(out, nc, cap, old, pl[p][0], pl[p][1], -1, what, max_n);
            if (x != never) {
                snprintf(what, sizeof what, "%s halfway", name);
                tune_vcase_add(out, nc, cap, old / 2 + x / 2, pl[p][0], pl[p][1], -1, what, max_n);
            }
        }
    }
}

/* The validation's cases, none of them a size and placement a decision used:
 *   - around every boundary that moved (tune_vcase_boundary): the rep movsb
 *     window's bounds and the NT threshold at 64-byte aligned src and dst
 *     (dst 2112 bytes after src mod 4096) and at src+3 / dst+28 (1497 bytes
 *     after); inorder_min with dst 32 bytes behind src and 80 behind (src+5);
 *     a window that closed: its default bounds and halfway between;
 *   - fcbench's aligned sweep (`fcbench sizes`, src and dst at offset 0):
 *     2^k - 1, 2^k and 2^k + 1 from 512 B to sweep_max, and where the entry
 *     moved also 1-64 B and 72-504 B in steps of 64 (the other settings do
 *     not reach below 1 KiB);
 *   - the size distributions (dist_n[d]: the mean size of distribution d).
 * Sizes above max_n are left out.  Returns the number of cases (<= cap). */
static inline size_t tune_validate_cases(const struct tune_settings *def, const struct tune_settings *cand,
                                         size_t sweep_max, size_t max_n, const size_t *dist_n,
                                         const char *const *dist_name, size_t ndist, struct tune_vcase *out, size_t cap)
{
    static const size_t never = (size_t)-1;
    static const size_t far[2][2] = {{0, 2112}, {3, 1500}}, behind[2][2] = {{32, 0}, {85, 5}};
    size_t nc = 0;
    const size_t *d = def->v, *c = cand->v;
    int dopen = d[TUNE_MOVSB_MIN] < d[TUNE_MOVSB_MAX], copen = c[TUNE_MOVSB_MIN] < c[TUNE_MOVSB_MAX];
    if (copen) {
        if (!dopen || c[TUNE_MOVSB_MIN] != d[TUNE_MOVSB_MIN])
            tune_vcase_boundary(out, &nc, cap, "movsb_min", c[TUNE_MOVSB_MIN], dopen ? d[TUNE_MOVSB_MIN] : never, far,
                                max_n);
        if (!dopen || c[TUNE_MOVSB_MAX] != d[TUNE_MOVSB_MAX])
            tune_vcase_boundary(out, &nc, cap, "movsb_max", c[TUNE_MOVSB_MAX], dopen ? d[TUNE_MOVSB_MAX] : never, far,
                                max_n);
        if (c[TUNE_MOVSB_GAP] != d[TUNE_MOVSB_GAP]) { /* rep movsb near 4K aliasing, inside the window */
            size_t n = c[TUNE_MOVSB_MIN] + 4096;
            for (size_t g = 0; g < 2; g++) {
                size_t dist = g ? c[TUNE_MOVSB_GAP] : d[TUNE_MOVSB_GAP];
                tune_vcase_add(out, &nc, cap, n, 0, 4096 - dist / 2 - 1, -1, "movsb_gap", max_n);
            }
        }
    } else if (dopen) {
        tune_vcase_boundary(out, &nc, cap, "movsb_min", never, d[TUNE_MOVSB_MIN], far, max_n);
        tune_vcase_boundary(out, &nc, cap, "movsb_max", never, d[TUNE_MOVSB_MAX], far, max_n);
    }
    if (c[TUNE_NT] != d[TUNE_NT] || c[TUNE_NT_PAGES] != d[TUNE_NT_PAGES]) {
        size_t one[2][2] = {{0, 2112}, {0, 2112}};
        tune_vcase_boundary(out, &nc, cap, "nt_threshold", c[TUNE_NT], d[TUNE_NT], one, max_n);
    }
    if (c[TUNE_INORDER] != d[TUNE_INORDER])
        tune_vcase_boundary(out, &nc, cap, "inorder_min", c[TUNE_INORDER], d[TUNE_INORDER], behind, max_n);
    if (c[TUNE_IMPL] != d[TUNE_IMPL]) {
        for (size_t n = 1; n <= 64; n++) tune_vcase_add(out, &nc, cap, n, 0, 0, -1, "sweep", max_n);
        for (size_t n = 72; n < 512; n += 64) tune_vcase_add(out, &nc, cap, n, 0, 0, -1, "sweep", max_n);
    }
    for (size_t p = 512; p <= sweep_max; p *= 2)
        for (size_t k = 0; k < 3; k++) tune_vcase_add(out, &nc, cap, p - 1 + k, 0, 0, -1, "sweep", max_n);
    for (size_t i = 0; i < ndist; i++) tune_vcase_add(out, &nc, cap, dist_n[i], 0, 0, (int)i, dist_name[i], (size_t)-1);
    return nc;
}

#endif
