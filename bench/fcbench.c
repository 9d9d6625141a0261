/*
 * fcbench - the copy benchmark.
 *
 *   fcbench list                      contenders and machine
 *   fcbench sizes    [opts]           GB/s and ns/call, 1 B .. 64 MiB; aligned, src+1, dst+1
 *   fcbench distance [opts]           GB/s over (dst - src) mod 4096 at 4 KiB .. 256 KiB
 *   fcbench cliffs   [opts]           each contender's worst placement per size as a fraction
 *                                     of its own aligned speed; flags every case below 0.8
 *   fcbench large    [opts]           the riscv memcpy patch's lines: aligned and unaligned
 *                                     copies of 400 MiB ("MBytes" = MiB there, as here)
 *   fcbench offsets  [opts]           the riscv uaccess thread's table: read (src offset) and
 *                                     write (dst offset) tests, offsets 0..7, sizes 8/16/32 KiB
 *                                     minus the offset
 *   fcbench uaccess  [opts]           the kernel's copy_to_user/copy_from_user per user-buffer
 *                                     offset 0..63 (pread/pwrite on a memfd and a tmpfs file)
 *   fcbench dist     [opts]           ns/call for sizes drawn from real memcpy size
 *                                     distributions, random offsets, batches of 4096 calls
 *   fcbench all      [opts]           cliffs, sizes, distance, large, offsets, uaccess, dist
 *   opts: --impl a,b,...  --quick  --json FILE
 *
 * Method: pinned to one CPU; every contender's output is validated (bytes
 * around dst included) before it is timed; samples last >= 1000x the measured
 * timer resolution (and >= 100 us); 11 samples (5 with --quick), contenders
 * interleaved within each sample round; median and IQR reported.  Buffers are
 * reused (hot) - sizes beyond the caches are cold by nature.  Bytes copied are
 * counted once: GB/s = n / ns.
 */
#include "bench.h" /* first: it defines _GNU_SOURCE */

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "fastcopy.h"

struct result {
    const char *scenario;
    char contender[48], label[32];
    size_t n, src_off, dst_off, dist;
    struct stats st;
};

static struct result *results;
static size_t nresults, capresults;
struct contender fcbench_contenders[MAX_CONTENDERS];
size_t fcbench_ncontenders;
const char *bench_label;
struct bench_opts opts;
static unsigned char *arena_a, *arena_b;
static size_t arena_len;

void bench_record(const char *scenario, const struct contender *c, const struct bench_case *bc,
                  const struct stats *st)
{
    if (nresults == capresults) {
        capresults = capresults ? 2 * capresults : 1024;
        results = realloc(results, capresults * sizeof *results);
        if (!results) exit(1);
    }
    struct result *r = &results[nresults++];
    r->scenario = scenario;
    snprintf(r->contender, sizeof r->contender, "%s", c->name);
    snprintf(r->label, sizeof r->label, "%s", bench_label ? bench_label : "");
    r->n = bc->n;
    r->src_off = (uintptr_t)bc->src & 63;
    r->dst_off = (uintptr_t)bc->dst & 63;
    r->dist = (size_t)(((uintptr_t)bc->dst - (uintptr_t)bc->src) & 4095);
    r->st = *st;
}

/* src = A + src_off, dst = B + dst_off: A and B page-aligned and 4096-congruent,
 * so (dst - src) mod 4096 = dst_off - src_off (mod 4096). */
static struct bench_case place(size_t n, size_t src_off, size_t dst_off)
{
    struct bench_case bc = {arena_b + 4096 + dst_off, arena_a + 4096 + src_off, n, 0, NULL};
    return bc;
}

/* Validates then measures all contenders on one case; invalid ones get gbps 0. */
void bench_run_case(const char *scenario, const struct bench_case *bc, struct stats *st)
{
    struct contender ok[MAX_CONTENDERS];
    size_t map[MAX_CONTENDERS], k = 0;
    for (size_t j = 0; j < fcbench_ncontenders; j++) {
        memset(&st[j], 0, sizeof st[j]);
        if (bench_validate(&fcbench_contenders[j], bc)) {
            map[k] = j;
            ok[k++] = fcbench_contenders[j];
        }
    }
    struct stats tmp[MAX_CONTENDERS];
    if (!k) return;
    bench_measure(&opts, ok, k, bc, tmp);
    for (size_t i = 0; i < k; i++) {
        st[map[i]] = tmp[i];
        bench_record(scenario, &ok[i], bc, &tmp[i]);
    }
}

static void header(FILE *out, const char *first)
{
    fprintf(out, "%-10s", first);
    for (size_t j = 0; j < fcbench_ncontenders; j++) fprintf(out, " %18.18s", fcbench_contenders[j].name);
    fputc('\n', out);
}

