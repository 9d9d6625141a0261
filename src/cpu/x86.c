/*
 * x86-64 CPU detection: features for the registry probes and the copy
 * thresholds the routines read, computed once at load.
 *
 * Runs inside the ifunc resolvers (through fc__registry_probe), before libc
 * is initialised: no libc calls, no __builtin_cpu_supports (needs libgcc's
 * constructor).  Only cpuid, xgetbv and fc__early_getenv.
 *
 *   feature  test
 *   sse2     always (x86-64 baseline)
 *   avx2     CPUID.7.0:EBX[5], CPUID.1:ECX[28] (AVX), CPUID.1:ECX[27] (OSXSAVE),
 *            XCR0[2:1] = 11b (the OS saves xmm and ymm state)
 *   avx512   CPUID.7.0:EBX[16] (AVX512F), OSXSAVE, XCR0[7:5] = 111b and
 *            XCR0[2:1] = 11b (the OS saves opmask, zmm and ymm state)
 *   avx512-masked  avx512 and CPUID.7.0:EBX[30] (AVX512BW) and EBX[8] (BMI2)
 *   erms     CPUID.7.0:EBX[9]          fsrm  CPUID.7.0:EDX[4] (reported only)
 *
 * Last-level cache: deterministic cache parameters, CPUID leaf 4 (Intel) or
 * 0x8000001D (AMD, with TOPOEXT); the highest-level data/unified cache, size =
 * ways * partitions * line * sets, shared by (EAX[25:14] + 1) logical CPUs:
 * one core group's LLC (a Zen 3 CCX or a Zen 4 CCD: 32 MiB).
 *
 *   threshold     value
 *   nt_threshold  policy fraction (below) of that LLC, clamped to [1 MiB,
 *                 256 MiB]; 24 MiB if the cache is unknown.
 *   movsb window  [movsb_min, movsb_max): no-overlap copies of that size whose
 *                 (dst - src) mod 4096 is at least movsb_gap from 0 (the
 *                 row's: 128 on AMD, 0 on Intel) use rep movsb.
 *                 Empty unless the policy table or FASTCOPY_TUNE opens it.
 *
 * Vendor/family policy (fc_policy[]; first match wins):
 *
 *   | vendor | family      | NT threshold | movsb window | zmm | evidence                  |
 *   |--------|-------------|--------------|--------------|-----|---------------------------|
 *   | Intel  | 6, with     | 3/4 of one   | 20 KiB up to | yes | Emerald Rapids (model 0xcf|
 *   |        | AVX-VNNI    | thread's LLC | the NT       |     | 16-vCPU guest), fcbench   |
 *   |        | and AVX-512 | share (LLC / | threshold,   |     | 2026-11-23, time / glibc's|
 *   |        | (SPR, EMR,  | threads that | at every     |     | zmm: avx512 0.86x / 0.91x |
 *   |        | GNR)        | share it);   | distance     |     | (two runs) over aligned   |
 *   |        |             | 4 pages      | (gap 0)      |     | 8 B-64 MiB, avx2 1.05x /  |
 *   |        |             | interleaved  |              |     | 1.08x.  NT: at 3/4 LLC    |
 *   |        |             |              |              |     | (225 MiB) 1.03-1.09x at   |
 *   |        |             |              |              |     | 16-64 MiB, from 14 MiB    |
 *   |        |             |              |              |     | 0.74-0.89x.  rep movsb:   |
 *   |        |             |              |              |     | at 22-26 KiB (src + dst   |
 *   |        |             |              |              |     | about L1d, 48 KiB) the    |
 *   |        |             |              |              |     | vector loop took 1.3-2.0x |
 *   |        |             |              |              |     | glibc's time, 1.6x at     |
 *   |        |             |              |              |     | src+1; with rep movsb     |
 *   |        |             |              |              |     | there 0.97-1.06x.  A 16-48|
 *   |        |             |              |              |     | KiB window cost 10-15% at |
 *   |        |             |              |              |     | dst+1 16-20 KiB: starts at|
 *   |        |             |              |              |     | 20.  Up to NT: the Xeon   |
 *   |        |             |              |              |     | development guest (2 vCPU,|
 *   |        |             |              |              |     | AMX), 3 rounds A/B, 32 KiB|
 *   |        |             |              |              |     | - 1 MiB aligned 1.04-1.09x|
 *   |        |             |              |              |     | -> 1.00-1.03x, src+1      |
 *   |        |             |              |              |     | 1.02-1.07x -> 1.00-1.03x, |
 *   |        |             |              |              |     | dst+1 0.97-0.99x -> 0.99- |
 *   |        |             |              |              |     | 1.01x; 3-8 MiB 1.00-1.03x |
 *   |        |             |              |              |     | -> 1.00x (glibc's rep     |
 *   |        |             |              |              |     | movsb runs to its NT      |
 *   |        |             |              |              |     | threshold too).  4 pages: |
 *   |        |             |              |              |     | 400 MiB 8340 -> 12163-    |
 *   |        |             |              |              |     | 12848 MiB/s (glibc 11631- |
 *   |        |             |              |              |     | 12224).                   |
 *   |        |             |              |              |     | No 128-byte gap: Intel's  |
 *   |        |             |              |              |     | rep movsb and the vector  |
 *   |        |             |              |              |     | loop have the same ~0.7x  |
 *   |        |             |              |              |     | worst at short distances. |
 *   |        |             |              |              |     | AVX-VNNI marks the Intel  |
 *   |        |             |              |              |     | cores whose clock zmm     |
 *   |        |             |              |              |     | loads/stores do not lower |
 *   |        |             |              |              |     | (glibc's criterion too)   |
 *   | AMD    | 0x19 with   | 1/2 LLC (one | empty (gap   | lad-| Zen 4 (EPYC, model 0x11,  |
 *   |        | AVX-512F    | CCD; 16 MiB: | 128 if set)  | der | 2-vCPU guest), fcbench    |
 *   |        | (Zen 4)     | src + dst    |              | only| 2026-11-24, time / glibc's|
 *   |        |             | fill it);    |              |     | (its avx512_unaligned_erms|
 *   |        |             | one NT stream|              |     | ), 3 dist runs: avx512-   |
 *   |        |             |              |              |     | ymmloop A .79-.80 B .78 D |
 *   |        |             |              |              |     | .81-.82 L .65-.66 M .72-  |
 *   |        |             |              |              |     | .74 W .75; avx2 A .89-.91 |
 *   |        |             |              |              |     | B .80-.82 D .86-.87 L .67-|
 *   |        |             |              |              |     | .70 M .77-.79 W .76-.79.  |
 *   |        |             |              |              |     | Loops: zmm splits in two  |
 *   |        |             |              |              |     | here; the zmm loop's worst|
 *   |        |             |              |              |     | placement 0.72 / 0.86 /   |
 *   |        |             |              |              |     | 0.87x own aligned at 4 /  |
 *   |        |             |              |              |     | 16 / 64 KiB, the ymm      |
 *   |        |             |              |              |     | loop's 0.81 / 0.88 / 0.91,|
 *   |        |             |              |              |     | src+1 1-16 KiB 0.94-1.02x |
 *   |        |             |              |              |     | vs 0.84-0.92x, 400 MiB NT |
 *   |        |             |              |              |     | 5% slower: ymm loops.     |
 *   |        |             |              |              |     | rep movsb: 0.035x at      |
 *   |        |             |              |              |     | (dst-src) mod 4096 < 32;  |
 *   |        |             |              |              |     | from a 64-aligned dst,    |
 *   |        |             |              |              |     | 4-23 MiB: 0.99-1.13x the  |
 *   |        |             |              |              |     | ymm loop's time.  NT      |
 *   |        |             |              |              |     | (2026-11-25, same process,|
 *   |        |             |              |              |     | rotating order, 21 rounds)|
 *   |        |             |              |              |     | / ordinary stores, hot:   |
 *   |        |             |              |              |     | 8 MiB 1.44-1.52x, 12 MiB  |
 *   |        |             |              |              |     | 1.05-1.15x, 14 1.00x, 15  |
 *   |        |             |              |              |     | 0.95-0.98x, 16 0.94-0.95x,|
 *   |        |             |              |              |     | 20 0.87-0.88x, 23 0.84-   |
 *   |        |             |              |              |     | 0.85x (src+1: crossover at|
 *   |        |             |              |              |     | 13-14 MiB);               |
 *   |        |             |              |              |     | cold (src not cached):    |
 *   |        |             |              |              |     | 6 MiB 0.79x, 8-16 MiB     |
 *   |        |             |              |              |     | 0.67-0.82x.  fc's time /  |
 *   |        |             |              |              |     | glibc's, hot, 16-23 MiB:  |
 *   |        |             |              |              |     | NT from 3/4 LLC (24 MiB)  |
 *   |        |             |              |              |     | 0.94-0.99x, from 1/2 0.76-|
 *   |        |             |              |              |     | 0.84x                     |
 *   | AMD    | 0x17..0x1A  | 3/4 LLC;     | empty (gap   | no  | Zen 3, fcbench 2026-11-22:|
 *   |        | (Zen 1..5)  | (one CCX);   | 128 if set)  |     | rep movsb never ahead of  |
 *   |        |             | one NT stream|              |     | the avx2 loop beyond noise|
 *   |        |             |              |              |     | aligned (0.96-1.7x its    |
 *   |        |             |              |              |     | time), 1.1-2x slower at   |
 *   |        |             |              |              |     | src+1, 7-34x at dst+1, 30x|
 *   |        |             |              |              |     | at (dst-src) mod 4096<128.|
 *   |        |             |              |              |     | zmm: Zen 3 has none; Zen 5|
 *   |        |             |              |              |     | (0x1A) not measured: avx2 |
 *   | other  | any         | 3/4 LLC; one | empty        | no  | not measured: open the    |
 *   |        |             | NT stream    |              |     | window with FASTCOPY_TUNE |
 *   |        |             |              |              |     | after fcbench --impl      |
 *   |        |             |              |              |     | erms,avx2 shows where rep |
 *   |        |             |              |              |     | movsb wins; FASTCOPY_IMPL=|
 *   |        |             |              |              |     | avx512 likewise           |
 *
 * zmm: whether avx512 (W = 64) may be the default where it runs; "no" keeps
 * avx2 the default (512-bit stores lower the core clock on Intel Skylake-SP
 * to Ice Lake, which costs the code around the copy too); "ladder only" makes
 * avx512-ymmloop the default: the zmm size classes up to 512 bytes, the ymm
 * loops above (vec_copy.h's FC_LW).
 *
 * NT streams: 4 pages = non-temporal stores 16 KiB at a time as four
 * interleaved 4 KiB streams (vec_copy.h, fc_loop_nt); the AMD row keeps one
 * stream (a standalone 2/4/8-page test on Zen 3 measured 1.1-8x slower).
 *
 * FASTCOPY_TUNE="nt_threshold=B,movsb_min=B,movsb_max=B,movsb_gap=B,nt_pages=P"
 * (any subset, any order; B in bytes with an optional k/m/g suffix;
 * nt_threshold=0 = never stream; movsb_gap <= 2048; P = 1 or 4) overrides the
 * table (a window reaching past the NT threshold ends there; where the row's
 * window is empty, movsb_min alone opens it up to the NT threshold, movsb_max
 * alone from the smallest loop size); a malformed value, movsb_min > movsb_max,
 * or a value longer than 127 bytes is reported once on stderr and ignored as a
 * whole.
 */
