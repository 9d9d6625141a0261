/*
 * x86-64 CPU detection: features for the registry probes, and the settings
 * the copy routines read (which entry, the rep movsb window, the
 * non-temporal threshold), computed once at load.
 *
 * Runs inside the ifunc resolvers (through fc__registry_probe), before libc
 * is initialised: no libc calls, no __builtin_cpu_supports (needs libgcc's
 * constructor).  Only cpuid, xgetbv and dispatch/early.c's own system calls.
 *
 *   feature  test
 *   sse2     always (x86-64 baseline)
 *   avx2     CPUID.7.0:EBX[5], CPUID.1:ECX[28] (AVX), CPUID.1:ECX[27] (OSXSAVE),
 *            XCR0[2:1] = 11b (the OS saves xmm and ymm state)
 *   avx512   CPUID.7.0:EBX[16] (AVX512F), OSXSAVE, XCR0[7:5] = 111b and
 *            XCR0[2:1] = 11b (the OS saves opmask, zmm and ymm state)
 *   avx512-masked  avx512 and CPUID.7.0:EBX[30] (AVX512BW) and EBX[8] (BMI2)
 *   erms     CPUID.7.0:EBX[9]          fsrm  CPUID.7.0:EDX[4]
 *
 * Caches: deterministic cache parameters, CPUID leaf 4 (Intel) or 0x8000001D
 * (AMD, with TOPOEXT): the L1 data cache, the L2 and the highest-level
 * data/unified cache (size = ways * partitions * line * sets, shared by
 * EAX[25:14] + 1 logical CPUs: one core group's LLC, a Zen CCX/CCD).
 *
 * Settings, in the order they are decided (each later step overrides single
 * settings; fastcopy-info shows each value and where it came from):
 *   1. defaults from features, for any CPU, known or not:
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
 *   3. a tuned profile (fastcopy-tune): FASTCOPY_PROFILE, else the per-user
 *      one, else the system one, for this CPU's signature (fc_load_profile);
 *   4. FASTCOPY_TUNE="nt_threshold=B,movsb_min=B,movsb_max=B,movsb_gap=B,nt_pages=P,
 *      inorder_min=B" (any subset, any order; B in bytes with an optional k/m/g
 *      suffix; nt_threshold=0 = never stream, inorder_min=0 = never in address
 *      order; movsb_gap < 2048; P = 1 or 4); a
 *      window reaching past the NT threshold ends there; where the window is
 *      closed, movsb_min alone opens it up to the NT threshold, movsb_max alone
 *      from the smallest loop size; a malformed value, movsb_min > movsb_max,
 *      or a value longer than 127 bytes is reported once on stderr and
 *      ignored as a whole.
 * In a secure-execution process (fc__secure: set-user-ID and the like) steps
 * 3 and 4 take only a system profile owned by root and writable by nobody
 * else; FASTCOPY_PROFILE, the per-user profile and FASTCOPY_TUNE are ignored.
 */
#if defined(__x86_64__)
#include <cpuid.h>
#include <stdint.h>

#include "cpu/x86.h"
#include "internal.h"

#define FC_KIB ((size_t)1 << 10)
#define FC_MIB ((size_t)1 << 20)
#define FC_TUNE_MAX 127 /* bytes of FASTCOPY_TUNE read; a longer value is rejected, not cut */
#define FC_STR(x) #x
#define FC_XSTR(x) FC_STR(x)
#define FC_NT_DEFAULT (24 * FC_MIB)
#define FC_NT_MIN (1 * FC_MIB)
#define FC_NT_MAX (256 * FC_MIB)
#define FC_UP_TO_NT ((size_t)-1) /* movsb_max: the window ends where non-temporal stores begin */
#define FC_GAP_DEFAULT 0    /* rep movsb at every distance (EMR, Zen 5: no deep dip near 4K aliasing) */
#define FC_GAP_AMD_DIP 128 /* Zen 3, Zen 4: 30x slower within 128 bytes of it */
#ifndef FC_SYSTEM_PROFILE
#define FC_SYSTEM_PROFILE "/etc/fastcopy/profile"
#endif

struct fc_x86_tune fc__x86_tune = {FC_NT_DEFAULT, 0, 0, FC_NT_DEFAULT, FC_GAP_DEFAULT, 1, FC_INORDER_DEFAULT};

