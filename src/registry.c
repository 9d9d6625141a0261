/*
 * The registry: every implementation compiled into the library, one line each.
 * Tests and fcbench iterate it, so a routine added here is tested and
 * benchmarked everywhere.  Order is display order; `rank` picks the default.
 */

#include "internal.h"
#include "portable/portable.h"
#ifdef FC_RV64_ROUTINES
#include "cpu/riscv.h"
#include "riscv/riscv.h"
#endif
#if defined(__x86_64__)
#include "cpu/x86.h"
#include "x86/x86.h"
#endif
#if defined(__aarch64__) && defined(__linux__)
#include "aarch64/aarch64.h"
#include "cpu/aarch64.h"
#endif

#define FC_ENTRY_PREF(name, id, summary, probe, rank, preferred)                                    \
    { { name, summary, 0, fc_##id##_memcpy, fc_##id##_memmove }, probe, rank, preferred }
#define FC_ENTRY(name, id, summary, probe, rank) FC_ENTRY_PREF(name, id, summary, probe, rank, NULL)

struct fc_entry fc__registry[] = {
    FC_ENTRY("byte", byte, "byte loop, not vectorised: the stock baseline", NULL, 0),
    FC_ENTRY("word-coaligned", word_coaligned,
             "pre-2026 Linux riscv memcpy: words only when co-aligned and n >= 128, else bytes", NULL, 1),
    FC_ENTRY("generic", generic,
             "portable C: head/tail small sizes, aligned word path, unrolled words, shifted word copy",
             NULL, 10),
#ifdef FC_RV64_ROUTINES
    /* RV64 assembly (src/riscv/); CPU facts from src/cpu/riscv.c (riscv_hwprobe, AT_HWCAP). */
    FC_ENTRY("rv64-shifted", rv64_shifted,
             "RV64 asm, never misaligned: small aligned words, 32-word blocks, shifted word copy", NULL, 20),
    FC_ENTRY("rv64-misaligned-fast", rv64_misaligned_fast,
             "RV64 asm for fast misaligned access: overlapping head/tail words, dst-aligned blocks",
             fc__riscv_misaligned_fast, 30),
    FC_ENTRY("rv64-rvv", rv64_rvv, "RVV 1.0: vsetvli strip-mining, e8 (e64 when all 8-aligned), m1 small, m8 large",
             fc__riscv_has_v, 40),
#endif
#if defined(__aarch64__) && defined(__linux__)
    /* AArch64 assembly (src/aarch64/); Advanced SIMD is part of the Linux LP64 ABI: no probe;
     * SVE from AT_HWCAP (src/cpu/aarch64.c) */
    FC_ENTRY("neon", neon, "AArch64 Advanced SIMD: overlapping head/tail to 128 B, ldp/stp q 64-byte blocks to a 16-aligned dst",
             NULL, 20),
    FC_ENTRY("sve", sve, "AArch64 SVE, any vector length: whilelo-predicated up to 4 VL, 8-vector blocks above 8 VL",
             fc__aarch64_has_sve, 30),
#endif
#if defined(__x86_64__)
    FC_ENTRY("sse2", sse2, "x86-64 SSE2: 16-byte head/tail and blocks, aligned 4-vector loops, 4K-aliasing direction, NT",
             fc__x86_probe_sse2, 20),
    FC_ENTRY("avx2", avx2, "x86-64 AVX2: assembly up to 256 B (avx2_ladder.S), the sse2 loops at 32 bytes above (vec_copy.h)",
             fc__x86_probe_avx2, 30),
    FC_ENTRY_PREF("avx512", avx512, "x86-64 AVX-512: the same ladder at 64 bytes (zmm); the default wherever AVX-512F runs (docs/x86-policy.md)",
                  fc__x86_probe_avx512, 40, fc__x86_prefer_avx512),
    FC_ENTRY_PREF("avx512-ymmloop", avx512_ymmloop,
                  "x86-64 AVX-512: the avx512 ladder (zmm, up to 512 B), the avx2 loops (ymm) above; the default on AMD Zen 4",
                  fc__x86_probe_avx512, 35, fc__x86_prefer_avx512_ymmloop),
    FC_ENTRY("avx512-masked", avx512_masked,
             "x86-64 AVX-512BW: avx512 with n <= 64 as one masked move (no size branch); for measurement",
             fc__x86_probe_avx512_masked, 6),
    FC_ENTRY("erms", erms, "x86-64 rep movsb (memmove: backward overlap via avx2/sse2); for measurement",
             fc__x86_probe_erms, 5),
#endif
};

const size_t fc__registry_len = sizeof fc__registry / sizeof fc__registry[0];

void fc__registry_probe(void)
{
    /* Idempotent and deterministic: concurrent callers store the same values. */
    for (size_t i = 0; i < fc__registry_len; i++) {
        struct fc_entry *e = &fc__registry[i];
        __atomic_store_n(&e->pub.available, e->probe ? !!e->probe() : 1, __ATOMIC_RELAXED);
    }
}

/* The public view of this table (fc_impl_count, fc_impl_at, fc_impl_find)
 * lives in dispatch/select.c, the layer that makes the choice: this file is
 * the data and its probe, and calls nothing above it. */
