/*
 * fcbench - the copy benchmark.
 *
 *   fcbench list                      contenders and machine
 *   fcbench peak     [opts]           the machine's copy ceilings: L1, L2, L3, DRAM, best of
 *                                     vector loops, rep movsb, non-temporal stores
 *   fcbench cliffs   [opts]           each contender's worst placement per size as a fraction
 *                                     of its own aligned speed; flags every case below 0.8
 *   fcbench sizes    [opts]           GB/s and ns/call, 1 B .. 64 MiB; aligned, src+1, dst+1
 *                                     (+ aligned cold, unless --cold makes all three cold);
 *                                     from 4 KiB the copy ceiling at each size (peak's kernels)
 *   fcbench grid     [opts]           src_off x dst_off (0..63) matrices, as ratio maps
 *   fcbench distance [opts]           GB/s over (dst - src) mod 4096 at 256 B .. 256 KiB
 *   fcbench large    [opts]           the riscv memcpy patch's lines: aligned and unaligned
 *                                     copies of 400 MiB ("MBytes" = MiB there, as here), each
 *                                     beside peak's DRAM-ceiling kernels (same samples)
 *   fcbench offsets  [opts]           the riscv uaccess thread's table: read (src offset) and
 *                                     write (dst offset) tests, offsets 0..7, sizes 8/16/32 KiB
 *                                     minus the offset
 *   fcbench uaccess  [opts]           the kernel's copy_to_user/copy_from_user per user-buffer
 *                                     offset 0..63 (pread/pwrite on a memfd and a tmpfs file)
 *   fcbench pipe     [opts]           lmbench bw_pipe-style pipe bandwidth, messages 32 B..64 KiB
 *   fcbench dist     [opts]           ns/call for sizes drawn from real memcpy size
 *                                     distributions, random offsets, batches of 65536 calls
 *   fcbench readback [opts]           ns/call of a copy whose last 8 bytes are read back at once
 *                                     (store-to-load forwarding latency), 8 B .. 1 KiB
 *   fcbench memmove  [opts]           memmove with overlap: dst = src +-1, +-32, +-n/2, and apart
 *                                     (contenders without memmove - the peers - left out)
 *   fcbench packet   [opts]           a packet path's copies, inlined: headers 14-128 B and frames
 *                                     of 1518 B as constants, 1-1024 B variable (packet.c)
 *   fcbench all      [opts]           all of the above but grid (cliffs screens the grid)
 *   fcbench report   RESULTS.json [-o DIR]        HTML report with plots (Python, matplotlib)
 *   fcbench compare  A.json [B.json] [--base X]   per-case ratios, Mann-Whitney U test
 *   fcbench machine  RESULTS.json [...] -o F.md   the machine's page (docs/machines/): the
 *                                                 targets, defaults and tuned side by side
 *   opts: --impl a,b,...  --sizes n,n,...  --cold  --quick  --samples N  --same-pages
 *         --json FILE  --csv FILE
 *         --tuned PROFILE   a fastcopy-tune profile timed as tuned[ENTRY] beside the defaults
 *                           (its entry with its settings; the other fastcopy contenders keep
 *                           this process's defaults)
 *   Peers: rte-avx2, rte-avx512 (DPDK's rte_memcpy built by fcbench with -mavx2,
 *         -mavx512f -DRTE_MEMCPY_AVX512; where CMake found its header and the CPU can)
 *   FCBENCH_LIBS=old=.../libfastcopy.so,new=...: those builds' entries join as
 *         "old:<name>", "old:fc", ... (A/B of builds in one process, e.g.
 *         --impl libc,old:avx2,new:avx2)
 *
 * Method: pinned to one CPU; every contender's output is validated (bytes
 * around dst included) before it is timed; samples last >= 1000x the measured
 * timer resolution (and >= 100 us); 11 samples (5 with --quick, N with
 * --samples N; sizes, memmove and dist take three times as many unless
 * --quick; scenarios with long copies take fewer), contenders
 * interleaved within each sample round in a random order; new physical pages
 * under the hot buffers before every round (--same-pages: one draw); median
 * and IQR reported, every sample kept in the JSON.  Hot: the same buffers every call.  Cold (--cold): every
 * call moves to another slot of a region >= 4x the last-level cache.  Bytes
 * copied are counted once: GB/s = n / ns.
 */
#include "bench.h" /* first: it defines _GNU_SOURCE */

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "fastcopy.h"

struct result {
    const char *scenario;
    char contender[48], label[32];
    int cold;
    size_t n, src_off, dst_off, dist;
    struct stats st;
};

/* A src_off x dst_off matrix of one contender at one size. */
struct grid {
    const char *source;
    char contender[48];
    size_t n, nso, ndo;
    int cold;
    unsigned samples;
    unsigned char so[64], dof[64];
    float gbps[64][64];
    double aligned;
};

struct cliff {
    char contender[48];
    size_t n, so, dof, dist;
    double ratio, gbps, base;
    double selected; /* cliffs: the lowest of the re-measured ratios, which chose the placement */
};

static struct result *results;
static size_t nresults, capresults;
static struct grid *grids;
static size_t ngrids;
static struct cliff *cliffs;
static size_t ncliffs;
struct contender fcbench_contenders[MAX_CONTENDERS];
size_t fcbench_ncontenders;
const char *bench_label;
struct bench_opts opts;
unsigned char *arena_a, *arena_b;
static unsigned char *cold_a, *cold_b;
static size_t user_sizes[64], nuser_sizes;
static char pin_desc[64];
static double others_busy, steal_share;

#define ARENA_MAX ((size_t)64 << 20)
/* The arenas' first bytes whose physical pages are redrawn before every sample
 * round (measure.c): every placement scenario's hot buffers up to 4 MiB. */
#define REDRAW_BYTES (((size_t)4 << 20) + 3 * 4096)

static void *grow(void *p, size_t *cap, size_t used, size_t elem)
{
    if (used < *cap) return p;
    *cap = *cap ? 2 * *cap : 64;
    p = realloc(p, *cap * elem);
    if (!p) {
        perror("fcbench");
        exit(1);
    }
    return p;
}

void bench_record(const char *scenario, const struct contender *c, const struct bench_case *bc,
                  const struct stats *st)
{
    results = grow(results, &capresults, nresults, sizeof *results);
    struct result *r = &results[nresults++];
    r->scenario = scenario;
    snprintf(r->contender, sizeof r->contender, "%s", c->name);
    snprintf(r->label, sizeof r->label, "%s", bench_label ? bench_label : "");
    r->cold = bc->slots != 0;
    r->n = bc->n;
    r->src_off = (uintptr_t)bc->src & 63;
    r->dst_off = (uintptr_t)bc->dst & 63;
    r->dist = (size_t)(((uintptr_t)bc->dst - (uintptr_t)bc->src) & 4095);
    r->st = *st;
}

size_t cold_region_bytes(void)
{
    size_t llc = (size_t)machine_cache_bytes(3);
    if (!llc) llc = (size_t)machine_cache_bytes(2);
    size_t r = llc ? 4 * llc : (size_t)256 << 20;
    return r < ARENA_MAX ? ARENA_MAX : r;
}

/* src = A + src_off, dst = B + dst_off: A and B page-aligned and 4096-congruent,
 * so (dst - src) mod 4096 = dst_off - src_off (mod 4096).  Cold: slots of a
 * page-multiple stride over cold regions of cold_region_bytes() per side,
 * placed like the hot arenas (bench_alloc_arenas), so a slot's src and dst
 * pages keep one address relation from run to run. */