/* ---- exceptions to the feature defaults: measured CPUs only ---------------- */
enum { FC_ANY, FC_AMD, FC_INTEL };
enum { FC_NEED_AVX512F = 1, FC_NEED_AVX_VNNI = 2, FC_NO_AVX512F = 4 };
enum { FC_KEEP = 0 };
struct fc_exception {
    const char *name;        /* fastcopy-info and docs/x86-policy.md */
    int vendor;              /* FC_AMD, FC_INTEL */
    unsigned fam_lo, fam_hi; /* CPUID family range, inclusive */
    int needs;               /* FC_NEED_*, FC_NO_*: feature conditions */
    int zmm;                 /* FC_KEEP or FC_ZMM_*: which ladder is the default */
    int window;              /* FC_KEEP, or 1: the window below (movsb_min..max, gap), 2: closed */
    size_t movsb_min, movsb_max, movsb_gap;
    int nt_per_thread;       /* NT from the LLC share of one logical CPU, not the whole LLC */
    unsigned nt_num, nt_den; /* 0/0: FC_KEEP; 0/1: never; else NT = LLC * num / den */
    size_t nt_pages;         /* 0: FC_KEEP */
};
static const struct fc_exception fc_exceptions[] = {
    /* rep movsb slower than the vector loops at every size, 30x near 4K aliasing */
    {"AMD Zen 3 (family 0x19 without AVX-512)", FC_AMD, 0x19, 0x19, FC_NO_AVX512F, FC_KEEP, 2, 0, 0, FC_GAP_AMD_DIP,
     0, 0, 0, 0},
    /* zmm ladder, ymm loops (zmm split in two); rep movsb not ahead; NT from half the LLC */
    {"AMD Zen 4 (family 0x19 with AVX-512)", FC_AMD, 0x19, 0x19, FC_NEED_AVX512F, FC_ZMM_YMMLOOP, 2, 0, 0,
     FC_GAP_AMD_DIP, 0, 1, 2, 0},
    /* rep movsb beats non-temporal stores at every size past the LLC too (the default's rep
     * movsb window from L1d/2 then runs to any size) */
    {"AMD Zen 5 (family 0x1a)", FC_AMD, 0x1a, 0x1a, 0, FC_KEEP, FC_KEEP, 0, 0, 0, 0, 0, 1, 0},
    /* rep movsb from 20 KiB at every distance; NT from a thread's LLC share, 4 pages */
    {"Intel Sapphire/Emerald/Granite Rapids (family 6 with AVX-512 and AVX-VNNI)", FC_INTEL, 6, 6,
     FC_NEED_AVX512F | FC_NEED_AVX_VNNI, FC_KEEP, 1, 20 * FC_KIB, FC_UP_TO_NT, 0, 1, 3, 4, 4},
};

static struct fc_x86_info fc_info;
static struct fc_x86_status fc_status;
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
static int fc_warned; /* the FASTCOPY_TUNE line is written once */

static void fc_cpuid(unsigned leaf, unsigned sub, unsigned r[4])
{
    __cpuid_count(leaf, sub, r[0], r[1], r[2], r[3]);
}

static uint64_t fc_xgetbv0(void)
{
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((uint64_t)hi << 32) | lo;
}

/* The L1 data cache, the L2 and the highest-level data/unified cache from a
 * leaf-4-format leaf. */
static void fc_scan_caches(unsigned leaf, struct fc_x86_info *in)
{
    for (unsigned sub = 0; sub < 16; sub++) {
        unsigned r[4];
        fc_cpuid(leaf, sub, r);
        unsigned type = r[0] & 0x1f, level = (r[0] >> 5) & 7;
        if (type == 0) break;
        if (type != 1 && type != 3) continue; /* instruction caches */
        size_t ways = ((r[1] >> 22) & 0x3ff) + 1, parts = ((r[1] >> 12) & 0x3ff) + 1;
        size_t line = (r[1] & 0xfff) + 1, sets = (size_t)r[2] + 1, size = ways * parts * line * sets;
        if (level == 1) in->l1d_size = size;
        if (level == 2) in->l2_size = size;
        if (level >= in->llc_level) {
            in->llc_level = level;
            in->llc_size = size;
            in->llc_threads = ((r[0] >> 14) & 0xfff) + 1;
        }
    }
}

/* ---- small helpers (no libc) --------------------------------------------------- */

/* Struct clears by hand (copies: fc__copy_bytes, early.c): the compiler
 * turns an assignment of a struct this large into a call to libc's memset or
 * memcpy (clang does), which a resolver cannot make. */
/* Publication of a decision: byte stores that racing publishers of the same
 * bytes may make at once (relaxed atomics: no data race). */
static void fc_publish_struct(void *d, const void *s, size_t n)
{
    unsigned char *dp = d;
    const unsigned char *sp = s;
    for (size_t i = 0; i < n; i++) __atomic_store_n(&dp[i], sp[i], __ATOMIC_RELAXED);
}

static void fc_clear_struct(void *d, size_t n)
{
    unsigned char *dp = d;
    for (size_t i = 0; i < n; i++) {
        __asm__("" : "+r"(dp));
        dp[i] = 0;
    }
}

/* Appends s to buf[*n..size), always NUL-terminated; cut at the end. */
static void fc_put(char *buf, size_t size, size_t *n, const char *s)
{
    for (; *s && *n + 1 < size; s++) buf[(*n)++] = *s;
    buf[*n] = 0;
}

static void fc_put_num(char *buf, size_t size, size_t *n, uint64_t v, int hex)
{
    char t[24];
    int i = (int)sizeof t;
    t[--i] = 0;
    do {
        unsigned d = (unsigned)(v % (hex ? 16 : 10));
        t[--i] = (char)(d < 10 ? '0' + d : 'a' + d - 10);
        v /= hex ? 16 : 10;
    } while (v && i > 2);
    if (hex) {
        t[--i] = 'x';
        t[--i] = '0';
    }
    fc_put(buf, size, n, t + i);
}

static int fc_eq(const char *a, const char *b)
{
    for (; *a && *a == *b; a++, b++) {
    }
    return *a == *b;
}

/* "name=" at the start of s: returns what follows, else NULL */
static const char *fc_after(const char *s, const char *name)
{
    for (; *name; name++, s++)
        if (*s != *name) return NULL;
    return s;
}

