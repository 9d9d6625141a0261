/*
 * fcbench memmove: memmove with overlap: dst = src +-1, +-32, +-n/2, and apart
 * (contenders without memmove - the peers - left out).
 */
#include "harness.h"
#include "scenarios.h"

#include <stdlib.h>

/* The contenders' memmove with src and dst inside one buffer, dst = src + delta:
 * delta > 0 (dst above src) needs a backward copy, delta < 0 a forward one, and
 * |delta| in 1..31 is also where 4K-aliasing rules and rep movsb go wrong.  The
 * non-overlapping aligned case is the reference.  Hot only: an overlapping
 * move rewrites the buffer it reads. */
void scenario_memmove(struct bench_ctx *ctx)
{
    static const size_t dflt[] = {8, 16, 24, 32, 48, 64, 128, 256, 512, 1024, 4096, 16384, 65536, 262144, 1048576};
    static const size_t qdflt[] = {64, 1024, 65536};
    static const struct { const char *label; int sign; size_t add, half; } ov[] = {
        {"no overlap", 0, 0, 0},     {"dst = src + 1", 1, 1, 0},  {"dst = src + 32", 1, 32, 0},
        {"dst = src + n/2", 1, 0, 1}, {"dst = src - 1", -1, 1, 0}, {"dst = src - 32", -1, 32, 0},
        {"dst = src - n/2", -1, 0, 1}};
    enum { NOV = sizeof ov / sizeof ov[0] };
    const size_t *sizes;
    size_t ns = pick_sizes(ctx, ctx->opts.quick ? qdflt : dflt, ctx->opts.quick ? 3 : sizeof dflt / sizeof dflt[0], &sizes);
    size_t k = ctx->ncontenders, nc = 0;
    struct bench_case *bc = calloc(NOV * ns, sizeof *bc);
    const char **labels = calloc(NOV * ns, sizeof *labels);
    size_t *where = calloc(NOV * ns, sizeof *where); /* case index of (overlap, size), or SIZE_MAX */
    struct stats *st = calloc(NOV * ns * k + 1, sizeof *st);
    if (!bc || !labels || !where || !st) exit(1);
    for (size_t o = 0; o < NOV; o++)
        for (size_t i = 0; i < ns; i++) {
            size_t n = sizes[i], delta = ov[o].half ? n / 2 : ov[o].add;
            where[o * ns + i] = SIZE_MAX;
            if (n > ARENA_MAX / 4 || (ov[o].sign && (delta == 0 || delta >= n))) continue; /* no overlap there */
            struct bench_case c = bench_place(ctx, n, 0, 0);
            if (ov[o].sign) {
                unsigned char *src = ctx->arena_a + 4096 + ((n + 4095) & ~(size_t)4095);
                c = (struct bench_case){.src = src, .dst = ov[o].sign > 0 ? src + delta : src - delta, .n = n};
            }
            c.use_memmove = 1;
            c.stride = c.slots = 0;
            where[o * ns + i] = nc;
            labels[nc] = ov[o].label;
            bc[nc++] = c;
        }
    /* three times the samples, as in sizes (one page draw per sample); the phase 2.2 s -> 6.5 s */
    for (size_t i = 0; i < nc && !ctx->opts.quick; i++) bc[i].samples = 3 * ctx->opts.samples;
    bench_run_cases(ctx, "memmove", bc, labels, nc, st);
    for (size_t o = 0; o < NOV; o++) {
        printf("\n== memmove, %s (hot; %s): GB/s, median [ns/call]\n", ov[o].label,
               !ov[o].sign ? "src%64 = dst%64 = 0, buffers apart" : ov[o].sign > 0 ? "a correct copy runs backward"
                                                                        : "a correct copy runs forward");
        bench_table_header(ctx, stdout, "bytes");
        for (size_t i = 0; i < ns; i++) {
            size_t w = where[o * ns + i];
            if (w == SIZE_MAX) continue;
            printf("%-10zu", sizes[i]);
            for (size_t j = 0; j < k; j++)
                if (!ctx->contenders[j].memmove_fn) /* a peer: no memmove */
                    printf(" %18s", "(no memmove)");
                else
                    printf(sizes[i] >= 1024 ? " %8.2f [%7.0f]" : " %8.2f [%7.1f]", st[w * k + j].gbps,
                           st[w * k + j].med_ns);
            putchar('\n');
        }
    }
    free(bc);
    free(labels);
    free(where);
    free(st);
}