struct bench_case bench_place(size_t n, size_t src_off, size_t dst_off)
{
    struct bench_case bc = {.dst = arena_b + 4096 + dst_off, .src = arena_a + 4096 + src_off, .n = n};
    if (!opts.cold) return bc;
    size_t region = cold_region_bytes();
    if (!cold_a && !bench_alloc_arenas(&cold_a, &cold_b, region + 3 * 4096))
        printf("# note: the cold regions are two ordinary mappings (no fixed address relation; see measure.c)\n");
    bc.stride = (n + 4096 + 4095) & ~(size_t)4095;
    bc.slots = region / bc.stride;
    if (bc.slots < 2) return (struct bench_case){.dst = bc.dst, .src = bc.src, .n = n}; /* beyond the caches anyway */
    bc.dst = cold_b + 4096 + dst_off;
    bc.src = cold_a + 4096 + src_off;
    return bc;
}

/* Validates then measures all contenders on one case; invalid ones get gbps 0. */
void bench_run_case(const char *scenario, const struct bench_case *bc, struct stats *st)
{
    struct contender ok[MAX_CONTENDERS];
    struct stats *where[MAX_CONTENDERS], tmp[MAX_CONTENDERS];
    size_t k = 0;
    for (size_t j = 0; j < fcbench_ncontenders; j++) {
        memset(&st[j], 0, sizeof st[j]);
        if (bench_validate(&fcbench_contenders[j], bc)) {
            where[k] = &st[j];
            ok[k++] = fcbench_contenders[j];
        }
    }
    if (!k) return;
    bench_measure(&opts, ok, k, bc, tmp);
    for (size_t i = 0; i < k; i++) {
        *where[i] = tmp[i];
        if (scenario) bench_record(scenario, &ok[i], bc, &tmp[i]);
    }
}

static const char *progress_what;
static void progress_many(size_t done, size_t total) { progress(progress_what, done, total); }

void bench_run_cases(const char *scenario, const struct bench_case *bc, const char *const *labels, size_t ncases,
                     struct stats *st)
{
    size_t k = fcbench_ncontenders;
    unsigned char *valid = calloc(ncases * k + 1, 1);
    if (!valid) exit(1);
    for (size_t i = 0; i < ncases; i++)
        for (size_t j = 0; j < k; j++) valid[i * k + j] = (unsigned char)bench_validate(&fcbench_contenders[j], &bc[i]);
    progress_what = scenario;
    bench_measure_many(&opts, fcbench_contenders, k, bc, ncases, valid, st, progress_many);
    const char *saved = bench_label;
    for (size_t i = 0; i < ncases; i++) {
        if (labels) bench_label = labels[i];
        for (size_t j = 0; j < k; j++)
            if (valid[i * k + j]) bench_record(scenario, &fcbench_contenders[j], &bc[i], &st[i * k + j]);
    }
    bench_label = saved;
    free(valid);
}

static void header(FILE *out, const char *first)
{
    fprintf(out, "%-10s", first);
    for (size_t j = 0; j < fcbench_ncontenders; j++) fprintf(out, " %18.18s", fcbench_contenders[j].name);
    fputc('\n', out);
}

/* A progress line on stderr: on a terminal, updated in place at most 5 times
 * a second; otherwise only the scenario lines (see main). */
static char progress_prefix[64];

void progress(const char *what, size_t i, size_t total)
{
    static int tty = -1;
    static double last;
    if (tty < 0) tty = isatty(2);
    if (!tty) return;
    double t = now_ns();
    if (i + 1 < total && t - last < 200e6) return;
    last = t;
    fprintf(stderr, "\r\033[K[fcbench]%s %s %zu/%zu", progress_prefix, what, i + 1, total);
    if (i + 1 == total) fputs("\r\033[K", stderr);
}

/* The sizes a scenario runs: --sizes if given, else its default list. */
size_t pick_sizes(const size_t *dflt, size_t ndflt, const size_t **out)
{
    if (nuser_sizes) {
        *out = user_sizes;
        return nuser_sizes;
    }
    *out = dflt;
    return ndflt;
}

/* ---- sizes ----------------------------------------------------------------- */

static size_t size_list(size_t *out, size_t max_n)
{
    size_t k = 0;
    for (size_t n = 1; n <= 64; n++) out[k++] = n;
    for (size_t n = 72; n < 512; n += opts.quick ? 64 : 8) out[k++] = n;
    for (size_t p = 512; p <= max_n; p *= 2) {
        out[k++] = p - 1;
        out[k++] = p;
        out[k++] = p + 1;
    }
    return k;
}

/* st[i * stride + j]: size i, contender j */
static void sizes_print(const char *label, size_t so, size_t dof, int cold, const size_t *sizes, size_t ns,
                        const struct stats *st, size_t stride)
{
    size_t k = fcbench_ncontenders;
    printf("\n== sizes, %s (src%%64 = %zu, dst%%64 = %zu, %s): GB/s, median [ns/call]\n", label, so, dof,
           cold ? "cold" : "hot");
    header(stdout, "bytes");
    for (size_t i = 0; i < ns; i++) {
        printf("%-10zu", sizes[i]);
        for (size_t j = 0; j < k; j++)
            printf(sizes[i] >= 1024 ? " %8.2f [%7.0f]" : " %8.2f [%7.1f]", st[i * stride + j].gbps,
                   st[i * stride + j].med_ns);
        putchar('\n');
    }
}

/* The copy ceiling at a size: from SIZES_CEILING_FROM up, every hot aligned
 * size n also gets a case of n rounded up to a multiple of 256 B (peak's
 * kernels take whole 4-vector blocks) that only peak's kernels run, in the
 * same rounds as the contenders (scenario "sizes-ceiling", label "aligned").  `peak` measures each level at one size,
 * where src + dst fill half of it; a copy whose src + dst reach a level's
 * size (16 KiB: 2n = the 32 KiB L1d; 512 KiB: 2n = the 1 MiB L2 of Zen 4)
 * lives partly in the next level, and every routine, the kernels included,
 * runs slower there (Zen 4 guest, 2026-11-25: 48-50 GB/s at 512 KiB against
 * 57-58 at 256 KiB, 2 MiB pages or 4 KiB).  The ceiling at n is what this
 * machine does with that working set: the yardstick `fcbench targets` reads
 * a size against (the x86-64 issue's "a plain vector loop reaches ~36 GB/s
 * at 256 KiB").  Below 4 KiB a copy's fixed costs (size tests, edges) are a
 * large share of its time and the kernels, which have none, are no ceiling
 * for a routine that must take any n. */
#define SIZES_CEILING_FROM ((size_t)4096)
/* Up, not down: a few bytes more working set, never less (16383 B rounded
 * down to 16128 fit the 32 KiB L1d beside everything else and read 117
 * GB/s, where every routine at 16383 B read 100-108, 2n = 32766); and no
 * partial block, whose last store would straddle the page boundary at
 * 4097, 8193, ... B (a page-straddling store costs 5 ns or more on Zen 4:
 * a kernel copying 4097 B that way read 16% below fastcopy). */
#define CEIL_N(n) (((n) + 255) & ~(size_t)255)