/* This CPU, as a profile names it: vendor, family, model, stepping, the
 * features dispatch looks at, and the cache sizes. */
static void fc_signature(const struct fc_x86_info *in, char *buf, size_t size)
{
    size_t n = 0;
    buf[0] = 0;
    fc_put(buf, size, &n, "x86-64 ");
    fc_put(buf, size, &n, in->vendor_amd ? "AuthenticAMD" : in->vendor_intel ? "GenuineIntel" : "other");
    fc_put(buf, size, &n, " family ");
    fc_put_num(buf, size, &n, in->family, 1);
    fc_put(buf, size, &n, " model ");
    fc_put_num(buf, size, &n, in->model, 1);
    fc_put(buf, size, &n, " stepping ");
    fc_put_num(buf, size, &n, in->stepping, 0);
    static const char *const names[] = {"sse2", "avx2", "avx512f", "avx512bw", "bmi2", "erms", "fsrm", "avx-vnni"};
    const int has[] = {in->sse2, in->avx2, in->avx512f, in->avx512bw, in->bmi2, in->erms, in->fsrm, in->avx_vnni};
    fc_put(buf, size, &n, " features");
    for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++)
        if (has[i]) {
            fc_put(buf, size, &n, " ");
            fc_put(buf, size, &n, names[i]);
        }
    fc_put(buf, size, &n, " l1d ");
    fc_put_num(buf, size, &n, in->l1d_size, 0);
    fc_put(buf, size, &n, " l2 ");
    fc_put_num(buf, size, &n, in->l2_size, 0);
    fc_put(buf, size, &n, " llc ");
    fc_put_num(buf, size, &n, in->llc_size, 0);
    fc_put(buf, size, &n, "/");
    fc_put_num(buf, size, &n, in->llc_threads, 0);
}

/* One "BYTES[k|m|g]" value; returns the end of the number or NULL. */
static const char *fc_parse_bytes(const char *p, size_t *out)
{
    if (*p < '0' || *p > '9') return NULL;
    size_t v = 0;
    for (; *p >= '0' && *p <= '9'; p++) {
        size_t digit = (size_t)(*p - '0');
        if (v > ((size_t)-1 - digit) / 10) return NULL; /* v * 10 + digit would wrap */
        v = v * 10 + digit;
    }
    unsigned shift = 0;
    if (*p == 'k' || *p == 'K') shift = 10;
    else if (*p == 'm' || *p == 'M') shift = 20;
    else if (*p == 'g' || *p == 'G') shift = 30;
    if (shift) {
        if (v > ((size_t)-1 >> shift)) return NULL;
        v <<= shift;
        p++;
    }
    *out = v;
    return p;
}

/* The settings being decided, with where each came from. */
struct fc_settings {
    struct fc_x86_tune t;
    int zmm;                      /* FC_ZMM_*: the default entry among the ladders */
    char impl[32];                /* a profile's entry ("": none) */
    unsigned char src[FC_SET_COUNT];
};

static void fc_set(struct fc_settings *s, int which, int source) { s->src[which] = (unsigned char)source; }

/* ---- FASTCOPY_TUNE ------------------------------------------------------------ */

/* "nt_threshold=123m,movsb_min=4k,..." -> sets the keys it names; 0 if malformed.
 * A window end left out keeps its value, except where the window is closed
 * (min = max): movsb_min alone then opens it up to the NT threshold
 * (movsb_max alone opens it from the loops' smallest size, as a min of 0
 * already does).  The ends must then satisfy min <= max. */
static int fc_parse_tune(const char *p, struct fc_settings *s)
{
    static const char *const keys[] = {"nt_threshold=", "movsb_min=", "movsb_max=", "movsb_gap=", "nt_pages=",
                                       "inorder_min="};
    struct fc_x86_tune *t = &s->t;
    int closed = t->movsb_min == t->movsb_max, min_given = 0, max_given = 0;
    while (*p) {
        unsigned which = 0;
        const char *v0 = NULL;
        for (; which < sizeof keys / sizeof keys[0]; which++)
            if ((v0 = fc_after(p, keys[which])) != NULL) break;
        if (which == sizeof keys / sizeof keys[0]) return 0;
        size_t v;
        p = fc_parse_bytes(v0, &v);
        if (!p) return 0;
        if (*p == ',') p++;
        else if (*p) return 0;
        if (which == 0) t->nt_threshold = v ? v : (size_t)-1, fc_set(s, FC_SET_NT, FC_SRC_ENV); /* 0: never */
        else if (which == 1) t->movsb_min = v, min_given = 1, fc_set(s, FC_SET_MOVSB, FC_SRC_ENV);
        else if (which == 2) t->movsb_max = v, max_given = 1, fc_set(s, FC_SET_MOVSB, FC_SRC_ENV);
        else if (which == 3 && v < 2048) t->movsb_gap = v, fc_set(s, FC_SET_GAP, FC_SRC_ENV); /* 2048: no distance left */
        else if (which == 4 && (v == 1 || v == 4)) t->nt_pages = v, fc_set(s, FC_SET_PAGES, FC_SRC_ENV);
        else if (which == 5) t->inorder_min = v ? v : (size_t)-1, fc_set(s, FC_SET_INORDER, FC_SRC_ENV); /* 0: never */
        else return 0;
    }
    if (closed && min_given && !max_given) t->movsb_max = FC_UP_TO_NT; /* movsb_min=0 too: from 8W up */
    return t->movsb_min <= t->movsb_max;
}

