/*
 * fcbench field: copies in the shape the motivating reports judged them by -
 * packets per second by frame size - rather than one size in a loop.
 *
 * field-rx: the receive path of the riscv memcpy patch's UDP RX table, in
 * process: frames of 64, 128, 256, 512, 1024, 1280, 1518 and 9000 bytes sit in
 * a ring of packet buffers twice the size of the last-level cache (at least
 * 64 MiB, so each pass reads them from DRAM, as a NIC's DMA leaves them),
 * each frame 2 bytes (NET_IP_ALIGN) after a 128-byte headroom, so src is 2
 * mod 64; each is copied into one of 64 application buffers at 16 mod 64 (the
 * alignment malloc gives a socket read's buffer).  One pass over the ring per
 * sample, contenders interleaved sample by sample in a random order; median
 * ns per packet, reported as Mpps and Gbit/s of frame bytes.
 *
 * field-pvp: the vhost/PVP shape, two threads on two CPUs: one copies each
 * frame from the ring into a slot of a shared 256-slot ring (single
 * producer, single consumer, head and tail on their own cache lines, each
 * published once per burst of 32 frames, as DPDK's rings move bursts), the
 * other copies it out of the slot into an application buffer; packets per
 * second through both copies.  Skipped with one CPU.
 *
 * field-programs (field_programs.c): real programs under glibc and under
 * libfastcopy-preload.so.
 *
 * Contenders (fixed, --impl is ignored): libc's memcpy, fc_memcpy, the
 * header-only fc_memcpy_inline (expanded in the loop: its point), and
 * fc_copy_checked where it is built.  Every copy is checked once per frame
 * size before the timed passes (the last bytes of a few frames).
 */
#define _GNU_SOURCE
#include "harness.h"
#include "scenarios.h"

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fastcopy.h"
#include "fastcopy/inline.h"

enum { HEADROOM = 128, NET_IP_ALIGN = 2, APPS = 64, APP_OFF = 16, QSLOTS = 256, BURST = 32 };
static const size_t frames[] = {64, 128, 256, 512, 1024, 1280, 1518, 9000};
#define NFRAMES (sizeof frames / sizeof frames[0])

enum { C_LIBC, C_FC, C_INLINE, C_CHECKED, NC };
static const char *const cnames[NC] = {"libc", "fc_memcpy", "fc_memcpy_inline", "fc_copy_checked"};

static void *c_libc(void *d, const void *s, size_t n) { return memcpy(d, s, n); }

/* One pass: frame i of the ring into application buffer i % APPS.  The
 * inline contender gets its own loop, with the copy expanded in it. */
struct pass {
    const unsigned char *ring;
    unsigned char *app;
    size_t slot, nframes, frame;
};
#define PASS_LOOP(COPY)                                                                                                \
    for (size_t i = 0; i < p->nframes; i++) {                                                                          \
        const unsigned char *s = p->ring + i * p->slot + HEADROOM + NET_IP_ALIGN;                                      \
        unsigned char *d = p->app + (i % APPS) * p->slot + APP_OFF;                                                    \
        COPY;                                                                                                          \
    }
static void pass_fn(const struct pass *p, copy_fn f) { PASS_LOOP(f(d, s, p->frame)) }
static void pass_inline(const struct pass *p) { PASS_LOOP(fc_memcpy_inline(d, s, p->frame)) }

static copy_fn contender_fn(int c)
{
    switch (c) {
    case C_LIBC: return c_libc;
    case C_FC: return (copy_fn)fc_memcpy;
#if defined(FC_HAVE_COPY_CHECKED)
    case C_CHECKED: return (copy_fn)(void (*)(void))fc_copy_checked; /* the count comes back where dst would */
#endif
    default: return NULL;
    }
}
static int have(int c) { return c == C_INLINE || contender_fn(c) != NULL; }

static void run_pass(int c, const struct pass *p)
{
    if (c == C_INLINE)
        pass_inline(p);
    else
        pass_fn(p, contender_fn(c));
}

/* ---- field-pvp: producer thread (ring -> shared slots) ------------------ */
struct pvp {
    const unsigned char *ring;
    unsigned char *shared, *app;
    size_t slot, nframes, frame;
    int contender;
    _Alignas(64) size_t head; /* frames published by the producer */
    _Alignas(64) size_t tail; /* frames consumed */
    _Alignas(64) int go, cpu;
};

#define PRODUCE(COPY)                                                                                                  \
    for (size_t i = 0; i < q->nframes; i++) {                                                                          \
        while (i - tail >= QSLOTS) tail = __atomic_load_n(&q->tail, __ATOMIC_ACQUIRE);                               \
        const unsigned char *s = q->ring + i * q->slot + HEADROOM + NET_IP_ALIGN;                                      \
        unsigned char *d = q->shared + (i % QSLOTS) * q->slot + HEADROOM + NET_IP_ALIGN;                               \
        COPY;                                                                                                          \
        if ((i + 1) % BURST == 0 || i + 1 == q->nframes) __atomic_store_n(&q->head, i + 1, __ATOMIC_RELEASE);          \
    }
