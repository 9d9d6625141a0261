/*
 * fcbench packet: the copies of a packet path, inlined where the program's
 * own code would inline them - rte_memcpy's use case.  Headers of 14, 20, 32,
 * 64 and 128 B and frames of 1518 B as compile-time constants, and sizes 1 ..
 * 1024 B from a fixed pseudo-random sequence, copied from a ring of mbuf-like
 * 2 KiB buffers into another (packet.h: the loop, the buffers, the field read
 * after the copy).  Variants, each with its own loop per case:
 *   libc                   memcpy called through a pointer (as every contender)
 *   libc-builtin           memcpy() in the source: the compiler's inline
 *                          expansion where it makes one, else a call to libc
 *   fc_memcpy              called
 *   fc_memcpy_inline       fastcopy/inline.h as a user builds it (baseline flags)
 *   fc_memcpy_inline A/A   the same code again, a second function: its ratio
 *                          to fc_memcpy_inline is this run's noise (A/A)
 *   fc_memcpy_inline[avx2] the same header built with -mavx2 (bench/peers/)
 *   rte-avx2, rte-avx512   rte_memcpy inlined, built with -mavx2 / -mavx512f
 *                          (bench/peers/; where the peer is a contender: its
 *                          header found at configure time, the CPU able, and
 *                          --impl naming it when --impl is given)
 * Every variant's first 64 packets of each case are checked (bytes, the byte
 * after the copy, the lengths) before it is timed.  Samples of >= the
 * method's minimum; round s takes sample s of every case, the variants in a
 * new random order for each case; median ns per packet.  --impl does not
 * select the other variants (fixed, as field's).
 */
#include "harness.h"
#include "scenarios.h"

#include <stdlib.h>
#include <string.h>

#include "fastcopy.h"
#include "fastcopy/inline.h"
#include "packet.h"

static void *(*volatile pkt_libc)(void *, const void *, size_t) = memcpy;
static void *(*volatile pkt_fc)(void *, const void *, size_t) = (copy_fn)fc_memcpy;

#define CALL_F(d, s, n) f(d, s, n)
PKT_VARIANT(static, pkt_libc_loops, copy_fn f = pkt_libc, CALL_F)
PKT_VARIANT(static, pkt_builtin_loops, (void)0, __builtin_memcpy)
PKT_VARIANT(static, pkt_fc_loops, copy_fn f = pkt_fc, CALL_F)
PKT_VARIANT(static, pkt_fci_loops, (void)0, fc_memcpy_inline)
PKT_VARIANT(static, pkt_fci_aa_loops, (void)0, fc_memcpy_inline)

enum { V_LIBC, V_BUILTIN, V_FC, V_FCI, V_FCI_AA, V_FCI_AVX2, V_RTE_AVX2, V_RTE_AVX512, NV };
static const char *const vnames[NV] = {"libc",     "libc-builtin",           "fc_memcpy", "fc_memcpy_inline",
                                       "fc_memcpy_inline A/A", "fc_memcpy_inline[avx2]", "rte-avx2", "rte-avx512"};

static volatile uint64_t pkt_sink; /* the fields read: the loops' results are used */

#if defined(FCBENCH_HAVE_RTE_AVX2) || defined(FCBENCH_HAVE_RTE_AVX512)
static int is_contender(const struct bench_ctx *ctx, const char *name)
{
    for (size_t j = 0; j < ctx->ncontenders; j++)
        if (!strcmp(ctx->contenders[j].name, name)) return 1;
    return 0;
}
#endif

