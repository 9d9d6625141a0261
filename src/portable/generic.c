/*
 * generic - the Linux riscv memcpy patches' algorithms (docs/riscv.md) in
 * portable C: any CPU, either endianness.
 *
 * For:   every target; the default wherever no faster routine is registered.
 *        Written for CPUs that trap or crawl on misaligned access (SiFive U74
 *        class): the C never performs a misaligned access wider than a byte.
 * Needs: nothing but C11 + GNU attributes (may_alias, no_sanitize_address).
 *
 * Size-class policy (W = word = sizeof(long), 8 on 64-bit):
 *
 *   | n        | src/dst alignment            | technique                                         |
 *   |----------|------------------------------|---------------------------------------------------|
 *   | 0..16    | both W-aligned, n >= W (LP64)| small aligned word path: words, then 4/2/1 tail    |
 *   | 0..16    | any other                    | overlapping head/tail: bytes 0,n/2,n-1 | 4+4 | 8+8 |
 *   | > 16     | co-aligned (d%W == s%W)      | 1/2/4-byte head to align, 8-word blocks (all loads |
 *   |          |                              | first), 4/2/1-word blocks, 4/2/1-byte tail         |
 *   | > 16     | mutually misaligned          | bytes to align dst, shifted word copy (aligned     |
 *   |          |                              | src loads, shift-merge of two words), byte tail    |
 *
 * memmove: n <= 16 loads everything before storing, so it needs no direction;
 * above that it copies backward (the mirror of every class) only when dst lies
 * inside (src, src + n), else forward.
 *
 * Shifted word copy (Linux riscv memcpy, 2026): with o = src % W != 0 and dst
 * aligned, output word i = (w[i] >> 8o) | (w[i+1] << (W*8 - 8o)) on
 * little-endian, (w[i] << 8o) | (w[i+1] >> (W*8 - 8o)) on big-endian, where
 * w[] are the aligned source words.  8o is never 0 or W*8, so no shift is UB.
 *
 * OVER-READ: the shifted copy reads whole aligned source words, so it may read
 * up to W-1 bytes before the first and after the last source byte, but only
 * inside aligned words that contain source bytes: it never touches a page (or
 * a cache line) that the source does not.  Those loads are outside the C
 * object; the function doing them is excluded from AddressSanitizer, and
 * valgrind accepts them as partial loads.  Every other access is in bounds.
 */
#include "portable.h"
#include "word.h"

#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define FC_MERGE(lo, hi, sh, inv) (((lo) << (sh)) | ((hi) >> (inv)))
#else
#define FC_MERGE(lo, hi, sh, inv) (((lo) >> (sh)) | ((hi) << (inv)))
#endif

#define SMALL_MAX 16

/* Aligned source word holding address p. */
FC_INLINE const fc_u8 *fc_word_floor(const fc_u8 *p)
{
    return (const fc_u8 *)(FC_ADDR(p) & ~(uintptr_t)FC_WMASK);
}

/* ---- forward ------------------------------------------------------------ */

/* nw words from an aligned s to an aligned d: 8-word blocks, then the 0..7
 * remaining words as 4-, 2- and 1-word blocks picked by the bits of the count. */
#define BLOCK 8
FC_INLINE void words_fwd(fc_u8 *d, const fc_u8 *s, size_t nw)
{
    for (; nw >= BLOCK; nw -= BLOCK, d += BLOCK * FC_WSIZE, s += BLOCK * FC_WSIZE) fc_block(d, s, BLOCK);
    if (nw & 4) { fc_block(d, s, 4); d += 4 * FC_WSIZE; s += 4 * FC_WSIZE; }
    if (nw & 2) { fc_block(d, s, 2); d += 2 * FC_WSIZE; s += 2 * FC_WSIZE; }
    if (nw & 1) fc_block(d, s, 1);
}