#define CONSUME(COPY)                                                                                                  \
    for (size_t i = 0; i < q->nframes; i++) {                                                                          \
        while (head == i) head = __atomic_load_n(&q->head, __ATOMIC_ACQUIRE);                                         \
        const unsigned char *s = q->shared + (i % QSLOTS) * q->slot + HEADROOM + NET_IP_ALIGN;                         \
        unsigned char *d = q->app + (i % APPS) * q->slot + APP_OFF;                                                    \
        COPY;                                                                                                          \
        if ((i + 1) % BURST == 0 || i + 1 == q->nframes) __atomic_store_n(&q->tail, i + 1, __ATOMIC_RELEASE);          \
    }

static void *producer(void *arg)
{
    struct pvp *q = arg;
    if (q->cpu >= 0) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(q->cpu, &set);
        pthread_setaffinity_np(pthread_self(), sizeof set, &set);
    }
    while (!__atomic_load_n(&q->go, __ATOMIC_ACQUIRE)) {
    }
    size_t tail = 0;
    if (q->contender == C_INLINE) {
        PRODUCE(fc_memcpy_inline(d, s, q->frame))
    } else {
        copy_fn f = contender_fn(q->contender);
        PRODUCE(f(d, s, q->frame))
    }
    return NULL;
}

/* ns per packet through both copies; < 0 if the thread cannot start */
static double pvp_pass(struct pvp *q, int c)
{
    q->contender = c;
    q->head = q->tail = 0;
    q->go = 0;
    pthread_t t;
    if (pthread_create(&t, NULL, producer, q)) return -1;
    double t0 = now_ns();
    __atomic_store_n(&q->go, 1, __ATOMIC_RELEASE);
    size_t head = 0;
    if (c == C_INLINE) {
        CONSUME(fc_memcpy_inline(d, s, q->frame))
    } else {
        copy_fn f = contender_fn(c);
        CONSUME(f(d, s, q->frame))
    }
    double t1 = now_ns();
    pthread_join(t, NULL);
    return (t1 - t0) / (double)q->nframes;
}

/* The last 8 bytes and the first of a few frames, after one pass. */
static int check_pass(const struct pass *p, const char *who)
{
    for (size_t i = p->nframes >= APPS ? p->nframes - APPS : 0; i < p->nframes; i += 7) {
        const unsigned char *s = p->ring + i * p->slot + HEADROOM + NET_IP_ALIGN;
        const unsigned char *d = p->app + (i % APPS) * p->slot + APP_OFF;
        if (memcmp(d, s, 1) || memcmp(d + p->frame - 8, s + p->frame - 8, 8)) {
            fprintf(stderr, "fcbench field: %s copied frame %zu (%zu B) wrong\n", who, i, p->frame);
            return 0;
        }
    }
    return 1;
}

/* recorded with the label "1 thread" (field-rx) or "2 threads" (field-pvp);
 * the case's offsets are the frames' (src 130, dst 16) */
static void record(struct bench_ctx *ctx, const char *scenario, int c, size_t frame, struct stats *st)
{
    struct contender k = {0};
    snprintf(k.name, sizeof k.name, "%s", cnames[c]);
    struct bench_case bc = {.n = frame, .dst = (unsigned char *)(uintptr_t)APP_OFF,
                            .src = (const unsigned char *)(uintptr_t)(HEADROOM + NET_IP_ALIGN)};
    const char *saved = ctx->label;
    ctx->label = strcmp(scenario, "field-rx") ? "2 threads" : "1 thread";
    bench_record(ctx, scenario, &k, &bc, st);
    ctx->label = saved;
}

static void table_row(size_t frame, const struct stats *st, const int *ok)
{
    printf("%-7zu", frame);
    for (int c = 0; c < NC; c++) {
        if (!ok[c] || st[c].med_ns <= 0) {
            printf(" %24s", "-");
            continue;
        }
        double mpps = 1e3 / st[c].med_ns, gbit = (double)frame * 8.0 / st[c].med_ns;
        if (c != C_LIBC && ok[C_LIBC] && st[C_LIBC].med_ns > 0)
            printf(" %6.2f Mpps %6.1f Gb %4.2fx", mpps, gbit, st[c].med_ns / st[C_LIBC].med_ns);
        else
            printf(" %6.2f Mpps %6.1f Gb      ", mpps, gbit);
    }
    putchar('\n');
}

static void field_pvp(struct bench_ctx *ctx, unsigned char *ring, unsigned char *shared, unsigned char *app,
                      size_t ring_bytes, const int *ok);

