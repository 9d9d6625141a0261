/*
 * avx512 - the x86-64 ladder of vec_copy.h at W = 64 (zmm).  This file (like
 * avx512_ymmloop.c and avx512_masked.c) is compiled with -mavx512f
 * (CMakeLists.txt); it runs only where the avx512 probe (src/cpu/x86_detect.c: CPUID
 * AVX512F and the OS saving opmask and zmm state, XCR0 bits 1-2 and 5-7)
 * succeeds.  Sizes below 64 use xmm registers only (64..128: two zmm); the
 * compiler ends every function that touched ymm/zmm with vzeroupper.
 * Whether it is the default is the CPU policy's choice (src/cpu/x86_policy.c: the
 * zmm column), not only whether it runs: 512-bit stores lower the clock of
 * some Intel generations.
 * Policy and size classes: see the table at the top of vec_copy.h.
 */
#if defined(__x86_64__)
#define FC_VEC_ID avx512
#include "x86/vec64.h"
#include "x86/x86.h"
#include "x86/vec_copy.h"
#endif
