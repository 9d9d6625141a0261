/*
 * fcbench packet: the packet-path loop, shared by bench/scenarios/packet.c (the variants
 * built for the baseline) and the peer translation units in bench/peers/ (the
 * variants that need -mavx2 or -mavx512f: rte_memcpy inlined as DPDK uses it).
 * Each variant instantiates PKT_VARIANT once, with its copy expanded in every
 * loop: one function per case (the constant sizes, then the variable one), so
 * a constant size reaches the copy as a constant.  Also the peers' entry points.
 */
#ifndef FCBENCH_PACKET_H
#define FCBENCH_PACKET_H

#include <stddef.h>
#include <stdint.h>

/* One pool of 2 x PKT_NBUF mbuf-like elements of PKT_BUF bytes, as a DPDK
 * mempool holds them (a 128 B mbuf header, 128 B headroom, a 2 KiB data
 * room): rx is its first PKT_NBUF, tx the rest.  The data starts at
 * PKT_DATA (64-aligned), the metadata at the element's start.  2 x 144 KiB:
 * L2-resident, as the mbufs of a burst in a hot packet path are.  The
 * element size is not a power of two, so src and dst page offsets vary from
 * element to element as in a mempool: with 2 KiB elements every src and dst
 * sat at the same page offset, and the next packet's loads 4K-aliased this
 * packet's stores - the scenario timed that layout, not the copy (D36). */
enum { PKT_BUF = 2304, PKT_DATA = 256, PKT_NBUF = 64, PKT_TX_SKEW = 8, PKT_SEQ = 4096, PKT_VAR_MAX = 1024,
       PKT_NCASES = 7 };
#define PKT_CONST_SIZES {14, 20, 32, 64, 128, 1518} /* the first PKT_NCASES - 1 cases; the last: PKT_SEQ sizes */
#define PKT_TX(i) (((i) + PKT_TX_SKEW) & (PKT_NBUF - 1)) /* packet i's tx element */

struct pkt_meta { /* written after every copy, as a packet path sets the new mbuf's lengths */
    uint16_t data_off, data_len;
    uint32_t pkt_len;
};

struct pkt_ring {
    unsigned char *rx, *tx; /* PKT_NBUF elements of PKT_BUF bytes each, tx right after rx */
    const uint16_t *seq;    /* PKT_SEQ sizes, 1 .. PKT_VAR_MAX (a fixed pseudo-random sequence) */
};

/* iters packets; returns the sum of the fields read (for a volatile sink) */
typedef uint64_t (*pkt_loop_fn)(const struct pkt_ring *r, uint64_t iters);

/* Packet i: from rx element i mod NBUF to tx element PKT_TX(i) (every tx
 * element once per NBUF packets; src and dst 2 KiB apart in page offset, and
 * a packet's stores alias (mod 4 KiB) only the loads of packets 16k + 8
 * later), n bytes at PKT_DATA; then the new
 * buffer's lengths are set and one byte of the copied header is read back
 * (the EtherType's first byte, offset 12, or byte 0 below 14 B) - a load that
 * waits for the copy's stores, as a packet path's next step does.  The asm
 * keeps each packet's copy observable; the asm label keeps the compiler from
 * merging two variants whose code is identical (the A/A twin). */
#define PKT_LOOP(NAME, PREP, COPY, NEXPR)                                                                            \
    __attribute__((noinline, aligned(64))) static uint64_t NAME(const struct pkt_ring *r, uint64_t iters)          \
    {                                                                                                                \
        __asm__ volatile("# fcbench packet " #NAME);                                                                \
        PREP;                                                                                                        \
        uint64_t acc = 0;                                                                                            \
        for (uint64_t i = 0; i < iters; i++) {                                                                       \
            const unsigned char *in = r->rx + (size_t)(i & (PKT_NBUF - 1)) * PKT_BUF;                               \
            unsigned char *out = r->tx + (size_t)PKT_TX(i) * PKT_BUF;                                                 \
            size_t n = (NEXPR);                                                                                      \
            COPY(out + PKT_DATA, in + PKT_DATA, n);                                                                  \
            struct pkt_meta *m = (struct pkt_meta *)(void *)out;                                                    \
            m->data_len = (uint16_t)n;                                                                               \
            m->pkt_len = (uint32_t)n;                                                                                \
            acc += out[PKT_DATA + (n >= 14 ? 12 : 0)];                                                              \
            __asm__ volatile("" : "+r"(acc) : : "memory");                                                          \
        }                                                                                                            \
        return acc;                                                                                                  \
    }

/* STORAGE (static, or nothing) const pkt_loop_fn TABLE[PKT_NCASES]: the cases in
 * PKT_CONST_SIZES order, then the variable one */
#define PKT_VARIANT(STORAGE, TABLE, PREP, COPY)                                                                      \
    PKT_LOOP(TABLE##_14, PREP, COPY, 14)                                                                             \
    PKT_LOOP(TABLE##_20, PREP, COPY, 20)                                                                             \
    PKT_LOOP(TABLE##_32, PREP, COPY, 32)                                                                             \
    PKT_LOOP(TABLE##_64, PREP, COPY, 64)                                                                             \
    PKT_LOOP(TABLE##_128, PREP, COPY, 128)                                                                           \
    PKT_LOOP(TABLE##_1518, PREP, COPY, 1518)                                                                         \
    PKT_LOOP(TABLE##_var, PREP, COPY, r->seq[i & (PKT_SEQ - 1)])                                                     \
    STORAGE const pkt_loop_fn TABLE[PKT_NCASES] = {TABLE##_14,  TABLE##_20,   TABLE##_32, TABLE##_64,               \
                                                   TABLE##_128, TABLE##_1518, TABLE##_var};

/* ---- the peers (bench/peers/, built when CMake found DPDK's rte_memcpy.h) ----
 * rte-avx2: rte_memcpy compiled with -mavx2; rte-avx512: with -mavx512f
 * -DRTE_MEMCPY_AVX512, DPDK's AVX-512 path (Debian's DPDK is built for corei7
 * and never takes it).  Memcpy only: rte_memcpy has no memmove.  Call them
 * only where the CPU has AVX2 (AVX-512F for rte-avx512): the whole
 * translation unit is built for it. */
#if defined(FCBENCH_HAVE_RTE_AVX2)
void *fcbench_rte_avx2_memcpy(void *dst, const void *src, size_t n);
extern const pkt_loop_fn fcbench_pkt_rte_avx2[PKT_NCASES];
extern const pkt_loop_fn fcbench_pkt_fci_avx2[PKT_NCASES]; /* fc_memcpy_inline built with -mavx2 */
#endif
#if defined(FCBENCH_HAVE_RTE_AVX512)
void *fcbench_rte_avx512_memcpy(void *dst, const void *src, size_t n);
extern const pkt_loop_fn fcbench_pkt_rte_avx512[PKT_NCASES];
#endif

#endif
