/*
 * x86-64 policy: the settings the copy routines read (which entry, the rep
 * movsb window, the non-temporal threshold), decided once at load from what
 * x86_detect.c found, and published.  The registry's x86 probes are here too:
 * they answer from the published decision.
 *
 * Runs inside the ifunc resolvers (through fc__registry_probe), before libc
 * is initialised: no libc calls.
 *
 * Settings, in the order they are decided (each later step overrides single
 * settings; fastcopy-info shows each value and where it came from):
 *   1. defaults from features, for any CPU, known or not (fc_defaults):
 *        entry         the widest ladder the CPU and OS run: avx512, avx2, sse2
 *        rep movsb     ERMS: no-overlap copies from L1d/2 (16 KiB if unknown)
 *                      up to the NT threshold, at every (dst - src) mod 4096;
 *                      no ERMS: never
 *        NT threshold  3/4 of the LLC (24 MiB if unknown), clamped to
 *                      [1 MiB, 256 MiB]; one stream
 *        in-order      copies with dst just behind src mod 4096 go forward in
 *                      address order from 2 KiB (inorder_min; vec_copy.h)
 *   2. exceptions, each for a CPU that was measured (fc_exceptions[]; the
 *      machines and figures are in docs/x86-policy.md);
 *   3. a tuned profile (fastcopy-tune; x86_settings.c: fc__x86_load_profile);
 *   4. FASTCOPY_TUNE (x86_settings.c: fc__x86_env_tune).
 * x86_settings.c's header has the rules of steps 3 and 4, and what a
 * secure-execution process takes of them.
 */
#if defined(__x86_64__)
#include <stdint.h>

#include "cpu/x86_private.h"
#include "dispatch/early.h"
#include "internal.h"

#define FC_KIB ((size_t)1 << 10)
#define FC_MIB ((size_t)1 << 20)
#define FC_NT_DEFAULT (24 * FC_MIB)
#define FC_NT_MIN (1 * FC_MIB)
#define FC_NT_MAX (256 * FC_MIB)
#define FC_MOVSB_MIN_DEFAULT (16 * FC_KIB) /* rep movsb from here where the L1d is unknown */
#define FC_GAP_DEFAULT 0    /* rep movsb at every distance (EMR, Zen 5: no deep dip near 4K aliasing) */
#define FC_GAP_AMD_DIP 128 /* Zen 3, Zen 4: rep movsb collapses within 128 bytes of it (D16) */

/* Read by the copy routines: a safe default until fc__x86_init() has run. */
struct fc_x86_tune fc__x86_tune = {
    .nt_threshold = FC_NT_DEFAULT,
    .movsb_min = 0,
    .movsb_max = 0, /* the window closed */
    .special_min = FC_NT_DEFAULT,
    .movsb_gap = FC_GAP_DEFAULT,
    .nt_pages = 1,
    .inorder_min = FC_INORDER_DEFAULT,
};

/* ---- exceptions to the feature defaults: measured CPUs only ---------------- */

enum fc_vendor { FC_VENDOR_AMD = 1, FC_VENDOR_INTEL = 2 };
enum { FC_NEED_AVX512F = 1, FC_NEED_AVX_VNNI = 2, FC_NO_AVX512F = 4 }; /* fc_exception.needs */
/* The rep movsb window a row sets. */
enum fc_window {
    FC_WINDOW_KEEP = 0,  /* the features' window */
    FC_WINDOW_OPEN = 1,  /* movsb_min .. movsb_max, movsb_gap */
    FC_WINDOW_CLOSED = 2 /* never rep movsb (movsb_gap still set: FASTCOPY_TUNE may open the window) */
};
/* The non-temporal threshold a row sets, as a share of the LLC. */
enum fc_nt_rule {
    FC_NT_KEEP = 0,           /* the features' (3/4 of the LLC) */
    FC_NT_NEVER = 1,          /* no non-temporal stores at any size */
    FC_NT_LLC = 2,            /* nt_num/nt_den of the whole LLC */
    FC_NT_LLC_PER_THREAD = 3  /* nt_num/nt_den of one logical CPU's share of it */
};

/* A row matches vendor, family and needs; the fields it leaves out (0) keep
 * the features' default. */
