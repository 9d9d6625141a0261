/*
 * fastcopy-tune - measures the x86-64 copy settings on the machine it runs on
 * and writes a profile (docs/profile.md) that the library reads at load.
 *
 *   fastcopy-tune [--quick] [-o FILE | --system | --print] [--samples N]
 *
 *   (default)  the per-user profile: $XDG_CONFIG_HOME/fastcopy/profile, else
 *              $HOME/.config/fastcopy/profile
 *   --system   the system profile (FC_SYSTEM_PROFILE, ${sysconfdir}/fastcopy/profile)
 *   -o FILE    that file;  --print: standard output only (one of the three)
 *   --quick    fewer sizes and samples (about 10 s on a 2-core guest, validation
 *              included (it adds 1-3 s); else under 60)
 *
 * The file is written beside its place and renamed there (mode 0644; a
 * profile it replaces is kept as PROFILE.old), so a process loading the
 * library meanwhile never reads part of one.  Before it measures, it makes
 * the directory and creates and removes that temporary file there, and stops
 * at once, naming the directory and the reason, where it cannot.
 *
 * It measures with fcbench's engine (bench/measure.c: contenders interleaved
 * in a random order every round, new physical pages under the buffers every
 * round, medians), with the library's defaults as the baseline: it re-runs
 * itself with FASTCOPY_PROFILE=off and without FASTCOPY_TUNE/FASTCOPY_IMPL.
 * Every comparison carries an A/A pair (the baseline twice, in different
 * timing slots); the noise band is the larger of 2% and the 90th percentile
 * of |A'/A - 1| over the phase's cases, and a setting moves away from the
 * default only where it wins beyond that band - in two measurements: where
 * the first would move a setting, the phase is measured again and the
 * setting moves only if both decisions move it, as far as the nearer (tune_confirm.h):
 *
 *   1. entry: each x86 ladder (sse2, avx2, avx512, avx512-ymmloop) against
 *      the default, head to head, on the six real size distributions and on
 *      fixed sizes 24 B - 20 KiB at two placements (rep movsb off): taken if
 *      its geometric mean wins beyond the band and no case loses beyond it;
 *   2. rep movsb window: the entry with rep movsb at every size against the
 *      entry without, at 2 KiB up to the NT threshold, aligned and at three
 *      misaligned placements (the sizes include the default window's own
 *      bounds); first the gap (the (dst - src) mod 4096
 *      distances where rep movsb must not be used, measured at 64 KiB and
 *      1 MiB), then, with that gap, each size: on when rep movsb wins beyond
 *      the band (geometric mean over the placements) and loses at none, off
 *      when it loses beyond it, the default's choice otherwise; the window is
 *      the longest run of sizes on;
 *   3. non-temporal stores: the entry with NT from every size against none,
 *      hot, at 1/4 to 2x the last-level cache and at 1/2, 3/4, 1 and 2x the
 *      default threshold: the threshold moves down to the smallest size from
 *      which NT wins beyond the band at every larger size, and up (or to
 *      never) only past sizes at or above the default where NT lost beyond
 *      the band; NT's column is that of the stream count chosen first (4
 *      interleaved streams if they beat one beyond the band over all sizes;
 *      tune_nt.h);
 *   4. the in-order path (inorder_min): the entry without it against the
 *      entry with it at every size, at 1-16 KiB with dst 16 and 48 bytes
 *      behind src mod 4096 (dst aligned and at 13): the minimum moves up past
 *      the sizes at or above the default where the path loses beyond the band,
 *      down to where it wins beyond it below the default (tune_inorder.h).
 * Bisection (tune_bisect.h): where a bound moved (the window's bounds, the NT
 * threshold, inorder_min) it lies between two sizes measured; the sizes
 * between are probed halfway (multiples of 64 B), each probe decided as a
 * grid size is (on / off beyond the band, else the default's choice; measured
 * again where it would differ from the default), until the interval is 1 KiB
 * or less, two probes in a row are within the band, or 16 probes (NT: 6, each
 * copy is milliseconds); the sizes left unresolved take the default's side.
 * Zen 5 (2026-11-29): rep movsb lost at 24 KiB and won at 32 KiB, the window
 * began at 32 KiB, and 28000-32767 B ran at 42-63% of the copy ceiling
 * against 98-101% with the defaults (the crossover: about 26 KiB).
 *   5. validation (tune_validate.h): the candidate profile against the
 *      defaults on cases no decision used: both sides of every moved bound
 *      (bound - 1 KiB, - 1, bound, + 1 KiB, the default's bound - 1 and bound,
 *      halfway between; two placements), fcbench's aligned sweep (2^k - 1,
 *      2^k, 2^k + 1 from 512 B to 1 MiB, --quick, or 64 MiB; 1-504 B where
 *      the entry moved) and the six distributions drawn anew; each moved
 *      setting also alone.  Where the candidate loses beyond the band at a
 *      case in two measurements, the setting to blame goes back to the
 *      default and the rest is measured again (3 rounds at most, then every
 *      setting goes back).  It prints the table (case, n, placement, default
 *      and tuned ns, ratio, band, verdict) and what it dropped and why.
 * It prints each phase's cases and what it chose, and writes the profile
 * (format 2, keyed by this CPU's signature, ending in "end"; docs/profile.md)
 * with only the settings that moved and survived validation; the ones kept
 * are named in a comment, and a later library's defaults apply to them.
 */
#include "bench.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cpu/x86.h"
#include "fastcopy.h"
#include "tune_bisect.h"
#include "tune_confirm.h"
#include "tune_inorder.h"
#include "tune_nt.h"
#include "tune_validate.h"
#include "internal.h"

#define KIB ((size_t)1 << 10)
#define MIB ((size_t)1 << 20)
#define NEVER ((size_t)-1)

/* One configuration: an entry and the settings its calls run with. */
struct cfg {
    const struct fc_impl *im;
    struct fc_x86_tune t;
};

static void cfg_enter(const void *ctx)
{
    const struct cfg *c = ctx;
    fc__x86_tune = c->t; /* one thread: the next calls see it */
}

static size_t base_inorder = FC_INORDER_DEFAULT; /* the library's inorder_min, phases 1-3 */

/* The settings as the library derives them (fc__x86_derive). */
static struct fc_x86_tune mk(size_t nt, size_t mn, size_t mx, size_t gap, size_t pages)
{
    struct fc_x86_tune t = {nt, mn, mx, nt, gap, pages, base_inorder};
    fc__x86_derive(&t);
    return t;
}

static struct contender as_contender(const char *name, const struct cfg *c)
{
    struct contender k;
    memset(&k, 0, sizeof k);
    snprintf(k.name, sizeof k.name, "%s", name);
    k.memcpy_fn = (copy_fn)c->im->memcpy;
    k.memmove_fn = c->im->memmove;
    k.enter = cfg_enter;
    k.ctx = c;
    return k;
}

static struct bench_opts topts;
static unsigned char *A, *B; /* src, dst arenas */
static size_t arena_bytes;
static double t_start;
static int verbose = 1;

static double elapsed_s(void) { return (now_ns() - t_start) / 1e9; }

static const char *human(size_t n, char *buf, size_t len)
{
    if (n == NEVER) snprintf(buf, len, "never");
    else if (n >= MIB && n % MIB == 0) snprintf(buf, len, "%zu MiB", n / MIB);
    else if (n >= KIB && n % KIB == 0) snprintf(buf, len, "%zu KiB", n / KIB);
    else snprintf(buf, len, "%zu B", n);
    return buf;
}

/* Measures contenders c[0..k) over the cases (every contender validated on
 * every case first); t[i * k + j] = median ns per call. */