#if defined(__x86_64__)
#include <cpuid.h>
#include <stdint.h>

#include "cpu/x86.h"
#include "internal.h"

#define FC_MIB ((size_t)1 << 20)
#define FC_TUNE_MAX 127 /* bytes of FASTCOPY_TUNE read; a longer value is rejected, not cut */
#define FC_STR(x) #x
#define FC_XSTR(x) FC_STR(x)
#define FC_NT_DEFAULT (24 * FC_MIB)
#define FC_NT_MIN (1 * FC_MIB)
#define FC_NT_MAX (256 * FC_MIB)

struct fc_x86_tune fc__x86_tune = {FC_NT_DEFAULT, 0, 0, FC_NT_DEFAULT, 128, 1};

/* The table at the top.  nt = LLC * nt_num / nt_den. */
enum { FC_ANY, FC_AMD, FC_INTEL };
struct fc_policy {
    int vendor;                 /* FC_ANY, FC_AMD, FC_INTEL */
    unsigned fam_lo, fam_hi;    /* CPUID family range, inclusive */
    int needs;                  /* features the row requires (FC_NEED_*): AVX-VNNI and AVX-512F
                                 * pick Intel's server cores without the zmm clock penalty (not
                                 * the client cores, which have AVX-VNNI but no AVX-512);
                                 * AVX-512F alone picks Zen 4 out of AMD family 0x19 (Zen 3 has
                                 * none) */
    int nt_per_thread;          /* 0: nt = LLC * num / den; 1: nt = LLC / its threads * num / den */
    unsigned nt_num, nt_den;
    size_t movsb_min, movsb_max;
    size_t movsb_gap;           /* rep movsb avoids (dst - src) mod 4096 in [-gap, gap) */
    int zmm;                    /* FC_ZMM_*: which entry may be the default where it runs */
    size_t nt_pages;            /* 1: one linear NT stream; 4: four pages interleaved */
};
#define FC_KIB ((size_t)1 << 10)
#define FC_UP_TO_NT ((size_t)-1) /* movsb_max: the window ends where non-temporal stores begin */
enum { FC_NEED_AVX512F = 1, FC_NEED_AVX_VNNI = 2 };
enum { FC_ZMM_NO = 0, FC_ZMM_AVX512 = 1, FC_ZMM_YMMLOOP = 2 }; /* avx2 / avx512 / avx512-ymmloop */
static const struct fc_policy fc_policy[] = {
    /* AMD Zen 4 (family 0x19 with AVX-512; Zen 3 has none): the zmm ladder, ymm loops, NT from
     * half the LLC (src + dst fill it) */
    {FC_AMD, 0x19, 0x19, FC_NEED_AVX512F, 0, 1, 2, 0, 0, 128, FC_ZMM_YMMLOOP, 1},
    /* AMD Zen 1..5: rep movsb measured slower (Zen 3, Zen 4) */
    {FC_AMD, 0x17, 0x1A, 0, 0, 3, 4, 0, 0, 128, FC_ZMM_NO, 1},
    /* Intel Sapphire/Emerald/Granite Rapids (EMR measured): zmm, NT from a thread's LLC share,
     * rep movsb where it keeps up with L1 overflow */
    {FC_INTEL, 6, 6, FC_NEED_AVX512F | FC_NEED_AVX_VNNI, 1, 3, 4, 20 * FC_KIB, FC_UP_TO_NT, 0, FC_ZMM_AVX512, 4},
    /* everything else: not measured, window closed */
    {FC_ANY, 0, ~0u, 0, 0, 3, 4, 0, 0, 128, FC_ZMM_NO, 1},
};