struct fc_exception {
    const char *name;        /* fastcopy-info and docs/x86-policy.md */
    enum fc_vendor vendor;
    unsigned fam_lo, fam_hi; /* CPUID family range, inclusive */
    unsigned needs;          /* FC_NEED_*, FC_NO_*: feature conditions */
    int zmm;                 /* 0 (keep), or FC_ZMM_AVX512 / FC_ZMM_YMMLOOP: the default ladder where AVX-512F runs */
    enum fc_window window;
    size_t movsb_min, movsb_max, movsb_gap;
    enum fc_nt_rule nt;
    unsigned nt_num, nt_den; /* FC_NT_LLC*: NT = LLC (or its share) * num / den */
    size_t nt_pages;         /* 0 (keep), or 1 / 4: NT streams */
};

static const struct fc_exception fc_exceptions[] = {
    /* rep movsb slower than the vector loops at every size, and collapses near 4K aliasing (D38, D16) */
    {
        .name = "AMD Zen 3 (family 0x19 without AVX-512)",
        .vendor = FC_VENDOR_AMD, .fam_lo = 0x19, .fam_hi = 0x19, .needs = FC_NO_AVX512F,
        .window = FC_WINDOW_CLOSED, .movsb_gap = FC_GAP_AMD_DIP,
    },
    /* zmm ladder, ymm loops (zmm split in two); rep movsb not ahead; NT from half the LLC (D39) */
    {
        .name = "AMD Zen 4 (family 0x19 with AVX-512)",
        .vendor = FC_VENDOR_AMD, .fam_lo = 0x19, .fam_hi = 0x19, .needs = FC_NEED_AVX512F,
        .zmm = FC_ZMM_YMMLOOP,
        .window = FC_WINDOW_CLOSED, .movsb_gap = FC_GAP_AMD_DIP,
        .nt = FC_NT_LLC, .nt_num = 1, .nt_den = 2,
    },
    /* rep movsb beats non-temporal stores at every size past the LLC too (the default's rep
     * movsb window from L1d/2 then runs to any size; D40) */
    {
        .name = "AMD Zen 5 (family 0x1a)",
        .vendor = FC_VENDOR_AMD, .fam_lo = 0x1a, .fam_hi = 0x1a,
        .nt = FC_NT_NEVER,
    },
    /* rep movsb from 20 KiB at every distance; NT from a thread's LLC share, 4 pages (D41) */
    {
        .name = "Intel Sapphire/Emerald/Granite Rapids (family 6 with AVX-512 and AVX-VNNI)",
        .vendor = FC_VENDOR_INTEL, .fam_lo = 6, .fam_hi = 6, .needs = FC_NEED_AVX512F | FC_NEED_AVX_VNNI,
        .window = FC_WINDOW_OPEN, .movsb_min = 20 * FC_KIB, .movsb_max = FC_UP_TO_NT, .movsb_gap = 0,
        .nt = FC_NT_LLC_PER_THREAD, .nt_num = 3, .nt_den = 4, .nt_pages = 4,
    },
};

/* The NT threshold as a share of the LLC, until it is computed: num 0 = never. */
struct fc_nt_share {
    unsigned num, den;
    int per_thread; /* of one logical CPU's share of the LLC, not the whole LLC */
};

/* ---- the decision -------------------------------------------------------------- */

static struct fc_x86_info fc_info;
static struct fc_x86_status fc_status;
static char fc_profile_impl_buf[32];
/* 1 once a decision is published.  Every caller that finds 0 decides itself,
 * into its own locals, and publishes: nobody waits for another caller, which
 * may be this very thread interrupted by a signal handler that copies, or a
 * thread that a fork() left behind.  Racing callers decide alike (the same
 * CPUID, environment and profile) and publish the same bytes. */
static int fc_state;
#ifdef FC_TEST_HOOKS
/* tests/test_first_use.c: called in the middle of a decision, and a way to
 * make the next call decide again */
void (*fc__x86_test_hook)(void);
void fc__x86_test_reset(void) { __atomic_store_n(&fc_state, 0, __ATOMIC_RELEASE); }
#endif

/* Publication of a decision: byte stores that racing publishers of the same
 * bytes may make at once (relaxed atomics: no data race). */
static void fc_publish_struct(void *d, const void *s, size_t n)
{
    unsigned char *dp = d;
    const unsigned char *sp = s;
    for (size_t i = 0; i < n; i++) __atomic_store_n(&dp[i], sp[i], __ATOMIC_RELAXED);
}