static void measure(const struct bench_case *bc, size_t nc, const struct contender *c, size_t k, double *t)
{
    unsigned char *valid = calloc(nc * k + 1, 1);
    struct stats *st = calloc(nc * k + 1, sizeof *st);
    if (!valid || !st) exit(1);
    for (size_t i = 0; i < nc; i++)
        for (size_t j = 0; j < k; j++) {
            valid[i * k + j] = (unsigned char)bench_validate(&c[j], &bc[i]);
            if (!valid[i * k + j]) {
                fprintf(stderr, "fastcopy-tune: %s copies wrong bytes (n = %zu): stopping\n", c[j].name, bc[i].n);
                exit(1);
            }
        }
    bench_measure_many(&topts, c, k, bc, nc, valid, st, NULL);
    for (size_t i = 0; i < nc * k; i++) t[i] = st[i].med_ns;
    free(valid);
    free(st);
}

/* The noise band from the A/A pairs: max(2%, the 90th percentile of |A'/A - 1|) (tune_validate.h). */
static double noise_band(const double *aa, size_t n) { return tune_band(aa, n); }

static struct bench_case place(size_t n, size_t so, size_t dof)
{
    struct bench_case bc;
    memset(&bc, 0, sizeof bc);
    bc.src = A + 4096 + so; /* a page in: validation reads 64 bytes around dst */
    bc.dst = B + 4096 + dof;
    bc.n = n;
    return bc;
}

/* ---- 1. the entry ------------------------------------------------------------- */

/* One ladder against the default entry, head to head on the cases bc: 1 if it
 * wins (geometric mean beyond the band, no case losing beyond it). */
static int entry_h2h(const struct cfg *cd, const struct fc_impl *im, const struct bench_case *bc, size_t nc, size_t ndist,
                     double *gm_out, double *band_out)
{
    struct cfg cx = {im, cd->t};
    struct contender c[3] = {as_contender(cd->im->name, cd), as_contender("A/A", cd), as_contender(im->name, &cx)};
    double *t = calloc(nc * 3, sizeof *t), *aa = calloc(nc, sizeof *aa);
    if (!t || !aa) exit(1);
    measure(bc, nc, c, 3, t);
    double lg = 0, lo = 1e9, hi = 0;
    for (size_t i = 0; i < nc; i++) {
        double r = t[i * 3 + 2] / t[i * 3];
        aa[i] = t[i * 3 + 1] / t[i * 3];
        lg += log(r);
        if (r < lo) lo = r;
        if (r > hi) hi = r;
    }
    if (verbose > 1)
        for (size_t i = 0; i < nc; i++)
            printf("      %-14s n %6zu: %s %.1f ns, A/A %.3f, %s %.3f\n", i < ndist ? fcbench_dists[i] : "fixed", bc[i].n,
                   cd->im->name, t[i * 3], t[i * 3 + 1] / t[i * 3], im->name, t[i * 3 + 2] / t[i * 3]);
    double gm = exp(lg / (double)nc), band = noise_band(aa, nc);
    int wins = gm < 1 - band && hi < 1 + band;
    if (verbose)
        printf("   %-16s %8.3fx %8.3fx %8.3fx %8.1f%%%s\n", im->name, gm, lo, hi, 100 * band,
               wins ? "  wins beyond the band" : "");
    free(t);
    free(aa);
    *gm_out = gm;
    *band_out = band;
    return wins;
}

static const struct fc_impl *choose_entry(const struct fc_impl *def, const struct fc_x86_tune *base, double *noise_out)
{
    static const char *const ladders[] = {"sse2", "avx2", "avx512", "avx512-ymmloop"};
    enum { NF = 9, BATCH = 65536 };
    static const size_t fixed[NF] = {24, 48, 96, 200, 400, 1000, 3000, 8000, 20000};
    struct bench_case bc[FCBENCH_NDISTS + 2 * NF];
    static struct bench_batch batches[FCBENCH_NDISTS];
    static uint32_t bn[FCBENCH_NDISTS][BATCH];
    static uint8_t bso[FCBENCH_NDISTS][BATCH], bdo[FCBENCH_NDISTS][BATCH];
    size_t nc = 0;
    for (unsigned d = 0; d < FCBENCH_NDISTS; d++) {
        batches[d] = (struct bench_batch){BATCH, bn[d], bso[d], bdo[d], 0, 0};
        if (!fcbench_dist_batch(fcbench_dists[d], d, &batches[d])) continue;
        bc[nc] = place(FCBENCH_DIST_MAXSIZE + 64, 0, 0);
        bc[nc].n = (size_t)(batches[d].bytes / BATCH + 0.5);
        bc[nc++].batch = &batches[d];
    }
    size_t ndist = nc;
    for (size_t i = 0; i < NF; i++) {
        bc[nc++] = place(fixed[i], 0, 640);
        bc[nc++] = place(fixed[i], 13, 1024 + 37);
    }
    struct cfg cd = {def, mk(base->nt_threshold, 0, 0, base->movsb_gap, base->nt_pages)};
    const struct fc_impl *best = def;
    double best_score = 1.0, noise = 0.02, band;
    if (verbose) {
        printf("\n1. entry: time / %s's (the default), head to head, rep movsb off; %zu distributions, %d sizes x 2 "
               "placements\n   %-16s %9s %9s %9s %9s\n",
               def->name, ndist, NF, "entry", "geomean", "best", "worst", "A/A band");
    }
    for (size_t e = 0; e < sizeof ladders / sizeof ladders[0]; e++) {
        const struct fc_impl *im = fc_impl_find(ladders[e]);
        if (!im || !im->available || im == def) continue;
        double gm;
        int wins = entry_h2h(&cd, im, bc, nc, ndist, &gm, &band);
        if (band > noise) noise = band;
        if (wins && gm < best_score) best = im, best_score = gm;
    }
    /* a second measurement of the winner (tune_confirm.h): it must win again */
    if (best != def) {
        double gm;
        if (verbose) printf("   the winner measured again:\n");
        int again = entry_h2h(&cd, best, bc, nc, ndist, &gm, &band);
        if (band > noise) noise = band;
        if (!again) {
            if (verbose) printf("   (%s did not win again: the default stays)\n", best->name);
            best = def;
        }
    }
    *noise_out = noise;
    return best;
}

/* ---- 2. the rep movsb window ---------------------------------------------------- */

struct window {
    size_t min, max, gap;
};

/* Two windows with the same effect: both closed, or the same bounds, an upper
 * bound at or above the NT threshold counting as "up to it" (the library
 * caps it there, and NEVER here means that). */
static int same_window(size_t amin, size_t amax, size_t bmin, size_t bmax, size_t nt)
{
    int ao = amin < amax, bo = bmin < bmax;
    if (!ao || !bo) return ao == bo;
    if (amax >= nt) amax = NEVER;
    if (bmax >= nt) bmax = NEVER;
    return amin == bmin && amax == bmax;
}

/* One measurement of the window's sizes: vote[i] TUNE_ON where rep movsb wins
 * beyond the band (geometric mean over 4 placements, none losing beyond it),
 * TUNE_OFF where it loses beyond it, TUNE_NEUTRAL otherwise (tune_vote).
 * Returns this measurement's A/A band; decides with the wider of it and
 * `noise`.  probe: one size of a bisection, printed on one line. */
