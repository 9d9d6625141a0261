/*
 * fcbench cliffs: each contender's worst placement per size as a fraction of its own
 * aligned speed; flags every case below 0.8.
 */
#include "harness.h"
#include "scenarios.h"

#include <stdlib.h>

/*
 * cliffs: for each size, every contender's aligned speed, then a screening
 * pass over the distance sweep and the src_off x dst_off grid (every pair;
 * dst_off in steps of 9 with --quick), then each contender's NCAND worst
 * cases re-measured with full samples, interleaved with its aligned case,
 * and the lowest of them measured once more for the ratio reported.
 */
void scenario_cliffs(struct bench_ctx *ctx)
{
    const size_t *sz;
    size_t nsz = cliff_sizes(ctx, &sz), nd = distance_list(ctx, (size_t[400]){0});
    struct stats base[MAX_CONTENDERS];
    printf("\n== cliffs: worst placement per contender and size, as a fraction of its own aligned speed (%s)\n",
           ctx->opts.cold ? "cold" : "hot");
    printf("   (screened over %zu distances and the src_off x dst_off grid, the %d worst re-measured; flagged < 0.80)\n",
           nd, NCAND);
    size_t nflag = 0;
    for (size_t s = 0; s < nsz; s++) {
        size_t n = sz[s];
        size_t k = ctx->ncontenders;
        size_t ncases = 1 + k * NCAND;
        struct bench_case *bc = calloc(ncases, sizeof *bc);
        unsigned char *valid = calloc(ncases * k, 1);
        struct stats *st = calloc(ncases * k, sizeof *st);
        if (!bc || !valid || !st) exit(1);
        bc[0] = bench_place(ctx, n, 0, 0);
        bench_run_case(ctx, NULL, &bc[0], base); /* the screen's reference (not recorded) */
        struct bench_cliff worst[MAX_CONTENDERS];
        static struct bench_cliff cand[MAX_CONTENDERS * NCAND];
        screen(ctx, n, 1, ctx->opts.quick ? 9 : 1, 3, "cliffs-screen", base, worst, cand, NULL);
        /* The ratio is taken from one interleaved measurement: every contender's
         * aligned case and its NCAND worst screened placements, samples
         * alternating over the same seconds (a ratio of two measurements
         * minutes apart moves with the host on a shared machine) (D34); the
         * lowest re-measured ratio chooses the placement. */
        for (size_t j = 0; j < k; j++) {
            valid[j] = (unsigned char)(base[j].gbps > 0);
            for (size_t i = 0; i < NCAND; i++) {
                size_t c = 1 + j * NCAND + i;
                bc[c] = bench_place(ctx, n, cand[j * NCAND + i].so, cand[j * NCAND + i].dof);
                valid[c * k + j] = (unsigned char)(valid[j] && cand[j * NCAND + i].ratio < 1e8 &&
                                                   bench_validate(&ctx->contenders[j], &bc[c]));
            }
        }
        bench_measure_many(&ctx->opts, ctx->contenders, k, bc, ncases, valid, st, progress_as("cliffs-worst"));
        /* The lowest of NCAND re-measured ratios is biased low: each carries
         * the host's noise, and the minimum picks the draw that noise pushed
         * down most (with the 24 candidates of a routine that has no cliff,
         * the lowest sits a few noise widths under the truth).  It chooses the
         * placement; the ratio reported is a new measurement of that placement
         * against the aligned case, interleaved as before: its noise is
         * unselected.  A real cliff is as low again. */
        size_t bestc[MAX_CONTENDERS];
        double selected[MAX_CONTENDERS];
        struct bench_case *bc2 = calloc(1 + k, sizeof *bc2);
        unsigned char *valid2 = calloc((1 + k) * k, 1);
        struct stats *st2 = calloc((1 + k) * k, sizeof *st2);
        if (!bc2 || !valid2 || !st2) exit(1);
        for (size_t c = 0; c <= k; c++) bc2[c] = bc[0]; /* a contender without a candidate: unused, but a real case */
        for (size_t j = 0; j < k; j++) {
            const struct stats *sw = NULL;
            bestc[j] = SIZE_MAX;
            for (size_t i = 0; i < NCAND; i++) {
                size_t c = 1 + j * NCAND + i;
                if (valid[c * k + j] && (!sw || st[c * k + j].gbps < sw->gbps)) {
                    sw = &st[c * k + j];
                    bestc[j] = i;
                }
            }
            selected[j] = sw && st[j].gbps > 0 ? sw->gbps / st[j].gbps : 0;
            if (!sw) continue;
            bc2[1 + j] = bc[1 + j * NCAND + bestc[j]];
            valid2[j] = valid[j];
            valid2[(1 + j) * k + j] = 1;
        }
        bench_measure_many(&ctx->opts, ctx->contenders, k, bc2, 1 + k, valid2, st2, progress_as("cliffs-confirm"));
        printf("\n n = %-8zu %-20s %10s %10s %7s %9s  worst placement\n", n, "contender", "aligned", "worst", "ratio",
               "selected");
        for (size_t j = 0; j < k; j++) {
            struct contender one = ctx->contenders[j];
            const struct stats *sa = &st2[j], *sw = &st2[(1 + j) * k + j];
            if (bestc[j] == SIZE_MAX) continue;
            worst[j] = cand[j * NCAND + bestc[j]];
            bench_record(ctx, "cliffs-aligned", &one, &bc2[0], sa);
            bench_record(ctx, "cliffs-worst", &one, &bc2[1 + j], sw);
            worst[j].base = sa->gbps;
            worst[j].gbps = sw->gbps;
            worst[j].ratio = sa->gbps > 0 ? sw->gbps / sa->gbps : 0;
            worst[j].selected = selected[j];
            ctx->sink.add_cliff(ctx->sink.self, &worst[j]);
            printf("            %-20.20s %10.2f %10.2f %7.3f %9.3f  src%%64=%zu dst%%64=%zu (dst-src)%%4096=%zu%s\n",
                   worst[j].contender, sa->gbps, sw->gbps, worst[j].ratio, worst[j].selected, worst[j].so,
                   worst[j].dof & 63, worst[j].dist, worst[j].ratio < 0.8 ? "  <-- CLIFF" : "");
            if (worst[j].ratio < 0.8) nflag++;
        }
        free(bc2);
        free(valid2);
        free(st2);
        free(bc);
        free(valid);
        free(st);
    }
    printf("\n%zu contender/size pairs fall below 0.80 of their own aligned speed\n", nflag);
}
