/*
 * fcbench grid: src_off x dst_off (0..63) matrices, as ratio maps.
 */
#include "harness.h"
#include "scenarios.h"

/* grid: per contender and size, the matrix as a map of ratios to aligned:
 * '#' >= 0.95, '+' >= 0.80, '-' >= 0.50, '!' below (a cliff), ' ' not measured. */
void scenario_grid(struct bench_ctx *ctx)
{
    static const size_t dflt[] = {256, 4096, 65536};
    const size_t *sz;
    size_t nsz = pick_sizes(ctx, dflt, ctx->opts.quick ? 1 : 3, &sz), step = ctx->opts.quick ? 9 : 1;
    struct stats base[MAX_CONTENDERS];
    struct bench_cliff worst[MAX_CONTENDERS];
    for (size_t s = 0; s < nsz; s++) {
        struct bench_case bc0 = bench_place(ctx, sz[s], 0, 0);
        bench_run_case(ctx, "cliffs-aligned", &bc0, base);
        struct bench_grid *grids[MAX_CONTENDERS];
        screen(ctx, sz[s], 0, step, ctx->opts.quick ? 3 : 5, "grid", base, worst, NULL, grids);
        for (size_t j = 0; j < ctx->ncontenders; j++) {
            const struct bench_grid *g = grids[j];
            printf("\n== grid, n = %zu, %s: ratio to aligned (%.2f GB/s); rows src%%64 0..63, columns dst%%64", g->n,
                   g->contender, g->aligned);
            if (step > 1) printf(" 0, %zu, ..", step);
            printf(" (%s)\n   # >= 0.95  + >= 0.80  - >= 0.50  ! below 0.50;  worst %.3f at src%%64=%zu dst%%64=%zu\n",
                   g->cold ? "cold" : "hot", worst[j].ratio, worst[j].so, worst[j].dof);
            for (size_t r = 0; r < g->nso; r++) {
                printf("   %2zu ", r);
                for (size_t c = 0; c < g->ndo; c++) {
                    double x = g->aligned > 0 ? g->gbps[r][c] / g->aligned : 0;
                    putchar(g->gbps[r][c] <= 0 ? ' ' : x >= 0.95 ? '#' : x >= 0.8 ? '+' : x >= 0.5 ? '-' : '!');
                }
                putchar('\n');
            }
        }
    }
}
