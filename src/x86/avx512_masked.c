/*
 * avx512-masked - the avx512 ladder (vec_copy.h at W = 64) with copies of up
 * to 64 bytes done by one masked zmm load and one masked zmm store (mask =
 * bzhi(~0, n)): no size branch below 65 bytes.  For Intel cores with
 * AVX-512BW; not a default anywhere, for measurement and for programs whose
 * copy sizes are unpredictable and whose copies are not read back at once.
 *
 * Needs: AVX512F + AVX512BW (byte-masked moves), BMI2 (bzhi), the OS saving
 * opmask and zmm state (src/cpu/x86_detect.c).  Masked-off bytes are neither read
 * nor written and cannot fault, so the 64-byte moves stay inside the buffers
 * as far as memory is concerned (the guard-page grids prove it).  But each
 * masked move still spans its full 64 bytes for the debug registers: a data
 * watchpoint (gdb `watch`, perf mem breakpoints) on a byte up to 63 bytes past
 * src or dst can fire although that byte is neither read nor written - also
 * for n = 0, where the mask is empty and nothing is accessed at all.  Tools
 * that take such a hit as an access (a watchpoint-based race or bounds
 * checker) would misreport it.  This entry is not a default on any CPU (rank
 * 6, below every ladder); it is the fastest on the real size distributions
 * on Zen 4 and, by the x86-64 tuning measurements (docs/x86-policy.md), on
 * Zen 5 - a policy row or tuned profile that makes it the default there must
 * carry this caveat into the implementation table of docs/api.md.
 *
 * Fast on random sizes: a ladder mispredicts its size branches there, this
 * path has one branch below 65 bytes (D19).  The price: a masked store cannot
 * forward to a later load, so a copy of up to 64 bytes whose result is read
 * back at once (copy, then a dependent 8-byte load of dst) is slower than the
 * ladder's and glibc's, on Intel and Zen 4 alike (D19).  Hence not the default.
 *
 *   | n      | technique                                                  |
 *   |--------|------------------------------------------------------------|
 *   | 0..64  | one masked load + one masked store, mask = bzhi(~0, n)     |
 *   | 65..   | the avx512 ladder (table at the top of vec_copy.h)         |
 */
#if defined(__x86_64__)
#define FC_VEC_ID avx512_masked
#include "x86/vec64.h"
#define FC_MASKED_SMALL 1
#include "x86/x86.h"
#include "x86/vec_copy.h"
#endif
