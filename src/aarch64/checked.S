/*
 * aarch64/checked.S - fc_copy_checked's copy for AArch64: the portable
 * method (a block loop and a byte loop whose accesses lie in ranges listed in
 * fc__checked_table; src/checked/checked.c's signal handler resumes a fault
 * there at the range's fixup), with Advanced SIMD blocks.  Correct first:
 * no size ladder, no dst alignment.
 *
 * For:    any AArch64 Linux CPU (Advanced SIMD is architectural there).
 * Needs:  precise faults (the faulting instruction's pc in the signal
 *         context).  An unaligned access that faults may have written part
 *         of its bytes: those are src bytes at or above done, which the
 *         contract allows.
 *
 * Registers, under the names of the #define block below: dst (x0), src (x1),
 * count (x2) = n; done (x3): [0, done) of dst holds src; last (x4),
 * src_blk/dst_blk (x5/x6), A_q/B_q (q0/q1), byte_w (w5).  Returns x0 =
 * bytes not copied (0: all).
 *
 * How a fault ends with the exact count: every access in the block range
 * touches bytes at or above done, except the last block's, which may also
 * rewrite bytes below it with the same src bytes; done only grows past
 * blocks already stored.  A fault there resumes at .Lfix_blocks, which copies
 * [done, n) byte by byte; that loop faults, if at all, at the first byte that
 * cannot be read or written, and its fixup returns n - done.
 *
 * Size classes:
 *
 *   | n      | technique                                                     |
 *   |--------|---------------------------------------------------------------|
 *   | 0..31  | byte loop                                                     |
 *   | >= 32  | 32-byte blocks (ldp/stp of two q registers) while done + 32   |
 *   |        | <= n; the last 32 bytes as one block ending at n              |
 *
 * Forward only.  Overlapping buffers: as memcpy, undefined.
 */
#if defined(__aarch64__) && defined(__linux__)

/* Arguments; x0 stays raw where it is written: there it is the return
 * value, no longer dst. */
#define dst     x0
#define src     x1
#define count   x2
#define done    x3                      /* bytes copied: [0, done) of dst holds src */
/* Block range (n >= 32): */
#define last    x4                      /* n - 32: the offset of the last block */
#define src_blk x5                      /* src + offset of the block */
#define dst_blk x6                      /* dst + offset of the block */
#define A_q     q0                      /* a block's 32 bytes */
#define B_q     q1
/* Byte range (w5 only there): */
#define byte_w  w5                      /* the byte being copied */

        .text
        .p2align 4
        .globl  fc__checked_copy
        .hidden fc__checked_copy
        .type   fc__checked_copy, %function
fc__checked_copy:
        mov     done, #0
        cmp     count, #32
        b.lo    .Lbytes
        sub     last, count, #32        /* blocks while done <= n - 32 */

/* ---- block range --------------------------------------------------------- */
.Lblocks_begin:
1:      add     src_blk, src, done
        add     dst_blk, dst, done
        ldp     A_q, B_q, [src_blk]
        stp     A_q, B_q, [dst_blk]
        add     done, done, #32
        cmp     done, last
        b.ls    1b
        /* 0..31 bytes left: the last 32 bytes as one block */
        add     src_blk, src, last
        add     dst_blk, dst, last
        ldp     A_q, B_q, [src_blk]
        stp     A_q, B_q, [dst_blk]
        mov     x0, #0                  /* the return value: all copied */
        ret
.Lblocks_end:

/* ---- byte range: [done, n) one byte at a time ------------------------------ */
.Lfix_blocks:
.Lbytes:
.Lbytes_begin:
        cmp     done, count
        b.hs    3f
2:      ldrb    byte_w, [src, done]
        strb    byte_w, [dst, done]
        add     done, done, #1
        cmp     done, count
        b.lo    2b
3:      mov     x0, #0                  /* the return value: all copied */
        ret
.Lbytes_end:

/* a fault in the byte loop: byte `done` is the first one that cannot be copied;
 * the return value (x0) is n - done */
.Lfix_bytes:
        sub     x0, count, done
        ret
        .size   fc__checked_copy, .-fc__checked_copy

#undef dst
#undef src
#undef count
#undef done
#undef last
#undef src_blk
#undef dst_blk
#undef A_q
#undef B_q
#undef byte_w

/* The fault table (checked.c): { first pc, end pc, fixup }, ended by zeros. */
        .section .data.rel.ro, "aw"
        .p2align 3
        .globl  fc__checked_table
        .hidden fc__checked_table
fc__checked_table:
        .xword  .Lblocks_begin, .Lblocks_end, .Lfix_blocks
        .xword  .Lbytes_begin, .Lbytes_end, .Lfix_bytes
        .xword  0, 0, 0

#include "gnu_property.h"
FC_GNU_PROPERTY
#endif

        .section .note.GNU-stack, "", %progbits
