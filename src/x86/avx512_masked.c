/*
 * avx512-masked - the avx512 ladder (vec_copy.h at W = 64) with copies of up
 * to 64 bytes done by one masked zmm load and one masked zmm store (mask =
 * bzhi(~0, n)): no size branch below 65 bytes.  For Intel cores with
 * AVX-512BW; not a default anywhere, for measurement and for programs whose
 * copy sizes are unpredictable and whose copies are not read back at once.
 *
 * Needs: AVX512F + AVX512BW (byte-masked moves), BMI2 (bzhi), the OS saving
 * opmask and zmm state (src/cpu/x86.c).  Masked-off bytes are neither read
 * nor written and cannot fault, so the 64-byte moves stay inside the buffers
 * as far as memory is concerned (the guard-page grids prove it).  But each
 * masked move still spans its full 64 bytes for the debug registers: a data
 * watchpoint (gdb `watch`, perf mem breakpoints) on a byte up to 63 bytes past
 * src or dst can fire although that byte is neither read nor written - also
 * for n = 0, where the mask is empty and nothing is accessed at all.  Tools
 * that take such a hit as an access (a watchpoint-based race or bounds
 * checker) would misreport it.  This entry is not a default on any CPU (rank
 * 6, below every ladder); it is the fastest on the real size distributions
 * on Zen 4 and, by the x86-64 tuning issue's measurements, on Zen 5 - a
 * policy row or tuned profile that makes it the default there must carry this
 * caveat into README's implementation table.
 *
 * Measured on the Intel Xeon development guest (2026-11-23, fcbench dist head
 * to head with glibc 2.36, batches of 65536 calls): 0.35-0.55x glibc's time
 * per call on the six Google size distributions (avx512, whose classes below
 * 64 B are two compares deep: 0.72-0.82x) - a ladder mispredicts its size
 * branches on random sizes, this path has one branch below 65 bytes.
 * The price: a masked store cannot forward to a later load, so a copy of up
 * to 64 bytes whose result is read back at once takes 7.0 ns instead of 3.0
 * (copy, then a dependent 8-byte load of dst).  Hence not the default.
 * On the AMD EPYC Zen 4 guest (2026-11-24, same method) the same trade: dist
 * 0.37-0.58x glibc's time (avx512-ymmloop, the default there: 0.65-0.82x),
 * readback 8-64 B 7.85-8.1 ns per call against glibc's 3.8-7.0 and the
 * default's 4.1-6.6 (1.16-2.07x glibc's time).
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
#include "x86/vec_copy.h"
#endif
