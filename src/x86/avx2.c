/*
 * avx2 - the x86-64 copy of vec_copy.h at W = 32, above 256 bytes: the
 * entry points and the classes up to 8W are in avx2_ladder.S (FC_ASM_LADDER),
 * which jumps here (fc_avx2_large; fc_avx2_split for memcpy's page split).
 * This file alone is compiled with -mavx2 (CMakeLists.txt); it runs only
 * where the avx2 probe (src/cpu/x86_detect.c: CPUID AVX2 and the OS saving ymm
 * state, XCR0 bits 1-2) succeeds.  Every function that touches ymm ends with
 * vzeroupper (the compiler inserts it under -mavx2).
 * Policy and size classes: see the tables at the top of vec_copy.h and
 * avx2_ladder.S.
 */
#if defined(__x86_64__)
#define FC_VEC_ID avx2
#define FC_ASM_LADDER "x86/avx2_ladder.S"
#define FC_VT __m256i
#define FC_W 32
#define FC_LOADU(p) _mm256_loadu_si256(p)
#define FC_STOREU(p, v) _mm256_storeu_si256(p, v)
#define FC_STOREA(p, v) _mm256_store_si256(p, v)
#define FC_STREAM(p, v) _mm256_stream_si256(p, v)
#include "x86/x86.h"
#include "x86/vec_copy.h"
#endif
