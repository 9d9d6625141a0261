/*
 * fcbench - the copy benchmark.
 *
 *   fcbench list                      contenders and machine
 *   fcbench peak     [opts]           the machine's copy ceilings: L1, L2, L3, DRAM, best of
 *                                     vector loops, rep movsb, non-temporal stores
 *   fcbench cliffs   [opts]           each contender's worst placement per size as a fraction
 *                                     of its own aligned speed; flags every case below 0.8
 *   fcbench sizes    [opts]           throughput and ns/call, 1 B .. 64 MiB; aligned, src+1, dst+1
 *                                     (+ aligned cold, unless --cold makes all three cold);
 *                                     from 4 KiB the copy ceiling at each size (peak's kernels)
 *   fcbench grid     [opts]           src_off x dst_off (0..63) matrices, as ratio maps
 *   fcbench distance [opts]           throughput over (dst - src) mod 4096 at 256 B .. 256 KiB
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
 * Source layout: this file is the CLI and the scenario table; each scenario is
 * a file in bench/scenarios/ (scenarios.h), handed a struct bench_ctx
 * (harness.h: options, contenders, arenas, label, the result sink) instead of
 * globals; the harness (arena.c, harness.c, screen.c, kernels.c, results.c,
 * contenders.c, record.c) runs on the engine (bench.h: measure.c, clock.c,
 * caches.c, machine.c, distfile.c), which fastcopy-tune links too.
 *
 * Method: pinned to one CPU; every contender's output is validated (bytes
 * around dst included) before it is timed; a sample lasts at least the minimum
 * bench_opts_init sets from the measured timer resolution; 11 samples (5 with
 * --quick, N with --samples N; sizes, memmove and dist take three times as
 * many unless --quick; scenarios with long copies take fewer) (D31); contenders
 * interleaved within each sample round in a random order (D30); new physical pages
 * under the hot buffers before every round (--same-pages: one draw) (D33); median
 * and IQR reported, every sample kept in the JSON.  Hot: the same buffers every call.  Cold (--cold): every
 * call moves to another slot of a region of four times the last-level cache.  Bytes
 * copied are counted once: bytes per ns = n / ns.
 */
#include "harness.h" /* first: bench.h defines _GNU_SOURCE */

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "results.h"
#include "scenarios/scenarios.h"

/* The arenas' first bytes whose physical pages are redrawn before every sample
 * round (measure.c): every placement scenario's hot buffers up to 4 MiB. */
#define REDRAW_BYTES (((size_t)4 << 20) + 3 * 4096)

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
    void (*run)(struct bench_ctx *ctx);
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

static int parse_sizes(const char *csv, size_t *user_sizes, size_t *nuser_sizes)
{
    char *end;
    for (const char *p = csv; *p;) {
        unsigned long long v = strtoull(p, &end, 0);
        if (end == p || v == 0 || v > ARENA_MAX || *nuser_sizes == 64) return 0;
        if (*end == 'K' || *end == 'k') v <<= 10, end++;
        else if (*end == 'M' || *end == 'm') v <<= 20, end++;
        if (v > ARENA_MAX) return 0;
        user_sizes[(*nuser_sizes)++] = (size_t)v;
        if (*end != ',' && *end) return 0;
        p = *end ? end + 1 : end;
    }
    return *nuser_sizes > 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) return usage();
    const char *cmd = argv[1], *impl = NULL, *json = NULL, *csv = NULL, *tuned = NULL, *dist_file = NULL;
    static size_t user_sizes[64];
    size_t nuser_sizes = 0;
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
            tuned = argv[++i];
        else if (!strcmp(argv[i], "--json") && i + 1 < argc)
            json = argv[++i];
        else if (!strcmp(argv[i], "--file") && i + 1 < argc)
            dist_file = argv[++i];
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
            if (!parse_sizes(argv[++i], user_sizes, &nuser_sizes)) {
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
    static struct contender contenders[MAX_CONTENDERS];
    static struct peak peaks[4] = {{"L1", 0, 0, ""}, {"L2", 0, 0, ""}, {"L3", 0, 0, ""}, {"DRAM", 0, 0, ""}};
    struct bench_ctx ctx = {.contenders = contenders, .sizes = user_sizes, .nsizes = nuser_sizes,
                            .dist_file = dist_file, .peaks = peaks, .sink = results_sink()};
    ctx.ncontenders = contenders_collect(impl, tuned, contenders, MAX_CONTENDERS);
    if (!ctx.ncontenders) {
        fprintf(stderr, "fcbench: no contender matches --impl %s\n", impl);
        return 2;
    }
    bench_opts_init(&ctx.opts, quick);
    ctx.opts.cold = cold;
    ctx.opts.same_pages = same_pages;
    if (samples) ctx.opts.samples = samples;
    char pin_desc[64];
    pin_to_one_cpu(pin_desc, sizeof pin_desc);
    machine_print(stdout);
    printf("# method: %s; %u samples of >= %.0f us (sizes, memmove, dist: %u), contenders interleaved (a random "
           "order per round, seed %llu: FCBENCH_SEED repeats it); median; %s buffers%s; %s\n",
           pin_desc, ctx.opts.samples, ctx.opts.min_sample_ns / 1e3,
           ctx.opts.quick ? ctx.opts.samples
                          : (3 * ctx.opts.samples < MAX_SAMPLES ? 3 * ctx.opts.samples : MAX_SAMPLES),
           (unsigned long long)bench_order_seed(),
           cold ? "cold" : "hot",
           cold ? " (rotating over 2 x the cold region)" : "", date);
    if (!strcmp(cmd, "list")) {
        for (size_t j = 0; j < ctx.ncontenders; j++) printf("%s\n", contenders[j].name);
        return 0;
    }
    if (!bench_alloc_arenas(&ctx.arena_a, &ctx.arena_b, ARENA_MAX + 3 * 4096))
        printf("# note: the arenas are two ordinary mappings (no fixed address relation; see measure.c)\n");
    if (!same_pages) bench_redraw_setup(ctx.arena_a, ctx.arena_b, REDRAW_BYTES);
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
                char prefix[64];
                snprintf(prefix, sizeof prefix, " %zu/%zu %s:", ++k, total, scenarios[i].name);
                progress_set_prefix(prefix);
                if (!isatty(2))
                    fprintf(stderr, "[fcbench] %zu/%zu %s (%.0f s so far)\n", k, total, scenarios[i].name,
                            (now_ns() - t0) / 1e9);
            }
            scenarios[i].run(&ctx);
        }
    if (total) fprintf(stderr, "[fcbench] all: %zu scenarios in %.0f s\n", total, (now_ns() - t0) / 1e9);
    double others_busy, steal_share;
    load_monitor_end(sched_getcpu(), &others_busy, &steal_share);
    printf("\n# background: the other CPUs were busy %.0f%% of the run, the hypervisor stole %.1f%% of this CPU%s\n",
           100 * others_busy, 100 * steal_share,
           others_busy > 0.1 || steal_share > 0.02 ? " - absolute figures are noisy; compare ratios within the run" : "");
    if (json) {
        struct run_facts run = {cmd, argv_line, date, pin_desc, others_busy, steal_share};
        results_write_json(json, &ctx, &run);
    }
    if (csv) results_write_csv(csv);
    return 0;
}