/* nw words to an aligned d from a source misaligned by o = s % W != 0. */
FC_NO_ASAN __attribute__((noinline)) static void shifted_fwd(fc_u8 *d, const fc_u8 *s, size_t nw)
{
    const unsigned sh = 8u * (unsigned)(FC_ADDR(s) & FC_WMASK), inv = FC_WBITS - sh;
    const fc_u8 *sp = fc_word_floor(s);
    fc_word cur = fc_ldw(sp);
    for (; nw >= 4; nw -= 4, d += 4 * FC_WSIZE, sp += 4 * FC_WSIZE) {
        fc_word w1 = fc_ldw(sp + FC_WSIZE), w2 = fc_ldw(sp + 2 * FC_WSIZE);
        fc_word w3 = fc_ldw(sp + 3 * FC_WSIZE), w4 = fc_ldw(sp + 4 * FC_WSIZE);
        fc_stw(d, FC_MERGE(cur, w1, sh, inv));
        fc_stw(d + FC_WSIZE, FC_MERGE(w1, w2, sh, inv));
        fc_stw(d + 2 * FC_WSIZE, FC_MERGE(w2, w3, sh, inv));
        fc_stw(d + 3 * FC_WSIZE, FC_MERGE(w3, w4, sh, inv));
        cur = w4;
    }
    for (; nw; nw--, d += FC_WSIZE, sp += FC_WSIZE) {
        fc_word nx = fc_ldw(sp + FC_WSIZE);
        fc_stw(d, FC_MERGE(cur, nx, sh, inv));
        cur = nx;
    }
}

/* n > SMALL_MAX: the forward copy.  Also correct for memmove when dst < src. */
static void copy_fwd(fc_u8 *d, const fc_u8 *s, size_t n)
{
    if (((FC_ADDR(d) ^ FC_ADDR(s)) & FC_WMASK) == 0) {
        size_t head = (size_t)(-FC_ADDR(d) & FC_WMASK);
        fc_head_align(&d, &s, head);
        n -= head;
        words_fwd(d, s, n / FC_WSIZE);
        fc_tail_sub(d + (n & ~FC_WMASK), s + (n & ~FC_WMASK), n & FC_WMASK);
        return;
    }
    fc_align_dst_fwd(&d, &s, &n);
    size_t body = n & ~FC_WMASK; /* >= 1 word: n > 16 and head < W */
    shifted_fwd(d, s, body / FC_WSIZE);
    d += body;
    s += body;
    fc_bytes_fwd(d, s, n & FC_WMASK);
}

/* ---- backward (the mirror; de/se are end pointers) ----------------------- */

FC_INLINE void words_bwd(fc_u8 *de, const fc_u8 *se, size_t nw)
{
    for (; nw >= BLOCK; nw -= BLOCK) {
        de -= BLOCK * FC_WSIZE;
        se -= BLOCK * FC_WSIZE;
        fc_block(de, se, BLOCK);
    }
    if (nw & 4) { de -= 4 * FC_WSIZE; se -= 4 * FC_WSIZE; fc_block(de, se, 4); }
    if (nw & 2) { de -= 2 * FC_WSIZE; se -= 2 * FC_WSIZE; fc_block(de, se, 2); }
    if (nw & 1) { de -= FC_WSIZE; se -= FC_WSIZE; fc_block(de, se, 1); }
}

