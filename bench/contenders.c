/*
 * Contenders: every available registry implementation, the fc_memcpy
 * dispatcher, the system libc's memcpy/memmove, and the peers (other
 * libraries' copies: DPDK's rte_memcpy, bench/peers/, memcpy only).  libc is reached through
 * volatile function pointers, so the compiler can neither inline it nor
 * specialise it for a known size: every contender pays the same call.
 */
#include "harness.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fastcopy.h"
#include "packet.h" /* the peers' entry points */
#if defined(__x86_64__)
#include "cpu/x86.h"
#endif

#if defined(__x86_64__)
/* With --tuned, fastcopy's contenders run with the settings they stand for:
 * tuned[...] with the profile's (its rep movsb window, NT threshold), every
 * other fastcopy contender with the defaults this process started with; the
 * settings are process-wide, so each contender sets them before its calls
 * (bench.h, enter). */
static struct fc_x86_tune default_tune, tuned_tune;
static void enter_tune(const void *ctx) { fc__x86_tune = *(const struct fc_x86_tune *)ctx; }

/* tuned: --tuned FILE, a profile timed as tuned[ENTRY] beside the defaults */
static size_t add_tuned(const char *tuned, struct contender *out, size_t k, size_t max)
{
    FILE *f = fopen(tuned, "rb");
    char text[FC_PROFILE_MAX + 1], why[FC_NOTE_LEN];
    size_t len = f ? fread(text, 1, sizeof text, f) : 0;
    if (f) fclose(f);
    const char *impl = NULL;
    default_tune = fc__x86_tune;
    if (!f || len > FC_PROFILE_MAX || !fc__x86_parse_profile(text, (long)len, why, sizeof why, &tuned_tune, &impl)) {
        fprintf(stderr, "fcbench: --tuned %s: %s\n", tuned,
                !f ? "cannot be read" : len > FC_PROFILE_MAX ? "larger than a profile may be" : why);
        exit(2);
    }
    const struct fc_impl *im = fc_impl_find(impl ? impl : fc_active());
    if (!im || !im->available || k >= max) {
        fprintf(stderr, "fcbench: --tuned %s: its entry %s does not run here\n", tuned, impl ? impl : "?");
        exit(2);
    }
    for (size_t j = 0; j < k; j++) /* fastcopy's own contenders: the defaults */
        if (!strncmp(out[j].name, "fc[", 3) || fc_impl_find(out[j].name)) {
            out[j].enter = enter_tune;
            out[j].ctx = &default_tune;
        }
    /* right after fc[...] (or first), for the tables */
    size_t at = 0;
    while (at < k && strncmp(out[at].name, "fc[", 3)) at++;
    at = at < k ? at + 1 : 0;
    memmove(&out[at + 1], &out[at], (k - at) * sizeof out[0]);
    memset(&out[at], 0, sizeof out[at]);
    snprintf(out[at].name, sizeof out[at].name, "tuned[%s]", im->name);
    out[at].memcpy_fn = (copy_fn)im->memcpy;
    out[at].memmove_fn = im->memmove;
    out[at].enter = enter_tune;
    out[at].ctx = &tuned_tune;
    return k + 1;
}
#endif

static void *(*volatile libc_memcpy)(void *, const void *, size_t) = memcpy;
static void *(*volatile libc_memmove)(void *, const void *, size_t) = memmove;

/* Test-only contender (FCBENCH_TEST_SLOW=1): generic done twice, and 16 times
 * when dst % 64 == 9 - a known slowdown and a known cliff the tests must see. */
static const struct fc_impl *slowed_base; /* "generic", looked up once */

static void *test_slowed(void *d, const void *s, size_t n)
{
    int reps = ((uintptr_t)d & 63) == 9 ? 16 : 2;
    for (int i = 0; i < reps; i++) slowed_base->memcpy(d, s, n);
    return d;
}

static void *test_slowed_move(void *d, const void *s, size_t n)
{
    return slowed_base->memmove(d, s, n); /* only memcpy is slowed */
}

static int wanted(const char *csv, const char *name)
{
    if (!csv || !*csv) return 1;
    size_t len = strlen(name);
    for (const char *p = csv; *p;) {
        const char *e = strchr(p, ',');
        size_t l = e ? (size_t)(e - p) : strlen(p);
        if (l == len && strncmp(p, name, l) == 0) return 1;
        if (!e) break;
        p = e + 1;
    }
    return 0;
}