/* A progress line on stderr, only on a terminal and at most 5 times a second. */
void progress(const char *what, size_t i, size_t total)
{
    static int tty = -1;
    static time_t last;
    static long last_ms;
    if (tty < 0) tty = isatty(2);
    if (!tty) return;
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    long ms = (long)(t.tv_nsec / 1000000);
    if (i + 1 < total && t.tv_sec == last && ms - last_ms < 200) return;
    last = t.tv_sec;
    last_ms = ms;
    fprintf(stderr, "\r\033[K[fcbench] %s %zu/%zu", what, i + 1, total);
    if (i + 1 == total) fputs("\r\033[K", stderr);
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

static void scenario_sizes(void)
{
    static const struct { const char *label; size_t so, dof; } pl[] = {
        {"aligned", 0, 0}, {"src+1", 1, 0}, {"dst+1", 0, 1}};
    size_t sizes[256], ns = size_list(sizes, opts.quick ? (size_t)1 << 20 : (size_t)64 << 20);
    struct stats st[MAX_CONTENDERS];
    for (size_t p = 0; p < 3; p++) {
        printf("\n== sizes, %s (src%%64 = %zu, dst%%64 = %zu): GB/s, median [ns/call]\n", pl[p].label, pl[p].so,
               pl[p].dof);
        header(stdout, "bytes");
        for (size_t i = 0; i < ns; i++) {
            progress(pl[p].label, i, ns);
            struct bench_case bc = place(sizes[i], pl[p].so, pl[p].dof);
            bench_run_case("sizes", &bc, st);
            printf("%-10zu", sizes[i]);
            for (size_t j = 0; j < fcbench_ncontenders; j++)
                if (sizes[i] >= 1024)
                    printf(" %8.2f [%7.0f]", st[j].gbps, st[j].med_ns);
                else
                    printf(" %8.2f [%7.1f]", st[j].gbps, st[j].med_ns);
            putchar('\n');
        }
    }
}

/* ---- distance and cliffs ----------------------------------------------------- */

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

static void scenario_distance(void)
{
    size_t d[400], nd = distance_list(d);
    const size_t *sz = opts.quick ? cliff_sizes_quick : cliff_sizes_full;
    size_t nsz = opts.quick ? 2 : 6;
    struct stats st[MAX_CONTENDERS];
    for (size_t s = 0; s < nsz; s++) {
        printf("\n== distance, n = %zu: GB/s by (dst - src) mod 4096 (src page-aligned)\n", sz[s]);
        header(stdout, "dist");
        for (size_t i = 0; i < nd; i++) {
            progress("distance", i, nd);
            struct bench_case bc = place(sz[s], 0, d[i]);
            bench_run_case("distance", &bc, st);
            printf("%-10zu", d[i]);
            for (size_t j = 0; j < fcbench_ncontenders; j++) printf(" %18.2f", st[j].gbps);
            putchar('\n');
        }
    }
}

/*
 * cliffs: for each size, every contender's aligned speed, then a screening
 * pass over the distance sweep and a src_off x dst_off grid (0..63 step 1 on
 * the diagonal band and step 9 elsewhere with --quick: every pair otherwise),
 * then the worst cases per contender re-measured with full samples.
 */
struct cliff { size_t n, so, dof, dist; double ratio, gbps, base; };

static void scenario_cliffs(void)
{
    const size_t *sz = opts.quick ? cliff_sizes_quick : cliff_sizes_full;
    size_t nsz = opts.quick ? 2 : 6;
    size_t d[400], nd = distance_list(d);
    struct stats st[MAX_CONTENDERS], base[MAX_CONTENDERS];
    struct bench_opts screen = opts;
    screen.samples = 3;
    screen.min_sample_ns = opts.min_sample_ns / 4;
    printf("\n== cliffs: worst placement per contender and size, as a fraction of its own aligned speed\n");
    printf("   (screened over %zu distances and the src_off x dst_off grid, worst re-measured; flagged < 0.80)\n",
           nd);
    size_t nflag = 0;
    for (size_t s = 0; s < nsz; s++) {
        size_t n = sz[s];
        struct bench_case bc0 = place(n, 0, 0);
        bench_run_case("cliffs-aligned", &bc0, base);
        struct cliff worst[MAX_CONTENDERS];
        for (size_t j = 0; j < fcbench_ncontenders; j++) worst[j] = (struct cliff){n, 0, 0, 0, 1e9, 0, base[j].gbps};
        /* candidates: distances (src page-aligned), then offset pairs */
        size_t step = opts.quick ? 9 : 1, total = nd + 64 * ((64 + step - 1) / step);
        struct bench_opts saved = opts;
        opts = screen;
        for (size_t c = 0; c < total; c++) {
            size_t so, dof;
            if (c < nd) {
                so = 0;
                dof = d[c];
            } else {
                size_t g = c - nd, per = (64 + step - 1) / step;
                so = g / per;
                dof = (g % per) * step;
            }
            progress("cliffs screen", c, total);
            struct bench_case bc = place(n, so, dof);
            size_t before = nresults;
            bench_run_case("cliffs-screen", &bc, st);
            nresults = before; /* screening samples are not results */
            for (size_t j = 0; j < fcbench_ncontenders; j++) {
                double r = base[j].gbps > 0 ? st[j].gbps / base[j].gbps : 0;
                if (st[j].gbps > 0 && r < worst[j].ratio)
                    worst[j] = (struct cliff){n, so, dof, (dof - so) & 4095, r, st[j].gbps, base[j].gbps};
            }
        }
        opts = saved;
        /* re-measure each contender's worst case properly */
        printf("\n n = %-8zu %-20s %10s %10s %7s  worst placement\n", n, "contender", "aligned", "worst", "ratio");
        for (size_t j = 0; j < fcbench_ncontenders; j++) {
            struct bench_case bc = place(n, worst[j].so, worst[j].dof);
            struct contender one = fcbench_contenders[j];
            struct stats s1;
            if (!bench_validate(&one, &bc)) continue;
            bench_measure(&opts, &one, 1, &bc, &s1);
            bench_record("cliffs-worst", &one, &bc, &s1);
            worst[j].gbps = s1.gbps;
            worst[j].ratio = base[j].gbps > 0 ? s1.gbps / base[j].gbps : 0;
            printf("            %-20.20s %10.2f %10.2f %7.3f  src%%64=%zu dst%%64=%zu (dst-src)%%4096=%zu%s\n",
                   fcbench_contenders[j].name, base[j].gbps, s1.gbps, worst[j].ratio, worst[j].so & 63, worst[j].dof & 63, worst[j].dist,
                   worst[j].ratio < 0.8 ? "  <-- CLIFF" : "");
            if (worst[j].ratio < 0.8) nflag++;
        }
    }
    printf("\n%zu contender/size pairs fall below 0.80 of their own aligned speed\n", nflag);
}

/* ---- large: the seed patch's 400 MB lines --------------------------------------- */

static void scenario_large(void)
{
    size_t n = (size_t)(opts.quick ? 16 : 400) << 20;
    unsigned char *a = bench_alloc(n + 3 * 4096), *b = bench_alloc(n + 3 * 4096);
    struct stats st[MAX_CONTENDERS];
    struct bench_opts one = opts;
    one.samples = opts.quick ? 3 : 5; /* a 400 MiB copy is its own long sample */
    printf("\n== large: one copy of %zu MiB, median of %u (MiB/s; MBytes = MiB)\n", n >> 20, one.samples);
    for (int unaligned = 0; unaligned < 2; unaligned++) {
        struct bench_case bc = {b + 4096, a + 4096 + (size_t)unaligned, n, 0, NULL};
        struct bench_opts saved = opts;
        opts = one;
        bench_run_case("large", &bc, st);
        opts = saved;
        for (size_t j = 0; j < fcbench_ncontenders; j++)
            if (st[j].med_ns > 0)
                printf("%s memcpy: %s copy of %zu MBytes in %.0f msecs (%.0f MB/s)\n", fcbench_contenders[j].name,
                       unaligned ? "unaligned" : "aligned", n >> 20, st[j].med_ns / 1e6,
                       (double)(n >> 20) / (st[j].med_ns / 1e9));
    }
    munmap(a, n + 3 * 4096);
    munmap(b, n + 3 * 4096);
}

/* ---- offsets: the uaccess thread's per-offset table -------------------------------- */

static void scenario_offsets(void)
{
    static const size_t base[] = {8192, 16384, 32768};
    struct stats st[MAX_CONTENDERS];
    printf("\n== offsets: test 1 = read (src at offset), test 2 = write (dst at offset); copier = contender\n");
    printf("   took = time of 10000 copies at the median rate; MiB/sec = size / median time\n");
    for (size_t j = 0; j < fcbench_ncontenders; j++) printf("   copier %zu: %s\n", j + 1, fcbench_contenders[j].name);
    for (int test = 1; test <= 2; test++)
        for (size_t b = 0; b < 3; b++)
            for (size_t off = 0; off < 8; off++) {
                size_t n = base[b] - off;
                struct bench_case bc = test == 1 ? place(n, off, 0) : place(n, 0, off);
                progress("offsets", (size_t)(test - 1) * 24 + b * 8 + off, 48);
                bench_run_case(test == 1 ? "offsets-read" : "offsets-write", &bc, st);
                for (size_t j = 0; j < fcbench_ncontenders; j++)
                    if (st[j].med_ns > 0)
                        printf("test %d: copier %zu: offset %zu, size %zu: took %f ms, %f MiB/sec\n", test, j + 1,
                               off, n, st[j].med_ns * 10000 / 1e6, (double)n / 1048576.0 / (st[j].med_ns / 1e9));
            }
}

/* ---- JSON --------------------------------------------------------------------- */

static void write_json(const char *path, const char *scenario)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        exit(1);
    }
    fprintf(f, "{\n  \"schema\": \"fcbench-1\",\n  \"scenario\": ");
    json_str(f, scenario);
    fprintf(f, ",\n  \"machine\": {\n");
    machine_describe(f, "    ");
    fprintf(f, "\n  },\n  \"method\": {\"samples\": %u, \"min_sample_ns\": %.0f, \"statistic\": \"median\", "
               "\"spread\": \"iqr\", \"bytes\": \"copied, counted once\", \"cache\": \"hot\"},\n",
            opts.samples, opts.min_sample_ns);
    fprintf(f, "  \"results\": [\n");
    for (size_t i = 0; i < nresults; i++) {
        const struct result *r = &results[i];
        fprintf(f, "    {\"scenario\": \"%s\", \"contender\": ", r->scenario);
        json_str(f, r->contender);
        fprintf(f, ", \"label\": ");
        json_str(f, r->label);
        fprintf(f, ", \"n\": %zu, \"src_off\": %zu, \"dst_off\": %zu, \"dist\": %zu, \"med_ns\": %.3f, "
                   "\"q1_ns\": %.3f, \"q3_ns\": %.3f, \"gbps\": %.4f, \"samples\": %u, \"iters\": %llu}%s\n",
                r->n, r->src_off, r->dst_off, r->dist, r->st.med_ns, r->st.q1_ns, r->st.q3_ns, r->st.gbps,
                r->st.samples, (unsigned long long)r->st.iters, i + 1 < nresults ? "," : "");
    }
    fprintf(f, "  ]\n}\n");
    fclose(f);
}