/* 1. defaults from features (s cleared by the caller; every source FC_SRC_DEFAULT) */
static void fc_defaults(const struct fc_x86_info *in, struct fc_settings *s, struct fc_nt_share *nt)
{
    s->t.nt_threshold = FC_NT_DEFAULT;
    s->t.movsb_gap = FC_GAP_DEFAULT;
    s->t.nt_pages = 1;
    s->t.inorder_min = FC_INORDER_DEFAULT;
    s->zmm = in->avx512f ? FC_ZMM_AVX512 : FC_ZMM_NO;
    if (in->erms) {
        s->t.movsb_min = in->l1d_size ? in->l1d_size / 2 : FC_MOVSB_MIN_DEFAULT;
        s->t.movsb_max = FC_UP_TO_NT;
    }
    nt->num = 3, nt->den = 4, nt->per_thread = 0;
}

/* The measured-CPU exception for this CPU, or NULL. */
static const struct fc_exception *fc_find_exception(const struct fc_x86_info *in)
{
    for (size_t i = 0; i < sizeof fc_exceptions / sizeof fc_exceptions[0]; i++) {
        const struct fc_exception *x = &fc_exceptions[i];
        if (!(x->vendor == FC_VENDOR_AMD ? in->vendor_amd : in->vendor_intel) || in->family < x->fam_lo ||
            in->family > x->fam_hi || ((x->needs & FC_NEED_AVX512F) && !in->avx512f) ||
            ((x->needs & FC_NEED_AVX_VNNI) && !in->avx_vnni) || ((x->needs & FC_NO_AVX512F) && in->avx512f))
            continue;
        return x;
    }
    return NULL;
}

/* 2. the exception's settings over the defaults */
static void fc_apply_exception(const struct fc_exception *x, const struct fc_x86_info *in, struct fc_settings *s,
                               struct fc_nt_share *nt)
{
    if (x->zmm && in->avx512f) s->zmm = x->zmm, fc_set(s, FC_SET_IMPL, FC_SRC_EXCEPTION);
    if (x->window != FC_WINDOW_KEEP) {
        s->t.movsb_min = x->window == FC_WINDOW_OPEN ? x->movsb_min : 0;
        s->t.movsb_max = x->window == FC_WINDOW_OPEN ? x->movsb_max : 0;
        s->t.movsb_gap = x->movsb_gap; /* also a closed row's: FASTCOPY_TUNE may open the window */
        fc_set(s, FC_SET_MOVSB, FC_SRC_EXCEPTION);
        fc_set(s, FC_SET_GAP, FC_SRC_EXCEPTION);
    }
    if (x->nt != FC_NT_KEEP) {
        nt->num = x->nt == FC_NT_NEVER ? 0 : x->nt_num;
        nt->den = x->nt == FC_NT_NEVER ? 1 : x->nt_den;
        nt->per_thread = x->nt == FC_NT_LLC_PER_THREAD;
        fc_set(s, FC_SET_NT, FC_SRC_EXCEPTION);
    }
    if (x->nt_pages) s->t.nt_pages = x->nt_pages, fc_set(s, FC_SET_PAGES, FC_SRC_EXCEPTION);
}

/* The NT threshold from its share of the LLC (unchanged where the LLC is unknown). */
static void fc_nt_threshold(const struct fc_x86_info *in, const struct fc_nt_share *nt, struct fc_settings *s)
{
    if (!nt->num) {
        s->t.nt_threshold = (size_t)-1; /* never */
    } else if (in->llc_size) {
        size_t llc = nt->per_thread && in->llc_threads ? in->llc_size / in->llc_threads : in->llc_size;
        size_t v = llc / nt->den * nt->num;
        s->t.nt_threshold = v < FC_NT_MIN ? FC_NT_MIN : v > FC_NT_MAX ? FC_NT_MAX : v;
    }
}