static void ceiling_print(const size_t *sizes, size_t ns, const struct stats *st, const struct contender *all,
                          size_t ka, const size_t *ceil_n, size_t nceil, const struct stats *cst)
{
    size_t k = fcbench_ncontenders;
    printf("\n== sizes, aligned hot: %% of the copy ceiling at n (peak's best kernel on n rounded up to 256 B, "
           "same rounds)\n");
    printf("%-10s %10s %-12s", "bytes", "ceil GB/s", "kernel");
    for (size_t j = 0; j < k; j++) printf(" %14.14s", fcbench_contenders[j].name);
    putchar('\n');
    for (size_t i = 0; i < ns; i++) {
        if (sizes[i] < SIZES_CEILING_FROM) continue;
        size_t c = 0;
        while (c < nceil && ceil_n[c] != CEIL_N(sizes[i])) c++;
        if (c == nceil) continue;
        size_t best = ka;
        for (size_t j = k; j < ka; j++)
            if (cst[c * ka + j].gbps > 0 && (best == ka || cst[c * ka + j].gbps > cst[c * ka + best].gbps)) best = j;
        if (best == ka) continue;
        printf("%-10zu %10.2f %-12s", sizes[i], cst[c * ka + best].gbps, all[best].name);
        for (size_t j = 0; j < k; j++) printf(" %13.0f%%", 100.0 * st[i * ka + j].gbps / cst[c * ka + best].gbps);
        putchar('\n');
    }
}

static void scenario_sizes(void)
{
    static const struct { const char *label; size_t so, dof; } pl[] = {
        {"aligned", 0, 0}, {"src+1", 1, 0}, {"dst+1", 0, 1}};
    size_t dflt[256], ndflt = size_list(dflt, opts.quick ? (size_t)1 << 20 : ARENA_MAX);
    const size_t *sizes;
    size_t ns = pick_sizes(dflt, ndflt, &sizes), k = fcbench_ncontenders;
    /* hot vs cold for the aligned case (unless everything is cold): powers of two from 8 B */
    size_t cold_sizes[64], nc = 0;
    for (size_t i = 0; i < ns && !opts.cold; i++)
        if (sizes[i] >= 8 && !(sizes[i] & (sizes[i] - 1))) cold_sizes[nc++] = sizes[i];
    /* the ceiling cases (hot only): every size from SIZES_CEILING_FROM, rounded up, once each */
    size_t ceil_n[256], nceil = 0;
    for (size_t i = 0; i < ns && !opts.cold; i++) {
        size_t m = CEIL_N(sizes[i]), c = 0;
        if (sizes[i] < SIZES_CEILING_FROM) continue;
        while (c < nceil && ceil_n[c] != m) c++;
        if (c == nceil && nceil < sizeof ceil_n / sizeof ceil_n[0]) ceil_n[nceil++] = m;
    }
    struct contender all[MAX_CONTENDERS];
    memcpy(all, fcbench_contenders, k * sizeof all[0]);
    size_t ka = k + (nceil ? fcbench_peak_kernels(all + k, MAX_CONTENDERS - k) : 0);
    size_t nplace = 3 * ns + nc, ncases = nplace + nceil;
    struct bench_case *bc = calloc(ncases, sizeof *bc);
    const char **labels = calloc(ncases, sizeof *labels);
    struct stats *st = calloc(ncases * ka, sizeof *st);
    unsigned char *valid = calloc(ncases * ka + 1, 1);
    if (!bc || !labels || !st || !valid) exit(1);
    for (size_t p = 0; p < 3; p++)
        for (size_t i = 0; i < ns; i++) {
            bc[p * ns + i] = bench_place(sizes[i], pl[p].so, pl[p].dof);
            labels[p * ns + i] = pl[p].label;
        }
    int was_cold = opts.cold;
    opts.cold = 1;
    for (size_t i = 0; i < nc; i++) {
        bc[3 * ns + i] = bench_place(cold_sizes[i], 0, 0);
        labels[3 * ns + i] = "aligned";
    }
    opts.cold = was_cold;
    for (size_t c = 0; c < nceil; c++) {
        bc[nplace + c] = bench_place(ceil_n[c], 0, 0);
        labels[nplace + c] = "aligned";
    }
    /* Three times the samples (33; not with --quick).  From 4 MiB up a sample
     * is one call or a few, src + dst compete for the L3 (or DRAM) with
     * whatever else the host runs, and 11 samples left two runs of the same
     * code 7-20% apart at 8-16 MiB (2026-11-25, `fc` against `avx512-ymmloop`,
     * the same routine; 33 samples: within 1.5%).  Below, each sample is one
     * page draw and some draws are slow (2 KiB aligned: 17.9 or 20.3 ns by
     * draw), so a median of 11 lands on the slow mode now and then: 20 runs of
     * 24 sizes 200 B - 256 KiB, three placements (Zen 4 guest, 2026-11-27),
     * tuned[avx512-ymmloop] against avx512-ymmloop (the same code and
     * settings) beyond 5% in 53 of 1440 cases with 11 samples, 19 with 33;
     * either above glibc's time by more than 5% in 26 of 2880, 4 with 33.
     * Most `make bench` runs had such a size or two.  The whole phase: 121 s
     * -> 140 s.  Every table is one case list for bench_run_cases, so each
     * case's samples are spread over the whole scenario. */
    for (size_t i = 0; i < ncases && !opts.quick; i++) bc[i].samples = 3 * opts.samples;
    for (size_t i = 0; i < ncases; i++)
        for (size_t j = 0; j < ka; j++)
            valid[i * ka + j] = (i < nplace) == (j < k) && bench_validate(&all[j], &bc[i]);
    progress_what = "sizes";
    bench_measure_many(&opts, all, ka, bc, ncases, valid, st, progress_many);
    const char *saved = bench_label;
    for (size_t i = 0; i < ncases; i++) {
        bench_label = labels[i];
        for (size_t j = 0; j < ka; j++)
            if (valid[i * ka + j])
                bench_record(i < nplace ? "sizes" : "sizes-ceiling", &all[j], &bc[i], &st[i * ka + j]);
    }
    bench_label = saved;
    for (size_t p = 0; p < 3; p++)
        sizes_print(pl[p].label, pl[p].so, pl[p].dof, opts.cold, sizes, ns, st + p * ns * ka, ka);
    if (nc) sizes_print("aligned", 0, 0, 1, cold_sizes, nc, st + 3 * ns * ka, ka);
    if (nceil) ceiling_print(sizes, ns, st, all, ka, ceil_n, nceil, st + nplace * ka);
    free(bc);
    free(labels);
    free(st);
    free(valid);
}

/* ---- distance, grid and cliffs ------------------------------------------------ */

static size_t distance_list(size_t *out)
{
    size_t k = 0, step = opts.quick ? 8 : 1;
    for (size_t d = 0; d <= 128; d += step) out[k++] = d;
    for (size_t d = 192; d < 3968; d += opts.quick ? 512 : 64) out[k++] = d;
    for (size_t d = 3968; d < 4096; d += step) out[k++] = d;
    return k;
}

static const size_t cliff_sizes_full[] = {256, 1024, 4096, 16384, 65536, 262144};
static const size_t cliff_sizes_quick[] = {4096, 65536};

static size_t cliff_sizes(const size_t **out)
{
    return opts.quick ? pick_sizes(cliff_sizes_quick, 2, out) : pick_sizes(cliff_sizes_full, 6, out);
}

static void scenario_distance(void)
{
    size_t d[400], nd = distance_list(d), k = fcbench_ncontenders;
    const size_t *sz;
    size_t nsz = cliff_sizes(&sz);
    struct bench_case *bc = calloc(nsz * nd, sizeof *bc);
    struct stats *st = calloc(nsz * nd * k, sizeof *st);
    if (!bc || !st) exit(1);
    for (size_t s = 0; s < nsz; s++)
        for (size_t i = 0; i < nd; i++) bc[s * nd + i] = bench_place(sz[s], 0, d[i]);
    bench_run_cases("distance", bc, NULL, nsz * nd, st);
    for (size_t s = 0; s < nsz; s++) {
        printf("\n== distance, n = %zu: GB/s by (dst - src) mod 4096 (src page-aligned, %s)\n", sz[s],
               opts.cold ? "cold" : "hot");
        header(stdout, "dist");
        for (size_t i = 0; i < nd; i++) {
            printf("%-10zu", d[i]);
            for (size_t j = 0; j < k; j++) printf(" %18.2f", st[(s * nd + i) * k + j].gbps);
            putchar('\n');
        }
    }
    free(bc);
    free(st);
}