/* ---- profiles ------------------------------------------------------------------ */

/* Entries a profile may name, with what they need (the registry's probes are
 * not callable here: they call back into this file). */
static int fc_entry_runs(const char *name, const struct fc_x86_info *in)
{
    if (fc_eq(name, "sse2") || fc_eq(name, "generic") || fc_eq(name, "byte") || fc_eq(name, "word-coaligned"))
        return 1;
    if (fc_eq(name, "avx2")) return in->avx2;
    if (fc_eq(name, "avx512") || fc_eq(name, "avx512-ymmloop")) return in->avx512f;
    if (fc_eq(name, "avx512-masked")) return in->avx512bw && in->bmi2;
    if (fc_eq(name, "erms")) return in->erms;
    return -1; /* not an entry */
}

static const char *const fc_profile_names[] = {"impl", "nt_threshold", "movsb_min", "movsb_max", "movsb_gap",
                                               "nt_pages", "inorder_min"};
#define FC_PROFILE_KEYS ((int)(sizeof fc_profile_names / sizeof fc_profile_names[0]))
static char fc_profile_impl_buf[32];

/* Parses a profile (format: docs/profile.md) into *s; 0 and a reason in why if
 * anything in it is wrong - then nothing of it is used. */
static int fc_parse_profile(const char *text, long len, const char *sig, const struct fc_x86_info *in,
                            struct fc_settings *s, char *why, size_t whylen)
{
    size_t wn = 0;
    struct fc_settings u;
    fc__copy_bytes(&u, s, sizeof u);
    int seen[FC_PROFILE_KEYS] = {0}, header = 0, cpu = 0, line = 0, ended = 0;
    char impl[sizeof s->impl];
    impl[0] = 0;
    for (long i = 0; i < len; i++) {
        unsigned char c = (unsigned char)text[i];
        if (c == 0 || (c < 0x20 && c != '\n' && c != '\t' && c != '\r') || c >= 0x7f) {
            fc_put(why, whylen, &wn, "not a text file (a byte that is no printable ASCII)");
            return 0;
        }
    }
    /* Format 2 ends with a line "end": a file cut anywhere, even at a line
     * boundary, lacks it.  Looked for first, so that a cut inside a line is
     * called what it is rather than, say, another CPU's signature. */
    {
        const char *q = text + len;
        for (;;) { /* the last line that is not blank or a comment */
            while (q > text && (q[-1] == '\n' || q[-1] == '\r' || q[-1] == ' ' || q[-1] == '\t')) q--;
            const char *b = q;
            while (b > text && b[-1] != '\n') b--;
            const char *k = b;
            while (k < q && (*k == ' ' || *k == '\t')) k++;
            if (k < q && *k == '#') {
                q = b;
                continue;
            }
            if (!(q - k == 3 && k[0] == 'e' && k[1] == 'n' && k[2] == 'd')) {
                int v1 = 0; /* a format 1 file has no end line: say so rather than "cut short" */
                for (const char *h = text; h + 18 <= text + len && !v1; h++) {
                    const char *b0 = h; /* a line start, then its blanks */
                    if (h != text && h[-1] != '\n') continue;
                    while (b0 < text + len && (*b0 == ' ' || *b0 == '\t')) b0++;
                    v1 = b0 + 18 <= text + len && fc_after(b0, "fastcopy-profile 1") &&
                         (b0 + 18 == text + len || b0[18] == '\n' || b0[18] == '\r' || b0[18] == ' ' || b0[18] == '\t');
                }
                fc_put(why, whylen, &wn, k == q && q == text ? "empty"
                                         : v1 ? "format 1 (fastcopy-tune before 2026-11-27): run fastcopy-tune again"
                                              : "cut short: its last line is not \"end\"");
                return 0;
            }
            break;
        }
    }
    const char *p = text, *end = text + len;
    while (p < end) {
        const char *eol = p;
        while (eol < end && *eol != '\n') eol++;
        line++;
        char l[256];
        size_t ln = 0;
        if (eol - p - (eol > p && eol[-1] == '\r') >= (long)sizeof l) { /* a CRLF line's CR not counted */
            fc_put(why, whylen, &wn, "line ");
            fc_put_num(why, whylen, &wn, (uint64_t)line, 0);
            fc_put(why, whylen, &wn, " is longer than 255 bytes");
            return 0;
        }
        for (const char *q = p; q < eol; q++) l[ln++] = *q;
        while (ln && (l[ln - 1] == ' ' || l[ln - 1] == '\t' || l[ln - 1] == '\r')) ln--;
        l[ln] = 0;
        p = eol + 1;
        const char *k = l;
        while (*k == ' ' || *k == '\t') k++;
        if (!*k || *k == '#') continue;
        const char *v = NULL;
        if (!header) {
            if (!fc_eq(k, "fastcopy-profile 2")) {
                fc_put(why, whylen, &wn, "its first line is not \"fastcopy-profile 2\"");
                return 0;
            }
            header = 1;
            continue;
        }
        if (ended) { /* only the last such line is "end" (checked above) */
            fc_put(why, whylen, &wn, "line ");
            fc_put_num(why, whylen, &wn, (uint64_t)line, 0);
            fc_put(why, whylen, &wn, ": after the end line");
            return 0;
        }
        if (fc_eq(k, "end")) {
            ended = 1;
            continue;
        }
        if ((v = fc_after(k, "cpu ")) != NULL) {
            if (cpu++) {
                fc_put(why, whylen, &wn, "two cpu lines");
                return 0;
            }
            if (!fc_eq(v, sig)) {
                fc_put(why, whylen, &wn, "written for another CPU (");
                fc_put(why, whylen, &wn, v);
                fc_put(why, whylen, &wn, ")");
                return 0;
            }
            continue;
        }
        int which = -1;
        for (int w = 0; w < FC_PROFILE_KEYS && which < 0; w++) {
            const char *a = fc_after(k, fc_profile_names[w]);
            if (a && *a == ' ') which = w, v = a + 1;
        }
        if (which < 0) {
            fc_put(why, whylen, &wn, "line ");
            fc_put_num(why, whylen, &wn, (uint64_t)line, 0);
            fc_put(why, whylen, &wn, ": unknown key");
            return 0;
        }
        if (seen[which]++) {
            fc_put(why, whylen, &wn, "line ");
            fc_put_num(why, whylen, &wn, (uint64_t)line, 0);
            fc_put(why, whylen, &wn, ": ");
            fc_put(why, whylen, &wn, fc_profile_names[which]);
            fc_put(why, whylen, &wn, " given twice");
            return 0;
        }
        while (*v == ' ') v++;
        if (which == 0) {
            int runs = fc_entry_runs(v, in);
            size_t vl = 0;
            while (v[vl]) vl++;
            if (runs != 1 || vl >= sizeof impl) {
                fc_put(why, whylen, &wn, "line ");
                fc_put_num(why, whylen, &wn, (uint64_t)line, 0);
                fc_put(why, whylen, &wn, runs < 0 ? ": impl is not an entry of the registry"
                                                  : ": impl is not available on this CPU");
                return 0;
            }
            for (size_t q = 0; q <= vl; q++) impl[q] = v[q];
            continue;
        }
        size_t x;
        const char *e = fc_parse_bytes(v, &x);
        if (!e || *e || (which == 4 && x >= 2048) || (which == 5 && x != 1 && x != 4)) {
            fc_put(why, whylen, &wn, "line ");
            fc_put_num(why, whylen, &wn, (uint64_t)line, 0);
            fc_put(why, whylen, &wn, ": bad value for ");
            fc_put(why, whylen, &wn, fc_profile_names[which]);
            return 0;
        }
        if (which == 1) u.t.nt_threshold = x ? x : (size_t)-1, fc_set(&u, FC_SET_NT, FC_SRC_PROFILE);
        if (which == 2) u.t.movsb_min = x, fc_set(&u, FC_SET_MOVSB, FC_SRC_PROFILE);
        if (which == 3) u.t.movsb_max = x, fc_set(&u, FC_SET_MOVSB, FC_SRC_PROFILE);
        if (which == 4) u.t.movsb_gap = x, fc_set(&u, FC_SET_GAP, FC_SRC_PROFILE);
        if (which == 5) u.t.nt_pages = x, fc_set(&u, FC_SET_PAGES, FC_SRC_PROFILE);
        if (which == 6) u.t.inorder_min = x ? x : (size_t)-1, fc_set(&u, FC_SET_INORDER, FC_SRC_PROFILE);
    }
    if (!header || !cpu) {
        fc_put(why, whylen, &wn, !header ? "empty" : "no cpu line");
        return 0;
    }
    if (seen[2] != seen[3] || u.t.movsb_min > u.t.movsb_max) {
        fc_put(why, whylen, &wn, "movsb_min and movsb_max must come together, min <= max");
        return 0;
    }
    if (impl[0]) {
        for (size_t q = 0; q < sizeof impl; q++) u.impl[q] = impl[q];
        fc_set(&u, FC_SET_IMPL, FC_SRC_PROFILE);
    }
    fc__copy_bytes(s, &u, sizeof u);
    return 1;
}

