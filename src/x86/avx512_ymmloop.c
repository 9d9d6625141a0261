/*
 * avx512-ymmloop - the avx512 ladder (vec_copy.h at W = 64: zmm classes up to
 * 512 bytes) with the loops of the avx2 entry (ymm, 4 x 32 bytes a step) above
 * it.  For cores that execute every 512-bit load and store as two 256-bit
 * halves (AMD Zen 4): there the zmm classes save instructions and branches
 * (fewer, wider classes), while a zmm loop gains nothing per byte and loses at
 * misaligned placements, where every zmm load splits a cache line.
 *
 * Needs: AVX512F (its classes) and AVX2 (its loops), the OS saving opmask,
 * zmm and ymm state (src/cpu/x86_detect.c).  Compiled with -mavx512f (CMakeLists.txt).
 *
 * The choice for Zen 4 and its figures: D20 (docs/decisions/) and
 * docs/x86-policy.md.
 *
 *   | n          | technique                                                 |
 *   |------------|-----------------------------------------------------------|
 *   | 0..256     | the avx512 ladder (table at the top of vec_copy.h)        |
 *   | 257..512   | the first 4 zmm and the last 1..4 that n needs            |
 *   |            | (FC_VEC8_STEPS: Zen 4 splits each zmm store in two, so    |
 *   |            | 5 stores at 257-320 B, not 8; D05)                        |
 *   | 513..      | direction, page-safe edges, rep movsb window, NT stores:  |
 *   |            | vec_copy.h's loops with a 32-byte vector (FC_LW = 32)     |
 *   |  4K-congr. | (dst - src) mod 4096 == 0, no overlap: forward, not       |
 *   |            | backward (FC_CONGRUENT_FWD), n mod 4096 = 1..64 excepted: |
 *   |            | faster with the buffers not cached, equal hot (D08)       |
 */
#if defined(__x86_64__)
#define FC_VEC_ID avx512_ymmloop
#include "x86/vec64.h"
#define FC_LVT __m256i
#define FC_LW 32
#define FC_VEC8_STEPS 1
#ifndef FC_CONGRUENT_FWD
#define FC_CONGRUENT_FWD 1 /* -DFC_CONGRUENT_FWD=0: backward, as the other entries (for A/B builds) */
#endif
#define FC_LLOADU(p) _mm256_loadu_si256(p)
#define FC_LSTOREU(p, v) _mm256_storeu_si256(p, v)
#define FC_LSTOREA(p, v) _mm256_store_si256(p, v)
#define FC_LSTREAM(p, v) _mm256_stream_si256(p, v)
#include "x86/x86.h"
#include "x86/vec_copy.h"
#endif
