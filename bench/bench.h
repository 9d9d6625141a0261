/*
 * fcbench's engine: contenders, the measurement engine (measure.c, clock.c),
 * machine facts (machine.c, caches.c), size distributions (distfile.c), JSON
 * strings.  The library fcbench_engine, shared by fcbench and fastcopy-tune;
 * nothing here reaches up into the harness (harness.h) or a scenario.
 *
 * Byte accounting: bytes copied, counted once (bytes per ns = n / ns per call).
 */
#ifndef FCBENCH_H
#define FCBENCH_H

#define _GNU_SOURCE
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef void *(*copy_fn)(void *, const void *, size_t);

/* A contender: a registry entry, the fc_memcpy dispatcher, or the system libc. */
struct contender {
    char name[48];    /* "generic", "fc_memcpy[generic]", "libc" */
    copy_fn memcpy_fn, memmove_fn; /* memmove_fn NULL: no memmove (a peer): not in memmove cases */
    /* NULL, or called before each run of this contender's calls (untimed): sets
     * the process-wide state its calls need (fastcopy-tune's and fcbench
     * --tuned's settings: the rep movsb window, the NT threshold).  When one
     * contender of a set has it, every contender that reads that state must. */
    void (*enter)(const void *ctx);
    const void *ctx;
    /* memcpy_fn returns a count of bytes not copied (fc_copy_checked, called
     * through copy_fn: x86-64 returns either in rax), not dst: 0 is right */
    int ret_count;
};

/* Real size distributions (bench/distfile.c): the six shipped, and a batch
 * of b->len calls drawn from one (sizes, src/dst offsets 0..63; seed_no
 * fixes the draw); 0 if its file cannot be read (said on stderr). */
#define FCBENCH_NDISTS 6
#define FCBENCH_DIST_MAXSIZE 4096
extern const char *const fcbench_dists[FCBENCH_NDISTS];
struct bench_batch;
int fcbench_dist_batch(const char *name, unsigned seed_no, struct bench_batch *b);
const char *fcbench_dist_dir(void); /* where they are read from */

#define MAX_CONTENDERS 32

/* A batch of calls with their own sizes and offsets (the `dist` scenario):
 * call i copies n[i] bytes from src + soff[i] to dst + doff[i]. */
struct bench_batch {
    size_t len;
    uint32_t *n;
    uint8_t *soff, *doff;
    double bytes; /* sum of n[] */
    int align_recorded; /* offsets drawn from a recording's .align.csv, not uniform */
};

/* One timed case: copy n bytes dst <- src with the contender's memcpy (or
 * memmove); or, with batch set, one pass over the batch relative to dst/src. */
struct bench_case {
    unsigned char *dst;
    const unsigned char *src;
    size_t n;
    int use_memmove;
    const struct bench_batch *batch;
    /* Cold mode: call i uses dst/src + slot(i) * stride, slots visited in a
     * scrambled order (stride a multiple of 4096: offsets and (dst - src) mod
     * 4096 are kept).  slots == 0: hot, the same buffers every call. */
    size_t stride, slots;
    /* bench_measure_many: this case's sample count (0: the options'), <= MAX_SAMPLES */
    unsigned samples;
};

#define MAX_SAMPLES 64

struct stats {
    double med_ns, q1_ns, q3_ns; /* per call (per call of the batch, for a batch) */
    double gbps;                 /* n / med_ns */
    unsigned samples;
    uint64_t iters;              /* calls per sample */
    double sample_ns[MAX_SAMPLES]; /* every sample, in the order taken */
};

struct bench_opts {
    unsigned samples;     /* >= 9 unless quick; <= MAX_SAMPLES */
    double min_sample_ns; /* >= 1000 x timer resolution */
    int quick;
    int cold;             /* placement scenarios rotate over the cold region */
    int same_pages;       /* no physical page redraws between sample rounds (bench_redraw_setup) */
};
void bench_opts_init(struct bench_opts *o, int quick);

/* Checks the contender's output for this case (dst == src bytes, bytes around
 * dst untouched, return value).  Returns 0 if wrong, with a message on stderr;
 * 0 without one for a memmove case of a contender without memmove. */
int bench_validate(const struct contender *c, const struct bench_case *bc);

/* Measures k contenders on one case, interleaved: sample i runs every contender
 * once (in a random order), so drift hits all alike.  Fills st[0..k). */
void bench_measure(const struct bench_opts *o, const struct contender *c, size_t k, const struct bench_case *bc,
                   struct stats *st);

/* A new random order of 0..k-1 for one sample round (measure.c says why). */
void bench_round_order(size_t *ord, size_t k);
uint64_t bench_order_seed(void); /* the order generator's seed (FCBENCH_SEED, else clock and pid) */

/* Median, quartiles and throughput (bytes per ns) of already-taken samples (ns per call). */
void stats_from_samples(struct stats *st, const double *ns, unsigned k, double bytes_per_call);
double now_ns(void); /* clock.c */
/* Measures many cases with their samples spread over the whole run: after
 * calibrating every case, round s takes sample s of every case (contenders
 * interleaved within it, in a random order), so a disturbance lasting seconds - common
 * on shared machines - costs a few samples of many cases, not all samples of
 * a few.  valid[i*k + j] says whether contender j takes part in case i;
 * st[i*k + j] receives its statistics (zeroed if not valid). */
void bench_measure_many(const struct bench_opts *o, const struct contender *c, size_t k, const struct bench_case *bc,
                        size_t ncases, const unsigned char *valid, struct stats *st,
                        void (*progress_cb)(size_t done, size_t total));
double timer_resolution_ns(void); /* clock.c */
void pin_to_one_cpu(char *desc, size_t size);

/* Physical page redraws (measure.c): before every sample round, the pages of
 * the arenas a and b (their first `bytes`) that the round's hot cases touch
 * get new physical pages.  Not called: one draw per process (--same-pages). */
void bench_redraw_setup(unsigned char *a, unsigned char *b, size_t bytes);
size_t bench_redraw_bytes(void); /* 0: off */
size_t bench_redrawn_pages(void); /* pages redrawn so far in this process */

/* Page-aligned buffers from mmap, never freed (the process is short-lived). */
unsigned char *bench_alloc(size_t bytes);
/* The hot arenas, src and dst, at a fixed virtual-address relation (measure.c);
 * returns 0 when it fell back to two ordinary mappings. */
int bench_alloc_arenas(unsigned char **a, unsigned char **b, size_t bytes);

/* Machine description for reports. */
void machine_describe(FILE *json, const char *indent);
void machine_print(FILE *out);
/* Background load while fcbench ran (from /proc/stat): the share of the
 * other CPUs' time they were busy, and the share of this CPU's time the
 * hypervisor stole.  Either makes absolute figures noisy (ratios from one
 * interleaved run hold better). */
void load_monitor_start(void);
void load_monitor_end(int mycpu, double *others_busy, double *steal);
/* Data cache size at level 1..3 one core sees (sysfs, else sysconf); 0 if unknown (caches.c). */
long machine_cache_bytes(int level);

/* Minimal JSON writer: the caller writes structure, these escape and format (machine.c). */
void json_str(FILE *f, const char *s);

#endif