static double window_sizes(const struct fc_impl *entry, const struct fc_x86_tune *def, size_t gap, const size_t *sizes,
                           size_t ns, double noise, int *vote, int probe)
{
    static const size_t pl[4][2] = {{0, 640}, {1, 640}, {0, 641}, {13, 1024 + 3}}; /* src off, dst off */
    struct bench_case *bw = calloc(ns * 4, sizeof *bw);
    double *tw = calloc(ns * 4 * 3, sizeof *tw), *aw = calloc(ns * 4, sizeof *aw);
    if (!bw || !tw || !aw) exit(1);
    for (size_t i = 0; i < ns; i++)
        for (size_t p = 0; p < 4; p++) bw[i * 4 + p] = place(sizes[i], pl[p][0], pl[p][1]);
    struct cfg cc = {entry, mk(NEVER, 0, 0, gap, def->nt_pages)};
    struct cfg co = {entry, mk(NEVER, 0, NEVER, gap, def->nt_pages)};
    struct contender c2[3] = {as_contender("closed", &cc), as_contender("A/A", &cc), as_contender("open", &co)};
    measure(bw, ns * 4, c2, 3, tw);
    for (size_t i = 0; i < ns * 4; i++) aw[i] = tw[i * 3 + 1] / tw[i * 3];
    double band = noise_band(aw, ns * 4), dn = band > noise ? band : noise;
    if (verbose && !probe)
        printf("\n   the window, by size: %s with rep movsb / without (aligned, src+1, dst+1, 13/1027); A/A band "
               "%.1f%%\n",
               entry->name, 100 * band);
    if (verbose && !probe && dn > band) printf("   (deciding with %.1f%%, the wider of this band and the gap's)\n", 100 * dn);
    for (size_t i = 0; i < ns; i++) {
        double lg = 0, hi = 0;
        for (size_t p = 0; p < 4; p++) {
            double r = tw[(i * 4 + p) * 3 + 2] / tw[(i * 4 + p) * 3];
            lg += log(r);
            if (r > hi) hi = r;
        }
        double gm = exp(lg / 4);
        int def_on = sizes[i] >= def->movsb_min && sizes[i] < def->movsb_max;
        vote[i] = tune_vote(gm, hi, dn);
        if (verbose) {
            char b[32];
            printf(probe ? "      probe %9s" : "   %9s", human(sizes[i], b, sizeof b));
            for (size_t p = 0; p < 4; p++) printf(" %6.3f", tw[(i * 4 + p) * 3 + 2] / tw[(i * 4 + p) * 3]);
            printf("  geomean %.3f -> %s", gm,
                   vote[i] == TUNE_ON ? "on" : vote[i] == TUNE_OFF ? "off" : def_on ? "default (on)" : "default (off)");
            printf(probe ? " (band %.1f%%)\n" : "\n", 100 * dn);
        }
    }
    free(bw);
    free(tw);
    free(aw);
    return band;
}

/* a bisection's probe of the window: rep movsb at one size (tune_bisect.h) */
struct window_probe {
    const struct fc_impl *entry;
    const struct fc_x86_tune *def;
    size_t gap;
    double noise;
};

static int window_decide(void *ctx, size_t n)
{
    struct window_probe *wp = ctx;
    int v;
    window_sizes(wp->entry, wp->def, wp->gap, &n, 1, wp->noise, &v, 1);
    return v;
}

