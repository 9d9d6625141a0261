/*
 * fcbench dist: ns per call for sizes drawn from real memcpy size
 * distributions (llvm-libc format: one line of comma-separated probabilities,
 * value i = P(size == i), i = 0..4096).  Six Google fleet distributions ship in
 * bench/distributions (license note there); FCBENCH_DIST_DIR points elsewhere.
 *
 * Each distribution becomes one batch of 65536 calls with sizes drawn from it
 * and src/dst offsets drawn uniformly from 0..63 (fixed seed: every contender
 * runs the same calls).  A sample is whole passes over the batch, so the
 * branch predictor sees 65536 unrelated sizes, not one.  Not fewer: a batch
 * replayed pass after pass is a sequence the predictor can partly learn, and
 * with 4096 calls it did (D35).  FCBENCH_DIST_BATCH=N (64 .. 4M) sets it for
 * experiments.  --file F runs the distribution in F alone (`fcbench record`'s
 * PREFIX.csv), with the offsets drawn from F's .align.csv beside it when there
 * is one.  The buffers are 8 KiB and stay in L1 (hot; with --cold every call goes to another slot of the cold
 * region).  Reported: median ns per call, and the time relative to libc,
 * each contender measured head to head with libc alone (see below).
 */
#include "harness.h"
#include "scenarios.h"

#include <stdlib.h>
#include <string.h>

#include "fastcopy.h"

#define BATCH_DEFAULT 65536
#define BATCH_MAX (1u << 22)
#define MAXSIZE FCBENCH_DIST_MAXSIZE

