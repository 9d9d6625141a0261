/*
 * fcbench sizes: throughput and ns/call, 1 B .. 64 MiB; aligned, src+1, dst+1 (+ aligned cold,
 * unless --cold makes all three cold); from 4 KiB the copy ceiling at each size (peak's kernels).
 */
#include "harness.h"
#include "scenarios.h"

#include <stdlib.h>
#include <string.h>

static size_t size_list(const struct bench_ctx *ctx, size_t *out, size_t max_n)
{
    size_t k = 0;
    for (size_t n = 1; n <= 64; n++) out[k++] = n;
    for (size_t n = 72; n < 512; n += ctx->opts.quick ? 64 : 8) out[k++] = n;
    for (size_t p = 512; p <= max_n; p *= 2) {
        out[k++] = p - 1;
        out[k++] = p;
        out[k++] = p + 1;
    }
    return k;
}

/* st[i * stride + j]: size i, contender j */
static void sizes_print(const struct bench_ctx *ctx, const char *label, size_t so, size_t dof, int cold, const size_t *sizes, size_t ns,
                        const struct stats *st, size_t stride)
{
    size_t k = ctx->ncontenders;
    printf("\n== sizes, %s (src%%64 = %zu, dst%%64 = %zu, %s): GB/s, median [ns/call]\n", label, so, dof,
           cold ? "cold" : "hot");
    bench_table_header(ctx, stdout, "bytes");
    for (size_t i = 0; i < ns; i++) {
        printf("%-10zu", sizes[i]);
        for (size_t j = 0; j < k; j++)
            printf(sizes[i] >= 1024 ? " %8.2f [%7.0f]" : " %8.2f [%7.1f]", st[i * stride + j].gbps,
                   st[i * stride + j].med_ns);
        putchar('\n');
    }
}

/* The copy ceiling at a size: from SIZES_CEILING_FROM up, every hot aligned
 * size n also gets a case of n rounded up to a multiple of 256 B (peak's
 * kernels take whole 4-vector blocks) that only peak's kernels run, in the
 * same rounds as the contenders (scenario "sizes-ceiling", label "aligned").  `peak` measures each level at one size,
 * where src + dst fill half of it; a copy whose src + dst reach a level's
 * size (16 KiB: 2n = the 32 KiB L1d; 512 KiB: 2n = the 1 MiB L2 of Zen 4)
 * lives partly in the next level, and every routine, the kernels included,
 * runs slower there.  The ceiling at n is what this machine does with that
 * working set: the yardstick `fcbench targets` reads a size against (D37).
 * Below 4 KiB a copy's fixed costs (size tests, edges) are a large share of
 * its time and the kernels, which have none, are no ceiling for a routine
 * that must take any n. */
#define SIZES_CEILING_FROM ((size_t)4096)
/* Up, not down: a few bytes more working set, never less (16383 B rounded
 * down to 16128 fits the 32 KiB L1d beside everything else, which 2n = 32766
 * does not: a ceiling above what any routine can reach); and no partial
 * block, whose last store would straddle the page boundary at 4097, 8193,
 * ... B (so slow a store that such a kernel read below fastcopy: no ceiling)
 * (D37). */
#define CEIL_N(n) (((n) + 255) & ~(size_t)255)

static void ceiling_print(const struct bench_ctx *ctx, const size_t *sizes, size_t ns, const struct stats *st, const struct contender *all,
                          size_t ka, const size_t *ceil_n, size_t nceil, const struct stats *cst)
{
    size_t k = ctx->ncontenders;
    printf("\n== sizes, aligned hot: %% of the copy ceiling at n (peak's best kernel on n rounded up to 256 B, "
           "same rounds)\n");
    printf("%-10s %10s %-12s", "bytes", "ceil GB/s", "kernel");
    for (size_t j = 0; j < k; j++) printf(" %14.14s", ctx->contenders[j].name);
    putchar('\n');
    for (size_t i = 0; i < ns; i++) {
        if (sizes[i] < SIZES_CEILING_FROM) continue;
        size_t c = 0;
        while (c < nceil && ceil_n[c] != CEIL_N(sizes[i])) c++;
        if (c == nceil) continue;
        size_t best = ka;
        for (size_t j = k; j < ka; j++)
            if (cst[c * ka + j].gbps > 0 && (best == ka || cst[c * ka + j].gbps > cst[c * ka + best].gbps)) best = j;
        if (best == ka) continue;
        printf("%-10zu %10.2f %-12s", sizes[i], cst[c * ka + best].gbps, all[best].name);
        for (size_t j = 0; j < k; j++) printf(" %13.0f%%", 100.0 * st[i * ka + j].gbps / cst[c * ka + best].gbps);
        putchar('\n');
    }
}