static struct fc_x86_info fc_info;
static int fc_done;   /* 0: not yet, 1: done (racing initialisers compute the same values) */
static int fc_warned; /* the FASTCOPY_TUNE line is written once, by whichever racer gets here first */

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

/* Highest-level data or unified cache from a leaf-4-format leaf. */
static void fc_scan_caches(unsigned leaf, struct fc_x86_info *in)
{
    for (unsigned sub = 0; sub < 16; sub++) {
        unsigned r[4];
        fc_cpuid(leaf, sub, r);
        unsigned type = r[0] & 0x1f, level = (r[0] >> 5) & 7;
        if (type == 0) break;
        if (type != 1 && type != 3) continue; /* instruction caches */
        size_t ways = ((r[1] >> 22) & 0x3ff) + 1, parts = ((r[1] >> 12) & 0x3ff) + 1;
        size_t line = (r[1] & 0xfff) + 1, sets = (size_t)r[2] + 1;
        if (level >= in->llc_level) {
            in->llc_level = level;
            in->llc_size = ways * parts * line * sets;
            in->llc_threads = ((r[0] >> 14) & 0xfff) + 1;
        }
    }
}

/* One "KEY=BYTES[k|m|g]" value; returns the end of the number or NULL. */
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

/* "nt_threshold=123m,movsb_min=4k,..." -> sets the keys it names; 0 if malformed.
 * A window end left out keeps the row's value, except where the row's window
 * is empty (min = max): movsb_min alone then opens it up to the NT threshold
 * (movsb_max alone opens it from the loops' smallest size, as the row's min
 * of 0 already does).  The ends must then satisfy min <= max. */
