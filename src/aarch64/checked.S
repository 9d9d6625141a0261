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
 * Registers: x0 = dst, x1 = src, x2 = n; x3 = done: [0, done) of dst holds
 * src.  Returns x0 = bytes not copied (0: all).
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

        .text
        .p2align 4
        .globl  fc__checked_copy
        .hidden fc__checked_copy
        .type   fc__checked_copy, %function
fc__checked_copy:
        mov     x3, #0
        cmp     x2, #32
        b.lo    .Lbytes
        sub     x4, x2, #32             /* blocks while done <= n - 32 */

/* ---- block range --------------------------------------------------------- */
.Lblocks_begin:
1:      add     x5, x1, x3
        add     x6, x0, x3
        ldp     q0, q1, [x5]
        stp     q0, q1, [x6]
        add     x3, x3, #32
        cmp     x3, x4
        b.ls    1b
        /* 0..31 bytes left: the last 32 bytes as one block */
        add     x5, x1, x4
        add     x6, x0, x4
        ldp     q0, q1, [x5]
        stp     q0, q1, [x6]
        mov     x0, #0
        ret
.Lblocks_end:

/* ---- byte range: [done, n) one byte at a time ------------------------------ */
.Lfix_blocks:
.Lbytes:
.Lbytes_begin:
        cmp     x3, x2
        b.hs    3f
2:      ldrb    w5, [x1, x3]
        strb    w5, [x0, x3]
        add     x3, x3, #1
        cmp     x3, x2
        b.lo    2b
3:      mov     x0, #0
        ret
.Lbytes_end:

/* a fault in the byte loop: byte `done` is the first one that cannot be copied */
.Lfix_bytes:
        sub     x0, x2, x3
        ret
        .size   fc__checked_copy, .-fc__checked_copy

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