static struct window choose_window(const struct fc_impl *entry, const struct fc_x86_tune *def, size_t nt_limit,
                                   double *noise_out)
{
    struct window w = {def->movsb_min, def->movsb_max, def->movsb_gap};
    const struct fc_impl *erms = fc_impl_find("erms");
    if (!erms || !erms->available) {
        if (verbose) printf("\n2. rep movsb: no ERMS on this CPU: the window stays closed\n");
        w.min = w.max = 0;
        return w;
    }
    double noise = 0.02;
    /* a) the gap: rep movsb (the erms entry, nothing else) against the entry
     * without it, at (dst - src) mod 4096 = d and 4096 - d */
    static const size_t dist[] = {0, 16, 64, 128, 256, 512, 1024, 2048};
    enum { ND = sizeof dist / sizeof dist[0] };
    size_t gsizes[2] = {64 * KIB, MIB};
    struct bench_case bc[2 * ND * 2];
    size_t nc = 0;
    for (size_t s = 0; s < 2; s++)
        for (size_t i = 0; i < ND; i++) {
            bc[nc++] = place(gsizes[s], 0, dist[i]); /* dst - src = +d */
            bc[nc++] = place(gsizes[s], dist[i], 0); /* -d */
        }
    struct cfg cv = {entry, mk(NEVER, 0, 0, def->movsb_gap, def->nt_pages)};
    struct cfg cr = {erms, cv.t};
    struct contender c[3] = {as_contender(entry->name, &cv), as_contender("A/A", &cv), as_contender("rep movsb", &cr)};
    double t[2 * ND * 2 * 3], aa[2 * ND * 2];
    measure(bc, nc, c, 3, t);
    for (size_t i = 0; i < nc; i++) aa[i] = t[i * 3 + 1] / t[i * 3];
    noise = noise_band(aa, nc);
    /* the gap: past every distance (either side of 0) where rep movsb does
     * worse against the vector loop than it does far from 4K aliasing (its
     * ratio at 512..2048 bytes, geometric mean) beyond the band - the dip
     * near aliasing; whether rep movsb is worth it at all is the window's
     * question, asked far from aliasing.
     * A dip counts only where both sizes show it at the same distance and
     * side: 4K aliasing does not depend on the size, and 32 comparisons
     * against one band let noise through at one size alone (Emerald Rapids,
     * --quick: single cells 1.07x at 64 KiB, none at 1 MiB; Zen 3's real
     * dip is 13-24x at +16 at both). */
    size_t gap = 0;
    double far[2];
    for (size_t sz = 0; sz < 2; sz++) {
        double lf = 0;
        int nf = 0;
        for (size_t i = 0; i < ND; i++)
            if (dist[i] >= 512)
                for (size_t sign = 0; sign < 2; sign++) {
                    size_t k = (sz * ND + i) * 2 + sign;
                    lf += log(t[k * 3 + 2] / t[k * 3]);
                    nf++;
                }
        far[sz] = exp(lf / nf);
    }
    for (size_t i = 0; i < ND; i++)
        for (size_t sign = 0; sign < 2; sign++) {
            int dip = 1;
            for (size_t sz = 0; sz < 2; sz++) {
                size_t k = (sz * ND + i) * 2 + sign;
                dip &= t[k * 3 + 2] / t[k * 3] > far[sz] * (1 + noise);
            }
            if (dip && dist[i] + 1 > gap) gap = dist[i] + 1;
        }
    /* round up to the next tested distance: nearer than it was not seen to be safe */
    size_t g2 = 0;
    for (size_t i = 0; i < ND; i++)
        if (dist[i] >= gap) {
            g2 = dist[i];
            break;
        }
    if (gap > dist[ND - 1]) g2 = 2048;
    gap = g2;
    if (verbose) {
        printf("\n2. rep movsb (the erms entry) / %s with rep movsb off, by (dst - src) mod 4096 (+d, -d)\n   %9s",
               entry->name, "n");
        for (size_t i = 0; i < ND; i++) printf(" %11zu", dist[i]);
        printf("\n");
        for (size_t s = 0; s < 2; s++) {
            char b[32];
            printf("   %9s", human(gsizes[s], b, sizeof b));
            for (size_t i = 0; i < ND; i++) {
                size_t k = (s * ND + i) * 2;
                printf(" %5.2f %5.2f", t[k * 3 + 2] / t[k * 3], t[(k + 1) * 3 + 2] / t[(k + 1) * 3]);
            }
            printf("\n");
        }
        printf("   A/A band %.1f%%: gap %zu (rep movsb kept %zu bytes off 4K aliasing)\n", 100 * noise, gap, gap);
    }
    w.gap = gap;

    /* b) each size: the entry with the window open everywhere (this gap)
     * against closed, aligned and at three misaligned placements; the
     * default window's own bounds are among the sizes, so that a bound moves
     * only past a size that was measured */
    static const size_t all_sizes[] = {2 * KIB,   4 * KIB,   8 * KIB,   12 * KIB,  16 * KIB, 24 * KIB,
                                       32 * KIB,  48 * KIB,  64 * KIB,  128 * KIB, 256 * KIB, 512 * KIB,
                                       1 * MIB,   2 * MIB,   4 * MIB,   8 * MIB,   16 * MIB,  32 * MIB,
                                       64 * MIB,  128 * MIB};
    size_t sizes[sizeof all_sizes / sizeof all_sizes[0] + 2], ns = 0;
    size_t top = nt_limit < arena_bytes - 8 * KIB ? nt_limit : arena_bytes - 8 * KIB;
    for (size_t i = 0; i < sizeof all_sizes / sizeof all_sizes[0]; i++)
        if (all_sizes[i] < top && (!topts.quick || i % 2 == 0 || all_sizes[i] == 24 * KIB)) sizes[ns++] = all_sizes[i];
    if (def->movsb_min < def->movsb_max) {
        size_t bounds[2] = {def->movsb_min, def->movsb_max};
        for (size_t k = 0; k < 2; k++) {
            size_t n = bounds[k] & ~(size_t)63, dup = 0;
            for (size_t i = 0; i < ns; i++) dup |= sizes[i] == n;
            if (!dup && n >= 2 * KIB && n < top) sizes[ns++] = n;
        }
        for (size_t i = 1; i < ns; i++) /* ascending */
            for (size_t j = i; j > 0 && sizes[j - 1] > sizes[j]; j--) {
                size_t x = sizes[j];
                sizes[j] = sizes[j - 1];
                sizes[j - 1] = x;
            }
    }
    int *on = calloc(ns, sizeof *on), *on2 = calloc(ns, sizeof *on2);
    if (!on || !on2) exit(1);
    double band = window_sizes(entry, def, gap, sizes, ns, noise, on, 0);
    if (band > noise) noise = band;
    for (size_t i = 0; i < ns; i++) on[i] = tune_resolve(on[i], sizes[i] >= def->movsb_min && sizes[i] < def->movsb_max);
    struct tune_window w1 = tune_window_of(on, sizes, ns);
    if (!same_window(w1.min, w1.max, def->movsb_min, def->movsb_max, nt_limit)) {
        /* the window moved: measure again, and keep each size's move only where both agree */
        if (verbose) printf("   measured again (the window moved; a size moves only where both measurements agree):\n");
        band = window_sizes(entry, def, gap, sizes, ns, noise, on2, 0);
        if (band > noise) noise = band;
        for (size_t i = 0; i < ns; i++) {
            int def_on = sizes[i] >= def->movsb_min && sizes[i] < def->movsb_max;
            on[i] = tune_agree(on[i], tune_resolve(on2[i], def_on), def_on);
        }
    }
    struct tune_window wf = tune_window_of(on, sizes, ns);
    if (wf.min < wf.max && !same_window(wf.min, wf.max, def->movsb_min, def->movsb_max, nt_limit)) {
        /* a bound that moved lies between two sizes measured: bisect there (tune_bisect.h) */
        struct window_probe wp = {entry, def, gap, noise};
        unsigned probes = 0;
        char b1[32], b2[32];
        if (verbose) printf("   bisecting the bounds that moved (%s .. %s on the grid), down to 1 KiB:\n",
                            human(wf.min, b1, sizeof b1), wf.max == NEVER ? "the NT threshold" : human(wf.max, b2, sizeof b2));
        wf = tune_window_refine(wf, sizes, ns, def->movsb_min < def->movsb_max ? def->movsb_min : 0,
                                def->movsb_min < def->movsb_max ? def->movsb_max : 0, KIB, 16, window_decide, &wp, &probes);
        if (verbose) printf("   -> %zu .. %s after %u probe%s\n", wf.min, wf.max == NEVER ? "the NT threshold" : human(wf.max, b2, sizeof b2),
                            probes, probes == 1 ? "" : "s");
    }
    if (wf.min < wf.max) {
        w.min = wf.min;
        w.max = wf.max;
    } else {
        w.min = w.max = 0;
        if (verbose && w.gap != def->movsb_gap)
            printf("   (no window: the gap measured above is not used; the default's, %zu, stays)\n", def->movsb_gap);
        w.gap = def->movsb_gap; /* no window: the gap means nothing, keep the default's */
    }
    free(on);
    free(on2);
    *noise_out = noise;
    return w;
}

/* ---- 3. non-temporal stores ----------------------------------------------------- */

/* One measurement: at each size the time with NT from every size (one
 * stream: r1, four: r4) over the time without, hot; returns the A/A band. */
static double nt_measure(const struct fc_impl *entry, const struct window *w, const size_t *sizes, size_t ns, double *r1,
                         double *r4, int probe)
{
    struct bench_case *bc = calloc(ns, sizeof *bc);
    double *t = calloc(ns * 4, sizeof *t), *aa = calloc(ns, sizeof *aa);
    if (!bc || !t || !aa) exit(1);
    for (size_t i = 0; i < ns; i++) bc[i] = place(sizes[i], 0, 640);
    size_t wmax = w->max == NEVER ? NEVER : w->max;
    struct cfg off = {entry, mk(NEVER, w->min, wmax, w->gap, 1)};
    struct cfg on1 = {entry, mk(0, w->min, wmax, w->gap, 1)};
    struct cfg on4 = {entry, mk(0, w->min, wmax, w->gap, 4)};
    struct contender c[4] = {as_contender("no NT", &off), as_contender("A/A", &off), as_contender("NT", &on1),
                             as_contender("NT x4", &on4)};
    struct bench_opts saved = topts;
    topts.samples = topts.quick ? 5 : 9; /* each copy is milliseconds */
    measure(bc, ns, c, 4, t);
    topts = saved;
    for (size_t i = 0; i < ns; i++) aa[i] = t[i * 4 + 1] / t[i * 4];
    double noise = noise_band(aa, ns);
    if (verbose && !probe)
        printf("\n3. non-temporal stores, hot: time / %s without NT (window as chosen); A/A band %.1f%%\n   %9s %9s %9s\n",
               entry->name, 100 * noise, "n", "NT", "NT x4");
    for (size_t i = 0; i < ns; i++) {
        char b[32];
        r1[i] = t[i * 4 + 2] / t[i * 4], r4[i] = t[i * 4 + 3] / t[i * 4];
        if (verbose) printf(probe ? "      probe %9s %9.3f %9.3f" : "   %9s %9.3f %9.3f\n", human(sizes[i], b, sizeof b), r1[i], r4[i]);
    }
    free(bc);
    free(t);
    free(aa);
    return noise;
}

/* a bisection's probe of the NT threshold: NT at one size, on the chosen stream count's column */
struct nt_probe {
    const struct fc_impl *entry;
    const struct window *w;
    size_t pages;
    double noise;
};

static int nt_decide(void *ctx, size_t n)
{
    struct nt_probe *np = ctx;
    double r1, r4, band = nt_measure(np->entry, np->w, &n, 1, &r1, &r4, 1), r = np->pages == 4 ? r4 : r1;
    if (band < np->noise) band = np->noise;
    int v = tune_vote(r, r, band);
    if (verbose) printf(" -> %s (band %.1f%%)\n", v == TUNE_ON ? "NT wins" : v == TUNE_OFF ? "NT loses" : "within the band", 100 * band);
    return v;
}

