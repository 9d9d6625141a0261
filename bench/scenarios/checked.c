/*
 * fcbench checked: what a fault-tolerant copy costs when nothing faults.
 * fc_copy_checked against fc_memcpy (the dispatched routine it must keep up
 * with), the system libc's memcpy, and what programs use today instead:
 *   - sigsetjmp(env, 1) + memcpy: a guard per call that saves the signal mask
 *     (one rt_sigprocmask system call), as a handler without SA_NODEFER needs;
 *   - sigsetjmp(env, 0) + memcpy: the same without the mask (the program's
 *     handler must then run with SA_NODEFER);
 *   - process_vm_readv on the own pid: one system call per copy.
 * (The two guards install no handler here: nothing faults in the timed runs,
 * and a second SIGSEGV handler would replace fastcopy's.)
 * Sizes 8 B - 64 MiB (quick: to 1 MiB), aligned and src+1, and the six
 * Google size distributions; contenders interleaved sample by sample
 * (bench_measure_many), medians.  The target line: fc_copy_checked's
 * throughput at least 0.95 of fc_memcpy's from 256 B, at least 0.90 below.
 */
#define _GNU_SOURCE
#include "harness.h"
#include "scenarios.h"

#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "fastcopy.h"

#if defined(FC_HAVE_COPY_CHECKED) && defined(__x86_64__)

static sigjmp_buf guard_env;
static void *c_sigsetjmp_mask(void *d, const void *s, size_t n)
{
    void *volatile dv = d; /* survives the longjmp */
    if (sigsetjmp(guard_env, 1)) return dv;
    return memcpy(dv, s, n);
}
static void *c_sigsetjmp_nomask(void *d, const void *s, size_t n)
{
    void *volatile dv = d;
    if (sigsetjmp(guard_env, 0)) return dv;
    return memcpy(dv, s, n);
}
static void *c_vm_readv(void *d, const void *s, size_t n)
{
    struct iovec l = {d, n}, r = {(void *)(uintptr_t)s, n};
    process_vm_readv(getpid(), &l, 1, &r, 1, 0);
    return d;
}
static void *c_libc(void *d, const void *s, size_t n) { return memcpy(d, s, n); }

enum { C_CHECKED, C_FC, C_LIBC, C_SJ1, C_SJ0, C_VM, NC };

