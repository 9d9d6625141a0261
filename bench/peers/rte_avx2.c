/*
 * fcbench peer rte-avx2: DPDK's rte_memcpy (libdpdk-dev's header, used as it
 * is) built with -mavx2, so it takes its AVX2 path.  A memcpy-shaped function
 * for the contender list, and the packet scenario's loops with rte_memcpy
 * inlined at the call site (DPDK's own use), beside fc_memcpy_inline built
 * with the same flags (reported as fc_memcpy_inline[avx2]: fastcopy's own
 * inline variant is built for the baseline).  Only called where the CPU has
 * AVX2.
 */
#include <rte_memcpy.h>

#include "fastcopy/inline.h"
#include "packet.h"

#if !defined(__AVX2__)
#error bench/peers/rte_avx2.c is built with -mavx2
#endif

void *fcbench_rte_avx2_memcpy(void *dst, const void *src, size_t n) { return rte_memcpy(dst, src, n); }

PKT_VARIANT(, fcbench_pkt_rte_avx2, (void)0, rte_memcpy)
PKT_VARIANT(, fcbench_pkt_fci_avx2, (void)0, fc_memcpy_inline)
