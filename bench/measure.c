/* The measurement engine: calibration, interleaved samples, statistics, validation. */
#include "bench.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

/* 11 samples (5 quick), each at least 1000 timer resolutions and a fixed
 * floor long: the timer's error stays negligible, the median stable (D31) */
void bench_opts_init(struct bench_opts *o, int quick)
{
    double res = timer_resolution_ns();
    o->quick = quick;
    o->samples = quick ? 5 : 11;
    o->min_sample_ns = 1000.0 * res;
    if (o->min_sample_ns < (quick ? 20e3 : 100e3)) o->min_sample_ns = quick ? 20e3 : 100e3;
}

void pin_to_one_cpu(char *desc, size_t size)
{
    int cpu = sched_getcpu();
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu < 0 ? 0 : cpu, &set);
    if (sched_setaffinity(0, sizeof set, &set) == 0)
        snprintf(desc, size, "pinned to cpu %d", cpu < 0 ? 0 : cpu);
    else
        snprintf(desc, size, "not pinned");
}

/*
 * The two hot arenas (src: a, dst: b), and the two cold regions of --cold
 * (a second reservation), at a fixed relation of their virtual
 * addresses: b = a + 2^28 + 2^20, a aligned to 2^29.  AMD's L1D predicts its
 * way from a hash of linear-address bits 12-27 (the "utag": bits 12^27, 13^26,
 * 14^25, 15^20, 16^21, 17^22, 18^23, 19^24, as published for Zen and Zen 2 in
 * "Take A Way", Lipp et al. 2020), and two lines of one set with the same utag
 * cannot both stay in it.  A src page and a dst page with the same utag and
 * overlapping page offsets then evict each other on every access, for glibc
 * and fastcopy alike, so with separate mmaps ASLR decided per process whether
 * a placement looked like a cliff (D32).  Here, for the first 1 MiB of the
 * arenas (the cliffs, distance and small-size placements), page i of a and
 * pages i and i + 1 of b differ in bit 20 (page i) or in bit 12 alone among
 * 12..27 (pages i, i + 1), so their utags always differ by the published
 * hash; bits 28 and up are outside it.  On Zen 4 the hash held for the bits
 * tested, not for every pair (D32).  Falls back to two ordinary mappings if
 * the reservation fails.
 */
