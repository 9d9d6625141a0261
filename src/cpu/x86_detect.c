/*
 * x86-64 CPU detection: the features for the registry probes and the caches
 * the policy (x86_policy.c) sizes its thresholds from, and the signature a
 * tuned profile names (x86_settings.c).  What is decided from them is not
 * here.
 *
 * Runs inside the ifunc resolvers (through fc__registry_probe and
 * fc__x86_init), before libc is initialised: no libc calls, no
 * __builtin_cpu_supports (needs libgcc's constructor).  Only cpuid, xgetbv
 * and dispatch/early.c's helpers.
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
 */
#if defined(__x86_64__)
#include <cpuid.h>
#include <stdint.h>

#include "cpu/x86_private.h"
#include "dispatch/early.h"
#include "internal.h"

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
    fc__clear_bytes(&f, sizeof f);
    f.sse2 = 1;
    f.max_leaf = in->max_leaf;
    f.max_ext_leaf = in->max_ext_leaf;
    for (const char *p = spec; *p;) {
        while (*p == ' ') p++;
        const char *v;
        if ((v = fc__str_after(p, "vendor=")) != NULL) {
            f.vendor_amd = fc__str_after(v, "amd") != NULL;
            f.vendor_intel = fc__str_after(v, "intel") != NULL;
        } else if ((v = fc__str_after(p, "features=")) != NULL) {
            static const char *const names[] = {"avx2", "avx512f", "avx512bw", "bmi2", "erms", "fsrm", "avx-vnni"};
            int *const flag[] = {&f.avx2, &f.avx512f, &f.avx512bw, &f.bmi2, &f.erms, &f.fsrm, &f.avx_vnni};
            for (const char *q = v; *q && *q != ' ';) {
                for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
                    const char *e = fc__str_after(q, names[i]);
                    if (e && (*e == ',' || *e == ' ' || !*e)) *flag[i] = 1;
                }
                while (*q && *q != ',' && *q != ' ') q++;
                if (*q == ',') q++;
            }
            f.avx = f.os_ymm = f.avx2;
            f.os_zmm = f.avx512f;
        } else {
            /* family and model in hexadecimal after their 0x, the rest BYTES[k|m|g];
             * a value without a digit reads as 0 */
            static const char *const keys[] = {"family=0x", "model=0x", "stepping=", "l1d=", "l2=", "llc="};
            size_t k = 0;
            for (; k < 6 && !(v = fc__str_after(p, keys[k])); k++) {
            }
            if (k < 6) {
                uint64_t x = 0;
                const char *e = fc__parse_num(v, k < 2 ? FC_NUM_HEX : FC_NUM_DEC | FC_NUM_KMG, &x);
                if (e) v = e;
                if (k == 0) f.family = (unsigned)x;
                if (k == 1) f.model = (unsigned)x;
                if (k == 2) f.stepping = (unsigned)x;
                if (k == 3) f.l1d_size = x;
                if (k == 4) f.l2_size = x;
                if (k == 5) {
                    f.llc_size = x, f.llc_level = 3, f.llc_threads = 1;
                    uint64_t t = 0;
                    if (*v == '/' && fc__parse_num(v + 1, FC_NUM_DEC | FC_NUM_KMG, &t) && t)
                        f.llc_threads = (unsigned)t;
                }
            }
        }
        while (*p && *p != ' ') p++;
    }
    fc__copy_bytes(in, &f, sizeof f);
}
#endif