static void choose_nt(const struct fc_impl *entry, const struct window *w, const struct fc_x86_tune *def, size_t llc,
                      size_t *nt_out, size_t *pages_out, double *noise_out)
{
    *nt_out = def->nt_threshold;
    *pages_out = def->nt_pages;
    if (!llc) {
        if (verbose) printf("\n3. non-temporal stores: last-level cache unknown: the default kept\n");
        return;
    }
    /* 1/4 .. 2x the LLC, and 1/2, 3/4, 1 and 2x the default threshold:
     * a threshold moves only between sizes that were measured (Emerald
     * Rapids' default, 14 MiB, sits below LLC/4 = 75 MiB there) */
    size_t sizes[12], ns = 0;
    static const unsigned num[] = {1, 1, 3, 1, 3, 2}, den[] = {4, 2, 4, 1, 2, 1};
    for (size_t i = 0; i < sizeof num / sizeof num[0]; i++) {
        size_t n = (llc / den[i] * num[i]) & ~(size_t)4095;
        if (topts.quick && (i == 0 || i == 2)) continue;
        if (n && n <= arena_bytes) sizes[ns++] = n;
    }
    if (def->nt_threshold != NEVER && def->nt_threshold >= 2 * MIB)
        for (size_t k = 0; k < 4; k++) { /* 1/2, 3/4, 1 and 2x */
            static const unsigned q[] = {2, 3, 4, 8};
            size_t n = (def->nt_threshold / 4 * q[k]) & ~(size_t)4095, dup = 0;
            for (size_t i = 0; i < ns; i++) dup |= sizes[i] == n;
            if (!dup && n <= arena_bytes) sizes[ns++] = n;
        }
    for (size_t i = 1; i < ns; i++) /* ascending */
        for (size_t j = i; j > 0 && sizes[j - 1] > sizes[j]; j--) {
            size_t x = sizes[j];
            sizes[j] = sizes[j - 1];
            sizes[j - 1] = x;
        }
    double r1[sizeof sizes / sizeof sizes[0]], r4[sizeof sizes / sizeof sizes[0]];
    double r1b[sizeof sizes / sizeof sizes[0]], r4b[sizeof sizes / sizeof sizes[0]];
    double noise = nt_measure(entry, w, sizes, ns, r1, r4, 0);
    struct tune_nt_choice ch = tune_nt_decide(sizes, r1, r4, ns, noise, def->nt_threshold, def->nt_pages);
    if (verbose) printf("   NT x4 / NT, geomean %.3f: %zu stream%s\n", ch.x4, ch.pages, ch.pages > 1 ? "s" : "");
    if (ch.nt != def->nt_threshold || ch.pages != def->nt_pages) {
        /* it moved: measure again, decide on what both show (tune_confirm.h) */
        if (verbose) printf("   measured again (a setting moved; it moves only if both measurements move it):\n");
        double nb = nt_measure(entry, w, sizes, ns, r1b, r4b, 0);
        if (nb > noise) noise = nb;
        ch = tune_nt_decide2(sizes, r1, r4, r1b, r4b, ns, noise, def->nt_threshold, def->nt_pages);
        if (verbose)
            printf("   both, with the wider band (%.1f%%): %zu stream%s, the threshold nearer the default where both moved it\n",
                   100 * noise, ch.pages, ch.pages > 1 ? "s" : "");
    }
    if (ch.nt != def->nt_threshold && ch.nt != NEVER && ch.nt != sizes[0]) {
        /* moved to a size measured: bisect below it (tune_bisect.h), at most 6 probes (1/64 of the interval:
         * each is milliseconds a copy, and a threshold of megabytes needs no finer step) */
        struct nt_probe np = {entry, w, ch.pages, noise};
        unsigned probes = 0;
        char b1[32];
        if (verbose) printf("   bisecting below %s:\n", human(ch.nt, b1, sizeof b1));
        ch.nt = tune_bisect_threshold(sizes, ns, ch.nt, def->nt_threshold, KIB, 6, nt_decide, &np, &probes);
        if (verbose) printf("   -> NT from %zu B after %u probe%s\n", ch.nt, probes, probes == 1 ? "" : "s");
    }
    *nt_out = ch.nt;
    *pages_out = ch.pages;
    *noise_out = noise;
}

/* ---- 4. the in-order path --------------------------------------------------------- */

/* One measurement: at each size the time without the path over the time
 * with it (geometric mean over 4 placements, dst 16 and 48 bytes behind src);
 * returns the A/A band. */
static double inorder_measure(const struct fc_impl *entry, const struct window *w, size_t nt, size_t pages,
                              const struct fc_x86_tune *def, const size_t *sizes, size_t ns, double *r, int probe)
{
    static const size_t behind[] = {16, 48}, so[] = {0, 13};
    enum { NP = 4, NS = 8 };
    struct bench_case bc[NS * NP];
    size_t nc = 0;
    for (size_t i = 0; i < ns && i < NS; i++)
        for (size_t b = 0; b < 2; b++)
            for (size_t o = 0; o < 2; o++) bc[nc++] = place(sizes[i], behind[b] + so[o], so[o]); /* dst - src = -b */
    size_t wmax = w->max == NEVER ? NEVER : w->max;
    struct cfg on = {entry, mk(nt, w->min, wmax, w->gap, pages)}; /* the path at every size measured */
    on.t.inorder_min = 1;
    struct cfg off = on;
    off.t.inorder_min = NEVER;
    struct contender c[3] = {as_contender("with", &on), as_contender("A/A", &on), as_contender("without", &off)};
    double t[NS * NP * 3], aa[NS * NP];
    measure(bc, nc, c, 3, t);
    for (size_t i = 0; i < nc; i++) aa[i] = t[i * 3 + 1] / t[i * 3];
    double noise = noise_band(aa, nc);
    char b1[32];
    if (verbose && !probe)
        printf("\n4. in-order path (dst 16 and 48 bytes behind src mod 4096): time without it / with it (the default: "
               "from %s); A/A band %.1f%%\n   %9s %9s\n", human(def->inorder_min, b1, sizeof b1), 100 * noise, "n",
               "without");
    for (size_t i = 0; i < ns && i < NS; i++) {
        double lg = 0;
        for (size_t p = 0; p < NP; p++) lg += log(t[(i * NP + p) * 3 + 2] / t[(i * NP + p) * 3]);
        r[i] = exp(lg / NP);
        if (verbose) printf(probe ? "      probe %9s %9.3f" : "   %9s %9.3f\n", human(sizes[i], b1, sizeof b1), r[i]);
    }
    return noise;
}

/* a bisection's probe of inorder_min: the path at one size (r > 1: it wins) */
struct inorder_probe {
    const struct fc_impl *entry;
    const struct window *w;
    size_t nt, pages;
    const struct fc_x86_tune *def;
    double noise;
};

static int inorder_decide(void *ctx, size_t n)
{
    struct inorder_probe *ip = ctx;
    double r, band = inorder_measure(ip->entry, ip->w, ip->nt, ip->pages, ip->def, &n, 1, &r, 1);
    if (band < ip->noise) band = ip->noise;
    int v = r > 1 + band ? TUNE_ON : r < 1 - band ? TUNE_OFF : TUNE_NEUTRAL;
    if (verbose) printf(" -> %s (band %.1f%%)\n", v == TUNE_ON ? "the path wins" : v == TUNE_OFF ? "the path loses" : "within the band", 100 * band);
    return v;
}