size_t contenders_collect(const char *only_csv, const char *tuned, struct contender *out, size_t max)
{
    size_t k = 0;
    if (wanted(only_csv, "libc") && k < max) {
        snprintf(out[k].name, sizeof out[k].name, "libc");
        out[k].memcpy_fn = libc_memcpy;
        out[k++].memmove_fn = libc_memmove;
    }
    if (wanted(only_csv, "fc") && k < max) {
        snprintf(out[k].name, sizeof out[k].name, "fc[%s]", fc_active());
        out[k].memcpy_fn = (copy_fn)fc_memcpy;
        out[k++].memmove_fn = fc_memmove;
    }
    for (size_t i = 0; i < fc_impl_count() && k < max; i++) {
        const struct fc_impl *im = fc_impl_at(i);
        if (!im->available || !wanted(only_csv, im->name)) continue;
        snprintf(out[k].name, sizeof out[k].name, "%s", im->name);
        out[k].memcpy_fn = (copy_fn)im->memcpy;
        out[k++].memmove_fn = im->memmove;
    }
    /* The peers: where built (CMake found DPDK's rte_memcpy.h; FCBENCH_PEERS=OFF
     * leaves them out) and the CPU can run their translation unit.  No
     * memmove (memmove_fn NULL): the memmove scenario leaves them out. */
#if defined(FCBENCH_HAVE_RTE_AVX2) || defined(FCBENCH_HAVE_RTE_AVX512)
    __builtin_cpu_init();
#endif
#if defined(FCBENCH_HAVE_RTE_AVX2)
    if (wanted(only_csv, "rte-avx2") && k < max && __builtin_cpu_supports("avx2")) {
        memset(&out[k], 0, sizeof out[k]);
        snprintf(out[k].name, sizeof out[k].name, "rte-avx2");
        out[k++].memcpy_fn = fcbench_rte_avx2_memcpy;
    }
#endif
#if defined(FCBENCH_HAVE_RTE_AVX512)
    if (wanted(only_csv, "rte-avx512") && k < max && __builtin_cpu_supports("avx512f")) {
        memset(&out[k], 0, sizeof out[k]);
        snprintf(out[k].name, sizeof out[k].name, "rte-avx512");
        out[k++].memcpy_fn = fcbench_rte_avx512_memcpy;
    }
#endif
    /* FCBENCH_LIBS=tag=path/libfastcopy.so,...: other builds of fastcopy (an
     * older commit, other flags) loaded beside this one (RTLD_LOCAL: their
     * symbols do not interpose), each entry named "tag:<name>" and the
     * dispatched pair "tag:fc" - A/B comparisons in one process, with the same
     * samples.  Load both sides this way (old=...,new=...): code reached in a
     * dlopen'ed library and code linked into fcbench do not time alike (D29). */
    const char *libs = getenv("FCBENCH_LIBS");
    for (const char *p = libs; p && *p && k < max;) {
        const char *e = strchr(p, ','), *eq = strchr(p, '=');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        char tag[16], path[4096];
        if (!eq || eq >= p + len || (size_t)(eq - p) >= sizeof tag || len - (size_t)(eq - p) > sizeof path) {
            fprintf(stderr, "fcbench: FCBENCH_LIBS wants tag=path[,tag=path...] (tags under 16 bytes)\n");
            exit(2);
        }
        snprintf(tag, sizeof tag, "%.*s", (int)(eq - p), p);
        snprintf(path, sizeof path, "%.*s", (int)(len - (size_t)(eq - p) - 1), eq + 1);
        p += len + (e ? 1 : 0);
        void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        size_t (*count)(void) = NULL;
        const struct fc_impl *(*at)(size_t) = NULL;
        void *cp = h ? dlsym(h, "fc_memcpy") : NULL, *mv = h ? dlsym(h, "fc_memmove") : NULL;
        void *cnt = h ? dlsym(h, "fc_impl_count") : NULL, *atp = h ? dlsym(h, "fc_impl_at") : NULL;
        memcpy(&count, &cnt, sizeof cnt);
        memcpy(&at, &atp, sizeof atp);
        if (!count || !at || !cp || !mv) {
            fprintf(stderr, "fcbench: FCBENCH_LIBS: %s: %s\n", path, h ? "not a fastcopy library" : dlerror());
            exit(2);
        }
        char name[sizeof out[0].name];
        snprintf(name, sizeof name, "%s:fc", tag);
        if (wanted(only_csv, name)) {
            snprintf(out[k].name, sizeof out[k].name, "%s", name);
            memcpy(&out[k].memcpy_fn, &cp, sizeof cp);
            memcpy(&out[k++].memmove_fn, &mv, sizeof mv);
        }
        for (size_t i = 0; i < count() && k < max; i++) {
            const struct fc_impl *im = at(i);
            snprintf(name, sizeof name, "%s:%s", tag, im->name);
            if (!im->available || !wanted(only_csv, name)) continue;
            snprintf(out[k].name, sizeof out[k].name, "%s", name);
            out[k].memcpy_fn = (copy_fn)im->memcpy;
            out[k++].memmove_fn = im->memmove;
        }
    }
#if defined(__x86_64__)
    if (tuned) k = add_tuned(tuned, out, k, max);
#else
    if (tuned) {
        fprintf(stderr, "fcbench: --tuned: profiles are x86-64 only so far\n");
        exit(2);
    }
#endif
    const char *slow = getenv("FCBENCH_TEST_SLOW");
    if (slow && *slow == '1' && wanted(only_csv, "test-slowed") && k < max && (slowed_base = fc_impl_find("generic"))) {
        snprintf(out[k].name, sizeof out[k].name, "test-slowed");
        out[k].memcpy_fn = test_slowed;
        out[k++].memmove_fn = test_slowed_move;
    }
    return k;
}
