/*
 * fcbench distance: throughput over (dst - src) mod 4096 at 256 B .. 256 KiB.
 */
#include "harness.h"
#include "scenarios.h"

#include <stdlib.h>

void scenario_distance(struct bench_ctx *ctx)
{
    size_t d[400], nd = distance_list(ctx, d), k = ctx->ncontenders;
    const size_t *sz;
    size_t nsz = cliff_sizes(ctx, &sz);
    struct bench_case *bc = calloc(nsz * nd, sizeof *bc);
    struct stats *st = calloc(nsz * nd * k, sizeof *st);
    if (!bc || !st) exit(1);
    for (size_t s = 0; s < nsz; s++)
        for (size_t i = 0; i < nd; i++) bc[s * nd + i] = bench_place(ctx, sz[s], 0, d[i]);
    bench_run_cases(ctx, "distance", bc, NULL, nsz * nd, st);
    for (size_t s = 0; s < nsz; s++) {
        printf("\n== distance, n = %zu: GB/s by (dst - src) mod 4096 (src page-aligned, %s)\n", sz[s],
               ctx->opts.cold ? "cold" : "hot");
        bench_table_header(ctx, stdout, "dist");
        for (size_t i = 0; i < nd; i++) {
            printf("%-10zu", d[i]);
            for (size_t j = 0; j < k; j++) printf(" %18.2f", st[(s * nd + i) * k + j].gbps);
            putchar('\n');
        }
    }
    free(bc);
    free(st);
}