static int fc_parse_tune(const char *p, struct fc_x86_tune *t)
{
    static const char *const keys[] = {"nt_threshold=", "movsb_min=", "movsb_max=", "movsb_gap=", "nt_pages="};
    int closed = t->movsb_min == t->movsb_max, min_given = 0, max_given = 0;
    while (*p) {
        unsigned which = 0;
        size_t k = 0;
        for (; which < sizeof keys / sizeof keys[0]; which++) {
            for (k = 0; keys[which][k] && p[k] == keys[which][k]; k++) {}
            if (!keys[which][k]) break;
        }
        if (which == sizeof keys / sizeof keys[0]) return 0;
        size_t v;
        p = fc_parse_bytes(p + k, &v);
        if (!p) return 0;
        if (*p == ',') p++;
        else if (*p) return 0;
        if (which == 0) t->nt_threshold = v ? v : (size_t)-1; /* 0: never stream */
        else if (which == 1) t->movsb_min = v, min_given = 1;
        else if (which == 2) t->movsb_max = v, max_given = 1;
        else if (which == 3 && v <= 2048) t->movsb_gap = v;
        else if (which == 4 && (v == 1 || v == 4)) t->nt_pages = v;
        else return 0;
    }
    if (closed && min_given && !max_given) t->movsb_max = FC_UP_TO_NT; /* movsb_min=0 too: from 8W up */
    return t->movsb_min <= t->movsb_max;
}