static size_t choose_inorder(const struct fc_impl *entry, const struct window *w, size_t nt, size_t pages,
                             const struct fc_x86_tune *def, double *noise_out)
{
    static const size_t sizes[] = {1 * KIB, 2 * KIB, 4 * KIB, 8 * KIB, 16 * KIB};
    size_t ns = topts.quick ? 4 : 5;
    double r[5], rb[5];
    double noise = inorder_measure(entry, w, nt, pages, def, sizes, ns, r, 0);
    size_t io = tune_inorder_decide(sizes, r, ns, noise, def->inorder_min);
    if (io != def->inorder_min) {
        /* it moved: measure again, decide on what both show (tune_confirm.h) */
        if (verbose) printf("   measured again (it moved; it moves only if both measurements move it):\n");
        double nb = inorder_measure(entry, w, nt, pages, def, sizes, ns, rb, 0);
        if (nb > noise) noise = nb;
        size_t ia = tune_inorder_decide(sizes, r, ns, noise, def->inorder_min);
        size_t ib = tune_inorder_decide(sizes, rb, ns, noise, def->inorder_min);
        io = tune_combine(ia, ib, def->inorder_min);
        if (verbose) {
            char x1[32], x2[32];
            printf("   each alone, with the wider band (%.1f%%): from %s, from %s\n", 100 * noise, human(ia, x1, sizeof x1),
                   human(ib, x2, sizeof x2));
        }
    }
    if (io != def->inorder_min && io != NEVER && io != sizes[0]) {
        /* moved to a size measured: bisect below it (tune_bisect.h) */
        struct inorder_probe ip = {entry, w, nt, pages, def, noise};
        unsigned probes = 0;
        char b1[32];
        if (verbose) printf("   bisecting below %s, down to 1 KiB:\n", human(io, b1, sizeof b1));
        io = tune_bisect_threshold(sizes, ns, io, def->inorder_min, KIB, 16, inorder_decide, &ip, &probes);
        if (verbose) printf("   -> in-order path from %zu B after %u probe%s\n", io, probes, probes == 1 ? "" : "s");
    }
    *noise_out = noise;
    return io;
}

/* ---- 5. validation ------------------------------------------------------------------ */

static const struct fc_impl *impl_tab[2]; /* TUNE_IMPL: 0 the default entry, 1 the chosen one */
static struct bench_case vdist[FCBENCH_NDISTS];

/* the distributions, drawn anew (seeds 100 + d; the entry phase drew 0 + d) */
static size_t validation_dists(size_t *mean, const char **name)
{
    enum { BATCH = 65536 };
    static struct bench_batch batches[FCBENCH_NDISTS];
    static uint32_t bn[FCBENCH_NDISTS][BATCH];
    static uint8_t bso[FCBENCH_NDISTS][BATCH], bdo[FCBENCH_NDISTS][BATCH];
    size_t nd = 0;
    for (unsigned d = 0; d < FCBENCH_NDISTS; d++) {
        batches[d] = (struct bench_batch){BATCH, bn[d], bso[d], bdo[d], 0, 0};
        if (!fcbench_dist_batch(fcbench_dists[d], 100 + d, &batches[d])) continue;
        vdist[nd] = place(FCBENCH_DIST_MAXSIZE + 64, 0, 0);
        vdist[nd].n = (size_t)(batches[d].bytes / BATCH + 0.5);
        vdist[nd].batch = &batches[d];
        mean[nd] = vdist[nd].n;
        name[nd++] = fcbench_dists[d];
    }
    return nd;
}

/* tune_measure_fn: the configurations as contenders (fc__x86_derive, as the library loads them) */
static void tool_measure(void *ctx, const struct tune_settings *cfg, size_t k, const struct tune_vcase *vc, size_t nc,
                         double *t)
{
    (void)ctx;
    struct cfg *cf = calloc(k, sizeof *cf);
    struct contender *c = calloc(k, sizeof *c);
    struct bench_case *bc = calloc(nc + 1, sizeof *bc);
    if (!cf || !c || !bc) exit(1);
    for (size_t j = 0; j < k; j++) {
        const size_t *v = cfg[j].v;
        cf[j].im = impl_tab[v[TUNE_IMPL]];
        cf[j].t = (struct fc_x86_tune){v[TUNE_NT], v[TUNE_MOVSB_MIN], v[TUNE_MOVSB_MAX], v[TUNE_NT], v[TUNE_MOVSB_GAP],
                                       v[TUNE_NT_PAGES], v[TUNE_INORDER]};
        fc__x86_derive(&cf[j].t);
        c[j] = as_contender(j == 0 ? "default" : j == 1 ? "A/A" : j == 2 ? "tuned" : "one setting", &cf[j]);
    }
    for (size_t i = 0; i < nc; i++) bc[i] = vc[i].dist >= 0 ? vdist[vc[i].dist] : place(vc[i].n, vc[i].so, vc[i].dof);
    measure(bc, nc, c, k, t);
    free(cf);
    free(c);
    free(bc);
}

static struct tune_settings as_settings(size_t impl, size_t mn, size_t mx, size_t gap, size_t nt, size_t pages, size_t io)
{
    struct tune_settings s;
    if (mn >= mx) mn = mx = 0;      /* closed */
    else if (mx >= nt) mx = NEVER;  /* up to the NT threshold */
    s.v[TUNE_IMPL] = impl, s.v[TUNE_MOVSB_MIN] = mn, s.v[TUNE_MOVSB_MAX] = mx, s.v[TUNE_MOVSB_GAP] = gap;
    s.v[TUNE_NT] = nt, s.v[TUNE_NT_PAGES] = pages, s.v[TUNE_INORDER] = io;
    return s;
}

/* The candidate against the defaults (tune_validate.h); returns what survived. */
static struct tune_settings validate_profile(const struct tune_settings *def, const struct tune_settings *cand,
                                             double *band_out)
{
    int g[TUNE_NSETTINGS];
    *band_out = 0;
    if (!tune_moved(def, cand, g)) {
        if (verbose) printf("\n5. validation: nothing moved, nothing to validate\n");
        return *cand;
    }
    size_t mean[FCBENCH_NDISTS];
    const char *name[FCBENCH_NDISTS];
    size_t nd = validation_dists(mean, name);
    enum { CAP = 256 };
    static struct tune_vcase cases[CAP];
    size_t max_n = arena_bytes - 8 * KIB;
    size_t nc = tune_validate_cases(def, cand, topts.quick ? MIB : 64 * MIB, max_n, mean, name, nd, cases, CAP);
    double t0 = elapsed_s();
    printf("\n5. validation: the candidate (tuned) against the defaults on %zu cases no decision used: both sides of every\n"
           "   moved boundary, fcbench's aligned sweep (2^k-1, 2^k, 2^k+1 from 512 B to %s), %zu distributions (new draws);\n"
           "   time per call, ratio tuned / default; src/dst: offsets in their pages\n",
           nc, topts.quick ? "1 MiB" : "64 MiB", nd);
    struct tune_validation v;
    tune_validate(def, cand, cases, nc, tool_measure, NULL, stdout, &v);
    if (!v.ndrop && !v.all_reverted) printf("   -> every moved setting kept");
    for (size_t i = 0; i < v.ndrop; i++) {
        const struct tune_vcase *c = &cases[v.drop[i].casei];
        printf("   -> dropped %s: lost at %s (n %zu, src/dst %zu/%zu): tuned / default %.3f, the setting alone %.3f, band "
               "%.1f%%\n", tune_setting_name[v.drop[i].setting], c->what, c->n, c->so, c->dof, v.drop[i].ratio, v.drop[i].own,
               100 * v.drop[i].band);
    }
    if (v.all_reverted) printf("   -> still losing after %d rounds: every setting back to the default\n", TUNE_VALIDATE_ROUNDS);
    printf(" (%u round%s, %zu case measurements, %.1f s)\n", v.rounds, v.rounds == 1 ? "" : "s", v.cases_measured,
           elapsed_s() - t0);
    *band_out = v.band;
    return v.result;
}

