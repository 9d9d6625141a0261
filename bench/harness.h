/*
 * fcbench's harness: what every scenario is handed (struct bench_ctx) and the
 * pieces that run on the engine (bench.h) for all of them - placing cases in
 * the arenas (arena.c), validating, measuring and recording them (harness.c),
 * the placement screen of grid and cliffs (screen.c), peak's kernels
 * (kernels.c), the contenders (contenders.c), fcbench record (record.c).
 *
 * Imports flow one way: fcbench.c (the CLI) -> bench/scenarios/ -> these ->
 * the engine (bench.h) -> src/ and include/.  A scenario reaches nothing but
 * its ctx and the functions declared here and in bench.h; it never reaches
 * another scenario or fcbench.c, and no mutable global is shared across
 * files: what a run shares lives in the ctx.
 */
#ifndef FCBENCH_HARNESS_H
#define FCBENCH_HARNESS_H

#include "bench.h"

/* The hot arenas: 64 MiB + 3 pages each, page-aligned (and --sizes' limit). */
#define ARENA_MAX ((size_t)64 << 20)

/* A machine ceiling measured by `peak` (gbps 0 until measured). */
struct peak {
    const char *level;
    size_t n;
    double gbps;
    char kernel[24];
};

/* A src_off x dst_off matrix of one contender at one size (grid, cliffs' screen). */
struct bench_grid {
    const char *source;
    char contender[48];
    size_t n, nso, ndo;
    int cold;
    unsigned samples;
    unsigned char so[64], dof[64];
    float gbps[64][64];
    double aligned;
};

/* One contender's worst placement at one size (cliffs). */
struct bench_cliff {
    char contender[48];
    size_t n, so, dof, dist;
    double ratio, gbps, base;
    double selected; /* cliffs: the lowest of the re-measured ratios, which chose the placement */
};

/* Where results go: the record function and its sink (results.c's, wired by
 * fcbench.c).  A scenario records through bench_record (harness.c), which
 * adds the ctx's label. */
struct bench_sink {
    void *self;
    void (*record)(void *self, const char *scenario, const char *label, const struct contender *c,
                   const struct bench_case *bc, const struct stats *st);
    struct bench_grid *(*new_grid)(void *self); /* zeroed; stays where it is until the process ends */
    void (*add_cliff)(void *self, const struct bench_cliff *c);
};

/* Everything a scenario is given. */
struct bench_ctx {
    struct bench_opts opts;             /* the method; a scenario may change it for a while, and restores it */
    const struct contender *contenders; /* --impl's (fcbench list's), in table order */
    size_t ncontenders;
    unsigned char *arena_a, *arena_b;   /* the hot arenas (ARENA_MAX + 3 pages each) */
    unsigned char *cold_a, *cold_b;     /* the cold regions (--cold), allocated by the first cold bench_place */
    const char *label;                  /* recorded with each result (e.g. the distribution); NULL: "" */
    const size_t *sizes;                /* --sizes, nsizes of them (0: none given) */
    size_t nsizes;
    const char *dist_file;              /* dist --file F, or NULL */
    struct peak *peaks;                 /* [4]: L1, L2, L3, DRAM, filled by `peak` */
    struct bench_sink sink;
};

/* ---- arena.c: where a case's buffers are --------------------------------------- */
/* Does the case (n bytes, src at src_off, dst at dst_off within a page) in the
 * current cache mode: hot = the arenas; cold = rotating over the cold region. */
struct bench_case bench_place(struct bench_ctx *ctx, size_t n, size_t src_off, size_t dst_off);
size_t cold_region_bytes(void);

/* ---- harness.c: validate, measure, record ------------------------------------------ */
/* Records one result under ctx->label. */
void bench_record(struct bench_ctx *ctx, const char *scenario, const struct contender *c, const struct bench_case *bc,
                  const struct stats *st);
/* Validates every contender on the case, measures the valid ones, records them
 * (scenario NULL: not recorded); invalid ones get zeroed statistics. */
void bench_run_case(struct bench_ctx *ctx, const char *scenario, const struct bench_case *bc, struct stats *st);
/* Validates and measures many cases (bench_measure_many), records them in
 * order (labels[i] if labels), fills st[i * ncontenders + j]. */
void bench_run_cases(struct bench_ctx *ctx, const char *scenario, const struct bench_case *bc,
                     const char *const *labels, size_t ncases, struct stats *st);
/* The sizes a scenario runs: --sizes if given, else its default list. */
size_t pick_sizes(const struct bench_ctx *ctx, const size_t *dflt, size_t ndflt, const size_t **out);
/* A table's first line: `first`, then every contender's name. */
void bench_table_header(const struct bench_ctx *ctx, FILE *out, const char *first);
/* A progress line on stderr (on a terminal only), prefixed as progress_set_prefix said. */
void progress(const char *what, size_t i, size_t total);
void progress_set_prefix(const char *prefix);
/* For bench_measure_many: progress under `what` (kept until the next call). */
typedef void (*progress_fn)(size_t done, size_t total);
progress_fn progress_as(const char *what);

/* ---- screen.c: the placement screen (distance, grid, cliffs) ------------------------ */
/* The distance sweep: (dst - src) mod 4096 values; out holds 400. */
size_t distance_list(const struct bench_ctx *ctx, size_t *out);
/* The sizes distance and cliffs run. */
size_t cliff_sizes(const struct bench_ctx *ctx, const size_t **out);
/* cliffs re-measures this many of the screen's worst placements per contender (screen.c says why; D34). */
#define NCAND 24
/* Screens every placement at size n: the distance sweep (with_distances) and
 * the src_off x dst_off grid (dst_off in steps of `step`), `samples` short
 * samples each, not recorded.  Each contender's grid is added to the sink
 * (source `source`; grids[j] receives it when grids is not NULL); worst[j]
 * gets contender j's lowest ratio to base[j] and, when cand is not NULL,
 * cand[j * NCAND ..] its NCAND lowest, lowest first. */
void screen(struct bench_ctx *ctx, size_t n, int with_distances, size_t step, unsigned samples, const char *source,
            const struct stats *base, struct bench_cliff *worst, struct bench_cliff *cand, struct bench_grid **grids);

/* ---- kernels.c: peak's kernels ------------------------------------------------------- */
/* All of them (n a multiple of 256), and those that can set the DRAM ceiling
 * (non-temporal, rep movsb); each returns how many it wrote (at most max). */
size_t fcbench_peak_kernels(struct contender *k, size_t max);
size_t fcbench_dram_kernels(struct contender *k, size_t max);

/* ---- contenders.c, record.c ------------------------------------------------------------ */
/* --impl's contenders (only_csv NULL: all), with --tuned's profile (tuned: its
 * path, or NULL) timed as tuned[ENTRY]; exits 2 on a bad profile. */
size_t contenders_collect(const char *only_csv, const char *tuned, struct contender *out, size_t max);
int fcbench_record(int argc, char **argv); /* fcbench record: argv after "record" */
/* $ENV, else NAME beside the fcbench binary, else INSTALLED */
const char *fcbench_find_lib(const char *name, const char *env, const char *installed);
/* a new private directory $TMPDIR/fcbench-STEM.XXXXXX (/tmp when TMPDIR is
 * unset, empty, relative or too long) into buf; 0 on success, -1 with errno */
int fcbench_mkdtemp(char *buf, size_t size, const char *stem);

#endif
