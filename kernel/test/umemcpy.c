/*
 * umemcpy - the patched kernel memcpy (arch/riscv/lib/memcpy.S after the
 * series, assembled for user space with kernel/test/compat/) under
 * fastcopy's user-space checks, run by kernel/test/run.sh under qemu-riscv64:
 *
 *   umemcpy grid    every n in 0..1024 at every src and dst offset 0..15, for
 *                   both variants (key off: kmemcpy_slow, on: kmemcpy_fast),
 *                   with src and dst each placed flush against a PROT_NONE
 *                   page after them and right after one before them; 64
 *                   sentinel bytes checked on each side of dst.  Prints
 *                   "umemcpy: grid <variant> cases=<c> failures=<f>".
 *   umemcpy audit   one call per case between fc_audit_begin() and
 *                   fc_audit_end(), for scripts/rv-audit/plugin.c (instruction
 *                   and misaligned-access counts); prints the case list
 *                   "case <variant> <n> <src_off> <dst_off>" in call order.
 *
 * Exit status 0 when every case was right.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

void *kmemcpy_slow(void *dst, const void *src, size_t n);
void *kmemcpy_fast(void *dst, const void *src, size_t n);

static const struct {
    const char *name;
    void *(*fn)(void *, const void *, size_t);
} variants[] = { { "slow", kmemcpy_slow }, { "fast", kmemcpy_fast } };

#define NMAX 1024
#define OFFS 16
#define SLACK 64

static size_t page;

/* A region of `len` bytes between two PROT_NONE pages; returns its start. */
static unsigned char *guarded(size_t len)
{
    size_t span = (len + page - 1) / page * page;
    unsigned char *p = mmap(NULL, span + 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        perror("umemcpy: mmap");
        _exit(2);
    }
    if (mprotect(p, page, PROT_NONE) || mprotect(p + page + span, page, PROT_NONE)) {
        perror("umemcpy: mprotect");
        _exit(2);
    }
    return p + page;
}

#include "hooks.h" /* scripts/rv-audit: the plugin's region markers */

static unsigned long failures;

static void check(const char *v, void *(*fn)(void *, const void *, size_t), unsigned char *sbase, size_t sspan,
                  unsigned char *dbase, size_t dspan, size_t soff, size_t doff, size_t n)
{
    unsigned char *s = sbase + soff, *d = dbase + doff;
    size_t lo = doff > SLACK ? doff - SLACK : 0, hi = doff + n + SLACK < dspan ? doff + n + SLACK : dspan;
    memset(dbase + lo, 0xa5, hi - lo);
    void *r = fn(d, s, n);
    int bad = r != d || memcmp(d, s, n) != 0;
    for (size_t i = lo; i < doff; i++) bad |= dbase[i] != 0xa5;
    for (size_t i = doff + n; i < hi; i++) bad |= dbase[i] != 0xa5;
    (void)sspan;
    if (bad && failures++ < 5)
        printf("umemcpy: %s n=%zu src_off=%zu dst_off=%zu wrong\n", v, n, soff, doff);
}

static int grid(void)
{
    size_t span = NMAX + 2 * OFFS + 2 * SLACK;
    unsigned char *src = guarded(span), *dst = guarded(span);
    size_t sspan = (span + page - 1) / page * page, dspan = sspan;
    for (size_t i = 0; i < sspan; i++) src[i] = (unsigned char)(i * 131 + (i >> 8) * 7 + 1);
    for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++) {
        unsigned long cases = 0, before = failures;
        for (size_t n = 0; n <= NMAX; n++)
            for (size_t so = 0; so < OFFS; so++)
                for (size_t dof = 0; dof < OFFS; dof++) {
                    /* in the middle; src flush with the guard after it; dst flush with the guard after
                     * it; both right after the guard before them */
                    check(variants[v].name, variants[v].fn, src, sspan, dst, dspan, SLACK + so, SLACK + dof, n);
                    check(variants[v].name, variants[v].fn, src, sspan, dst, dspan, sspan - n - so, SLACK + dof, n);
                    check(variants[v].name, variants[v].fn, src, sspan, dst, dspan, SLACK + so, dspan - n - dof, n);
                    check(variants[v].name, variants[v].fn, src, sspan, dst, dspan, so, dof, n);
                    cases += 4;
                }
        printf("umemcpy: grid %s cases=%lu failures=%lu\n", variants[v].name, cases, failures - before);
    }
    return failures != 0;
}

static int audit(void)
{
    static const size_t big[] = { 511, 512, 513, 1024, 4096 };
    unsigned char *src = guarded(8192), *dst = guarded(8192);
    for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++)
        for (size_t k = 0; k <= 300 + sizeof big / sizeof big[0]; k++) {
            size_t n = k <= 300 ? k : big[k - 301];
            for (size_t so = 0; so < 8; so++)
                for (size_t dof = 0; dof < 8; dof++) {
                    printf("case %s %zu %zu %zu\n", variants[v].name, n, so, dof);
                    if (fc_audit_call(variants[v].fn, dst + dof, src + so, n) != dst + dof ||
                        memcmp(dst + dof, src + so, n) != 0) {
                        printf("umemcpy: audit %s n=%zu wrong\n", variants[v].name, n);
                        failures++;
                    }
                }
        }
    return failures != 0;
}

int main(int argc, char **argv)
{
    page = (size_t)sysconf(_SC_PAGESIZE);
    if (argc == 2 && strcmp(argv[1], "grid") == 0) return grid();
    if (argc == 2 && strcmp(argv[1], "audit") == 0) return audit();
    fprintf(stderr, "usage: umemcpy grid|audit\n");
    return 2;
}