void fc__x86_init(void)
{
    if (__atomic_load_n(&fc_done, __ATOMIC_ACQUIRE)) return;
    struct fc_x86_info in = {0};
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

    const struct fc_policy *pol = fc_policy;
    while (!((pol->vendor == FC_ANY || (pol->vendor == FC_AMD ? in.vendor_amd : in.vendor_intel)) &&
             in.family >= pol->fam_lo && in.family <= pol->fam_hi &&
             (!(pol->needs & FC_NEED_AVX512F) || in.avx512f) && (!(pol->needs & FC_NEED_AVX_VNNI) || in.avx_vnni)))
        pol++;
    struct fc_x86_tune t = {FC_NT_DEFAULT, pol->movsb_min, pol->movsb_max, 0, pol->movsb_gap, pol->nt_pages};
    in.prefer_zmm = in.avx512f ? pol->zmm : FC_ZMM_NO;
    if (in.llc_size) {
        size_t llc = pol->nt_per_thread && in.llc_threads ? in.llc_size / in.llc_threads : in.llc_size;
        size_t nt = llc / pol->nt_den * pol->nt_num;
        t.nt_threshold = nt < FC_NT_MIN ? FC_NT_MIN : nt > FC_NT_MAX ? FC_NT_MAX : nt;
    }
    char env[FC_TUNE_MAX + 1];
    int got = fc__early_getenv("FASTCOPY_TUNE", env, sizeof env);
    if (got && env[0]) {
        struct fc_x86_tune u = t;
        if (got == 1 && fc_parse_tune(env, &u))
            t = u;
        else if (!__atomic_exchange_n(&fc_warned, 1, __ATOMIC_ACQ_REL))
            fc__warn("fastcopy: FASTCOPY_TUNE=", env,
                     got == 1 ? " not understood (expected nt_threshold=, movsb_min=, movsb_max=BYTES[k|m|g], "
                                "min <= max, movsb_gap<=2048, nt_pages=1|4); ignored"
                              : "... longer than " FC_XSTR(FC_TUNE_MAX) " bytes; ignored",
                     "");
    }

    if (t.movsb_max > t.nt_threshold) t.movsb_max = t.nt_threshold; /* FC_UP_TO_NT; NT is tested first anyway */
    if (t.movsb_max < t.movsb_min) t.movsb_max = t.movsb_min;        /* NT below the window: window empty */
    t.special_min = t.nt_threshold;
    if (t.movsb_min < t.movsb_max && t.movsb_min < t.special_min) t.special_min = t.movsb_min;

    fc_info = in;
    __atomic_store_n(&fc__x86_tune.special_min, t.special_min, __ATOMIC_RELAXED);
    __atomic_store_n(&fc__x86_tune.nt_threshold, t.nt_threshold, __ATOMIC_RELAXED);
    __atomic_store_n(&fc__x86_tune.movsb_min, t.movsb_min, __ATOMIC_RELAXED);
    __atomic_store_n(&fc__x86_tune.movsb_max, t.movsb_max, __ATOMIC_RELAXED);
    __atomic_store_n(&fc__x86_tune.movsb_gap, t.movsb_gap, __ATOMIC_RELAXED);
    __atomic_store_n(&fc__x86_tune.nt_pages, t.nt_pages, __ATOMIC_RELAXED);
    __atomic_store_n(&fc_done, 1, __ATOMIC_RELEASE);
}

const struct fc_x86_info *fc__x86_info(void)
{
    fc__x86_init();
    return &fc_info;
}

int fc__x86_probe_sse2(void) { return fc__x86_info()->sse2; }
int fc__x86_probe_avx2(void) { return fc__x86_info()->avx2; }
int fc__x86_probe_avx512(void) { return fc__x86_info()->avx512f; }
int fc__x86_probe_avx512_masked(void) { return fc__x86_info()->avx512bw && fc__x86_info()->bmi2; }
int fc__x86_prefer_avx512(void) { return fc__x86_info()->prefer_zmm == FC_ZMM_AVX512; }
int fc__x86_prefer_avx512_ymmloop(void) { return fc__x86_info()->prefer_zmm == FC_ZMM_YMMLOOP; }
int fc__x86_probe_erms(void) { return fc__x86_info()->erms; }
#endif
