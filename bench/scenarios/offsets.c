/*
 * fcbench offsets: the riscv uaccess thread's table: read (src offset) and write (dst offset)
 * tests, offsets 0..7, sizes 8/16/32 KiB minus the offset.
 */
#include "harness.h"
#include "scenarios.h"

#include <stdlib.h>

void scenario_offsets(struct bench_ctx *ctx)
{
    static const size_t base[] = {8192, 16384, 32768};
    size_t k = ctx->ncontenders;
    struct bench_case bc[48];
    struct stats *st = calloc(48 * k, sizeof *st);
    if (!st) exit(1);
    printf("\n== offsets: test 1 = read (src at offset), test 2 = write (dst at offset); copier = contender (%s)\n",
           ctx->opts.cold ? "cold" : "hot");
    printf("   took = time of 10000 copies at the median rate; MiB/sec = size / median time\n");
    for (size_t j = 0; j < k; j++) printf("   copier %zu: %s\n", j + 1, ctx->contenders[j].name);
    for (int test = 1; test <= 2; test++) {
        size_t c0 = (size_t)(test - 1) * 24;
        for (size_t b = 0; b < 3; b++)
            for (size_t off = 0; off < 8; off++) {
                size_t n = base[b] - off;
                bc[c0 + b * 8 + off] = test == 1 ? bench_place(ctx, n, off, 0) : bench_place(ctx, n, 0, off);
            }
        bench_run_cases(ctx, test == 1 ? "offsets-read" : "offsets-write", bc + c0, NULL, 24, st + c0 * k);
        for (size_t i = c0; i < c0 + 24; i++)
            for (size_t j = 0; j < k; j++) {
                const struct stats *x = &st[i * k + j];
                if (x->med_ns > 0)
                    printf("test %d: copier %zu: offset %zu, size %zu: took %f ms, %f MiB/sec\n", test, j + 1,
                           (i - c0) % 8, bc[i].n, x->med_ns * 10000 / 1e6,
                           (double)bc[i].n / 1048576.0 / (x->med_ns / 1e9));
            }
    }
    free(st);
}
