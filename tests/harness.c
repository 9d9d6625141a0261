#include "harness.h"

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

volatile struct current_case cur;

size_t page_size(void)
{
    static size_t ps;
    if (!ps) ps = (size_t)sysconf(_SC_PAGESIZE);
    return ps;
}

/* name is an item of the comma-separated list (NULL: empty list) */
static int name_in_list(const char *name, const char *list)
{
    size_t len = strlen(name);
    for (const char *p = list; p && *p;) {
        const char *e = strchr(p, ',');
        size_t l = e ? (size_t)(e - p) : strlen(p);
        if (l == len && strncmp(p, name, len) == 0) return 1;
        p = e ? e + 1 : p + l;
    }
    return 0;
}

int fc_test_xinuse;

int upper_state_checks_init(void)
{
#if defined(__x86_64__)
    unsigned a, b, c, d;
    __asm__("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(0), "c"(0));
    if (a < 0xd) return fc_test_xinuse = 0;
    __asm__("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(1), "c"(0));
    int osxsave_avx = (c >> 27 & 1) && (c >> 28 & 1);
    __asm__("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(0xd), "c"(1));
    fc_test_xinuse = osxsave_avx && (a >> 2 & 1) && !getenv("FASTCOPY_TEST_NO_XINUSE");
#endif
    return fc_test_xinuse;
}

void *call_under_test_checked(const struct fn_under_test *f, void *dst, const void *src, size_t n)
{
#if defined(__x86_64__)
    unsigned lo, hi;
    __asm__ volatile("vzeroupper" ::: "memory");
    void *ret = f->fn(dst, src, n);
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(1));
    if (lo & 0x44)
        fail("%s returned with the upper vector state dirty (XINUSE = 0x%x: %s%s): a vzeroupper is missing",
             f->label, lo, lo & 4 ? "ymm0-15 upper halves" : "", lo & 0x40 ? " zmm0-15 upper 256 bits" : "");
    (void)hi;
    return ret;
#else
    return f->fn(dst, src, n);
#endif
}

size_t collect_functions(int argc, char **argv, struct fn_under_test *out, size_t max)
{
#if defined(__x86_64__)
    printf("upper vector state after every call: %s\n",
           upper_state_checks_init() ? "checked (XINUSE)" : "not checked (no XGETBV with ECX = 1)");
#endif
    const char *only = NULL;
    unsigned shard = 0, shards = 1;
    for (int i = 1; i + 1 < argc; i++) {
        if (strcmp(argv[i], "--impl") == 0) only = argv[i + 1];
        if (strcmp(argv[i], "--shard") == 0 && (sscanf(argv[i + 1], "%u/%u", &shard, &shards) != 2 || shard >= shards))
            fail("--shard wants K/N with K < N");
    }
    /* FASTCOPY_TEST_UNAVAILABLE=name,name: also test these entries although
     * this CPU's probe says no - for emulators that can run them (qemu-riscv64
     * runs rv64-misaligned-fast, whose probe needs hwprobe, absent in qemu 7.2). */
    const char *extra = getenv("FASTCOPY_TEST_UNAVAILABLE");
    /* FASTCOPY_TEST_SKIP=name,name: leave these entries out (the emulated
     * targets skip portable baselines that the native suites already run) */
    const char *skip = getenv("FASTCOPY_TEST_SKIP");
    size_t k = 0;
    for (size_t i = 0; i < fc_impl_count(); i++) {
        const struct fc_impl *im = fc_impl_at(i);
        if (only && strcmp(only, im->name) != 0) continue;
        if (!only && name_in_list(im->name, skip)) continue;
        if (!im->available && !name_in_list(im->name, extra)) continue;
        if (k + 2 > max) break;
        snprintf(out[k].label, sizeof out[k].label, "%s.memcpy", im->name);
        out[k].fn = (copy_fn)im->memcpy;
        out[k++].is_memmove = 0;
        snprintf(out[k].label, sizeof out[k].label, "%s.memmove", im->name);
        out[k].fn = im->memmove;
        out[k++].is_memmove = 1;
    }
    if ((!only || strcmp(only, "fc") == 0) && k + 2 <= max) {
        snprintf(out[k].label, sizeof out[k].label, "fc_memcpy[%s]", fc_active());
        out[k].fn = (copy_fn)fc_memcpy;
        out[k++].is_memmove = 0;
        snprintf(out[k].label, sizeof out[k].label, "fc_memmove[%s]", fc_active());
        out[k].fn = fc_memmove;
        out[k++].is_memmove = 1;
    }
    if (!k && only && fc_impl_find(only)) {
        /* a registry entry this CPU cannot run (avx512 on a CPU without it): ctest's SKIP_RETURN_CODE */
        printf("skipped: %s is not available on this CPU\n", only);
        exit(77);
    }
    if (!k) fail("no function matches --impl %s", only ? only : "(any)");
    /* --shard K/N keeps every N-th implementation starting at K, its memcpy and
     * its memmove (they come in pairs): ctest runs shards in parallel, and a
     * memmove-only suite (overlap) gets work in every shard. */
    size_t kept = 0;
    for (size_t i = 0; i < k; i++)
        if ((i / 2) % shards == shard) out[kept++] = out[i];
    return kept;
}

struct arena arena_new(size_t min_len)
{
    size_t ps = page_size(), len = (min_len + ps - 1) / ps * ps;
    unsigned char *m = mmap(NULL, len + 2 * ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) fail("mmap %zu bytes failed", len + 2 * ps);
    if (mprotect(m, ps, PROT_NONE) || mprotect(m + ps + len, ps, PROT_NONE)) fail("mprotect failed");
    struct arena a = {m + ps, m + ps + len, len};
    return a;
}

void arena_free(struct arena *a)
{
    size_t ps = page_size();
    munmap(a->lo - ps, a->len + 2 * ps);
    a->lo = a->hi = NULL;
}

/* async-signal-safe formatting for the crash report */
static void put(const char *s) { (void)!write(2, s, strlen(s)); }
static void put_num(long long v)
{
    char b[24];
    int i = sizeof b;
    unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
    b[--i] = 0;
    do b[--i] = (char)('0' + u % 10); while ((u /= 10) && i > 1);
    if (v < 0) b[--i] = '-';
    put(b + i);
}

static void describe_case(void)
{
    put(" [suite ");
    put(cur.suite ? cur.suite : "?");
    put(", fn ");
    put(cur.fn ? cur.fn : "?");
    put(", placement ");
    put(cur.placement ? cur.placement : "?");
    put(", n ");
    put_num(cur.n);
    put(", src_off ");
    put_num(cur.src_off);
    put(", dst_off ");
    put_num(cur.dst_off);
    put(", dist ");
    put_num(cur.dist);
    if (cur.seed) {
        put(", seed ");
        put_num((long long)cur.seed);
        put(", case ");
        put_num((long long)cur.index);
    }
    put("]\n");
}

static void on_fault(int sig)
{
    put(sig == SIGSEGV ? "FAIL: SIGSEGV (access outside the buffers: guard page hit)"
                       : "FAIL: fatal signal during a copy");
    describe_case();
    _exit(1);
}

void install_crash_handler(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_fault;
    sigaction(SIGSEGV, &sa, NULL);
    sigaction(SIGBUS, &sa, NULL);
    sigaction(SIGILL, &sa, NULL);
    setvbuf(stdout, NULL, _IOLBF, 0);
}

void fail(const char *fmt, ...)
{
    va_list ap;
    fflush(stdout);
    fputs("FAIL: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fflush(stderr);
    describe_case();
    exit(1);
}

static uint64_t splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

void rng_seed(struct rng *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++) r->s[i] = splitmix(&seed);
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t rng_next(struct rng *r)
{
    uint64_t *s = r->s, res = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return res;
}

void rng_fill(struct rng *r, unsigned char *p, size_t n)
{
    while (n >= 8) {
        uint64_t v = rng_next(r);
        memcpy(p, &v, 8);
        p += 8;
        n -= 8;
    }
    if (n) {
        uint64_t v = rng_next(r);
        memcpy(p, &v, n);
    }
}

size_t first_diff(const unsigned char *a, const unsigned char *b, size_t n)
{
    if (memcmp(a, b, n) == 0) return (size_t)-1;
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i]) return i;
    return (size_t)-1;
}

static void group(char *out, unsigned long long v)
{
    char tmp[32];
    int n = snprintf(tmp, sizeof tmp, "%llu", v), j = 0;
    for (int i = 0; i < n; i++) {
        if (i && (n - i) % 3 == 0) out[j++] = ',';
        out[j++] = tmp[i];
    }
    out[j] = 0;
}

void print_count(const char *suite, const char *what, unsigned long long cases)
{
    char b[40];
    group(b, cases);
    printf("%-8s %-28s %14s cases ok\n", suite, what, b);
}