void scenario_field(struct bench_ctx *ctx)
{
    size_t llc = (size_t)machine_cache_bytes(3);
    if (!llc) llc = (size_t)machine_cache_bytes(2);
    size_t ring_bytes = 2 * llc < ((size_t)64 << 20) ? (size_t)64 << 20 : 2 * llc;
    if (ctx->opts.quick) ring_bytes = (size_t)16 << 20;
    unsigned char *ring = bench_alloc(ring_bytes + 16384), *app = bench_alloc(APPS * 10240 + 4096);
    unsigned char *shared = bench_alloc(QSLOTS * 10240 + 4096);
    for (size_t i = 0; i < ring_bytes; i += 64) ring[i] = (unsigned char)(i >> 6), ring[i + 63] = (unsigned char)(i >> 12);
    unsigned k = ctx->opts.samples;
    int ok[NC];
    for (int c = 0; c < NC; c++) ok[c] = have(c);

    printf("\n== field-rx: frames from a %zu MiB ring (cold; %d B headroom + %d B NET_IP_ALIGN: src 2 mod 64) into %d\n"
           "   application buffers (16 mod 64), one thread: Mpps, Gbit/s of frame bytes, x = time relative to libc\n",
           ring_bytes >> 20, HEADROOM, NET_IP_ALIGN, APPS);
    printf("%-7s", "frame");
    for (int c = 0; c < NC; c++) printf(" %24s", ok[c] ? cnames[c] : "");
    putchar('\n');
    for (size_t f = 0; f < NFRAMES; f++) {
        progress("field-rx", f, NFRAMES);
        size_t slot = frames[f] <= 1518 ? 2048 : 10240;
        struct pass p = {ring, app, slot, ring_bytes / slot, frames[f]};
        for (int c = 0; c < NC; c++)
            if (ok[c]) {
                memset(app, 0, APPS * slot);
                run_pass(c, &p);
                ok[c] = check_pass(&p, cnames[c]);
            }
        double ns[NC][MAX_SAMPLES];
        for (unsigned s = 0; s < k; s++) {
            size_t ord[NC];
            bench_round_order(ord, NC);
            for (int j = 0; j < NC; j++) {
                int c = (int)ord[j];
                if (!ok[c]) continue;
                double t0 = now_ns();
                run_pass(c, &p);
                ns[c][s] = (now_ns() - t0) / (double)p.nframes;
            }
        }
        struct stats st[NC] = {0};
        for (int c = 0; c < NC; c++)
            if (ok[c]) {
                st[c].iters = p.nframes;
                stats_from_samples(&st[c], ns[c], k, (double)frames[f]);
                record(ctx, "field-rx", c, frames[f], &st[c]);
            }
        table_row(frames[f], st, ok);
    }

    field_pvp(ctx, ring, shared, app, ring_bytes, ok);
    field_programs(ctx, fcbench_find_lib("libfastcopy-preload.so", "FCBENCH_PRELOAD_LIB", FCBENCH_PRELOAD_INSTALLED));
}

static void field_pvp(struct bench_ctx *ctx, unsigned char *ring, unsigned char *shared, unsigned char *app,
                      size_t ring_bytes, const int *ok)
{
    unsigned k = ctx->opts.samples;
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    if (ncpu < 2) {
        printf("\n== field-pvp: skipped (one CPU)\n");
        return;
    }
    /* the producer on another CPU than this (pinned) thread */
    int mine = sched_getcpu();
    int other = (int)((mine < 0 ? 0 : mine + 1) % ncpu);
    printf("\n== field-pvp: two threads (CPUs %d and %d): ring -> shared %d-slot ring -> application buffers;\n"
           "   Mpps through both copies, Gbit/s of frame bytes, x = time relative to libc\n",
           other, mine, QSLOTS);
    printf("%-7s", "frame");
    for (int c = 0; c < NC; c++) printf(" %24s", ok[c] ? cnames[c] : "");
    putchar('\n');
    static struct pvp q;
    for (size_t f = 0; f < NFRAMES; f++) {
        progress("field-pvp", f, NFRAMES);
        size_t slot = frames[f] <= 1518 ? 2048 : 10240;
        q = (struct pvp){.ring = ring, .shared = shared, .app = app, .slot = slot,
                         .nframes = ring_bytes / slot, .frame = frames[f], .cpu = other};
        double ns[NC][MAX_SAMPLES];
        int okp[NC];
        for (int c = 0; c < NC; c++) okp[c] = ok[c] && pvp_pass(&q, c) > 0;
        for (unsigned s = 0; s < k; s++) {
            size_t ord[NC];
            bench_round_order(ord, NC);
            for (int j = 0; j < NC; j++) {
                int c = (int)ord[j];
                if (okp[c]) ns[c][s] = pvp_pass(&q, c);
            }
        }
        struct stats st[NC] = {0};
        for (int c = 0; c < NC; c++)
            if (okp[c]) {
                st[c].iters = q.nframes;
                stats_from_samples(&st[c], ns[c], k, (double)frames[f]);
                record(ctx, "field-pvp", c, frames[f], &st[c]);
            }
        table_row(frames[f], st, okp);
    }
}