/* ---- the profile ------------------------------------------------------------------ */

static int default_path(char *buf, size_t len)
{
    const char *x = getenv("XDG_CONFIG_HOME"), *h = getenv("HOME");
    if (x && x[0] == '/') {
        if (snprintf(buf, len, "%s/fastcopy/profile", x) < (int)len) return 1;
        fprintf(stderr, "fastcopy-tune: XDG_CONFIG_HOME is longer than the library reads (%d bytes): use -o FILE\n",
                (int)len - 18);
        return 0;
    }
    if (h && h[0] == '/') {
        if (snprintf(buf, len, "%s/.config/fastcopy/profile", h) < (int)len) return 1;
        fprintf(stderr, "fastcopy-tune: HOME is longer than the library reads (%d bytes): use -o FILE\n", (int)len - 26);
        return 0;
    }
    fprintf(stderr, "fastcopy-tune: neither XDG_CONFIG_HOME nor HOME is an absolute path: use -o FILE\n");
    return 0;
}

/* Writes the profile beside its place and renames it there: a process that
 * loads the library meanwhile reads the old profile or the new one, never
 * part of one.  Mode 0644 whatever the umask (a secure-execution process
 * takes the system profile only if nobody but root may write it).  An
 * existing profile is kept as PATH.old, and said so. */
static int write_profile(const char *path, const char *text, size_t len)
{
    char tmp[FC_PATH_MAX + 16], old[FC_PATH_MAX + 8];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    snprintf(old, sizeof old, "%s.old", path);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) {
        perror(tmp);
        return -1;
    }
    size_t done = 0;
    while (done < len) {
        ssize_t n = write(fd, text + done, len - done);
        if (n <= 0) break;
        done += (size_t)n;
    }
    if (done != len || fchmod(fd, 0644) != 0 || fsync(fd) != 0 || close(fd) != 0) {
        perror(tmp);
        unlink(tmp);
        return -1;
    }
    struct stat sb;
    if (stat(path, &sb) == 0) {
        unlink(old);
        if (link(path, old) == 0) printf("\nreplacing %s (the previous profile is now %s)", path, old);
        else printf("\nreplacing %s (could not keep the previous one: %s)", path, strerror(errno));
    }
    if (rename(tmp, path) != 0) {
        perror(path);
        unlink(tmp);
        return -1;
    }
    return 0;
}

/* mkdir -p of path's directory; the directories it creates get 0755
 * whatever the umask (a 0644 profile in a 0700 directory is unreadable to
 * everyone else: a system profile made with root's umask 077 would be).
 * 0, or -1 with the directory it could not create named on stderr. */
static int make_dirs(const char *path)
{
    char d[FC_PATH_MAX];
    snprintf(d, sizeof d, "%s", path);
    for (char *p = d + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            if (mkdir(d, 0755) == 0) {
                (void)chmod(d, 0755);
            } else if (errno != EEXIST) {
                fprintf(stderr, "fastcopy-tune: cannot create the profile's directory %s: %s\n", d, strerror(errno));
                return -1;
            }
            *p = '/';
        }
    return 0;
}

/* Before anything is measured (a full run takes a minute): the profile's
 * directory exists or can be made, and a file can be created in it - tried
 * for real, with the temporary file's own name, O_EXCL, removed at once:
 * root passes every permission check (access() says yes) and still cannot
 * write to a read-only mount, sysfs or procfs.  0, or -1 with the directory
 * and the reason (EACCES, ENOENT, EROFS, ENOTDIR, ...) on stderr. */