/* The loops of variant v, or NULL where it does not run here. */
static const pkt_loop_fn *loops_of(const struct bench_ctx *ctx, int v)
{
    (void)ctx; /* read only where the peers are built */
    switch (v) {
    case V_LIBC: return pkt_libc_loops;
    case V_BUILTIN: return pkt_builtin_loops;
    case V_FC: return pkt_fc_loops;
    case V_FCI: return pkt_fci_loops;
    case V_FCI_AA: return pkt_fci_aa_loops;
#if defined(FCBENCH_HAVE_RTE_AVX2)
    case V_FCI_AVX2: return __builtin_cpu_supports("avx2") ? fcbench_pkt_fci_avx2 : NULL;
    case V_RTE_AVX2: return is_contender(ctx, "rte-avx2") ? fcbench_pkt_rte_avx2 : NULL;
#endif
#if defined(FCBENCH_HAVE_RTE_AVX512)
    case V_RTE_AVX512: return is_contender(ctx, "rte-avx512") ? fcbench_pkt_rte_avx512 : NULL;
#endif
    default: return NULL;
    }
}

/* Runs the first PKT_NBUF packets of case c (every tx buffer once) over
 * poisoned tx buffers and checks each. */
static int check_variant(const pkt_loop_fn *loops, const char *name, size_t c, const struct pkt_ring *r,
                         const size_t *csize)
{
    memset(r->tx, 0xee, (size_t)PKT_NBUF * PKT_BUF);
    pkt_sink = loops[c](r, PKT_NBUF);
    for (size_t i = 0; i < PKT_NBUF; i++) {
        const unsigned char *in = r->rx + i * PKT_BUF + PKT_DATA;
        const unsigned char *out = r->tx + PKT_TX(i) * PKT_BUF;
        size_t n = c < PKT_NCASES - 1 ? csize[c] : r->seq[i];
        struct pkt_meta m;
        memcpy(&m, out, sizeof m);
        if (memcmp(out + PKT_DATA, in, n) || out[PKT_DATA + n] != 0xee || out[PKT_DATA - 1] != 0xee ||
            m.data_len != n || m.pkt_len != n) {
            fprintf(stderr, "fcbench packet: %s gives a WRONG result for packet %zu (%zu B): not timed\n", name, i, n);
            return 0;
        }
    }
    return 1;
}

