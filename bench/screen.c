/* The placement screen: the distance sweep and the src_off x dst_off grid
 * every contender runs through with cheap settings (grid shows it as maps,
 * cliffs re-measures its worst placements), and the sizes both run. */
#include "harness.h"

#include <string.h>

size_t distance_list(const struct bench_ctx *ctx, size_t *out)
{
    size_t k = 0, step = ctx->opts.quick ? 8 : 1;
    for (size_t d = 0; d <= 128; d += step) out[k++] = d;
    for (size_t d = 192; d < 3968; d += ctx->opts.quick ? 512 : 64) out[k++] = d;
    for (size_t d = 3968; d < 4096; d += step) out[k++] = d;
    return k;
}

static const size_t cliff_sizes_full[] = {256, 1024, 4096, 16384, 65536, 262144};
static const size_t cliff_sizes_quick[] = {4096, 65536};

size_t cliff_sizes(const struct bench_ctx *ctx, const size_t **out)
{
    return ctx->opts.quick ? pick_sizes(ctx, cliff_sizes_quick, 2, out) : pick_sizes(ctx, cliff_sizes_full, 6, out);
}

/* A new grid for contender j at size n (zeroed: 0 = not measured or wrong). */
static struct bench_grid *grid_new(struct bench_ctx *ctx, const char *source, size_t j, size_t n, unsigned samples,
                                   size_t step, double aligned)
{
    struct bench_grid *g = ctx->sink.new_grid(ctx->sink.self);
    g->source = source;
    snprintf(g->contender, sizeof g->contender, "%.*s", (int)sizeof g->contender - 1, ctx->contenders[j].name);
    g->n = n;
    g->cold = ctx->opts.cold;
    g->samples = samples;
    g->aligned = aligned;
    g->nso = 64;
    for (size_t i = 0; i < 64; i++) g->so[i] = (unsigned char)i;
    for (size_t d = 0; d < 64; d += step) g->dof[g->ndo++] = (unsigned char)d;
    return g;
}

/*
 * Screening: every contender over the distance sweep (when with_distances)
 * and the src_off x dst_off grid (dst_off in steps of `step`), with cheap
 * settings (`samples` samples of a quarter of the normal minimum length).
 * The grid goes to the sink (source `source`); each contender's worst case
 * into worst[] (ratio to base[j], its aligned speed).
 */
/* cliffs re-measures NCAND of the screen's worst placements per contender:
 * with 3 short samples per placement, a noisy moment can nominate a placement
 * that is not the worst, and over the 4412 placements of a size such moments
 * are not rare, so the worst of several re-measured ones is chosen (and
 * measured once more, below) (D34).  Each candidate is re-measured alone,
 * its samples spread over the stage like the rest. */
/* NCAND: harness.h */

/* Screens every placement; worst[j] gets contender j's lowest ratio and, when
 * cand is not NULL, cand[j * NCAND ..] its NCAND lowest, lowest first. */
void screen(struct bench_ctx *ctx, size_t n, int with_distances, size_t step, unsigned samples, const char *source,
            const struct stats *base, struct bench_cliff *worst, struct bench_cliff *cand, struct bench_grid **grids)
{
    size_t d[400], nd = with_distances ? distance_list(ctx, d) : 0, per = (64 + step - 1) / step;
    size_t total = nd + 64 * per;
    struct stats st[MAX_CONTENDERS];
    struct bench_grid *g[MAX_CONTENDERS];
    for (size_t j = 0; j < ctx->ncontenders; j++) {
        worst[j] = (struct bench_cliff){.n = n, .ratio = 1e9, .base = base[j].gbps};
        snprintf(worst[j].contender, sizeof worst[j].contender, "%.*s", (int)sizeof worst[j].contender - 1,
                 ctx->contenders[j].name);
        for (size_t i = 0; cand && i < NCAND; i++) cand[j * NCAND + i] = worst[j];
        g[j] = grid_new(ctx, source, j, n, samples, step, base[j].gbps);
        if (grids) grids[j] = g[j];
    }
    struct bench_opts saved = ctx->opts;
    ctx->opts.samples = samples;
    ctx->opts.min_sample_ns = saved.min_sample_ns / 4;
    /* One page draw for the whole screen: with a new draw before each of its
     * few samples, the draws that slow any placement (the 256 B aligned copy
     * itself among them) nominated hundreds of placements per size, which
     * re-measured at their median over draws, and crowded out placements that
     * are slow under every draw (256 B across a page).  The candidates are then
     * re-measured over draws (D33). */
    ctx->opts.same_pages = 1;
    for (size_t c = 0; c < total; c++) {
        size_t so = 0, dof = c < nd ? d[c] : 0, col = 0;
        if (c >= nd) {
            so = (c - nd) / per;
            col = (c - nd) % per;
            dof = col * step;
        }
        progress(source, c, total);
        struct bench_case bc = bench_place(ctx, n, so, dof);
        bench_run_case(ctx, NULL, &bc, st); /* screening samples are not results */
        for (size_t j = 0; j < ctx->ncontenders; j++) {
            if (c >= nd) g[j]->gbps[so][col] = (float)st[j].gbps;
            double r = base[j].gbps > 0 ? st[j].gbps / base[j].gbps : 0;
            if (!(st[j].gbps > 0)) continue;
            struct bench_cliff here = worst[j];
            here.ratio = r;
            here.so = so;
            here.dof = dof;
            here.dist = (dof - so) & 4095;
            here.gbps = st[j].gbps;
            if (r < worst[j].ratio) worst[j] = here;
            if (cand && r < cand[j * NCAND + NCAND - 1].ratio) { /* insert, keeping the list sorted */
                struct bench_cliff *list = &cand[j * NCAND];
                size_t i = NCAND - 1;
                for (; i > 0 && list[i - 1].ratio > r; i--) list[i] = list[i - 1];
                list[i] = here;
            }
        }
    }
    ctx->opts = saved;
}