void scenario_sizes(struct bench_ctx *ctx)
{
    static const struct { const char *label; size_t so, dof; } pl[] = {
        {"aligned", 0, 0}, {"src+1", 1, 0}, {"dst+1", 0, 1}};
    size_t dflt[256], ndflt = size_list(ctx, dflt, ctx->opts.quick ? (size_t)1 << 20 : ARENA_MAX);
    const size_t *sizes;
    size_t ns = pick_sizes(ctx, dflt, ndflt, &sizes), k = ctx->ncontenders;
    /* hot vs cold for the aligned case (unless everything is cold): powers of two from 8 B */
    size_t cold_sizes[64], nc = 0;
    for (size_t i = 0; i < ns && !ctx->opts.cold; i++)
        if (sizes[i] >= 8 && !(sizes[i] & (sizes[i] - 1))) cold_sizes[nc++] = sizes[i];
    /* the ceiling cases (hot only): every size from SIZES_CEILING_FROM, rounded up, once each */
    size_t ceil_n[256], nceil = 0;
    for (size_t i = 0; i < ns && !ctx->opts.cold; i++) {
        size_t m = CEIL_N(sizes[i]), c = 0;
        if (sizes[i] < SIZES_CEILING_FROM) continue;
        while (c < nceil && ceil_n[c] != m) c++;
        if (c == nceil && nceil < sizeof ceil_n / sizeof ceil_n[0]) ceil_n[nceil++] = m;
    }
    struct contender all[MAX_CONTENDERS];
    memcpy(all, ctx->contenders, k * sizeof all[0]);
    size_t ka = k + (nceil ? fcbench_peak_kernels(all + k, MAX_CONTENDERS - k) : 0);
    size_t nplace = 3 * ns + nc, ncases = nplace + nceil;
    struct bench_case *bc = calloc(ncases, sizeof *bc);
    const char **labels = calloc(ncases, sizeof *labels);
    struct stats *st = calloc(ncases * ka, sizeof *st);
    unsigned char *valid = calloc(ncases * ka + 1, 1);
    if (!bc || !labels || !st || !valid) exit(1);
    for (size_t p = 0; p < 3; p++)
        for (size_t i = 0; i < ns; i++) {
            bc[p * ns + i] = bench_place(ctx, sizes[i], pl[p].so, pl[p].dof);
            labels[p * ns + i] = pl[p].label;
        }
    int was_cold = ctx->opts.cold;
    ctx->opts.cold = 1;
    for (size_t i = 0; i < nc; i++) {
        bc[3 * ns + i] = bench_place(ctx, cold_sizes[i], 0, 0);
        labels[3 * ns + i] = "aligned";
    }
    ctx->opts.cold = was_cold;
    for (size_t c = 0; c < nceil; c++) {
        bc[nplace + c] = bench_place(ctx, ceil_n[c], 0, 0);
        labels[nplace + c] = "aligned";
    }
    /* Three times the samples (33; not with --quick).  From 4 MiB up a sample
     * is one call or a few, src + dst compete for the L3 (or DRAM) with
     * whatever else the host runs, and 11 samples left two runs of the same
     * code apart by more than the A/A tolerance.  Below, each sample is one
     * page draw and some draws are slow, so a median of 11 lands on the slow
     * mode now and then (D31).  Every table is one case list for
     * bench_run_cases, so each case's samples are spread over the whole
     * scenario. */
    for (size_t i = 0; i < ncases && !ctx->opts.quick; i++) bc[i].samples = 3 * ctx->opts.samples;
    for (size_t i = 0; i < ncases; i++)
        for (size_t j = 0; j < ka; j++)
            valid[i * ka + j] = (i < nplace) == (j < k) && bench_validate(&all[j], &bc[i]);
    bench_measure_many(&ctx->opts, all, ka, bc, ncases, valid, st, progress_as("sizes"));
    const char *saved = ctx->label;
    for (size_t i = 0; i < ncases; i++) {
        ctx->label = labels[i];
        for (size_t j = 0; j < ka; j++)
            if (valid[i * ka + j])
                bench_record(ctx, i < nplace ? "sizes" : "sizes-ceiling", &all[j], &bc[i], &st[i * ka + j]);
    }
    ctx->label = saved;
    for (size_t p = 0; p < 3; p++)
        sizes_print(ctx, pl[p].label, pl[p].so, pl[p].dof, ctx->opts.cold, sizes, ns, st + p * ns * ka, ka);
    if (nc) sizes_print(ctx, "aligned", 0, 0, 1, cold_sizes, nc, st + 3 * ns * ka, ka);
    if (nceil) ceiling_print(ctx, sizes, ns, st, all, ka, ceil_n, nceil, st + nplace * ka);
    free(bc);
    free(labels);
    free(st);
    free(valid);
}
