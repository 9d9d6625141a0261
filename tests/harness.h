/*
 * Shared test rig: the functions under test (every available registry entry's
 * memcpy and memmove, plus the dispatched fc_memcpy/fc_memmove), guard-paged
 * arenas, a crash handler that names the case that faulted, and a PRNG.
 */
#ifndef FC_TEST_HARNESS_H
#define FC_TEST_HARNESS_H

#define _GNU_SOURCE
#include <stddef.h>
#include <stdint.h>

#include "fastcopy.h"

typedef void *(*copy_fn)(void *, const void *, size_t);

struct fn_under_test {
    char label[64];  /* "generic.memcpy", "fc_memmove", ... */
    copy_fn fn;
    int is_memmove;
};

/* Collects the functions to test.  argv may hold "--impl NAME" (a registry
 * name, or "fc" for the dispatched pair) to restrict the list, and
 * "--shard K/N" to keep every N-th function from the K-th.  Unavailable
 * entries are skipped unless named in FASTCOPY_TEST_UNAVAILABLE (a comma
 * list), for emulators that can run them.  Returns count. */
size_t collect_functions(int argc, char **argv, struct fn_under_test *out, size_t max);

/* An arena: [lo, lo + len) readable and writable, a PROT_NONE page right
 * before lo and right after lo + len (len is a multiple of the page size). */
struct arena {
    unsigned char *lo, *hi;
    size_t len;
};
struct arena arena_new(size_t min_len);
void arena_free(struct arena *a);
size_t page_size(void);

/* What the crash handler prints if a copy faults (kept as plain fields so
 * updating it costs nothing; formatted only on a crash). */
struct current_case {
    const char *suite, *fn, *placement;
    long long n, src_off, dst_off, dist;
    uint64_t seed, index;
};
extern volatile struct current_case cur;
void install_crash_handler(void);

/* xoshiro256** seeded by splitmix64. */
struct rng { uint64_t s[4]; };
void rng_seed(struct rng *r, uint64_t seed);
uint64_t rng_next(struct rng *r);
static inline uint64_t rng_below(struct rng *r, uint64_t n) { return n ? rng_next(r) % n : 0; }
void rng_fill(struct rng *r, unsigned char *p, size_t n);

/* Fails the test: prints the message and the current case, exits 1. */
__attribute__((noreturn, format(printf, 1, 2))) void fail(const char *fmt, ...);

/* Index of the first byte where a and b differ, or (size_t)-1. */
size_t first_diff(const unsigned char *a, const unsigned char *b, size_t n);

void print_count(const char *suite, const char *what, unsigned long long cases);

/* Calls f->fn(dst, src, n).  On x86-64 CPUs that report XINUSE (XGETBV with
 * ECX = 1), it also makes the upper halves of ymm0-15 clean first (vzeroupper)
 * and fails the test when the call returns with the ymm or zmm upper state
 * dirty (XINUSE bits 2 and 6): a routine that leaves it so makes every later
 * SSE instruction of its caller pay a state transition (Intel) or a false
 * dependency.  zmm16-31 (bit 7) do not count: legacy SSE cannot reach them. */
extern int fc_test_xinuse;
void *call_under_test_checked(const struct fn_under_test *f, void *dst, const void *src, size_t n);
static inline void *call_under_test(const struct fn_under_test *f, void *dst, const void *src, size_t n)
{
    return fc_test_xinuse ? call_under_test_checked(f, dst, src, n) : f->fn(dst, src, n);
}
/* Sets fc_test_xinuse from CPUID (called by collect_functions); returns it. */
int upper_state_checks_init(void);

#endif
