/*
 * s390x/checked.S - fc_copy_checked's copy for s390x (z/Architecture, 64-bit,
 * big-endian): the portable method (a block loop and a byte loop whose
 * accesses lie in ranges listed in fc__checked_table; src/checked/checked.c's
 * signal handler resumes a fault there at the range's fixup), with 8-byte
 * general-register moves (lg/stg: unaligned operands are allowed).  Correct
 * first: no size ladder, no MVC.
 *
 * For:    any s390x Linux CPU (z900 instructions only).
 * Needs:  precise faults: the PSW address in the signal context points at
 *         the faulting instruction (page-translation and protection
 *         exceptions nullify or suppress it; either way no byte of a faulting
 *         store is written and the range test below holds).
 *
 * Registers (named by the #define block below): dst = r2, src = r3, n = r4;
 * done = r5: [0, done) of dst holds src; next = r1 = done + 16, the end of
 * the next block; r0 carries the data (raw).  Returns r2 = bytes not copied
 * (0: all), written as %r2: the return value, no longer dst.
 *
 * How a fault ends with the exact count: every access in the block range
 * touches bytes at or above done, and done only grows past blocks already
 * stored.  A fault there resumes at .Lfix_blocks, which copies [done, n)
 * byte by byte; that loop faults, if at all, at the first byte that cannot
 * be read or written, and its fixup returns n - done.
 *
 * Size classes:
 *
 *   | n      | technique                                                     |
 *   |--------|---------------------------------------------------------------|
 *   | 0..15  | byte loop                                                     |
 *   | >= 16  | 16-byte blocks (two 8-byte moves) while done + 16 <= n, then  |
 *   |        | the last 0..15 bytes by the byte loop                         |
 *
 * Forward only.  Overlapping buffers: as memcpy, undefined.
 */
#if defined(__s390x__) && defined(__linux__)

#define dst     %r2
#define src     %r3
#define n       %r4
#define done    %r5             /* [0, done) of dst holds src */
#define next    %r1             /* done + 16: the next block's end */

        .text
        .p2align 4
        .globl  fc__checked_copy
        .hidden fc__checked_copy
        .type   fc__checked_copy, @function
fc__checked_copy:
        lghi    done, 0
        lghi    next, 16
        clgr    n, next
        jl      .Lbytes

/* ---- block range --------------------------------------------------------- */
.Lblocks_begin:
1:      lg      %r0, 0(done, src)
        stg     %r0, 0(done, dst)
        lg      %r0, 8(done, src)
        stg     %r0, 8(done, dst)
        aghi    done, 16
        lgr     next, done
        aghi    next, 16
        clgr    next, n
        jle     1b
.Lblocks_end:

/* ---- byte range: [done, n) one byte at a time ------------------------------ */
.Lfix_blocks:
.Lbytes:
.Lbytes_begin:
        clgr    done, n
        jhe     3f
2:      llgc    %r0, 0(done, src)
        stc     %r0, 0(done, dst)
        aghi    done, 1
        clgr    done, n
        jl      2b
3:      lghi    %r2, 0
        br      %r14
.Lbytes_end:

/* a fault in the byte loop: byte `done` is the first one that cannot be copied */
.Lfix_bytes:
        lgr     %r2, n
        sgr     %r2, done
        br      %r14
        .size   fc__checked_copy, .-fc__checked_copy

/* The fault table (checked.c): { first pc, end pc, fixup }, ended by zeros. */
        .section .data.rel.ro, "aw"
        .p2align 3
        .globl  fc__checked_table
        .hidden fc__checked_table
fc__checked_table:
        .quad   .Lblocks_begin, .Lblocks_end, .Lfix_blocks
        .quad   .Lbytes_begin, .Lbytes_end, .Lfix_bytes
        .quad   0, 0, 0
#endif

        .section .note.GNU-stack, "", @progbits