static int check_destination(const char *path)
{
    char dir[FC_PATH_MAX], tmp[FC_PATH_MAX + 16];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash) snprintf(dir, sizeof dir, ".");
    else slash[slash == dir] = 0; /* "/profile": the directory is "/" */
    if (make_dirs(path) != 0) return -1;
    struct stat sb;
    if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
        fprintf(stderr, "fastcopy-tune: cannot write the profile %s: %s\n", path, strerror(EISDIR));
        return -1;
    }
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) {
        int e = errno;
        fprintf(stderr, "fastcopy-tune: cannot write the profile in %s: %s (creating %s failed; nothing measured)\n",
                dir, strerror(e), tmp);
        return -1;
    }
    close(fd);
    if (unlink(tmp) != 0) {
        fprintf(stderr, "fastcopy-tune: cannot remove %s again: %s\n", tmp, strerror(errno));
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    int quick = 0, system = 0, print_only = 0;
    const char *out = NULL;
    unsigned samples = 0;
    static const char usage[] =
        "usage: fastcopy-tune [--quick] [-o FILE | --system | --print] [--samples N] [-v]\n"
        "Measures this machine's copy settings against the library's defaults and writes a profile\n"
        "that libfastcopy reads at load (docs/profile.md).  Where it goes (one of):\n"
        "  (default)   the per-user profile: $XDG_CONFIG_HOME/fastcopy/profile, else\n"
        "              $HOME/.config/fastcopy/profile; an existing one is kept as PROFILE.old\n"
        "  --system    the system profile, " FC_SYSTEM_PROFILE " (mode 0644, for root)\n"
        "  -o FILE     that file\n"
        "  --print     standard output (the profile alone; what it measured: standard error)\n"
        "  --quick     fewer sizes and samples (about 10 s; else under 60 s)\n"
        "  --samples N samples per case (default 21, --quick 7)\n";
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick")) quick = 1;
        else if (!strcmp(argv[i], "--system")) system = 1;
        else if (!strcmp(argv[i], "--print")) print_only = 1;
        else if (!strcmp(argv[i], "-v")) verbose = 2;
        else if (!strcmp(argv[i], "-o") && i + 1 < argc) out = argv[++i];
        else if (!strcmp(argv[i], "--samples") && i + 1 < argc) samples = (unsigned)strtoul(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(usage, stdout);
            return 0;
        } else {
            fputs(usage, stderr);
            return 2;
        }
    }
    if ((out != NULL) + system + print_only > 1) {
        fprintf(stderr, "fastcopy-tune: -o, --system and --print are alternatives: give one\n");
        return 2;
    }
    /* measure against the library's defaults: no profile, no environment overrides */
    const char *p = getenv("FASTCOPY_PROFILE");
    if (!p || strcmp(p, "off") || getenv("FASTCOPY_TUNE") || getenv("FASTCOPY_IMPL")) {
        setenv("FASTCOPY_PROFILE", "off", 1);
        unsetenv("FASTCOPY_TUNE");
        unsetenv("FASTCOPY_IMPL");
        execv("/proc/self/exe", argv);
        perror("fastcopy-tune: re-exec");
        return 1;
    }
    /* where the profile goes, and that it can go there: before anything is measured */
    char path[FC_PATH_MAX];
    if (!print_only) {
        if (out) {
            if (snprintf(path, sizeof path, "%s", out) >= (int)sizeof path) {
                fprintf(stderr, "fastcopy-tune: %s: path too long\n", out);
                return 1;
            }
        } else if (system) {
            snprintf(path, sizeof path, "%s", FC_SYSTEM_PROFILE);
        } else if (!default_path(path, sizeof path)) {
            return 1; /* default_path said why */
        }
        if (check_destination(path) != 0) return 1;
    }
    /* --print: the profile alone on standard output (fastcopy-tune --print > FILE is a profile),
     * what it measured on standard error (after the re-exec: descriptors carry over it) */
    int prof_fd = 1;
    if (print_only) {
        fflush(stdout);
        prof_fd = dup(1);
        if (prof_fd < 0 || dup2(2, 1) < 0) {
            perror("fastcopy-tune: dup");
            return 1;
        }
    }
    const struct fc_x86_status *st = fc__x86_status();
    const struct fc_x86_info *in = fc__x86_info();
    const struct fc_x86_tune def = fc__x86_tune;
    base_inorder = def.inorder_min;
    const struct fc_impl *def_entry = fc_impl_find(fc_active());
    t_start = now_ns();
    char pin[64];
    pin_to_one_cpu(pin, sizeof pin);
    bench_opts_init(&topts, quick);
    topts.samples = samples ? samples : quick ? 7 : 21;

    size_t llc = in->llc_size;
    arena_bytes = llc ? 2 * llc : 64 * MIB;
    if (arena_bytes < 4 * MIB) arena_bytes = 4 * MIB;
    if (arena_bytes > 240 * MIB) arena_bytes = 240 * MIB;
    if (!bench_alloc_arenas(&A, &B, arena_bytes + 3 * 4096)) { /* fell back to two mappings: fine */
    }
    bench_redraw_setup(A, B, 4 * MIB);

    char b1[32], b2[32], b3[32];
    printf("fastcopy-tune %s: %s (%s; order seed %llu, FCBENCH_SEED repeats it)\ncpu %s\n", fc_version(),
           quick ? "quick" : "full", pin, (unsigned long long)bench_order_seed(), st->signature);
    printf("defaults: entry %s; NT from %s (%zu stream%s); rep movsb ", def_entry->name,
           human(def.nt_threshold, b1, sizeof b1), def.nt_pages, def.nt_pages > 1 ? "s" : "");
    if (def.movsb_min < def.movsb_max)
        printf("%s .. %s, gap %zu\n", human(def.movsb_min, b2, sizeof b2), human(def.movsb_max, b3, sizeof b3), def.movsb_gap);
    else
        printf("never\n");

    double n1, n2 = 0, n3 = 0, n4 = 0;
    const struct fc_impl *entry = choose_entry(def_entry, &def, &n1);
    printf("   -> entry %s (%.0f s so far)\n", entry->name, elapsed_s());
    struct window w = choose_window(entry, &def, def.nt_threshold, &n2);
    if (w.min < w.max)
        printf("   -> rep movsb %s .. %s, gap %zu (%.0f s so far)\n", human(w.min, b1, sizeof b1),
               w.max == NEVER ? "the NT threshold" : human(w.max, b2, sizeof b2), w.gap, elapsed_s());
    else
        printf("   -> rep movsb never (%.0f s so far)\n", elapsed_s());
    size_t nt, pages;
    choose_nt(entry, &w, &def, llc, &nt, &pages, &n3);
    printf("   -> NT from %s, %zu stream%s (%.0f s so far)\n", human(nt, b1, sizeof b1), pages, pages > 1 ? "s" : "",
           elapsed_s());
    size_t inorder = choose_inorder(entry, &w, nt, pages, &def, &n4);
    printf("   -> in-order path from %s (%.0f s so far)\n", human(inorder, b1, sizeof b1), elapsed_s());

    /* 5. the candidate against the defaults; only what survives is written */
    impl_tab[0] = def_entry;
    impl_tab[1] = entry;
    struct tune_settings sdef = as_settings(0, def.movsb_min, def.movsb_max, def.movsb_gap, def.nt_threshold, def.nt_pages,
                                            def.inorder_min);
    struct tune_settings scand = as_settings(entry != def_entry, w.min, w.max, w.min < w.max ? w.gap : def.movsb_gap, nt,
                                             pages, inorder);
    double n5;
    struct tune_settings fin = validate_profile(&sdef, &scand, &n5);
    entry = impl_tab[fin.v[TUNE_IMPL]];
    w.min = fin.v[TUNE_MOVSB_MIN], w.max = fin.v[TUNE_MOVSB_MAX], w.gap = fin.v[TUNE_MOVSB_GAP];
    nt = fin.v[TUNE_NT], pages = fin.v[TUNE_NT_PAGES], inorder = fin.v[TUNE_INORDER];
    printf("   (%.0f s in all)\n", elapsed_s());

    /* the profile: only the settings that moved (a setting left out is the
     * library's default, so a later library's defaults apply to it), the ones
     * kept named in a comment; format 2 ends with "end" (a cut file is refused) */
    char set[512] = "", kept[512] = "";
    size_t sl = 0, kl = 0;
#define PUT(buf, len, ...) (len += (size_t)snprintf(buf + len, len < sizeof buf ? sizeof buf - len : 0, __VA_ARGS__))
    if (entry != def_entry) PUT(set, sl, "impl %s\n", entry->name);
    else PUT(kept, kl, " impl %s,", entry->name);
    if (nt != def.nt_threshold) PUT(set, sl, "nt_threshold %zu\n", nt == NEVER ? (size_t)0 : nt);
    else PUT(kept, kl, " nt_threshold %s,", human(nt, b1, sizeof b1));
    if (pages != def.nt_pages) PUT(set, sl, "nt_pages %zu\n", pages);
    else PUT(kept, kl, " nt_pages %zu,", pages);
    int w_open = w.min < w.max;
    if (!same_window(w.min, w.max, def.movsb_min, def.movsb_max, def.nt_threshold))
        PUT(set, sl, "movsb_min %zu\nmovsb_max %zu\n", w_open ? w.min : 0, w_open ? w.max : 0);
    else PUT(kept, kl, " the rep movsb window (%s),", w_open ? "as the default's" : "closed");
    if (w_open && w.gap != def.movsb_gap) PUT(set, sl, "movsb_gap %zu\n", w.gap);
    else if (w_open) PUT(kept, kl, " movsb_gap %zu,", w.gap);
    if (inorder != def.inorder_min) PUT(set, sl, "inorder_min %zu\n", inorder == NEVER ? (size_t)0 : inorder);
    else PUT(kept, kl, " inorder_min %s,", human(inorder, b1, sizeof b1));
#undef PUT
    if (sl >= sizeof set || kl >= sizeof kept) return 1;
    if (kl) kept[kl - 1] = 0; /* the last comma */
    time_t now = time(NULL);
    char date[32];
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    char prof[2048];
    int len = snprintf(prof, sizeof prof,
                       "# fastcopy profile, written by fastcopy-tune %s (%s) on %s in %.0f s\n"
                       "# noise bands (A/A): entry %.1f%%, rep movsb %.1f%%, NT %.1f%%, in-order %.1f%%, validation "
                       "%.1f%%; see docs/profile.md\n"
                       "# kept at the library's defaults (not written):%s\n"
                       "fastcopy-profile 2\n"
                       "cpu %s\n"
                       "%s"
                       "end\n",
                       fc_version(), quick ? "--quick" : "full", date, elapsed_s(), 100 * n1, 100 * n2, 100 * n3, 100 * n4, 100 * n5,
                       kl ? kept : " nothing", st->signature, set);
    if (len < 0 || (size_t)len >= sizeof prof) return 1;
    if (print_only) {
        fflush(stdout);
        for (size_t done = 0; done < (size_t)len;) {
            ssize_t k = write(prof_fd, prof + done, (size_t)len - done);
            if (k <= 0) {
                perror("fastcopy-tune: standard output");
                return 1;
            }
            done += (size_t)k;
        }
        return 0;
    }
    if (make_dirs(path) != 0) return 1; /* again: it may have gone while this measured */
    if (write_profile(path, prof, (size_t)len) != 0) return 1;
    printf("\nprofile written to %s:\n%s", path, prof);
    return 0;
}
