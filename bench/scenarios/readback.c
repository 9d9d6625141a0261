/*
 * fcbench readback: the latency of a copy whose result is read at once, the
 * case store-to-load forwarding decides (a struct copied, then its fields
 * used).  Each call copies n bytes dst <- src, then loads the last 8 bytes of
 * dst; the loaded value (always 0: src is zeroed) is added to the next call's
 * src address, so every call waits until the previous copy's stores can be
 * read back: ns per call of a dependent chain, not throughput.  A copy whose
 * stores cannot forward to that load (a masked store; a load spanning two
 * stores) pays the wait for the stores to commit to L1.
 *
 * Sizes 8 B .. 1 KiB by default (multiples of 8; buffers 64-aligned, so the
 * load is an aligned 8-byte load inside the copy's last store), or --sizes
 * (8 .. 4096; others are skipped, the load is then unaligned), contenders interleaved
 * sample by sample, median of ctx->opts.samples samples of >= ctx->opts.min_sample_ns.
 */
#include "harness.h"
#include "scenarios.h"

#include <string.h>

static const size_t rb_sizes[] = {8, 16, 24, 32, 48, 64, 96, 128, 192, 256, 512, 1024};
#define NRB_DEFAULT (sizeof rb_sizes / sizeof rb_sizes[0])
#define RB_MAX 4096

/* iters dependent calls; returns ns per call. */
/* the contender's memcpy, after its enter hook (bench.h) */
static copy_fn rb_fn(const struct contender *c)
{
    if (c->enter) c->enter(c->ctx);
    return c->memcpy_fn;
}

static double chain(copy_fn fn, unsigned char *dst, const unsigned char *src, size_t n, uint64_t iters)
{
    copy_fn volatile f = fn;
    uintptr_t off = 0;
    double t0 = now_ns();
    for (uint64_t i = 0; i < iters; i++) {
        f(dst, src + off, n);
        off = (uintptr_t)(*(const volatile uint64_t *)(dst + n - 8) & 63); /* 0, but only once loaded */
    }
    return (now_ns() - t0) / (double)iters;
}

void scenario_readback(struct bench_ctx *ctx)
{
    size_t k = ctx->ncontenders, libc = (size_t)-1;
    for (size_t j = 0; j < k; j++)
        if (!strcmp(ctx->contenders[j].name, "libc")) libc = j;
    /* 1 KiB into each area: bench_validate checks 64 bytes on either side of dst */
    unsigned char *src = bench_alloc(8192) + 1024, *dst = bench_alloc(8192) + 1024;
    memset(src, 0, RB_MAX + 64); /* the chain adds 0..63 to src */
    const size_t *sizes;
    size_t nrb = pick_sizes(ctx, rb_sizes, NRB_DEFAULT, &sizes);
    static struct stats st[MAX_CONTENDERS];
    unsigned char valid[MAX_CONTENDERS];
    printf("\n== readback: ns per call of copy n bytes, then load dst's last 8 bytes and make the next\n"
           "   call's src depend on them (store-to-load forwarding latency; hot, aligned; median%s)\n",
           libc != (size_t)-1 ? "; x = time relative to libc" : "");
    printf("%-8s", "bytes");
    for (size_t j = 0; j < k; j++) printf(" %18.18s", ctx->contenders[j].name);
    putchar('\n');
    for (size_t s = 0; s < nrb; s++) {
        size_t n = sizes[s];
        if (n < 8 || n > RB_MAX) {
            fprintf(stderr, "fcbench readback: size %zu skipped (8 .. %d)\n", n, RB_MAX);
            continue;
        }
        struct bench_case bc = {.dst = dst, .src = src, .n = n};
        uint64_t iters[MAX_CONTENDERS];
        double ns[MAX_CONTENDERS][MAX_SAMPLES];
        for (size_t j = 0; j < k; j++) {
            valid[j] = (unsigned char)bench_validate(&ctx->contenders[j], &bc);
            if (!valid[j]) continue;
            iters[j] = 64; /* calibrate: a sample of >= min_sample_ns */
            while (iters[j] < ((uint64_t)1 << 30) &&
                   chain(rb_fn(&ctx->contenders[j]), dst, src, n, iters[j]) * (double)iters[j] < ctx->opts.min_sample_ns)
                iters[j] *= 2;
        }
        unsigned samples = ctx->opts.samples < MAX_SAMPLES ? ctx->opts.samples : MAX_SAMPLES;
        for (unsigned r = 0; r < samples; r++) {
            size_t ord[MAX_CONTENDERS];
            bench_round_order(ord, k); /* a new order each round */
            for (size_t c = 0; c < k; c++) {
                size_t j = ord[c];
                if (valid[j]) ns[j][r] = chain(rb_fn(&ctx->contenders[j]), dst, src, n, iters[j]);
            }
        }
        printf("%-8zu", n);
        for (size_t j = 0; j < k; j++) {
            if (!valid[j]) {
                printf(" %18s", "-");
                continue;
            }
            stats_from_samples(&st[j], ns[j], samples, (double)n);
            st[j].iters = iters[j];
            bench_record(ctx, "readback", &ctx->contenders[j], &bc, &st[j]);
            if (libc != (size_t)-1 && valid[libc])
                printf(" %8.2f ns %5.2fx", st[j].med_ns, st[j].med_ns / st[libc].med_ns);
            else
                printf(" %8.2f ns       ", st[j].med_ns);
        }
        putchar('\n');
        progress("readback", s, nrb);
    }
}