/* A new grid for contender j at size n (zeroed: 0 = not measured or wrong). */
static struct grid *grid_new(const char *source, size_t j, size_t n, unsigned samples, size_t step, double aligned)
{
    static size_t cap;
    grids = grow(grids, &cap, ngrids, sizeof *grids);
    struct grid *g = memset(&grids[ngrids++], 0, sizeof *grids);
    g->source = source;
    snprintf(g->contender, sizeof g->contender, "%.*s", (int)sizeof g->contender - 1, fcbench_contenders[j].name);
    g->n = n;
    g->cold = opts.cold;
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
 * The grid goes into grids[] (source `source`); each contender's worst case
 * into worst[] (ratio to base[j], its aligned speed).
 */
/* cliffs re-measures this many of the screen's worst placements per contender:
 * with 3 short samples per placement, a noisy moment can nominate a placement
 * that is not the worst (the same code as two contenders once got 0.57x and
 * 1.00x at 256 B), so the worst of several re-measured ones is chosen (and
 * measured once more, below).
 * Over the 4412 placements of a size, such moments are not rare: in the 06:17
 * run of 2026-11-25 fc's 3 candidates at 256 B were noise (screened at 9-26
 * GB/s, re-measured at 71 and more) while its page-crossing placements, at 47
 * GB/s in every row of the distance sweep, had been screened just above them;
 * `avx512-ymmloop`, the same code, reported 0.48x where fc reported 0.68x.
 * Each contender's screen had 15-20 placements below its true worst.  24
 * re-measured (each alone, samples spread over the stage like the rest) cost
 * about 0.3 s per size. */
#define NCAND 24

/* Screens every placement; worst[j] gets contender j's lowest ratio and, when
 * cand is not NULL, cand[j * NCAND ..] its NCAND lowest, lowest first. */
static void screen(size_t n, int with_distances, size_t step, unsigned samples, const char *source,
                   const struct stats *base, struct cliff *worst, struct cliff *cand)
{
    size_t d[400], nd = with_distances ? distance_list(d) : 0, per = (64 + step - 1) / step;
    size_t total = nd + 64 * per, g0 = ngrids;
    struct stats st[MAX_CONTENDERS];
    for (size_t j = 0; j < fcbench_ncontenders; j++) {
        worst[j] = (struct cliff){.n = n, .ratio = 1e9, .base = base[j].gbps};
        snprintf(worst[j].contender, sizeof worst[j].contender, "%.*s", (int)sizeof worst[j].contender - 1,
                 fcbench_contenders[j].name);
        for (size_t i = 0; cand && i < NCAND; i++) cand[j * NCAND + i] = worst[j];
        grid_new(source, j, n, samples, step, base[j].gbps);
    }
    struct bench_opts saved = opts;
    opts.samples = samples;
    opts.min_sample_ns = saved.min_sample_ns / 4;
    /* One page draw for the whole screen: with a new draw before each of its
     * few samples, the draws that slow any placement (the 256 B aligned copy
     * itself: 2.5 or 8 ns by draw) nominated hundreds of placements per size,
     * which re-measured at their median over draws, and crowded out placements
     * that are slow under every draw (256 B across a page).  The candidates
     * are then re-measured over draws. */
    opts.same_pages = 1;
    for (size_t c = 0; c < total; c++) {
        size_t so = 0, dof = c < nd ? d[c] : 0, col = 0;
        if (c >= nd) {
            so = (c - nd) / per;
            col = (c - nd) % per;
            dof = col * step;
        }
        progress(source, c, total);
        struct bench_case bc = bench_place(n, so, dof);
        bench_run_case(NULL, &bc, st); /* screening samples are not results */
        for (size_t j = 0; j < fcbench_ncontenders; j++) {
            if (c >= nd) grids[g0 + j].gbps[so][col] = (float)st[j].gbps;
            double r = base[j].gbps > 0 ? st[j].gbps / base[j].gbps : 0;
            if (!(st[j].gbps > 0)) continue;
            struct cliff here = worst[j];
            here.ratio = r;
            here.so = so;
            here.dof = dof;
            here.dist = (dof - so) & 4095;
            here.gbps = st[j].gbps;
            if (r < worst[j].ratio) worst[j] = here;
            if (cand && r < cand[j * NCAND + NCAND - 1].ratio) { /* insert, keeping the list sorted */
                struct cliff *list = &cand[j * NCAND];
                size_t i = NCAND - 1;
                for (; i > 0 && list[i - 1].ratio > r; i--) list[i] = list[i - 1];
                list[i] = here;
            }
        }
    }
    opts = saved;
}

/* grid: per contender and size, the matrix as a map of ratios to aligned:
 * '#' >= 0.95, '+' >= 0.80, '-' >= 0.50, '!' below (a cliff), ' ' not measured. */
static void scenario_grid(void)
{
    static const size_t dflt[] = {256, 4096, 65536};
    const size_t *sz;
    size_t nsz = pick_sizes(dflt, opts.quick ? 1 : 3, &sz), step = opts.quick ? 9 : 1;
    struct stats base[MAX_CONTENDERS];
    struct cliff worst[MAX_CONTENDERS];
    for (size_t s = 0; s < nsz; s++) {
        struct bench_case bc0 = bench_place(sz[s], 0, 0);
        bench_run_case("cliffs-aligned", &bc0, base);
        size_t g0 = ngrids;
        screen(sz[s], 0, step, opts.quick ? 3 : 5, "grid", base, worst, NULL);
        for (size_t j = 0; j < fcbench_ncontenders; j++) {
            const struct grid *g = &grids[g0 + j];
            printf("\n== grid, n = %zu, %s: ratio to aligned (%.2f GB/s); rows src%%64 0..63, columns dst%%64", g->n,
                   g->contender, g->aligned);
            if (step > 1) printf(" 0, %zu, ..", step);
            printf(" (%s)\n   # >= 0.95  + >= 0.80  - >= 0.50  ! below 0.50;  worst %.3f at src%%64=%zu dst%%64=%zu\n",
                   g->cold ? "cold" : "hot", worst[j].ratio, worst[j].so, worst[j].dof);
            for (size_t r = 0; r < g->nso; r++) {
                printf("   %2zu ", r);
                for (size_t c = 0; c < g->ndo; c++) {
                    double x = g->aligned > 0 ? g->gbps[r][c] / g->aligned : 0;
                    putchar(g->gbps[r][c] <= 0 ? ' ' : x >= 0.95 ? '#' : x >= 0.8 ? '+' : x >= 0.5 ? '-' : '!');
                }
                putchar('\n');
            }
        }
    }
}

/*
 * cliffs: for each size, every contender's aligned speed, then a screening
 * pass over the distance sweep and the src_off x dst_off grid (every pair;
 * dst_off in steps of 9 with --quick), then each contender's NCAND worst
 * cases re-measured with full samples, interleaved with its aligned case,
 * and the lowest of them measured once more for the ratio reported.
 */
static void scenario_cliffs(void)
{
    const size_t *sz;
    size_t nsz = cliff_sizes(&sz), nd = distance_list((size_t[400]){0});
    struct stats base[MAX_CONTENDERS];
    static size_t cap;
    printf("\n== cliffs: worst placement per contender and size, as a fraction of its own aligned speed (%s)\n",
           opts.cold ? "cold" : "hot");
    printf("   (screened over %zu distances and the src_off x dst_off grid, the %d worst re-measured; flagged < 0.80)\n",
           nd, NCAND);
    size_t nflag = 0;
    for (size_t s = 0; s < nsz; s++) {
        size_t n = sz[s];
        size_t k = fcbench_ncontenders;
        size_t ncases = 1 + k * NCAND;
        struct bench_case *bc = calloc(ncases, sizeof *bc);
        unsigned char *valid = calloc(ncases * k, 1);
        struct stats *st = calloc(ncases * k, sizeof *st);
        if (!bc || !valid || !st) exit(1);
        bc[0] = bench_place(n, 0, 0);
        bench_run_case(NULL, &bc[0], base); /* the screen's reference (not recorded) */
        struct cliff worst[MAX_CONTENDERS];
        static struct cliff cand[MAX_CONTENDERS * NCAND];
        screen(n, 1, opts.quick ? 9 : 1, 3, "cliffs-screen", base, worst, cand);
        /* The ratio is taken from one interleaved measurement: every contender's
         * aligned case and its NCAND worst screened placements, samples
         * alternating over the same seconds (a ratio of two measurements
         * minutes apart moves with the host, by 2x at 1 KiB on a shared
         * machine); the lowest re-measured ratio is reported. */
        for (size_t j = 0; j < k; j++) {
            valid[j] = (unsigned char)(base[j].gbps > 0);
            for (size_t i = 0; i < NCAND; i++) {
                size_t c = 1 + j * NCAND + i;
                bc[c] = bench_place(n, cand[j * NCAND + i].so, cand[j * NCAND + i].dof);
                valid[c * k + j] = (unsigned char)(valid[j] && cand[j * NCAND + i].ratio < 1e8 &&
                                                   bench_validate(&fcbench_contenders[j], &bc[c]));
            }
        }
        progress_what = "cliffs-worst";
        bench_measure_many(&opts, fcbench_contenders, k, bc, ncases, valid, st, progress_many);
        /* The lowest of NCAND re-measured ratios is biased low: each carries
         * the host's noise, and the minimum picks the draw that noise pushed
         * down most (with the 24 candidates of a routine that has no cliff,
         * the lowest sits a few noise widths under the truth).  It chooses the
         * placement; the ratio reported is a new measurement of that placement
         * against the aligned case, interleaved as before: its noise is
         * unselected.  A real cliff is as low again. */
        size_t bestc[MAX_CONTENDERS];
        double selected[MAX_CONTENDERS];
        struct bench_case *bc2 = calloc(1 + k, sizeof *bc2);
        unsigned char *valid2 = calloc((1 + k) * k, 1);
        struct stats *st2 = calloc((1 + k) * k, sizeof *st2);
        if (!bc2 || !valid2 || !st2) exit(1);
        for (size_t c = 0; c <= k; c++) bc2[c] = bc[0]; /* a contender without a candidate: unused, but a real case */
        for (size_t j = 0; j < k; j++) {
            const struct stats *sw = NULL;
            bestc[j] = SIZE_MAX;
            for (size_t i = 0; i < NCAND; i++) {
                size_t c = 1 + j * NCAND + i;
                if (valid[c * k + j] && (!sw || st[c * k + j].gbps < sw->gbps)) {
                    sw = &st[c * k + j];
                    bestc[j] = i;
                }
            }
            selected[j] = sw && st[j].gbps > 0 ? sw->gbps / st[j].gbps : 0;
            if (!sw) continue;
            bc2[1 + j] = bc[1 + j * NCAND + bestc[j]];
            valid2[j] = valid[j];
            valid2[(1 + j) * k + j] = 1;
        }
        progress_what = "cliffs-confirm";
        bench_measure_many(&opts, fcbench_contenders, k, bc2, 1 + k, valid2, st2, progress_many);
        printf("\n n = %-8zu %-20s %10s %10s %7s %9s  worst placement\n", n, "contender", "aligned", "worst", "ratio",
               "selected");
        for (size_t j = 0; j < k; j++) {
            struct contender one = fcbench_contenders[j];
            const struct stats *sa = &st2[j], *sw = &st2[(1 + j) * k + j];
            if (bestc[j] == SIZE_MAX) continue;
            worst[j] = cand[j * NCAND + bestc[j]];
            bench_record("cliffs-aligned", &one, &bc2[0], sa);
            bench_record("cliffs-worst", &one, &bc2[1 + j], sw);
            worst[j].base = sa->gbps;
            worst[j].gbps = sw->gbps;
            worst[j].ratio = sa->gbps > 0 ? sw->gbps / sa->gbps : 0;
            worst[j].selected = selected[j];
            cliffs = grow(cliffs, &cap, ncliffs, sizeof *cliffs);
            cliffs[ncliffs++] = worst[j];
            printf("            %-20.20s %10.2f %10.2f %7.3f %9.3f  src%%64=%zu dst%%64=%zu (dst-src)%%4096=%zu%s\n",
                   worst[j].contender, sa->gbps, sw->gbps, worst[j].ratio, worst[j].selected, worst[j].so,
                   worst[j].dof & 63, worst[j].dist, worst[j].ratio < 0.8 ? "  <-- CLIFF" : "");
            if (worst[j].ratio < 0.8) nflag++;
        }
        free(bc2);
        free(valid2);
        free(st2);
        free(bc);
        free(valid);
        free(st);
    }
    printf("\n%zu contender/size pairs fall below 0.80 of their own aligned speed\n", nflag);
}

/* ---- large: the seed patch's 400 MB lines --------------------------------------- */

/* ---- memmove: overlapping copies ------------------------------------------------ */

/* The contenders' memmove with src and dst inside one buffer, dst = src + delta:
 * delta > 0 (dst above src) needs a backward copy, delta < 0 a forward one, and
 * |delta| in 1..31 is also where 4K-aliasing rules and rep movsb go wrong.  The
 * non-overlapping aligned case is the reference.  Hot only: an overlapping
 * move rewrites the buffer it reads. */
static void scenario_memmove(void)
{
    static const size_t dflt[] = {8, 16, 24, 32, 48, 64, 128, 256, 512, 1024, 4096, 16384, 65536, 262144, 1048576};
    static const size_t qdflt[] = {64, 1024, 65536};
    static const struct { const char *label; int sign; size_t add, half; } ov[] = {
        {"no overlap", 0, 0, 0},     {"dst = src + 1", 1, 1, 0},  {"dst = src + 32", 1, 32, 0},
        {"dst = src + n/2", 1, 0, 1}, {"dst = src - 1", -1, 1, 0}, {"dst = src - 32", -1, 32, 0},
        {"dst = src - n/2", -1, 0, 1}};
    enum { NOV = sizeof ov / sizeof ov[0] };
    const size_t *sizes;
    size_t ns = pick_sizes(opts.quick ? qdflt : dflt, opts.quick ? 3 : sizeof dflt / sizeof dflt[0], &sizes);
    size_t k = fcbench_ncontenders, nc = 0;
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
            struct bench_case c = bench_place(n, 0, 0);
            if (ov[o].sign) {
                unsigned char *src = arena_a + 4096 + ((n + 4095) & ~(size_t)4095);
                c = (struct bench_case){.src = src, .dst = ov[o].sign > 0 ? src + delta : src - delta, .n = n};
            }
            c.use_memmove = 1;
            c.stride = c.slots = 0;
            where[o * ns + i] = nc;
            labels[nc] = ov[o].label;
            bc[nc++] = c;
        }
    /* three times the samples, as in sizes (one page draw per sample); the phase 2.2 s -> 6.5 s */
    for (size_t i = 0; i < nc && !opts.quick; i++) bc[i].samples = 3 * opts.samples;
    bench_run_cases("memmove", bc, labels, nc, st);
    for (size_t o = 0; o < NOV; o++) {
        printf("\n== memmove, %s (hot; %s): GB/s, median [ns/call]\n", ov[o].label,
               !ov[o].sign ? "src%64 = dst%64 = 0, buffers apart" : ov[o].sign > 0 ? "a correct copy runs backward"
                                                                        : "a correct copy runs forward");
        header(stdout, "bytes");
        for (size_t i = 0; i < ns; i++) {
            size_t w = where[o * ns + i];
            if (w == SIZE_MAX) continue;
            printf("%-10zu", sizes[i]);
            for (size_t j = 0; j < k; j++)
                if (!fcbench_contenders[j].memmove_fn) /* a peer: no memmove */
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

/*
 * The large copies, aligned and unaligned, with peak's DRAM-ceiling kernels
 * (non-temporal, rep movsb) on the same buffers, all in one window: round s
 * takes sample s of every contender and every kernel on the aligned case,
 * then on the unaligned one (bench_measure_many), so DRAM drift on a shared
 * host hits both copies and both ceilings alike.  The kernels are recorded as
 * scenario "large-ceiling" under the copy's label; beside the unaligned copy
 * they read its src + 1 with unaligned loads and store to its aligned dst.
 * History (Zen 4 guest, 2026-11-24/25): the ceiling `peak` measured minutes
 * earlier moved from 15.2 to 23.3 GB/s between runs, so fc's 400 MiB copy read
 * 87% to 132% of it.  With a ceiling per copy but the two copies timed one
 * after the other, the kernels read 17.5 GB/s beside the aligned copy and
 * 14.9 beside the unaligned one seconds later - misalignment and drift could
 * not be told apart.  Interleaving the two windows separates them.
 */
static void scenario_large(void)
{
    size_t n = (size_t)(opts.quick ? 16 : 400) << 20;
    unsigned char *a = bench_alloc(n + 3 * 4096), *b = bench_alloc(n + 3 * 4096);
    struct contender all[MAX_CONTENDERS];
    size_t nc = fcbench_ncontenders, k = nc;
    memcpy(all, fcbench_contenders, nc * sizeof all[0]);
    k += fcbench_dram_kernels(all + nc, MAX_CONTENDERS - nc);
    static const char *const label[2] = {"aligned", "unaligned"};
    struct bench_case bc[2];
    unsigned char valid[2 * MAX_CONTENDERS];
    struct stats *st = calloc(2 * k, sizeof *st);
    if (!st) exit(1);
    struct bench_opts saved = opts;
    /* a 400 MiB copy is its own long sample; 11 rounds (5 until 2026-11-25: the
     * unaligned copy then read 95-100% of the aligned ceiling from run to run,
     * where a standalone loop, 15 rounds, measures the NT loop at src+1 1-2%
     * behind src+0), about 10 s more */
    opts.samples = opts.quick ? 3 : 11;
    printf("\n== large: one copy of %zu MiB, median of %u (MiB/s; MBytes = MiB); aligned and unaligned interleaved\n",
           n >> 20, opts.samples);
    for (int u = 0; u < 2; u++) {
        bc[u] = (struct bench_case){.dst = b + 4096, .src = a + 4096 + (size_t)u, .n = n};
        for (size_t j = 0; j < k; j++) valid[u * k + j] = (unsigned char)bench_validate(&all[j], &bc[u]);
    }
    bench_measure_many(&opts, all, k, bc, 2, valid, st, NULL);
    for (int u = 0; u < 2; u++) {
        bench_label = label[u];
        size_t best = k;
        for (size_t j = 0; j < k; j++) {
            const struct stats *s = &st[u * k + j];
            if (!valid[u * k + j]) continue;
            bench_record(j < nc ? "large" : "large-ceiling", &all[j], &bc[u], s);
            if (j >= nc && s->gbps > 0 && (best == k || s->gbps > st[u * k + best].gbps)) best = j;
        }
        for (size_t j = 0; j < nc; j++)
            if (valid[u * k + j] && st[u * k + j].med_ns > 0)
                printf("%s memcpy: %s copy of %zu MBytes in %.0f msecs (%.0f MB/s)\n", all[j].name, label[u], n >> 20,
                       st[u * k + j].med_ns / 1e6, (double)(n >> 20) / (st[u * k + j].med_ns / 1e9));
        if (best < k)
            printf("ceiling beside the %s copies (best of peak's non-temporal / rep movsb kernels, same rounds): "
                   "%s, %.0f MB/s\n",
                   label[u], all[best].name, (double)(n >> 20) / (st[u * k + best].med_ns / 1e9));
    }
    bench_label = NULL;
    opts = saved;
    free(st);
    munmap(a, n + 3 * 4096);
    munmap(b, n + 3 * 4096);
}

/* ---- offsets: the uaccess thread's per-offset table -------------------------------- */

static void scenario_offsets(void)
{
    static const size_t base[] = {8192, 16384, 32768};
    size_t k = fcbench_ncontenders;
    struct bench_case bc[48];
    struct stats *st = calloc(48 * k, sizeof *st);
    if (!st) exit(1);
    printf("\n== offsets: test 1 = read (src at offset), test 2 = write (dst at offset); copier = contender (%s)\n",
           opts.cold ? "cold" : "hot");
    printf("   took = time of 10000 copies at the median rate; MiB/sec = size / median time\n");
    for (size_t j = 0; j < k; j++) printf("   copier %zu: %s\n", j + 1, fcbench_contenders[j].name);
    for (int test = 1; test <= 2; test++) {
        size_t c0 = (size_t)(test - 1) * 24;
        for (size_t b = 0; b < 3; b++)
            for (size_t off = 0; off < 8; off++) {
                size_t n = base[b] - off;
                bc[c0 + b * 8 + off] = test == 1 ? bench_place(n, off, 0) : bench_place(n, 0, off);
            }
        bench_run_cases(test == 1 ? "offsets-read" : "offsets-write", bc + c0, NULL, 24, st + c0 * k);
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

/* ---- JSON and CSV --------------------------------------------------------------- */

static void write_json(const char *path, const char *scenario, const char *argv_line, const char *date)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        exit(1);
    }
    fprintf(f, "{\n  \"schema\": \"fcbench-2\",\n  \"scenario\": ");
    json_str(f, scenario);
    fprintf(f, ",\n  \"argv\": ");
    json_str(f, argv_line);
    fprintf(f, ",\n  \"date\": ");
    json_str(f, date);
    fprintf(f, ",\n  \"machine\": {\n");
    machine_describe(f, "    ");
    fprintf(f, "\n  },\n  \"method\": {\"samples\": %u, \"min_sample_ns\": %.0f, \"statistic\": \"median\", "
               "\"spread\": \"iqr\", \"bytes\": \"copied, counted once\", \"cache\": \"%s\", "
               "\"cold_region_bytes\": %zu, \"page_redraw_bytes\": %zu, \"pages_redrawn\": %zu, "
               "\"other_cpus_busy\": %.4f, \"steal\": %.4f, \"order_seed\": %llu, \"pinned\": ",
            opts.samples, opts.min_sample_ns, opts.cold ? "cold" : "hot", cold_region_bytes(), bench_redraw_bytes(),
            bench_redrawn_pages(), others_busy, steal_share, (unsigned long long)bench_order_seed());
    json_str(f, pin_desc);
    fprintf(f, "},\n  \"contenders\": [");
    for (size_t j = 0; j < fcbench_ncontenders; j++) {
        json_str(f, fcbench_contenders[j].name);
        if (j + 1 < fcbench_ncontenders) fputs(", ", f);
    }
    fprintf(f, "],\n  \"results\": [\n");
    for (size_t i = 0; i < nresults; i++) {
        const struct result *r = &results[i];
        fprintf(f, "    {\"scenario\": \"%s\", \"contender\": ", r->scenario);
        json_str(f, r->contender);
        fprintf(f, ", \"label\": ");
        json_str(f, r->label);
        fprintf(f, ", \"cache\": \"%s\", \"n\": %zu, \"src_off\": %zu, \"dst_off\": %zu, \"dist\": %zu, "
                   "\"med_ns\": %.3f, \"q1_ns\": %.3f, \"q3_ns\": %.3f, \"gbps\": %.4f, \"samples\": %u, "
                   "\"iters\": %llu, \"samples_ns\": [",
                r->cold ? "cold" : "hot", r->n, r->src_off, r->dst_off, r->dist, r->st.med_ns, r->st.q1_ns,
                r->st.q3_ns, r->st.gbps, r->st.samples, (unsigned long long)r->st.iters);
        for (unsigned k = 0; k < r->st.samples; k++) fprintf(f, "%s%.3f", k ? ", " : "", r->st.sample_ns[k]);
        fprintf(f, "]}%s\n", i + 1 < nresults ? "," : "");
    }
    fprintf(f, "  ],\n  \"grids\": [\n");
    for (size_t i = 0; i < ngrids; i++) {
        const struct grid *g = &grids[i];
        fprintf(f, "    {\"source\": \"%s\", \"contender\": ", g->source);
        json_str(f, g->contender);
        fprintf(f, ", \"n\": %zu, \"cache\": \"%s\", \"samples\": %u, \"aligned_gbps\": %.4f,\n     \"src_offs\": [",
                g->n, g->cold ? "cold" : "hot", g->samples, g->aligned);
        for (size_t r = 0; r < g->nso; r++) fprintf(f, "%s%u", r ? ", " : "", g->so[r]);
        fprintf(f, "], \"dst_offs\": [");
        for (size_t c = 0; c < g->ndo; c++) fprintf(f, "%s%u", c ? ", " : "", g->dof[c]);
        fprintf(f, "],\n     \"gbps\": [");
        for (size_t r = 0; r < g->nso; r++) {
            fprintf(f, "%s[", r ? ",\n              " : "");
            for (size_t c = 0; c < g->ndo; c++) fprintf(f, "%s%.3f", c ? "," : "", g->gbps[r][c]);
            fputc(']', f);
        }
        fprintf(f, "]}%s\n", i + 1 < ngrids ? "," : "");
    }
    fprintf(f, "  ],\n  \"cliffs\": [\n");
    for (size_t i = 0; i < ncliffs; i++) {
        const struct cliff *c = &cliffs[i];
        fprintf(f, "    {\"contender\": ");
        json_str(f, c->contender);
        fprintf(f, ", \"n\": %zu, \"aligned_gbps\": %.4f, \"worst_gbps\": %.4f, \"ratio\": %.4f, \"selected_ratio\": %.4f, "
                   "\"src_off\": %zu, \"dst_off\": %zu, \"dist\": %zu, \"flagged\": %s}%s\n",
                c->n, c->base, c->gbps, c->ratio, c->selected, c->so & 63, c->dof & 63, c->dist,
                c->ratio < 0.8 ? "true" : "false", i + 1 < ncliffs ? "," : "");
    }
    fprintf(f, "  ],\n  \"peaks\": [");
    int first = 1;
    for (size_t i = 0; i < 4; i++) {
        const struct peak *p = &fcbench_peaks[i];
        if (!(p->gbps > 0)) continue;
        fprintf(f, "%s\n    {\"level\": \"%s\", \"n\": %zu, \"gbps\": %.4f, \"kernel\": ", first ? "" : ",", p->level,
                p->n, p->gbps);
        json_str(f, p->kernel);
        fputc('}', f);
        first = 0;
    }
    fprintf(f, "%s]\n}\n", first ? "" : "\n  ");
    if (fclose(f)) {
        perror(path);
        exit(1);
    }
}

/* One row per result, then one per measured grid cell (scenario = its source). */
static void write_csv(const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        exit(1);
    }
    fputs("scenario,contender,label,cache,n,src_off,dst_off,dist,med_ns,q1_ns,q3_ns,gbps,samples,iters\n", f);
    for (size_t i = 0; i < nresults; i++) {
        const struct result *r = &results[i];
        fprintf(f, "%s,%s,%s,%s,%zu,%zu,%zu,%zu,%.3f,%.3f,%.3f,%.4f,%u,%llu\n", r->scenario, r->contender, r->label,
                r->cold ? "cold" : "hot", r->n, r->src_off, r->dst_off, r->dist, r->st.med_ns, r->st.q1_ns,
                r->st.q3_ns, r->st.gbps, r->st.samples, (unsigned long long)r->st.iters);
    }
    for (size_t i = 0; i < ngrids; i++) {
        const struct grid *g = &grids[i];
        for (size_t r = 0; r < g->nso; r++)
            for (size_t c = 0; c < g->ndo; c++)
                if (g->gbps[r][c] > 0)
                    fprintf(f, "%s,%s,,%s,%zu,%u,%u,%u,%.3f,,,%.4f,%u,\n", g->source, g->contender,
                            g->cold ? "cold" : "hot", g->n, g->so[r], g->dof[c], (unsigned)((g->dof[c] - g->so[r]) & 4095),
                            (double)g->n / g->gbps[r][c], g->gbps[r][c], g->samples);
    }
    if (fclose(f)) {
        perror(path);
        exit(1);
    }
}

/* ---- report and compare: the Python side ------------------------------------------ */

/* FCBENCH_REPORT_PY, else the source tree's script, else the installed one;
 * run with $FCBENCH_PYTHON (default python3). */
static int exec_report(int argc, char **argv)
{
    const char *py = getenv("FCBENCH_PYTHON"), *script = getenv("FCBENCH_REPORT_PY");
    if (!py || !*py) py = "python3";
    if (!script || !*script)
        script = access(FCBENCH_REPORT_SRC, R_OK) == 0 ? FCBENCH_REPORT_SRC : FCBENCH_REPORT_INSTALLED;
    char **args = calloc((size_t)argc + 3, sizeof *args);
    if (!args) return 1;
    args[0] = (char *)py;
    args[1] = (char *)script;
    for (int i = 1; i < argc; i++) args[i + 1] = argv[i];
    execvp(py, args);
    fprintf(stderr, "fcbench %s: cannot run %s %s: %s\n", argv[1], py, script, strerror(errno));
    return 127;
}

/* Every scenario, in the order `all` runs them (peak first: the others are
 * read against it; the cliff summary next: it is what a user reads first). */
static const struct {
    const char *name;
    void (*run)(void);
    int in_all;
} scenarios[] = {{"peak", scenario_peak, 1},       {"cliffs", scenario_cliffs, 1},   {"sizes", scenario_sizes, 1},
                 {"grid", scenario_grid, 0},       {"distance", scenario_distance, 1}, {"large", scenario_large, 1},
                 {"offsets", scenario_offsets, 1}, {"uaccess", scenario_uaccess, 1}, {"pipe", scenario_pipe, 1},
                 {"dist", scenario_dist, 1},       {"readback", scenario_readback, 1},
                 {"memmove", scenario_memmove, 1}, {"checked", scenario_checked, 1},
                 {"field", scenario_field, 1},     {"packet", scenario_packet, 1}};
#define NSCENARIOS (sizeof scenarios / sizeof scenarios[0])

static int usage(void)
{
    fputs("usage: fcbench list|peak|cliffs|sizes|grid|distance|large|offsets|uaccess|pipe|dist|readback|memmove|checked|\n"
          "               field|packet|all\n"
          "               [--impl a,b,...] [--sizes n,...] [--cold] [--quick] [--samples N] [--same-pages]\n"
          "               [--json FILE] [--csv FILE] [--tuned PROFILE] [--file DIST.csv (dist)]\n"
          "       fcbench report RESULTS.json... [-o DIR]   (several files: one run taken phase by phase)\n"
          "       fcbench targets RESULTS.json... [--check]   (the x86-64 issue's targets, fc vs libc)\n"
          "       fcbench compare A.json [B.json] [--base CONTENDER] [--help for more]\n"
          "       fcbench machine RESULTS.json... [--profile P] [--tune-log T] -o docs/machines/CPU.md\n"
          "       fcbench record [-o PREFIX] -- CMD [ARGS...]   (CMD's copy calls: sizes, alignment, rate)\n",
          stderr);
    return 2;
}

static int parse_sizes(const char *csv)
{
    char *end;
    for (const char *p = csv; *p;) {
        unsigned long long v = strtoull(p, &end, 0);
        if (end == p || v == 0 || v > ARENA_MAX || nuser_sizes == 64) return 0;
        if (*end == 'K' || *end == 'k') v <<= 10, end++;
        else if (*end == 'M' || *end == 'm') v <<= 20, end++;
        if (v > ARENA_MAX) return 0;
        user_sizes[nuser_sizes++] = (size_t)v;
        if (*end != ',' && *end) return 0;
        p = *end ? end + 1 : end;
    }
    return nuser_sizes > 0;
}

const char *fcbench_dist_file;

int main(int argc, char **argv)
{
    if (argc < 2) return usage();
    const char *cmd = argv[1], *impl = NULL, *json = NULL, *csv = NULL;
    if (!strcmp(cmd, "report") || !strcmp(cmd, "compare") || !strcmp(cmd, "targets") || !strcmp(cmd, "machine"))
        return exec_report(argc, argv);
    if (!strcmp(cmd, "record")) return fcbench_record(argc - 2, argv + 2);
    int quick = 0, cold = 0, same_pages = 0;
    unsigned samples = 0;
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--quick"))
            quick = 1;
        else if (!strcmp(argv[i], "--cold"))
            cold = 1;
        else if (!strcmp(argv[i], "--same-pages"))
            same_pages = 1;
        else if (!strcmp(argv[i], "--impl") && i + 1 < argc)
            impl = argv[++i];
        else if (!strcmp(argv[i], "--tuned") && i + 1 < argc)
            fcbench_tuned = argv[++i];
        else if (!strcmp(argv[i], "--json") && i + 1 < argc)
            json = argv[++i];
        else if (!strcmp(argv[i], "--file") && i + 1 < argc)
            fcbench_dist_file = argv[++i];
        else if (!strcmp(argv[i], "--csv") && i + 1 < argc)
            csv = argv[++i];
        else if (!strcmp(argv[i], "--samples") && i + 1 < argc) {
            samples = (unsigned)strtoul(argv[++i], NULL, 10);
            if (samples < 3 || samples > MAX_SAMPLES) {
                fprintf(stderr, "fcbench: --samples takes 3 .. %d\n", MAX_SAMPLES);
                return 2;
            }
        }
        else if (!strcmp(argv[i], "--sizes") && i + 1 < argc) {
            if (!parse_sizes(argv[++i])) {
                fprintf(stderr, "fcbench: --sizes takes up to 64 sizes, 1 .. 64M (suffix K or M allowed)\n");
                return 2;
            }
        } else
            return usage();
    }
    size_t found = !strcmp(cmd, "list") || !strcmp(cmd, "all");
    for (size_t i = 0; i < NSCENARIOS; i++) found |= !strcmp(cmd, scenarios[i].name);
    if (!found) return usage();
    char argv_line[512] = "", date[32];
    for (int i = 0; i < argc; i++)
        snprintf(argv_line + strlen(argv_line), sizeof argv_line - strlen(argv_line), "%s%s", i ? " " : "", argv[i]);
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));

    setvbuf(stdout, NULL, _IOLBF, 0);
    fcbench_ncontenders = contenders_collect(impl, fcbench_contenders, MAX_CONTENDERS);
    if (!fcbench_ncontenders) {
        fprintf(stderr, "fcbench: no contender matches --impl %s\n", impl);
        return 2;
    }
    bench_opts_init(&opts, quick);
    opts.cold = cold;
    opts.same_pages = same_pages;
    if (samples) opts.samples = samples;
    pin_to_one_cpu(pin_desc, sizeof pin_desc);
    machine_print(stdout);
    printf("# method: %s; %u samples of >= %.0f us (sizes, memmove, dist: %u), contenders interleaved (a random "
           "order per round, seed %llu: FCBENCH_SEED repeats it); median; %s buffers%s; %s\n",
           pin_desc, opts.samples, opts.min_sample_ns / 1e3,
           opts.quick ? opts.samples : (3 * opts.samples < MAX_SAMPLES ? 3 * opts.samples : MAX_SAMPLES),
           (unsigned long long)bench_order_seed(),
           cold ? "cold" : "hot",
           cold ? " (rotating over 2 x the cold region)" : "", date);
    if (!strcmp(cmd, "list")) {
        for (size_t j = 0; j < fcbench_ncontenders; j++) printf("%s\n", fcbench_contenders[j].name);
        return 0;
    }
    if (!bench_alloc_arenas(&arena_a, &arena_b, ARENA_MAX + 3 * 4096))
        printf("# note: the arenas are two ordinary mappings (no fixed address relation; see measure.c)\n");
    if (!same_pages) bench_redraw_setup(arena_a, arena_b, REDRAW_BYTES);
    printf("# physical pages: %s\n", bench_redraw_bytes()
                                        ? "new ones under the hot buffers before every sample round (the arenas' first "
                                          "4 MiB; --same-pages: one draw per process)"
                                        : "one draw per process (--same-pages)");
    size_t total = 0, k = 0;
    for (size_t i = 0; i < NSCENARIOS; i++) total += !strcmp(cmd, "all") ? (size_t)scenarios[i].in_all : 0;
    double t0 = now_ns();
    load_monitor_start();
    for (size_t i = 0; i < NSCENARIOS; i++)
        if (strcmp(cmd, "all") ? !strcmp(cmd, scenarios[i].name) : scenarios[i].in_all) {
            if (total) {
                snprintf(progress_prefix, sizeof progress_prefix, " %zu/%zu %s:", ++k, total, scenarios[i].name);
                if (!isatty(2))
                    fprintf(stderr, "[fcbench] %zu/%zu %s (%.0f s so far)\n", k, total, scenarios[i].name,
                            (now_ns() - t0) / 1e9);
            }
            scenarios[i].run();
        }
    if (total) fprintf(stderr, "[fcbench] all: %zu scenarios in %.0f s\n", total, (now_ns() - t0) / 1e9);
    load_monitor_end(sched_getcpu(), &others_busy, &steal_share);
    printf("\n# background: the other CPUs were busy %.0f%% of the run, the hypervisor stole %.1f%% of this CPU%s\n",
           100 * others_busy, 100 * steal_share,
           others_busy > 0.1 || steal_share > 0.02 ? " - absolute figures are noisy; compare ratios within the run" : "");
    if (json) write_json(json, cmd, argv_line, date);
    if (csv) write_csv(csv);
    return 0;
}