void scenario_checked(struct bench_ctx *ctx)
{
    static struct contender cs[NC];
    static const char *const names[NC] = {"fc_copy_checked", "fc_memcpy", "libc", "sigsetjmp1+memcpy",
                                          "sigsetjmp0+memcpy", "process_vm_readv"};
    /* fc_copy_checked is called directly, as fc_memcpy is (no wrapper call in the
     * timed loop); its size_t result comes back where a pointer would */
    copy_fn fns[NC] = {(copy_fn)(void (*)(void))fc_copy_checked, (copy_fn)fc_memcpy, c_libc, c_sigsetjmp_mask,
                       c_sigsetjmp_nomask, c_vm_readv};
    for (size_t j = 0; j < NC; j++) {
        snprintf(cs[j].name, sizeof cs[j].name, "%s", names[j]);
        cs[j].memcpy_fn = cs[j].memmove_fn = fns[j];
    }
    cs[C_CHECKED].ret_count = 1;
    size_t sizes[40], ns = 0, maxn = ctx->opts.quick ? (size_t)1 << 20 : (size_t)64 << 20;
    for (size_t n = 8; n <= maxn; n *= 2) sizes[ns++] = n;
    static const struct { const char *label; size_t so, dof; } pl[] = {{"aligned", 0, 0}, {"src+1", 1, 0}};
    enum { NP = 2, ND = FCBENCH_NDISTS, BATCH = 4096 };
    size_t ncases = NP * ns + ND;
    struct bench_case *bc = calloc(ncases, sizeof *bc);
    const char **labels = calloc(ncases, sizeof *labels);
    struct stats *st = calloc(ncases * NC, sizeof *st);
    unsigned char *valid = calloc(ncases * NC, 1);
    if (!bc || !labels || !st || !valid) exit(1);
    size_t nc = 0;
    for (size_t p = 0; p < NP; p++)
        for (size_t i = 0; i < ns; i++) {
            bc[nc] = bench_place(ctx, sizes[i], pl[p].so, pl[p].dof);
            if (!ctx->opts.quick && sizes[i] >= ((size_t)4 << 20)) bc[nc].samples = 3 * ctx->opts.samples;
            labels[nc++] = pl[p].label;
        }
    size_t first_dist = nc;
    static struct bench_batch b[ND];
    for (size_t d = 0; d < ND; d++) {
        b[d] = (struct bench_batch){BATCH, malloc(BATCH * sizeof(uint32_t)), malloc(BATCH), malloc(BATCH), 0, 0};
        if (!b[d].n || !b[d].soff || !b[d].doff) exit(1);
        if (!fcbench_dist_batch(fcbench_dists[d], (unsigned)d, &b[d])) continue;
        bc[nc] = bench_place(ctx, FCBENCH_DIST_MAXSIZE + 64, 0, 0);
        bc[nc].n = (size_t)(b[d].bytes / BATCH + 0.5);
        bc[nc].batch = &b[d];
        labels[nc++] = fcbench_dists[d];
    }
    for (size_t i = 0; i < nc; i++)
        for (size_t j = 0; j < NC; j++) valid[i * NC + j] = (unsigned char)bench_validate(&cs[j], &bc[i]);
    bench_measure_many(&ctx->opts, cs, NC, bc, nc, valid, st, NULL);
    const char *saved = ctx->label;
    for (size_t i = 0; i < nc; i++) {
        ctx->label = labels[i];
        for (size_t j = 0; j < NC; j++)
            if (valid[i * NC + j]) bench_record(ctx, "checked", &cs[j], &bc[i], &st[i * NC + j]);
    }
    ctx->label = saved;

    /* the table: throughput per contender; x = fc_copy_checked's throughput over fc_memcpy's */
    printf("\n== checked: fc_copy_checked when nothing faults, beside fc_memcpy, libc and the usual guards\n"
           "   (hot; GB/s, median; x = fc_copy_checked's throughput / fc_memcpy's)\n");
    printf("%-8s %-15s", "label", "bytes");
    for (size_t j = 0; j < NC; j++) printf(" %17.17s", names[j]);
    printf(" %7s\n", "x");
    double worst_small = 9, worst_big = 9;
    size_t worst_small_i = 0, worst_big_i = 0;
    for (size_t i = 0; i < nc; i++) {
        const struct stats *s = &st[i * NC];
        printf("%-8.8s %-15zu", labels[i], bc[i].n);
        for (size_t j = 0; j < NC; j++)
            if (valid[i * NC + j]) printf(" %17.2f", s[j].gbps);
            else printf(" %17s", "-");
        double x = valid[i * NC + C_CHECKED] && valid[i * NC + C_FC] && s[C_FC].med_ns > 0
                       ? s[C_FC].med_ns / s[C_CHECKED].med_ns : 0;
        printf(" %6.2fx\n", x);
        if (i >= first_dist || !x) continue;
        if (bc[i].n >= 256 && x < worst_big) worst_big = x, worst_big_i = i;
        if (bc[i].n < 256 && x < worst_small) worst_small = x, worst_small_i = i;
    }
    printf("   target: >= 0.95x fc_memcpy's throughput from 256 B: %s (lowest %.2fx at %zu B %s); "
           ">= 0.90x below: %s (lowest %.2fx at %zu B %s)\n",
           worst_big >= 0.95 ? "met" : "NOT MET", worst_big, bc[worst_big_i].n, labels[worst_big_i],
           worst_small >= 0.90 ? "met" : "NOT MET", worst_small, bc[worst_small_i].n, labels[worst_small_i]);
    for (size_t d = 0; d < ND; d++) free(b[d].n), free(b[d].soff), free(b[d].doff);
    free(bc);
    free(labels);
    free(st);
    free(valid);
}
#else
void scenario_checked(struct bench_ctx *ctx)
{
    (void)ctx;
    printf("\n== checked: fc_copy_checked is not built for this target (x86-64 Linux only, for now)\n");
}
#endif