#define ARENA_ALIGN ((size_t)1 << 29)
#define ARENA_B_OFF (((size_t)1 << 28) + ((size_t)1 << 20))
int bench_alloc_arenas(unsigned char **a, unsigned char **b, size_t bytes)
{
    size_t span = ARENA_ALIGN + ARENA_B_OFF + bytes;
    void *r = bytes < ((size_t)1 << 28) - ((size_t)1 << 20)
                  ? mmap(NULL, span, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0)
                  : MAP_FAILED;
    if (r == MAP_FAILED) {
        *a = bench_alloc(bytes);
        *b = bench_alloc(bytes);
        return 0;
    }
    uintptr_t base = ((uintptr_t)r + ARENA_ALIGN - 1) & ~(uintptr_t)(ARENA_ALIGN - 1);
    unsigned char *pa = (unsigned char *)base, *pb = pa + ARENA_B_OFF;
    if (mmap(pa, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED ||
        mmap(pb, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED) {
        perror("fcbench: mmap");
        exit(1);
    }
    memset(pa, 0x5a, bytes); /* fault every page in before anything is timed */
    memset(pb, 0x5a, bytes);
    *a = pa;
    *b = pb;
    return 1;
}

unsigned char *bench_alloc(size_t bytes)
{
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        perror("fcbench: mmap");
        exit(1);
    }
    memset(p, 0x5a, bytes); /* fault every page in before anything is timed */
    return p;
}

/* Next slot of a cold rotation: a full cycle over 0..slots-1 with a stride
 * coprime to slots and far from 1, so no prefetcher learns the next buffer. */
static size_t slot_step(size_t slots)
{
    if (slots < 3) return 1;
    size_t step = slots * 5 / 8 + 1;
    for (;; step++) {
        size_t a = step, b = slots;
        while (b) {
            size_t t = a % b;
            a = b;
            b = t;
        }
        if (a == 1) return step;
    }
}

/* Cold: where a sample's walk over the slots begins - a new random slot each
 * call: with every walk from slot 0, when a sample was a call or a few (cold
 * copies of megabytes), every contender after the first in a round, and every
 * sample after the first, copied slots that the ones before had just brought
 * into the L3 (D30). */
static size_t cold_start(size_t slots)
{
    static uint64_t x = 0x853c49e6748fea9bull;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return (size_t)(x % slots);
}

/* The timed loop. It is instantiated once per contender slot (run_slot[j] below)
 * so that every contender is called from its own indirect call site: with one
 * shared site the call is polymorphic, and on Zen 3 some contenders then paid
 * a few cycles per call at small sizes, which ones depending only on how many
 * contenders ran and in which order (D43). The asm marker keeps the compiler from
 * folding the identical copies back into one; each copy is aligned to 64
 * bytes so that every slot sees the same code layout. */
static inline __attribute__((always_inline)) double run_calls(copy_fn f, const struct bench_case *bc, uint64_t iters)
{
    unsigned char *d = bc->dst;
    const unsigned char *s = bc->src;
    size_t n = bc->n;
    const struct bench_batch *b = bc->batch;
    size_t slots = bc->slots, stride = bc->stride, step = slot_step(slots), slot = slots ? cold_start(slots) : 0;
    double t0 = now_ns();
    if (b)
        for (uint64_t i = 0; i < iters; i++)
            for (size_t k = 0; k < b->len; k++) {
                size_t o = slot * stride; /* cold: every call elsewhere */
                f(d + o + b->doff[k], s + o + b->soff[k], b->n[k]);
                __asm__ volatile("" ::: "memory");
                if (slots && (slot += step) >= slots) slot -= slots;
            }
    else if (slots)
        for (uint64_t i = 0; i < iters; i++) {
            f(d + slot * stride, s + slot * stride, n);
            __asm__ volatile("" ::: "memory");
            if ((slot += step) >= slots) slot -= slots;
        }
    else
        for (uint64_t i = 0; i < iters; i++) {
            f(d, s, n);
            __asm__ volatile("" ::: "memory"); /* each copy is observable */
        }
    return now_ns() - t0;
}

typedef double (*run_fn)(copy_fn f, const struct bench_case *bc, uint64_t iters);
#define RUN_CALLS(K)                                                                                                 \
    __attribute__((noinline, aligned(64))) static double run_calls_##K(copy_fn f, const struct bench_case *bc,      \
                                                                       uint64_t iters)                               \
    {                                                                                                                \
        __asm__ volatile("# fcbench run slot " #K);                                                                 \
        return run_calls(f, bc, iters);                                                                              \
    }
#define RUN_CALLS_8(K) RUN_CALLS(K##0) RUN_CALLS(K##1) RUN_CALLS(K##2) RUN_CALLS(K##3) RUN_CALLS(K##4) \
    RUN_CALLS(K##5) RUN_CALLS(K##6) RUN_CALLS(K##7)
RUN_CALLS_8(0)
RUN_CALLS_8(1)
RUN_CALLS_8(2)
RUN_CALLS_8(3)
#define RUN_SLOTS_8(K) run_calls_##K##0, run_calls_##K##1, run_calls_##K##2, run_calls_##K##3, run_calls_##K##4, \
    run_calls_##K##5, run_calls_##K##6, run_calls_##K##7
static const run_fn run_slot[] = {RUN_SLOTS_8(0), RUN_SLOTS_8(1), RUN_SLOTS_8(2), RUN_SLOTS_8(3)};
_Static_assert(sizeof run_slot / sizeof run_slot[0] == MAX_CONTENDERS, "one timed loop per contender slot");

/* The function to time, after the contender's enter hook (every timed,
 * calibrating, refilling and validating run picks its function here first). */
static copy_fn pick(const struct contender *c, const struct bench_case *bc)
{
    if (c->enter) c->enter(c->ctx);
    return bc->use_memmove ? c->memmove_fn : c->memcpy_fn;
}

/* ---- the order within a round, and the call before a sample -------------------
 * Every round runs the contenders in a new random order (D30): a fixed
 * rotation kept every contender's predecessor, and where a copy's footprint
 * fills a cache, a contender inherits the state its predecessor leaves (rep
 * movsb on Zen 4 leaves less of a 512 KiB copy in the L2 than a vector loop
 * does).  A random order spreads the predecessors over all contenders, and a
 * hot sample of fewer than WARM_BELOW calls starts with one untimed call of
 * its own, so it is timed from the state its own copy leaves - what "hot"
 * means - where src + dst
 * fit the last-level cache (beyond it the call would warm nothing and only
 * double the time).  Not for cold cases (each call elsewhere by design) nor
 * batches (65536 calls a pass). */
#define WARM_BELOW 256

/* The orders come from a generator seeded once per process: from
 * FCBENCH_SEED where set (to repeat a run's orders), else from the clock and
 * the pid (D30).  A constant seed drew the same sequence of orders in every
 * run, so a predecessor effect repeated from run to run instead of varying.
 * It is printed in the JSON's method block and the tables' header; FCBENCH_SEED
 * (decimal, 1..2^53-1) repeats the orders of the same command on the same
 * build. */
static uint64_t ord_rng, ord_seed;

uint64_t bench_order_seed(void)
{
    if (!ord_seed) {
        const char *e = getenv("FCBENCH_SEED");
        char *end = NULL;
        uint64_t z = e && *e >= '0' && *e <= '9' ? strtoull(e, &end, 10) : 0;
        if (e && *e && (!end || *end || z == 0 || z >= 1ull << 53)) {
            fprintf(stderr, "fcbench: FCBENCH_SEED=%s is not a seed (a decimal number, 1..2^53-1): ignored\n", e);
            z = 0;
        }
        if (!z) {
            struct timespec t;
            clock_gettime(CLOCK_REALTIME, &t);
            z = ((uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec) ^ ((uint64_t)getpid() << 32);
            z &= (1ull << 53) - 1; /* exact in a JSON reader's double */
        }
        ord_seed = z ? z : 1;
        z = ord_seed + 0x9e3779b97f4a7c15ull; /* splitmix64: any seed, a well-mixed nonzero state */
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        z ^= z >> 31;
        ord_rng = z ? z : 0x2545f4914f6cdd1dull;
    }
    return ord_seed;
}

void bench_round_order(size_t *ord, size_t k)
{
    bench_order_seed();
    for (size_t i = 0; i < k; i++) ord[i] = i;
    for (size_t i = k; i > 1; i--) {
        ord_rng ^= ord_rng << 13;
        ord_rng ^= ord_rng >> 7;
        ord_rng ^= ord_rng << 17;
        size_t j = (size_t)(ord_rng % i), t = ord[i - 1];
        ord[i - 1] = ord[j];
        ord[j] = t;
    }
}

static int warms(const struct bench_case *bc)
{
    static long llc = -1;
    if (llc < 0) {
        llc = machine_cache_bytes(3);
        if (!llc) llc = machine_cache_bytes(2);
    }
    return !bc->slots && !bc->batch && (!llc || 2 * bc->n <= (size_t)llc);
}

static double timed(run_fn run, copy_fn f, const struct bench_case *bc, uint64_t it)
{
    if (it < WARM_BELOW && warms(bc)) run(f, bc, 1);
    return run(f, bc, it);
}

/* ---- physical page redraws ------------------------------------------------------
 * A hot copy's speed can depend on the physical pages behind its virtual
 * placement, which a process gets once, and for the whole life of the
 * process; with one draw per process a run's worst placement was a draw of
 * the pages (D33).  So before every sample round the pages the round's hot
 * cases touch in the arenas (up to redraw bytes of each) are given new
 * physical pages: MADV_DONTNEED, then a random number (0..63) of decoy
 * pages faulted in first, so the arenas' pages come from further down the
 * kernel's free lists than the ones just freed, then the pages rewritten in a
 * random order (with the arenas' fill byte).  A sample is then one page draw,
 * and the median over a case's samples is the median over draws; `fcbench
 * --same-pages` keeps the process's first draw throughout (the former
 * behaviour).  Not for the cold regions, whose rotation already spreads every
 * case over many pages. */
static unsigned char *rd_a, *rd_b, *rd_decoy;
static size_t rd_bytes, rd_pages; /* rd_pages: pages redrawn so far */
static uint64_t rd_rng = 0x9e3779b97f4a7c15ull;
#define RD_DECOYS 64

static uint64_t rd_next(void)
{
    rd_rng ^= rd_rng << 13;
    rd_rng ^= rd_rng >> 7;
    rd_rng ^= rd_rng << 17;
    return rd_rng;
}

void bench_redraw_setup(unsigned char *a, unsigned char *b, size_t bytes)
{
    rd_a = a;
    rd_b = b;
    rd_bytes = bytes & ~(size_t)4095;
    if (!rd_decoy) {
        void *p = mmap(NULL, RD_DECOYS * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) {
            rd_bytes = 0; /* no redraws: the first draw stays */
            return;
        }
        rd_decoy = p;
    }
}

size_t bench_redraw_bytes(void) { return rd_decoy ? rd_bytes : 0; }
size_t bench_redrawn_pages(void) { return rd_pages; }

/* Widen [*lo, *hi) (offsets into the arena at base) by [p, p + len) where it lies in the first rd_bytes. */
static void rd_span(const unsigned char *base, const unsigned char *p, size_t len, size_t *lo, size_t *hi)
{
    if (!base || p < base || p >= base + rd_bytes) return;
    size_t a = (size_t)(p - base), e = len < rd_bytes - a ? a + len : rd_bytes;
    if (a < *lo) *lo = a;
    if (e > *hi) *hi = e;
}

static void rd_case(const struct bench_case *bc, size_t lo[2], size_t hi[2])
{
    if (bc->slots) return; /* cold: its own rotation */
    size_t sl = bc->n, dl = bc->n;
    if (bc->batch) {
        sl = dl = 0;
        for (size_t k = 0; k < bc->batch->len; k++) {
            if (bc->batch->soff[k] + (size_t)bc->batch->n[k] > sl) sl = bc->batch->soff[k] + (size_t)bc->batch->n[k];
            if (bc->batch->doff[k] + (size_t)bc->batch->n[k] > dl) dl = bc->batch->doff[k] + (size_t)bc->batch->n[k];
        }
    }
    const unsigned char *ptr[2] = {bc->src, bc->dst};
    size_t len[2] = {sl ? sl : 1, dl ? dl : 1};
    for (int i = 0; i < 2; i++) {
        rd_span(rd_a, ptr[i], len[i], &lo[0], &hi[0]);
        rd_span(rd_b, ptr[i], len[i], &lo[1], &hi[1]);
    }
}

/* New physical pages under every arena page that the cases (those with take[i], or all when take is NULL) touch. */
static void redraw(const struct bench_case *bc, size_t ncases, const unsigned char *take)
{
    if (!rd_decoy || !rd_bytes) return;
    size_t lo[2] = {SIZE_MAX, SIZE_MAX}, hi[2] = {0, 0};
    for (size_t i = 0; i < ncases; i++)
        if (!take || take[i]) rd_case(&bc[i], lo, hi);
    unsigned char *base[2] = {rd_a, rd_b};
    static uint32_t *order;
    static size_t cap;
    size_t np = 0, first[2], pages[2];
    for (int a = 0; a < 2; a++) {
        first[a] = pages[a] = 0;
        if (hi[a] <= lo[a]) continue;
        first[a] = lo[a] & ~(size_t)4095;
        pages[a] = (((hi[a] + 4095) & ~(size_t)4095) - first[a]) / 4096;
        madvise(base[a] + first[a], pages[a] * 4096, MADV_DONTNEED);
        np += pages[a];
    }
    if (!np) return;
    if (np > cap) {
        free(order);
        cap = np;
        order = malloc(cap * sizeof *order);
        if (!order) {
            perror("fcbench");
            exit(1);
        }
    }
    for (size_t i = 0; i < np; i++) order[i] = (uint32_t)i;
    for (size_t i = np - 1; i > 0; i--) {
        size_t j = (size_t)(rd_next() % (i + 1));
        uint32_t t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    size_t decoys = (size_t)(rd_next() % RD_DECOYS);
    for (size_t i = 0; i < decoys; i++) ((volatile unsigned char *)rd_decoy)[i * 4096] = 1;
    for (size_t i = 0; i < np; i++) {
        size_t k = order[i];
        unsigned char *pg = k < pages[0] ? base[0] + first[0] + k * 4096 : base[1] + first[1] + (k - pages[0]) * 4096;
        memset(pg, 0x5a, 4096);
    }
    if (decoys) madvise(rd_decoy, RD_DECOYS * 4096, MADV_DONTNEED);
    rd_pages += np;
}

static uint64_t calibrate(const struct bench_opts *o, run_fn run, copy_fn f, const struct bench_case *bc)
{
    uint64_t iters = 1;
    run(f, bc, 4); /* warm caches and predictors */
    for (;;) {
        double t = run(f, bc, iters);
        if (t >= o->min_sample_ns) return iters;
        double scale = t > 0 ? 1.3 * o->min_sample_ns / t : 16;
        if (scale > 16) scale = 16;
        if (scale < 2) scale = 2;
        iters = (uint64_t)((double)iters * scale);
    }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Quantile by linear interpolation on sorted data. */
static double quantile(const double *v, unsigned n, double q)
{
    double pos = q * (n - 1);
    unsigned i = (unsigned)pos;
    double frac = pos - i;
    return i + 1 < n ? v[i] + frac * (v[i + 1] - v[i]) : v[i];
}

void stats_from_samples(struct stats *st, const double *ns, unsigned k, double bytes_per_call)
{
    double v[MAX_SAMPLES];
    if (k > MAX_SAMPLES) k = MAX_SAMPLES;
    for (unsigned i = 0; i < k; i++) v[i] = st->sample_ns[i] = ns[i];
    qsort(v, k, sizeof *v, cmp_double);
    st->med_ns = quantile(v, k, 0.5);
    st->q1_ns = quantile(v, k, 0.25);
    st->q3_ns = quantile(v, k, 0.75);
    st->gbps = st->med_ns > 0 ? bytes_per_call / st->med_ns : 0;
    st->samples = k;
}

void bench_measure(const struct bench_opts *o, const struct contender *c, size_t k, const struct bench_case *bc,
                   struct stats *st)
{
    uint64_t iters[MAX_CONTENDERS];
    double calls = bc->batch ? (double)bc->batch->len : 1.0;
    double bytes = bc->batch ? bc->batch->bytes / calls : (double)bc->n; /* per call */
    unsigned ns = o->samples < MAX_SAMPLES ? o->samples : MAX_SAMPLES;
    double t[MAX_CONTENDERS][MAX_SAMPLES];
    for (size_t j = 0; j < k; j++) iters[j] = calibrate(o, run_slot[j], pick(&c[j], bc), bc);
    for (unsigned s = 0; s < ns; s++) {
        if (!o->same_pages && bench_redraw_bytes() && !bc->slots) {
            redraw(bc, 1, NULL);
            run_slot[0](pick(&c[0], bc), bc, 1); /* refill caches and TLB, untimed */
        }
        size_t ord[MAX_CONTENDERS];
        bench_round_order(ord, k);
        for (size_t r = 0; r < k; r++) {
            size_t j = ord[r];
            t[j][s] = timed(run_slot[j], pick(&c[j], bc), bc, iters[j]) / (double)iters[j] / calls;
        }
    }
    for (size_t j = 0; j < k; j++) {
        stats_from_samples(&st[j], t[j], ns, bytes);
        st[j].iters = iters[j];
    }
}

void bench_measure_many(const struct bench_opts *o, const struct contender *c, size_t k, const struct bench_case *bc,
                        size_t ncases, const unsigned char *valid, struct stats *st,
                        void (*progress_cb)(size_t done, size_t total))
{
    unsigned ns = 0, *nsi = calloc(ncases + 1, sizeof *nsi); /* ns: the most samples of any case */
    size_t total = ncases, done = 0;
    if (!nsi) {
        perror("fcbench");
        exit(1);
    }
    for (size_t i = 0; i < ncases; i++) {
        unsigned want = bc[i].samples ? bc[i].samples : o->samples;
        nsi[i] = want < MAX_SAMPLES ? want : MAX_SAMPLES;
        if (nsi[i] > ns) ns = nsi[i];
        total += nsi[i];
    }
    uint64_t *iters = calloc(ncases * k, sizeof *iters);
    double *t = calloc(ncases * k * ns + 1, sizeof *t);
    if (!iters || !t) {
        perror("fcbench");
        exit(1);
    }
    for (size_t i = 0; i < ncases; i++, done++) {
        if (progress_cb) progress_cb(done, total);
        for (size_t j = 0; j < k; j++)
            if (valid[i * k + j]) iters[i * k + j] = calibrate(o, run_slot[j], pick(&c[j], &bc[i]), &bc[i]);
    }
    unsigned char *take = calloc(ncases + 1, 1);
    if (!take) {
        perror("fcbench");
        exit(1);
    }
    for (unsigned s = 0; s < ns; s++) {
        /* new pages under this round's hot cases, then one untimed call of the
         * round's first case: the refill left other lines in the caches */
        size_t i0 = ncases; /* the round's first hot case */
        for (size_t i = 0; i < ncases; i++) {
            take[i] = s < nsi[i];
            if (take[i] && !bc[i].slots && i0 == ncases) i0 = i;
        }
        if (!o->same_pages) redraw(bc, ncases, take);
        for (size_t j = 0; i0 < ncases && !o->same_pages && bench_redraw_bytes() && j < k; j++) {
            if (!valid[i0 * k + j]) continue;
            run_slot[j](pick(&c[j], &bc[i0]), &bc[i0], 1);
            break;
        }
        for (size_t i = 0; i < ncases; i++) {
            if (s >= nsi[i]) continue; /* this case has all its samples */
            if (progress_cb) progress_cb(done++, total);
            double calls = bc[i].batch ? (double)bc[i].batch->len : 1.0;
            size_t ord[MAX_CONTENDERS];
            bench_round_order(ord, k);
            for (size_t r = 0; r < k; r++) {
                size_t j = ord[r];
                if (!valid[i * k + j]) continue;
                uint64_t it = iters[i * k + j];
                t[(i * k + j) * ns + s] = timed(run_slot[j], pick(&c[j], &bc[i]), &bc[i], it) / (double)it / calls;
            }
        }
    }
    free(take);
    for (size_t i = 0; i < ncases; i++) {
        double bytes = bc[i].batch ? bc[i].batch->bytes / (double)bc[i].batch->len : (double)bc[i].n;
        for (size_t j = 0; j < k; j++) {
            struct stats *x = &st[i * k + j];
            memset(x, 0, sizeof *x);
            if (!valid[i * k + j]) continue;
            stats_from_samples(x, t + (i * k + j) * ns, nsi[i], bytes);
            x->iters = iters[i * k + j];
        }
    }
    free(nsi);
    free(iters);
    free(t);
}

static int validate_one(const struct contender *c, const struct bench_case *bc);

int bench_validate(const struct contender *c, const struct bench_case *bc)
{
    if (bc->use_memmove && !c->memmove_fn) return 0; /* a peer: memcpy only, never timed on a memmove case */
    if (!bc->batch) return validate_one(c, bc);
    for (size_t k = 0; k < bc->batch->len; k++) {
        struct bench_case one = {.dst = bc->dst + bc->batch->doff[k], .src = bc->src + bc->batch->soff[k],
                                 .n = bc->batch->n[k], .use_memmove = bc->use_memmove};
        if (!validate_one(c, &one)) return 0;
    }
    return 1;
}

static int validate_one(const struct contender *c, const struct bench_case *bc)
{
    enum { SIDE = 64 };
    size_t n = bc->n;
    unsigned char *d = bc->dst;
    unsigned char *expect = malloc(n + 2 * SIDE), *before = malloc(n + 2 * SIDE);
    if (!expect || !before) exit(1);
    /* snapshot the neighbourhood, compute what a correct copy leaves there */
    memcpy(before, d - SIDE, n + 2 * SIDE);
    memcpy(expect, before, n + 2 * SIDE);
    memmove(expect + SIDE, bc->src, n);
    /* poison dst (when it does not overlap src) so a copy that writes nothing cannot pass */
    if ((uintptr_t)d + n <= (uintptr_t)bc->src || (uintptr_t)bc->src + n <= (uintptr_t)d)
        for (size_t i = 0; i < n; i++) d[i] = (unsigned char)~bc->src[i];
    void *ret = pick(c, bc)(d, bc->src, n);
    int ok = (c->ret_count ? ret == NULL : ret == d) && memcmp(d - SIDE, expect, n + 2 * SIDE) == 0;
    if (!ok)
        fprintf(stderr, "fcbench: %s gives a WRONG result for n=%zu (dst%%64=%zu, src%%64=%zu): not timed\n",
                c->name, n, (size_t)((uintptr_t)d & 63), (size_t)((uintptr_t)bc->src & 63));
    memcpy(d - SIDE, before, n + 2 * SIDE);
    free(expect);
    free(before);
    return ok;
}