static void scenario_dist_arenas(void) { scenario_dist(arena_b + 4096, arena_a + 4096); }

/* Every scenario, in the order `all` runs them (the cliff summary first). */
static const struct {
    const char *name;
    void (*run)(void);
} scenarios[] = {{"cliffs", scenario_cliffs}, {"sizes", scenario_sizes},     {"distance", scenario_distance},
                 {"large", scenario_large},   {"offsets", scenario_offsets}, {"uaccess", scenario_uaccess},
                 {"dist", scenario_dist_arenas}};

static int usage(void)
{
    fputs("usage: fcbench list|sizes|distance|cliffs|large|offsets|uaccess|dist|all [--impl a,b,...] [--quick] [--json FILE]\n",
          stderr);
    return 2;
}

int main(int argc, char **argv)
{
    if (argc < 2) return usage();
    const char *cmd = argv[1], *impl = NULL, *json = NULL;
    int quick = 0;
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--quick"))
            quick = 1;
        else if (!strcmp(argv[i], "--impl") && i + 1 < argc)
            impl = argv[++i];
        else if (!strcmp(argv[i], "--json") && i + 1 < argc)
            json = argv[++i];
        else
            return usage();
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    fcbench_ncontenders = contenders_collect(impl, fcbench_contenders, MAX_CONTENDERS);
    if (!fcbench_ncontenders) {
        fprintf(stderr, "fcbench: no contender matches --impl %s\n", impl);
        return 2;
    }
    bench_opts_init(&opts, quick);
    char pin[64];
    pin_to_one_cpu(pin, sizeof pin);
    machine_print(stdout);
    printf("# method: %s; %u samples of >= %.0f us, contenders interleaved; median; hot buffers\n", pin,
           opts.samples, opts.min_sample_ns / 1e3);
    if (!strcmp(cmd, "list")) {
        for (size_t j = 0; j < fcbench_ncontenders; j++) printf("%s\n", fcbench_contenders[j].name);
        return 0;
    }
    arena_len = ((size_t)64 << 20) + 3 * 4096;
    arena_a = bench_alloc(arena_len);
    arena_b = bench_alloc(arena_len);
    size_t ns = sizeof scenarios / sizeof scenarios[0], found = 0;
    for (size_t i = 0; i < ns; i++)
        if (!strcmp(cmd, "all") || !strcmp(cmd, scenarios[i].name)) {
            scenarios[i].run();
            found = 1;
        }
    if (!found) return usage();
    if (json) write_json(json, cmd);
    return 0;
}
