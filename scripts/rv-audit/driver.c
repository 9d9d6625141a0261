/*
 * rv-audit driver (riscv64, linked statically; run by scripts/rv-audit.py under
 * qemu-riscv64 with the rv-audit plugin).  Reads cases from stdin, one per
 * line, and runs each copy once between fc_audit_begin() and fc_audit_end(),
 * the markers the plugin counts between:
 *
 *   c IMPL N SRC_OFF DST_OFF     memcpy(dst + DST_OFF, src + SRC_OFF, N), separate buffers
 *   m IMPL N SRC_OFF DIST        memmove within one buffer: dst = src + DIST (DIST may be < 0)
 *   g IMPL NMAX                  the alignment grid: every N in 0..NMAX x SRC_OFF, DST_OFF in
 *                                0..7 (memcpy), then memmove backward with DIST 1..8 at every
 *                                SRC_OFF 0..7 - every alignment class of the test grid
 *
 * Offsets are from 4096-aligned buffers.  Every copy is checked (the driver
 * exits 1 on a wrong result) and prints nothing else: the plugin's "R ..."
 * lines come in case order.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fastcopy.h"

#define SPAN ((1 << 16) + 8192)
static unsigned char srcbuf[SPAN] __attribute__((aligned(4096)));
static unsigned char dstbuf[SPAN] __attribute__((aligned(4096)));
static unsigned char refbuf[SPAN] __attribute__((aligned(4096)));
#include "hooks.h"

/* "libc": the C library's own memcpy/memmove (static glibc: its ifunc choice
 * for the emulated CPU), the anchor the routines are judged against */
static void *libc_memcpy(void *d, const void *s, size_t n) { return memcpy(d, s, n); }
static void *libc_memmove(void *d, const void *s, size_t n) { return memmove(d, s, n); }
static const struct fc_impl libc_impl = {"libc", "the C library's", 1, libc_memcpy, libc_memmove};

static const struct fc_impl *impl(const char *name)
{
    if (strcmp(name, "libc") == 0) return &libc_impl;
    const struct fc_impl *im = fc_impl_find(name);
    if (!im) {
        fprintf(stderr, "rv-audit-driver: unknown implementation %s\n", name);
        exit(2);
    }
    return im; /* run even if not "available": qemu executes every RV64 entry */
}

static void copy_case(const struct fc_impl *im, size_t n, size_t so, size_t dof)
{
    unsigned char *d = dstbuf + 4096 + dof, *s = srcbuf + 4096 + so;
    if (fc_audit_call((void *(*)(void *, const void *, size_t))im->memcpy, d, s, n) != d || memcmp(d, s, n)) {
        fprintf(stderr, "rv-audit-driver: %s.memcpy n=%zu src+%zu dst+%zu copied wrongly\n", im->name, n, so, dof);
        exit(1);
    }
}

static void move_case(const struct fc_impl *im, size_t n, size_t so, long dist)
{
    unsigned char *s = dstbuf + 4096 + so, *d = s + dist;
    size_t lo = 4096 + so - (dist < 0 ? (size_t)-dist : 0) - 64, len = n + (size_t)(dist < 0 ? -dist : dist) + 128;
    memcpy(dstbuf + lo, srcbuf + lo, len); /* the window around src and dst */
    memcpy(refbuf + lo, srcbuf + lo, len);
    memmove(refbuf + 4096 + so + dist, refbuf + 4096 + so, n);
    if (fc_audit_call(im->memmove, d, s, n) != d || memcmp(dstbuf + lo, refbuf + lo, len)) {
        fprintf(stderr, "rv-audit-driver: %s.memmove n=%zu src+%zu dist %ld moved wrongly\n", im->name, n, so, dist);
        exit(1);
    }
}

int main(void)
{
    for (size_t i = 0; i < SPAN; i++) srcbuf[i] = (unsigned char)(i * 131 + (i >> 8) + 7);
    char line[256], name[64], op;
    while (fgets(line, sizeof line, stdin)) {
        long a = 0, b = 0, c = 0;
        int got = sscanf(line, " %c %63s %ld %ld %ld", &op, name, &a, &b, &c);
        if (got < 3) continue;
        const struct fc_impl *im = impl(name);
        if (op == 'c' && got == 5 && a >= 0 && a <= (1 << 16) && b >= 0 && b < 4096 && c >= 0 && c < 4096) {
            copy_case(im, (size_t)a, (size_t)b, (size_t)c);
        } else if (op == 'm' && got == 5 && a >= 0 && a <= (1 << 16) && b >= 0 && b < 4096 && c > -4096 &&
                   c < 4096) {
            move_case(im, (size_t)a, (size_t)b, c);
        } else if (op == 'g' && a >= 0 && a <= 4096) {
            for (size_t n = 0; n <= (size_t)a; n++)
                for (size_t so = 0; so < 8; so++)
                    for (size_t dof = 0; dof < 8; dof++) copy_case(im, n, so, dof);
            for (size_t n = 0; n <= (size_t)a; n++)
                for (size_t so = 0; so < 8; so++)
                    for (long dist = 1; dist <= 8; dist++) move_case(im, n, so, dist);
        } else {
            fprintf(stderr, "rv-audit-driver: bad case line: %s", line);
            return 2;
        }
    }
    return 0;
}