void scenario_packet(struct bench_ctx *ctx)
{
    static const size_t csize[PKT_NCASES - 1] = PKT_CONST_SIZES;
#if defined(__x86_64__)
    __builtin_cpu_init();
#endif
    unsigned char *pool = bench_alloc((size_t)2 * PKT_NBUF * PKT_BUF);
    struct pkt_ring r = {pool, pool + (size_t)PKT_NBUF * PKT_BUF, NULL};
    uint16_t *seq = malloc(PKT_SEQ * sizeof *seq);
    if (!seq) exit(1);
    uint64_t x = 0x243f6a8885a308d3ull; /* fixed: every run and variant copies the same sizes */
    double var_bytes = 0;
    for (size_t i = 0; i < PKT_SEQ; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        seq[i] = (uint16_t)(1 + x % PKT_VAR_MAX);
        var_bytes += seq[i];
    }
    var_bytes /= PKT_SEQ;
    r.seq = seq;
    for (size_t i = 0; i < (size_t)PKT_NBUF * PKT_BUF; i++) r.rx[i] = (unsigned char)(i * 131 + (i >> 11) * 7 + 1);
    for (size_t b = 0; b < PKT_NBUF; b++) {
        struct pkt_meta m = {PKT_DATA, 0, 0};
        memcpy(r.rx + b * PKT_BUF, &m, sizeof m);
    }

    const pkt_loop_fn *loops[NV];
    int ok[NV][PKT_NCASES];
    for (int v = 0; v < NV; v++) {
        loops[v] = loops_of(ctx, v);
        for (size_t c = 0; c < PKT_NCASES; c++) ok[v][c] = loops[v] && check_variant(loops[v], vnames[v], c, &r, csize);
    }
    /* calibrate: a sample of >= min_sample_ns per variant and case */
    static uint64_t iters[NV][PKT_NCASES];
    static double ns[NV][PKT_NCASES][MAX_SAMPLES];
    for (int v = 0; v < NV; v++)
        for (size_t c = 0; c < PKT_NCASES; c++) {
            if (!ok[v][c]) continue;
            uint64_t it = 256;
            for (;;) {
                double t0 = now_ns();
                pkt_sink = loops[v][c](&r, it);
                if (now_ns() - t0 >= ctx->opts.min_sample_ns || it >= ((uint64_t)1 << 32)) break;
                it *= 2;
            }
            iters[v][c] = it;
        }
    unsigned samples = ctx->opts.quick ? ctx->opts.samples : 3 * ctx->opts.samples;
    if (samples > MAX_SAMPLES) samples = MAX_SAMPLES;
    for (unsigned s = 0; s < samples; s++) {
        progress("packet", s, samples);
        for (size_t c = 0; c < PKT_NCASES; c++) {
            size_t ord[NV];
            bench_round_order(ord, NV);
            for (int j = 0; j < NV; j++) {
                int v = (int)ord[j];
                if (!ok[v][c]) continue;
                double t0 = now_ns();
                pkt_sink = loops[v][c](&r, iters[v][c]);
                ns[v][c][s] = (now_ns() - t0) / (double)iters[v][c];
            }
        }
    }

    printf("\n== packet: a packet path's copies, inlined where the code inlines them: %d + %d mbuf-like %d B pool\n"
           "   elements (data at %d, 64-aligned), copy rx -> tx, set the lengths, read a header byte back; hot.\n"
           "   ns per packet, median of %u; x = time relative to libc (called); A/A = fc_memcpy_inline A/A over\n"
           "   fc_memcpy_inline (the same code twice: this run's noise)\n",
           PKT_NBUF, PKT_NBUF, PKT_BUF, PKT_DATA, samples);
    printf("%-10s", "case");
    for (int v = 0; v < NV; v++)
        if (v != V_FCI_AA && loops[v]) printf(" %22.22s", vnames[v]);
    printf(" %6s\n", "A/A");
    static struct stats st[NV][PKT_NCASES];
    for (size_t c = 0; c < PKT_NCASES; c++) {
        int var = c == PKT_NCASES - 1;
        size_t n = var ? (size_t)(var_bytes + 0.5) : csize[c];
        char label[24] = "const", what[24];
        if (var) snprintf(label, sizeof label, "var 1-%d", (int)PKT_VAR_MAX);
        snprintf(what, sizeof what, "%zu B", n);
        for (int v = 0; v < NV; v++) {
            if (!ok[v][c]) continue;
            stats_from_samples(&st[v][c], ns[v][c], samples, var ? var_bytes : (double)n);
            st[v][c].iters = iters[v][c];
            struct contender k = {0};
            snprintf(k.name, sizeof k.name, "%s", vnames[v]);
            struct bench_case bc = {.n = n, .dst = (unsigned char *)(uintptr_t)PKT_DATA,
                                    .src = (const unsigned char *)(uintptr_t)PKT_DATA};
            const char *saved = ctx->label;
            ctx->label = label;
            bench_record(ctx, "packet", &k, &bc, &st[v][c]);
            ctx->label = saved;
        }
        printf("%-10s", var ? label : what);
        const struct stats *base = ok[V_LIBC][c] ? &st[V_LIBC][c] : NULL;
        for (int v = 0; v < NV; v++) {
            if (v == V_FCI_AA || !loops[v]) continue;
            if (!ok[v][c])
                printf(" %22s", "-");
            else if (base && v != V_LIBC)
                printf(" %10.2f ns %6.2fx", st[v][c].med_ns, st[v][c].med_ns / base->med_ns);
            else
                printf(" %10.2f ns        ", st[v][c].med_ns);
        }
        if (ok[V_FCI][c] && ok[V_FCI_AA][c])
            printf(" %5.2fx\n", st[V_FCI_AA][c].med_ns / st[V_FCI][c].med_ns);
        else
            printf(" %6s\n", "-");
    }
    free(seq);
}