void scenario_dist(struct bench_ctx *ctx)
{
    enum { ND = FCBENCH_NDISTS };
    const char *const *dists = fcbench_dists;
    size_t ndists = ND;
    const char *one[1];
    char label_file[64];
    if (ctx->dist_file) { /* --file: that distribution alone (a recording, say) */
        one[0] = ctx->dist_file;
        dists = one;
        ndists = 1;
        const char *base = strrchr(ctx->dist_file, '/');
        snprintf(label_file, sizeof label_file, "%s", base ? base + 1 : ctx->dist_file);
        char *dot = strstr(label_file, ".csv");
        if (dot) *dot = 0;
    }
    size_t batch = BATCH_DEFAULT;
    const char *eb = getenv("FCBENCH_DIST_BATCH");
    if (eb && *eb) {
        unsigned long v = strtoul(eb, NULL, 0);
        if (v >= 64 && v <= BATCH_MAX) batch = v;
    }
    uint32_t *n[ND];
    uint8_t *so[ND], *dof[ND];
    for (size_t d = 0; d < ND; d++) {
        n[d] = malloc(batch * sizeof *n[d]);
        so[d] = malloc(batch);
        dof[d] = malloc(batch);
        if (!n[d] || !so[d] || !dof[d]) exit(1);
    }
    static struct bench_batch b[ND];
    struct bench_case bc[ND];
    const char *labels[ND];
    size_t nc = 0, k = ctx->ncontenders, libc = (size_t)-1;
    /* hot: one 8 KiB + 64 B area per side; cold: its slots rotate over the cold region */
    struct bench_case area = bench_place(ctx, MAXSIZE + 64, 0, 0);
    for (size_t j = 0; j < k; j++)
        if (!strcmp(ctx->contenders[j].name, "libc")) libc = j;
    for (size_t d = 0; d < ndists; d++) {
        b[nc] = (struct bench_batch){batch, n[nc], so[nc], dof[nc], 0, 0};
        if (!fcbench_dist_batch(dists[d], d, &b[nc])) continue;
        bc[nc] = area;
        bc[nc].n = (size_t)(b[nc].bytes / batch + 0.5);
        bc[nc].batch = &b[nc];
        /* Three times the samples (11 -> 33; not with --quick): a pair's rounds run back to back,
         * so a host episode of a few tens of milliseconds lands on one pair's consecutive rounds,
         * and with 11 samples it could move the pair's median (D31). */
        if (!ctx->opts.quick) bc[nc].samples = 3 * ctx->opts.samples;
        labels[nc++] = ctx->dist_file ? label_file : dists[d];
    }
    /* st[d * k + j]: contender j on distribution d.  With libc among the
     * contenders, every other contender is measured head to head with libc
     * alone (two contenders interleaved), its ratio taken against libc's time
     * in its own pair: interleaved with more routines, the shared branch
     * predictor sees every routine's branches between two batches of one, and
     * the ratio moved with the contender set (D35).  libc's recorded time is
     * from its pair with the first fc[...] contender (else the first pair). */
    struct stats *st = calloc(nc * k + 1, sizeof *st), *pst = calloc(nc * 2 + 1, sizeof *pst);
    double *base = calloc(nc * k + 1, sizeof *base); /* libc's time in contender j's pair */
    unsigned char *valid = calloc(nc * 2 + 1, 1);
    if (!st || !pst || !base || !valid) exit(1);
    if (libc == (size_t)-1 || k < 3) {
        bench_run_cases(ctx, "dist", bc, labels, nc, st);
        for (size_t d = 0; d < nc * k; d++) base[d] = libc != (size_t)-1 ? st[d - d % k + libc].med_ns : 0;
    } else {
        size_t first = (size_t)-1; /* the pair libc's time is recorded from */
        for (size_t j = 0; j < k && first == (size_t)-1; j++)
            if (j != libc && !strncmp(ctx->contenders[j].name, "fc[", 3)) first = j;
        if (first == (size_t)-1) first = libc == 0 ? 1 : 0;
        for (size_t j = 0; j < k; j++) {
            if (j == libc) continue;
            struct contender pair[2] = {ctx->contenders[libc], ctx->contenders[j]};
            for (size_t d = 0; d < nc; d++)
                for (size_t c = 0; c < 2; c++) valid[d * 2 + c] = (unsigned char)bench_validate(&pair[c], &bc[d]);
            char what[64];
            snprintf(what, sizeof what, "dist (libc vs %s)", pair[1].name);
            progress(what, 0, 1);
            bench_measure_many(&ctx->opts, pair, 2, bc, nc, valid, pst, NULL);
            const char *saved = ctx->label;
            for (size_t d = 0; d < nc; d++) {
                ctx->label = labels[d];
                st[d * k + j] = pst[d * 2 + 1];
                base[d * k + j] = valid[d * 2] ? pst[d * 2].med_ns : 0;
                if (valid[d * 2 + 1]) bench_record(ctx, "dist", &pair[1], &bc[d], &pst[d * 2 + 1]);
                if (j == first) {
                    st[d * k + libc] = pst[d * 2];
                    base[d * k + libc] = pst[d * 2].med_ns;
                    if (valid[d * 2]) bench_record(ctx, "dist", &pair[0], &bc[d], &pst[d * 2]);
                }
            }
            ctx->label = saved;
        }
    }
    printf("\n== dist: random sizes from real memcpy size distributions (%s), %s\n"
           "   batches of %zu calls, %s: median ns per call%s\n",
           ctx->dist_file ? ctx->dist_file : fcbench_dist_dir(),
           nc && b[0].align_recorded ? "src/dst offsets mod 64 drawn from the recording's .align.csv"
                                     : "random src/dst offsets 0..63",
           batch, ctx->opts.cold ? "cold" : "hot",
           libc == (size_t)-1  ? ""
           : k < 3             ? " (x = time relative to libc, same run)"
                               : " (x = time relative to libc, each contender head to head with libc alone;\n"
                                 "   libc's column: its pair with fc)");
    printf("%-16s %9s", "distribution", "mean B");
    for (size_t j = 0; j < k; j++) printf(" %18.18s", ctx->contenders[j].name);
    putchar('\n');
    for (size_t d = 0; d < nc; d++) {
        const struct stats *x = st + d * k;
        printf("%-16s %9.1f", labels[d], b[d].bytes / batch);
        for (size_t j = 0; j < k; j++) {
            if (base[d * k + j] > 0 && x[j].med_ns > 0)
                printf(" %8.2f ns %5.2fx", x[j].med_ns, x[j].med_ns / base[d * k + j]);
            else
                printf(" %8.2f ns       ", x[j].med_ns);
        }
        putchar('\n');
    }
    for (size_t d = 0; d < ND; d++) {
        free(n[d]);
        free(so[d]);
        free(dof[d]);
    }
    free(valid);
    free(base);
    free(pst);
    free(st);
}
