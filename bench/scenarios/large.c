/*
 * fcbench large: the riscv memcpy patch's lines: aligned and unaligned copies of 400 MiB
 * ("MBytes" = MiB there, as here), each beside peak's DRAM-ceiling kernels (same samples).
 */
#include "harness.h"
#include "scenarios.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/*
 * The large copies, aligned and unaligned, with peak's DRAM-ceiling kernels
 * (non-temporal, rep movsb) on the same buffers, all in one window: round s
 * takes sample s of every contender and every kernel on the aligned case,
 * then on the unaligned one (bench_measure_many), so DRAM drift on a shared
 * host hits both copies and both ceilings alike.  The kernels are recorded as
 * scenario "large-ceiling" under the copy's label; beside the unaligned copy
 * they read its src + 1 with unaligned loads and store to its aligned dst.
 * A ceiling measured minutes earlier (by `peak`) drifts with the host's DRAM
 * load, and with the two copies timed one after the other misalignment and
 * drift could not be told apart; interleaving the two windows separates them
 * (D42).
 */
void scenario_large(struct bench_ctx *ctx)
{
    size_t n = (size_t)(ctx->opts.quick ? 16 : 400) << 20;
    unsigned char *a = bench_alloc(n + 3 * 4096), *b = bench_alloc(n + 3 * 4096);
    struct contender all[MAX_CONTENDERS];
    size_t nc = ctx->ncontenders, k = nc;
    memcpy(all, ctx->contenders, nc * sizeof all[0]);
    k += fcbench_dram_kernels(all + nc, MAX_CONTENDERS - nc);
    static const char *const label[2] = {"aligned", "unaligned"};
    struct bench_case bc[2];
    unsigned char valid[2 * MAX_CONTENDERS];
    struct stats *st = calloc(2 * k, sizeof *st);
    if (!st) exit(1);
    struct bench_opts saved = ctx->opts;
    /* a 400 MiB copy is its own long sample; 11 rounds (3 quick): fewer let the
     * unaligned copy's share of the ceiling wander from run to run by more than
     * the cost of src+1 itself (D42) */
    ctx->opts.samples = ctx->opts.quick ? 3 : 11;
    printf("\n== large: one copy of %zu MiB, median of %u (MiB/s; MBytes = MiB); aligned and unaligned interleaved\n",
           n >> 20, ctx->opts.samples);
    for (int u = 0; u < 2; u++) {
        bc[u] = (struct bench_case){.dst = b + 4096, .src = a + 4096 + (size_t)u, .n = n};
        for (size_t j = 0; j < k; j++) valid[u * k + j] = (unsigned char)bench_validate(&all[j], &bc[u]);
    }
    bench_measure_many(&ctx->opts, all, k, bc, 2, valid, st, NULL);
    for (int u = 0; u < 2; u++) {
        ctx->label = label[u];
        size_t best = k;
        for (size_t j = 0; j < k; j++) {
            const struct stats *s = &st[u * k + j];
            if (!valid[u * k + j]) continue;
            bench_record(ctx, j < nc ? "large" : "large-ceiling", &all[j], &bc[u], s);
            if (j >= nc && s->gbps > 0 && (best == k || s->gbps > st[u * k + best].gbps)) best = j;
        }
        for (size_t j = 0; j < nc; j++)
            if (valid[u * k + j] && st[u * k + j].med_ns > 0)
                printf("%s memcpy: %s copy of %zu MBytes in %.0f msecs (%.0f MB/s)\n", all[j].name, label[u], n >> 20,
                       st[u * k + j].med_ns / 1e6, (double)(n >> 20) / (st[u * k + j].med_ns / 1e9));
        if (best < k)
            printf("ceiling beside the %s copies (best of peak's non-temporal / rep movsb kernels, same rounds): "
                   "%s, %.0f MB/s\n",
                   label[u], all[best].name, (double)(n >> 20) / (st[u * k + best].med_ns / 1e9));
    }
    ctx->label = NULL;
    ctx->opts = saved;
    free(st);
    munmap(a, n + 3 * 4096);
    munmap(b, n + 3 * 4096);
}