/* A note for fastcopy-info: "PATH: TEXT". */
static void fc_note(struct fc_x86_status *st, const char *path, const char *text)
{
    if (st->nnotes >= FC_NOTES) return;
    char *b = st->notes[st->nnotes++];
    size_t n = 0;
    fc_put(b, FC_NOTE_LEN, &n, path);
    fc_put(b, FC_NOTE_LEN, &n, ": ");
    fc_put(b, FC_NOTE_LEN, &n, text);
}

/* Tries one profile: 1 if it was taken (its settings now in *s). */
static int fc_try_profile(struct fc_x86_status *st, const char *path, int need_trusted, const struct fc_x86_info *in,
                          struct fc_settings *s)
{
    char text[FC_PROFILE_MAX + 1]; /* each deciding caller its own */
    char why[FC_NOTE_LEN];
    int trusted;
    long len = fc__read_file(path, text, sizeof text, &trusted);
    why[0] = 0;
    if (len == FC_FILE_ABSENT) {
        fc_note(st, path, "absent or unreadable");
        return 0;
    }
    if (len == FC_FILE_TOO_BIG) {
        fc_note(st, path, "ignored: larger than " FC_XSTR(FC_PROFILE_MAX) " bytes");
        return 0;
    }
    if (len < 0) {
        fc_note(st, path, "ignored: not a regular file, or a read error");
        return 0;
    }
    if (need_trusted && !trusted) {
        fc_note(st, path, "ignored in this secure-execution process: not owned by root, or writable by others");
        return 0;
    }
    if (!fc_parse_profile(text, len, st->signature, in, s, why, sizeof why)) {
        char msg[FC_NOTE_LEN];
        size_t n = 0;
        fc_put(msg, sizeof msg, &n, "ignored: ");
        fc_put(msg, sizeof msg, &n, why);
        fc_note(st, path, msg);
        return 0;
    }
    size_t n = 0;
    fc_put(st->profile, sizeof st->profile, &n, path);
    fc_note(st, path, "in use");
    return 1;
}