/* nw words ending at an aligned de, from a source end se misaligned by o != 0. */
FC_NO_ASAN __attribute__((noinline)) static void shifted_bwd(fc_u8 *de, const fc_u8 *se, size_t nw)
{
    const unsigned sh = 8u * (unsigned)(FC_ADDR(se) & FC_WMASK), inv = FC_WBITS - sh;
    const fc_u8 *sp = fc_word_floor(se); /* holds the last source byte se[-1] */
    fc_word hi = fc_ldw(sp);
    for (; nw >= 4; nw -= 4) {
        de -= 4 * FC_WSIZE;
        sp -= 4 * FC_WSIZE;
        fc_word w3 = fc_ldw(sp + 3 * FC_WSIZE), w2 = fc_ldw(sp + 2 * FC_WSIZE);
        fc_word w1 = fc_ldw(sp + FC_WSIZE), w0 = fc_ldw(sp);
        fc_stw(de + 3 * FC_WSIZE, FC_MERGE(w3, hi, sh, inv));
        fc_stw(de + 2 * FC_WSIZE, FC_MERGE(w2, w3, sh, inv));
        fc_stw(de + FC_WSIZE, FC_MERGE(w1, w2, sh, inv));
        fc_stw(de, FC_MERGE(w0, w1, sh, inv));
        hi = w0;
    }
    for (; nw; nw--) {
        de -= FC_WSIZE;
        sp -= FC_WSIZE;
        fc_word lo = fc_ldw(sp);
        fc_stw(de, FC_MERGE(lo, hi, sh, inv));
        hi = lo;
    }
}

static void copy_bwd(fc_u8 *d, const fc_u8 *s, size_t n)
{
    fc_u8 *de = d + n;
    const fc_u8 *se = s + n;
    if (((FC_ADDR(d) ^ FC_ADDR(s)) & FC_WMASK) == 0) {
        size_t tail = (size_t)(FC_ADDR(de) & FC_WMASK);
        fc_tail_align_bwd(&de, &se, tail);
        n -= tail;
        words_bwd(de, se, n / FC_WSIZE);
        fc_head_sub_bwd(de - (n & ~FC_WMASK), se - (n & ~FC_WMASK), n & FC_WMASK);
        return;
    }
    fc_align_dst_bwd(&de, &se, &n);
    size_t body = n & ~FC_WMASK;
    shifted_bwd(de, se, body / FC_WSIZE);
    de -= body;
    se -= body;
    fc_bytes_bwd(de, se, n & FC_WMASK);
}

/* ---- entry points --------------------------------------------------------- */

FC_INLINE int small_aligned(const fc_u8 *d, const fc_u8 *s, size_t n)
{
    return n >= FC_WSIZE && ((FC_ADDR(d) | FC_ADDR(s)) & FC_WMASK) == 0;
}

/* n <= SMALL_MAX; every load happens before any store, so no direction. */
FC_INLINE void copy_small(fc_u8 *d, const fc_u8 *s, size_t n)
{
#if __SIZEOF_LONG__ == 8
    if (small_aligned(d, s, n)) {
        /* The Linux riscv patches' small aligned word path: one or two words, then the
         * 4/2/1-byte tail from an aligned position. */
        size_t at = n & ~FC_WMASK, k = n & FC_WMASK;
        fc_word a = fc_ldw(s), b = at > FC_WSIZE ? fc_ldw(s + FC_WSIZE) : 0;
        uint32_t t4 = (k & 4) ? fc_ld32(s + at) : 0;
        uint16_t t2 = (k & 2) ? fc_ld16(s + at + (k & 4)) : 0;
        fc_u8 t1 = (k & 1) ? s[at + (k & 6)] : 0;
        fc_stw(d, a);
        if (at > FC_WSIZE) fc_stw(d + FC_WSIZE, b);
        if (k & 4) fc_st32(d + at, t4);
        if (k & 2) fc_st16(d + at + (k & 4), t2);
        if (k & 1) d[at + (k & 6)] = t1;
        return;
    }
#endif
    fc_small_16(d, s, n);
}

void *fc_generic_memcpy(void *restrict dst, const void *restrict src, size_t n)
{
    fc_u8 *d = dst;
    const fc_u8 *s = src;
    if (n <= SMALL_MAX)
        copy_small(d, s, n);
    else
        copy_fwd(d, s, n);
    return dst;
}

void *fc_generic_memmove(void *dst, const void *src, size_t n)
{
    fc_u8 *d = dst;
    const fc_u8 *s = src;
    if (n <= SMALL_MAX)
        copy_small(d, s, n);
    else if (fc_overlap_backward(d, s, n))
        copy_bwd(d, s, n);
    else if (d != s)
        copy_fwd(d, s, n);
    return dst;
}