void fc__x86_detect(struct fc_x86_info *in)
{
    fc__clear_bytes(in, sizeof *in);
    unsigned r[4];
    fc_cpuid(0, 0, r);
    in->max_leaf = r[0];
    /* "GenuineIntel": ebx "Genu", edx "ineI", ecx "ntel"; "AuthenticAMD": ebx "Auth" */
    in->vendor_intel = r[1] == 0x756e6547 && r[3] == 0x49656e69 && r[2] == 0x6c65746e;
    in->vendor_amd = r[1] == 0x68747541 && r[3] == 0x69746e65 && r[2] == 0x444d4163;
    fc_cpuid(0x80000000, 0, r);
    in->max_ext_leaf = r[0];

    in->sse2 = 1;
    if (in->max_leaf >= 1) {
        fc_cpuid(1, 0, r);
        unsigned base = (r[0] >> 8) & 0xf, fam = base, model = (r[0] >> 4) & 0xf;
        if (base == 0xf) fam += (r[0] >> 20) & 0xff;
        /* the extended model counts for base families 6 and 15 (Zen 4: base 15, model 0x11) */
        if (base == 0xf || base == 6) model |= ((r[0] >> 16) & 0xf) << 4;
        in->family = fam;
        in->model = model;
        in->stepping = r[0] & 0xf;
        int osxsave = (r[2] >> 27) & 1;
        in->avx = (r[2] >> 28) & 1;
        uint64_t xcr0 = osxsave ? fc_xgetbv0() : 0;
        in->os_ymm = (xcr0 & 0x06) == 0x06;
        in->os_zmm = (xcr0 & 0xe6) == 0xe6;
    }
    if (in->max_leaf >= 7) {
        fc_cpuid(7, 0, r);
        in->avx2 = in->avx && in->os_ymm && ((r[1] >> 5) & 1);
        in->erms = (r[1] >> 9) & 1;
        in->fsrm = (r[3] >> 4) & 1;
        in->avx512f = in->avx2 && in->os_zmm && ((r[1] >> 16) & 1);
        in->avx512bw = in->avx512f && ((r[1] >> 30) & 1);
        in->bmi2 = (r[1] >> 8) & 1;
        if (r[0] >= 1) {
            fc_cpuid(7, 1, r);
            in->avx_vnni = (r[0] >> 4) & 1;
        }
    }

    if (in->vendor_amd && in->max_ext_leaf >= 0x8000001D) {
        fc_cpuid(0x80000001, 0, r);
        if ((r[2] >> 22) & 1) fc_scan_caches(0x8000001D, in); /* TOPOEXT */
    } else if (!in->vendor_amd && in->max_leaf >= 4) {
        fc_scan_caches(4, in);
    }

#ifdef FC_TEST_HOOKS
    fc_fake_cpu(in); /* FASTCOPY_TEST_CPU: the decisions for another CPU (tests only) */
#endif
}

void fc__x86_signature(const struct fc_x86_info *in, char *buf, size_t size)
{
    size_t n = 0;
    buf[0] = 0;
    fc__str_put(buf, size, &n, "x86-64 ");
    fc__str_put(buf, size, &n, in->vendor_amd ? "AuthenticAMD" : in->vendor_intel ? "GenuineIntel" : "other");
    fc__str_put(buf, size, &n, " family ");
    fc__str_put_num(buf, size, &n, in->family, 1);
    fc__str_put(buf, size, &n, " model ");
    fc__str_put_num(buf, size, &n, in->model, 1);
    fc__str_put(buf, size, &n, " stepping ");
    fc__str_put_num(buf, size, &n, in->stepping, 0);
    static const char *const names[] = {"sse2", "avx2", "avx512f", "avx512bw", "bmi2", "erms", "fsrm", "avx-vnni"};
    const int has[] = {in->sse2, in->avx2, in->avx512f, in->avx512bw, in->bmi2, in->erms, in->fsrm, in->avx_vnni};
    fc__str_put(buf, size, &n, " features");
    for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++)
        if (has[i]) {
            fc__str_put(buf, size, &n, " ");
            fc__str_put(buf, size, &n, names[i]);
        }
    fc__str_put(buf, size, &n, " l1d ");
    fc__str_put_num(buf, size, &n, in->l1d_size, 0);
    fc__str_put(buf, size, &n, " l2 ");
    fc__str_put_num(buf, size, &n, in->l2_size, 0);
    fc__str_put(buf, size, &n, " llc ");
    fc__str_put_num(buf, size, &n, in->llc_size, 0);
    fc__str_put(buf, size, &n, "/");
    fc__str_put_num(buf, size, &n, in->llc_threads, 0);
}
#endif