/* FASTCOPY_PROFILE (a path, or "off"), else $XDG_CONFIG_HOME/fastcopy/profile
 * (XDG_CONFIG_HOME absolute) or $HOME/.config/fastcopy/profile, else the
 * system profile: the first that is a valid profile for this CPU is taken;
 * FASTCOPY_PROFILE, when set, is the only one tried.  A secure-execution
 * process takes only the system profile, and only if root owns it and nobody
 * else may write it. */
static void fc_load_profile(struct fc_x86_status *st, const struct fc_x86_info *in, struct fc_settings *s)
{
    char path[FC_PATH_MAX], sys[FC_PATH_MAX];
    size_t sn = 0;
    fc_put(sys, sizeof sys, &sn, FC_SYSTEM_PROFILE); /* not an initialiser: that is a memcpy call */
#ifdef FC_TEST_HOOKS
    char hook[FC_PATH_MAX];
    if (fc__early_getenv("FASTCOPY_TEST_SYSTEM_PROFILE", hook, sizeof hook) == 1 && hook[0]) {
        sn = 0;
        fc_put(sys, sizeof sys, &sn, hook);
    }
#endif
    if (st->secure) {
        (void)fc_try_profile(st, sys, 1, in, s);
        return;
    }
    int got = fc__early_getenv("FASTCOPY_PROFILE", path, sizeof path);
    if (got == 2) {
        fc_note(st, "FASTCOPY_PROFILE", "ignored: the path is too long");
        return;
    }
    if (got == 1 && path[0]) {
        if (fc_eq(path, "off")) fc_note(st, "FASTCOPY_PROFILE=off", "no profile read");
        else (void)fc_try_profile(st, path, 0, in, s);
        return;
    }
    /* the per-user profile: XDG_CONFIG_HOME when it is an absolute path (too long to read: the
     * per-user profile is skipped, said so - not HOME's, which XDG uses only without it) */
    char base[FC_PATH_MAX];
    size_t n = 0;
    path[0] = 0;
    const char *var = "XDG_CONFIG_HOME", *tail = "/fastcopy/profile";
    int x = fc__early_getenv(var, base, sizeof base);
    if (!(x && base[0] == '/')) {
        var = "HOME", tail = "/.config/fastcopy/profile";
        x = fc__early_getenv(var, base, sizeof base);
    }
    if (x && base[0] == '/') {
        size_t need = 0; /* the whole path's length: fc_put stops at sizeof path - 1 */
        while (base[need]) need++;
        for (const char *t = tail; *t; t++) need++;
        fc_put(path, sizeof path, &n, base);
        fc_put(path, sizeof path, &n, tail);
        if (x == 2 || need >= sizeof path) {
            char why[96];
            size_t wn = 0;
            fc_put(why, sizeof why, &wn, "the per-user profile's path is longer than ");
            fc_put_num(why, sizeof why, &wn, (uint64_t)(sizeof path - 1), 0);
            fc_put(why, sizeof why, &wn, " bytes: skipped");
            fc_note(st, var, why);
        } else if (fc_try_profile(st, path, 0, in, s)) {
            return;
        }
    }
    (void)fc_try_profile(st, sys, 0, in, s);
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
    fc_clear_struct(&s, sizeof s);
    fc__copy_bytes(&s.t, &fc__x86_tune, sizeof s.t);
    s.zmm = fc_info.prefer_zmm;
    why[0] = 0;
    if (!fc_parse_profile(text, len, fc_status.signature, &fc_info, &s, why, whylen)) return 0;
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

#ifdef FC_TEST_HOOKS
/* Test builds only: FASTCOPY_TEST_CPU="vendor=amd|intel|other family=0x1a model=0x2
 * stepping=0 features=avx2,avx512f,... l1d=48k l2=1m llc=32m/2" replaces what
 * CPUID said, so that the tests can check the decisions for CPUs this
 * machine is not (tests/CMakeLists.txt, policy-*; fastcopy-info --decisions,
 * which runs no copy: the registry then believes in the fake features). */
static void fc_fake_cpu(struct fc_x86_info *in)
{
    char spec[512];
    if (fc__early_getenv("FASTCOPY_TEST_CPU", spec, sizeof spec) != 1 || !spec[0]) return;
    struct fc_x86_info f;
    fc_clear_struct(&f, sizeof f);
    f.sse2 = 1;
    f.max_leaf = in->max_leaf;
    f.max_ext_leaf = in->max_ext_leaf;
    for (const char *p = spec; *p;) {
        while (*p == ' ') p++;
        const char *v;
        size_t x = 0;
        if ((v = fc_after(p, "vendor=")) != NULL) {
            f.vendor_amd = fc_after(v, "amd") != NULL;
            f.vendor_intel = fc_after(v, "intel") != NULL;
        } else if ((v = fc_after(p, "features=")) != NULL) {
            static const char *const names[] = {"avx2", "avx512f", "avx512bw", "bmi2", "erms", "fsrm", "avx-vnni"};
            int *const flag[] = {&f.avx2, &f.avx512f, &f.avx512bw, &f.bmi2, &f.erms, &f.fsrm, &f.avx_vnni};
            for (const char *q = v; *q && *q != ' ';) {
                for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
                    const char *e = fc_after(q, names[i]);
                    if (e && (*e == ',' || *e == ' ' || !*e)) *flag[i] = 1;
                }
                while (*q && *q != ',' && *q != ' ') q++;
                if (*q == ',') q++;
            }
            f.avx = f.os_ymm = f.avx2;
            f.os_zmm = f.avx512f;
        } else {
            static const char *const keys[] = {"family=0x", "model=0x", "stepping=", "l1d=", "l2=", "llc="};
            size_t k = 0;
            for (; k < 6 && !(v = fc_after(p, keys[k])); k++) {
            }
            if (k < 6) {
                if (k < 2) {
                    for (; (*v >= '0' && *v <= '9') || (*v >= 'a' && *v <= 'f'); v++)
                        x = x * 16 + (size_t)(*v <= '9' ? *v - '0' : *v - 'a' + 10);
                } else {
                    const char *e = fc_parse_bytes(v, &x);
                    if (e) v = e;
                }
                if (k == 0) f.family = (unsigned)x;
                if (k == 1) f.model = (unsigned)x;
                if (k == 2) f.stepping = (unsigned)x;
                if (k == 3) f.l1d_size = x;
                if (k == 4) f.l2_size = x;
                if (k == 5) {
                    f.llc_size = x, f.llc_level = 3, f.llc_threads = 1;
                    if (*v == '/') {
                        size_t t = 0;
                        const char *e = fc_parse_bytes(v + 1, &t);
                        if (e && t) f.llc_threads = (unsigned)t;
                    }
                }
            }
        }
        while (*p && *p != ' ') p++;
    }
    fc__copy_bytes(in, &f, sizeof f);
}
#endif

