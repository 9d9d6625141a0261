/*
 * fcbench peak: the machine's copy ceilings, per level of the memory
 * hierarchy, so every other result can be read as a fraction of what this
 * CPU can do at all (DPDK's method of judging copies against the theoretical
 * optimum).
 *
 * For each level a copy of n bytes is made whose src + dst (2n) fill about
 * half the level (L1, L2, L3) or four times the last-level cache (DRAM),
 * buffers page-aligned, by every kernel (bench/kernels.c lists them); the
 * level's peak, in ctx->peaks, is the best kernel's median throughput (bytes
 * copied, counted once).
 */
#include "harness.h"
#include "scenarios.h"

#include <string.h>
#include <sys/mman.h>

void scenario_peak(struct bench_ctx *ctx)
{
    struct contender k[12];
    size_t nk = fcbench_peak_kernels(k, 12);
    long l1 = machine_cache_bytes(1), l2 = machine_cache_bytes(2), l3 = machine_cache_bytes(3);
    long llc = l3 ? l3 : l2;
    size_t n_for[4] = {(size_t)l1 / 4, (size_t)l2 / 4, (size_t)l3 / 4, 0};
    n_for[3] = llc > 0 ? 2 * (size_t)llc : (size_t)256 << 20; /* src + dst = four times the LLC */
    if (n_for[3] < ((size_t)64 << 20)) n_for[3] = (size_t)64 << 20;
    if (ctx->opts.quick) n_for[3] = (size_t)16 << 20;
    printf("\n== peak: copy ceilings, GB/s (median; src + dst = 2n; page-aligned; best kernel marked *)\n");
    printf("%-6s %10s", "level", "n");
    for (size_t j = 0; j < nk; j++) printf(" %12s", k[j].name);
    putchar('\n');
    for (size_t lv = 0; lv < 4; lv++) {
        size_t n = n_for[lv] & ~(size_t)255;
        if (lv == 2 && (size_t)l3 / 4 <= (size_t)l2 / 2) n = 0; /* no distinct L3 */
        if (!n) continue;
        int own = n + 3 * 4096 > ((size_t)64 << 20);
        unsigned char *a = own ? bench_alloc(n + 3 * 4096) : ctx->arena_a, *b = own ? bench_alloc(n + 3 * 4096) : ctx->arena_b;
        struct bench_case bc = {.dst = b + 4096, .src = a + 4096, .n = n};
        struct contender ok[12];
        size_t nok = 0;
        for (size_t j = 0; j < nk; j++)
            if (bench_validate(&k[j], &bc)) ok[nok++] = k[j];
        struct stats st[12];
        struct bench_opts o = ctx->opts;
        if (lv == 3) o.samples = o.quick ? 3 : 7; /* each copy is tens of ms */
        bench_measure(&o, ok, nok, &bc, st);
        struct peak *p = &ctx->peaks[lv];
        p->n = n;
        printf("%-6s %10zu", p->level, n);
        ctx->label = p->level;
        for (size_t j = 0, i = 0; j < nk; j++) {
            if (i < nok && !strcmp(ok[i].name, k[j].name)) {
                bench_record(ctx, "peak", &ok[i], &bc, &st[i]);
                if (st[i].gbps > p->gbps) {
                    p->gbps = st[i].gbps;
                    snprintf(p->kernel, sizeof p->kernel, "%s", ok[i].name);
                }
                i++;
            }
        }
        ctx->label = NULL;
        for (size_t j = 0, i = 0; j < nk; j++) {
            if (i < nok && !strcmp(ok[i].name, k[j].name)) {
                printf(" %11.2f%c", st[i].gbps, !strcmp(p->kernel, ok[i].name) ? '*' : ' ');
                i++;
            } else
                printf(" %12s", "wrong");
        }
        putchar('\n');
        if (own) {
            munmap(a, n + 3 * 4096);
            munmap(b, n + 3 * 4096);
        }
    }
}
