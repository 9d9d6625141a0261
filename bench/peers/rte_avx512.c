/*
 * fcbench peer rte-avx512: DPDK's rte_memcpy (libdpdk-dev's header, used as
 * it is) built with -mavx512f -DRTE_MEMCPY_AVX512: DPDK's AVX-512 path, which
 * DPDK takes only when built for a CPU with AVX-512F and asked to (Debian's
 * package targets corei7 and never does) - compiled here by fcbench.  A
 * memcpy-shaped function for the contender list and the packet scenario's
 * loops with rte_memcpy inlined.  Only called where the CPU has AVX-512F.
 */
#include <rte_memcpy.h>

#include "packet.h"

#if !defined(__AVX512F__) || !defined(RTE_MEMCPY_AVX512)
#error bench/peers/rte_avx512.c is built with -mavx512f -DRTE_MEMCPY_AVX512
#endif

void *fcbench_rte_avx512_memcpy(void *dst, const void *src, size_t n) { return rte_memcpy(dst, src, n); }

PKT_VARIANT(, fcbench_pkt_rte_avx512, (void)0, rte_memcpy)