/* ---- the decision -------------------------------------------------------------- */

void fc__x86_init(void)
{
    if (__atomic_load_n(&fc_state, __ATOMIC_ACQUIRE)) return;
    struct fc_x86_status st;
    fc_clear_struct(&st, sizeof st);
    struct fc_x86_info in;
    fc_clear_struct(&in, sizeof in);
    unsigned r[4];
    fc_cpuid(0, 0, r);
    in.max_leaf = r[0];
    /* "GenuineIntel": ebx "Genu", edx "ineI", ecx "ntel"; "AuthenticAMD": ebx "Auth" */
    in.vendor_intel = r[1] == 0x756e6547 && r[3] == 0x49656e69 && r[2] == 0x6c65746e;
    in.vendor_amd = r[1] == 0x68747541 && r[3] == 0x69746e65 && r[2] == 0x444d4163;
    fc_cpuid(0x80000000, 0, r);
    in.max_ext_leaf = r[0];

    in.sse2 = 1;
    if (in.max_leaf >= 1) {
        fc_cpuid(1, 0, r);
        unsigned base = (r[0] >> 8) & 0xf, fam = base, model = (r[0] >> 4) & 0xf;
        if (base == 0xf) fam += (r[0] >> 20) & 0xff;
        /* the extended model counts for base families 6 and 15 (Zen 4: base 15, model 0x11) */
        if (base == 0xf || base == 6) model |= ((r[0] >> 16) & 0xf) << 4;
        in.family = fam;
        in.model = model;
        in.stepping = r[0] & 0xf;
        int osxsave = (r[2] >> 27) & 1;
        in.avx = (r[2] >> 28) & 1;
        uint64_t xcr0 = osxsave ? fc_xgetbv0() : 0;
        in.os_ymm = (xcr0 & 0x06) == 0x06;
        in.os_zmm = (xcr0 & 0xe6) == 0xe6;
    }
    if (in.max_leaf >= 7) {
        fc_cpuid(7, 0, r);
        in.avx2 = in.avx && in.os_ymm && ((r[1] >> 5) & 1);
        in.erms = (r[1] >> 9) & 1;
        in.fsrm = (r[3] >> 4) & 1;
        in.avx512f = in.avx2 && in.os_zmm && ((r[1] >> 16) & 1);
        in.avx512bw = in.avx512f && ((r[1] >> 30) & 1);
        in.bmi2 = (r[1] >> 8) & 1;
        if (r[0] >= 1) {
            fc_cpuid(7, 1, r);
            in.avx_vnni = (r[0] >> 4) & 1;
        }
    }

    if (in.vendor_amd && in.max_ext_leaf >= 0x8000001D) {
        fc_cpuid(0x80000001, 0, r);
        if ((r[2] >> 22) & 1) fc_scan_caches(0x8000001D, &in); /* TOPOEXT */
    } else if (!in.vendor_amd && in.max_leaf >= 4) {
        fc_scan_caches(4, &in);
    }

#ifdef FC_TEST_HOOKS
    fc_fake_cpu(&in); /* FASTCOPY_TEST_CPU: the decisions for another CPU (tests only) */
#endif

    /* 1. defaults from features */
    struct fc_settings s;
    fc_clear_struct(&s, sizeof s);
    s.t.nt_threshold = FC_NT_DEFAULT;
    s.t.movsb_gap = FC_GAP_DEFAULT;
    s.t.nt_pages = 1;
    s.t.inorder_min = FC_INORDER_DEFAULT;
    s.zmm = FC_ZMM_NO;
    s.zmm = in.avx512f ? FC_ZMM_AVX512 : FC_ZMM_NO;
    if (in.erms) {
        s.t.movsb_min = in.l1d_size ? in.l1d_size / 2 : 16 * FC_KIB;
        s.t.movsb_max = FC_UP_TO_NT;
    }
    unsigned nt_num = 3, nt_den = 4;
    int nt_per_thread = 0;

    /* 2. the exception for this CPU, if one was measured */
    st.exception = NULL;
    for (size_t i = 0; i < sizeof fc_exceptions / sizeof fc_exceptions[0]; i++) {
        const struct fc_exception *x = &fc_exceptions[i];
        if (!(x->vendor == FC_AMD ? in.vendor_amd : in.vendor_intel) || in.family < x->fam_lo ||
            in.family > x->fam_hi || ((x->needs & FC_NEED_AVX512F) && !in.avx512f) ||
            ((x->needs & FC_NEED_AVX_VNNI) && !in.avx_vnni) || ((x->needs & FC_NO_AVX512F) && in.avx512f))
            continue;
        st.exception = x->name;
        if (x->zmm != FC_KEEP && in.avx512f) s.zmm = x->zmm, fc_set(&s, FC_SET_IMPL, FC_SRC_EXCEPTION);
        if (x->window) {
            s.t.movsb_min = x->window == 1 ? x->movsb_min : 0;
            s.t.movsb_max = x->window == 1 ? x->movsb_max : 0;
            s.t.movsb_gap = x->movsb_gap; /* also a closed row's: FASTCOPY_TUNE may open the window */
            fc_set(&s, FC_SET_MOVSB, FC_SRC_EXCEPTION);
            fc_set(&s, FC_SET_GAP, FC_SRC_EXCEPTION);
        }
        if (x->nt_den) {
            nt_num = x->nt_num, nt_den = x->nt_den, nt_per_thread = x->nt_per_thread;
            fc_set(&s, FC_SET_NT, FC_SRC_EXCEPTION);
        }
        if (x->nt_pages) s.t.nt_pages = x->nt_pages, fc_set(&s, FC_SET_PAGES, FC_SRC_EXCEPTION);
        break;
    }
    if (!nt_num) {
        s.t.nt_threshold = (size_t)-1; /* never */
    } else if (in.llc_size) {
        size_t llc = nt_per_thread && in.llc_threads ? in.llc_size / in.llc_threads : in.llc_size;
        size_t nt = llc / nt_den * nt_num;
        s.t.nt_threshold = nt < FC_NT_MIN ? FC_NT_MIN : nt > FC_NT_MAX ? FC_NT_MAX : nt;
    }
    in.prefer_zmm = s.zmm;

    /* 3. a tuned profile; 4. FASTCOPY_TUNE (neither from the environment in a
     * secure-execution process) */
    st.secure = fc__secure();
    fc_signature(&in, st.signature, sizeof st.signature);
    fc_load_profile(&st, &in, &s);
#ifdef FC_TEST_HOOKS
    if (fc__x86_test_hook) fc__x86_test_hook();
#endif
    char env[FC_TUNE_MAX + 1];
    int got = st.secure ? 0 : fc__early_getenv("FASTCOPY_TUNE", env, sizeof env);
    if (got && env[0]) {
        struct fc_settings u;
        fc__copy_bytes(&u, &s, sizeof u);
        if (got == 1 && fc_parse_tune(env, &u))
            fc__copy_bytes(&s, &u, sizeof s);
        else if (!__atomic_exchange_n(&fc_warned, 1, __ATOMIC_ACQ_REL))
            fc__warn("fastcopy: FASTCOPY_TUNE=", env,
                     got == 1 ? " not understood (expected nt_threshold=, movsb_min=, movsb_max=BYTES[k|m|g], "
                                "min <= max, movsb_gap<2048, nt_pages=1|4, inorder_min=BYTES); ignored"
                              : "... longer than " FC_XSTR(FC_TUNE_MAX) " bytes; ignored",
                     "");
    }

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

int fc__x86_probe_sse2(void) { return fc__x86_info()->sse2; }
int fc__x86_probe_avx2(void) { return fc__x86_info()->avx2; }
int fc__x86_probe_avx512(void) { return fc__x86_info()->avx512f; }
int fc__x86_probe_avx512_masked(void) { return fc__x86_info()->avx512bw && fc__x86_info()->bmi2; }
int fc__x86_prefer_avx512(void) { return fc__x86_info()->prefer_zmm == FC_ZMM_AVX512; }
int fc__x86_prefer_avx512_ymmloop(void) { return fc__x86_info()->prefer_zmm == FC_ZMM_YMMLOOP; }
int fc__x86_probe_erms(void) { return fc__x86_info()->erms; }
#endif
