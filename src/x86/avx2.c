/*
 * avx2 - the x86-64 ladder of vec_copy.h at W = 32.  This file alone is
 * compiled with -mavx2 (CMakeLists.txt); it runs only where the avx2 probe
 * (src/cpu/x86.c: CPUID AVX2 and the OS saving ymm state, XCR0 bits 1-2)
 * succeeds.  Sizes below 32 use xmm registers only; every function that
 * touches ymm ends with vzeroupper (the compiler inserts it under -mavx2).
 * Policy and size classes: see the table at the top of vec_copy.h.
 */
#if defined(__x86_64__)
#define FC_VEC_ID avx2
#define FC_VT __m256i
#define FC_W 32
#define FC_LOADU(p) _mm256_loadu_si256(p)
#define FC_STOREU(p, v) _mm256_storeu_si256(p, v)
#define FC_STOREA(p, v) _mm256_store_si256(p, v)
#define FC_STREAM(p, v) _mm256_stream_si256(p, v)
#include "x86/vec_copy.h"
#endif
