/*
 * libfc_ifunc_copy.so: a library whose ifunc resolver copies memory, as
 * libraries do that pick an implementation from a table or save a name while
 * they are relocated.  The resolver of a hidden ifunc (called through the PLT
 * inside this object: an IRELATIVE relocation, applied while the dynamic
 * linker relocates this object, under lazy and immediate binding alike) copies
 * a short string with memcpy, then sweeps memcpy, memmove, mempcpy and bcopy
 * over every size 0..300 at three offset pairs, and checks every byte and the
 * bytes around dst against a reference built with volatile byte stores.
 *
 * Under LD_PRELOAD=libfastcopy-preload.so (or -record.so) these calls land in
 * the shim before the dynamic linker has relocated it: every library of a
 * program, and every later LD_PRELOAD entry, is relocated before it.
 *
 * Built without builtins (every copy is a call) and without the stack
 * protector.
 */
#define _GNU_SOURCE
#include <stddef.h>
#include <string.h>
#include <strings.h>

#include "ifunc_copylib.h"

enum { MAXN = 300, PAD = 16 };
static unsigned char fc_src[MAXN + 64], fc_dst[MAXN + 64 + 2 * PAD], fc_want[sizeof fc_dst];
static char fc_name[32];
static long fc_calls = -1, fc_bad;
static size_t fc_bad_n;
static const char *fc_bad_fn;

static void fill(volatile unsigned char *p, size_t n, unsigned salt)
{
    for (size_t i = 0; i < n; i++) p[i] = (unsigned char)(i * 131u + salt * 17u + 1u);
}

static int same(void)
{
    const volatile unsigned char *a = fc_dst, *b = fc_want;
    for (size_t i = 0; i < sizeof fc_dst; i++)
        if (a[i] != b[i]) return 0;
    return 1;
}

/* the four functions from fc_src + so to fc_dst + PAD + dof, n bytes */
static void sweep(void)
{
    static const unsigned offs[][2] = {{0, 0}, {1, 0}, {3, 7}};
    long calls = 0, bad = 0;
    for (size_t k = 0; k < sizeof offs / sizeof offs[0]; k++) {
        size_t so = offs[k][0], dof = offs[k][1];
        for (size_t n = 0; n <= MAXN; n++) {
            for (int fn = 0; fn < 4; fn++) {
                volatile unsigned char *w = fc_want;
                fill(fc_src, sizeof fc_src, (unsigned)(n + fn));
                fill(fc_dst, sizeof fc_dst, (unsigned)(n * 7 + fn + 99));
                fill(fc_want, sizeof fc_want, (unsigned)(n * 7 + fn + 99));
                for (size_t i = 0; i < n; i++) w[PAD + dof + i] = fc_src[so + i];
                void *d = fc_dst + PAD + dof, *r;
                const void *s = fc_src + so;
                const char *name;
                switch (fn) {
                case 0: r = memcpy(d, s, n), name = "memcpy"; break;
                case 1: r = memmove(d, s, n), name = "memmove"; break;
                case 2: r = (char *)mempcpy(d, s, n) - n, name = "mempcpy"; break;
                default: bcopy(s, d, n), r = d, name = "bcopy"; break;
                }
                calls++;
                if (r != d || !same()) {
                    if (!bad++) fc_bad_n = n, fc_bad_fn = name;
                }
            }
        }
    }
    fc_bad = bad;
    fc_calls = calls;
}

static int answer_impl(void) { return 42; }

typedef int (*fc_answer_fn)(void);
__attribute__((used)) static fc_answer_fn resolve_answer(void)
{
    memcpy(fc_name, "resolved by the resolver", 25);
    sweep();
    return answer_impl;
}

__attribute__((visibility("hidden"))) int fc_ifunc_answer(void) __attribute__((ifunc("resolve_answer")));

/* the program's view: the ifunc's answer (through this object's PLT), the
 * string the resolver copied, and the sweep's result */
int ifunc_copylib_answer(void) { return fc_ifunc_answer(); }
const char *ifunc_copylib_name(void) { return fc_name; }
long ifunc_copylib_calls(void) { return fc_calls; }
long ifunc_copylib_bad(const char **fn, size_t *n)
{
    *fn = fc_bad_fn;
    *n = fc_bad_n;
    return fc_bad;
}