void fc__x86_init(void)
{
    if (__atomic_load_n(&fc_state, __ATOMIC_ACQUIRE)) return;
    struct fc_x86_status st;
    fc__clear_bytes(&st, sizeof st);
    struct fc_x86_info in;
    fc__x86_detect(&in);

    /* 1. defaults from features; 2. the exception for this CPU, if one was measured */
    struct fc_settings s;
    fc__clear_bytes(&s, sizeof s);
    struct fc_nt_share nt;
    fc_defaults(&in, &s, &nt);
    const struct fc_exception *x = fc_find_exception(&in);
    st.exception = x ? x->name : NULL;
    if (x) fc_apply_exception(x, &in, &s, &nt);
    fc_nt_threshold(&in, &nt, &s);
    in.prefer_zmm = s.zmm;

    /* 3. a tuned profile; 4. FASTCOPY_TUNE (neither from the environment in a
     * secure-execution process) */
    st.secure = fc__secure();
    fc__x86_signature(&in, st.signature, sizeof st.signature);
    fc__x86_load_profile(&st, &in, &s);
#ifdef FC_TEST_HOOKS
    if (fc__x86_test_hook) fc__x86_test_hook();
#endif
    fc__x86_env_tune(st.secure, &s);

    struct fc_x86_tune t;
    fc__copy_bytes(&t, &s.t, sizeof t);
    fc__x86_derive(&t);

    for (int i = 0; i < FC_SET_COUNT; i++) st.src[i] = s.src[i];
    st.impl = s.impl[0] ? fc_profile_impl_buf : NULL;

    /* publish (the same bytes from every racing caller) */
    fc_publish_struct(fc_profile_impl_buf, s.impl, sizeof fc_profile_impl_buf);
    fc_publish_struct(&fc_status, &st, sizeof st);
    fc_publish_struct(&fc_info, &in, sizeof in);
    __atomic_store_n(&fc__x86_tune.special_min, t.special_min, __ATOMIC_RELAXED);
    __atomic_store_n(&fc__x86_tune.nt_threshold, t.nt_threshold, __ATOMIC_RELAXED);
    __atomic_store_n(&fc__x86_tune.movsb_min, t.movsb_min, __ATOMIC_RELAXED);
    __atomic_store_n(&fc__x86_tune.movsb_max, t.movsb_max, __ATOMIC_RELAXED);
    __atomic_store_n(&fc__x86_tune.movsb_gap, t.movsb_gap, __ATOMIC_RELAXED);
    __atomic_store_n(&fc__x86_tune.nt_pages, t.nt_pages, __ATOMIC_RELAXED);
    __atomic_store_n(&fc__x86_tune.inorder_min, t.inorder_min, __ATOMIC_RELAXED);
    __atomic_store_n(&fc_state, 1, __ATOMIC_RELEASE);
}

void fc__x86_derive(struct fc_x86_tune *t)
{
    if (t->movsb_max > t->nt_threshold) t->movsb_max = t->nt_threshold; /* FC_UP_TO_NT; NT is tested first anyway */
    if (t->movsb_max < t->movsb_min) t->movsb_max = t->movsb_min;        /* NT below the window: window empty */
    t->special_min = t->nt_threshold;
    if (t->movsb_min < t->movsb_max && t->movsb_min < t->special_min) t->special_min = t->movsb_min;
}

int fc__x86_parse_profile(const char *text, long len, char *why, size_t whylen, struct fc_x86_tune *out,
                          const char **impl)
{
    fc__x86_init();
    static char impl_buf[32];
    struct fc_settings s;
    fc__clear_bytes(&s, sizeof s);
    fc__copy_bytes(&s.t, &fc__x86_tune, sizeof s.t);
    s.zmm = fc_info.prefer_zmm;
    why[0] = 0;
    if (!fc__x86_profile_apply(text, len, fc_status.signature, &fc_info, &s, why, whylen)) return 0;
    fc__x86_derive(&s.t); /* as the load path does: without it fcbench --tuned never opened a window below NT */
    fc__copy_bytes(out, &s.t, sizeof *out);
    for (size_t q = 0; q < sizeof impl_buf; q++) impl_buf[q] = s.impl[q];
    *impl = impl_buf[0] ? impl_buf : NULL;
    return 1;
}

const char *fc__profile_impl(void)
{
    fc__x86_init();
    return fc_status.impl;
}

const struct fc_x86_info *fc__x86_info(void)
{
    fc__x86_init();
    return &fc_info;
}

const struct fc_x86_status *fc__x86_status(void)
{
    fc__x86_init();
    return &fc_status;
}

/* ---- the registry's probes ------------------------------------------------------ */

int fc__x86_probe_sse2(void) { return fc__x86_info()->sse2; }
int fc__x86_probe_avx2(void) { return fc__x86_info()->avx2; }
int fc__x86_probe_avx512(void) { return fc__x86_info()->avx512f; }
int fc__x86_probe_avx512_masked(void) { return fc__x86_info()->avx512bw && fc__x86_info()->bmi2; }
int fc__x86_prefer_avx512(void) { return fc__x86_info()->prefer_zmm == FC_ZMM_AVX512; }
int fc__x86_prefer_avx512_ymmloop(void) { return fc__x86_info()->prefer_zmm == FC_ZMM_YMMLOOP; }
int fc__x86_probe_erms(void) { return fc__x86_info()->erms; }
#endif
