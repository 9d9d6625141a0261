/*
 * rv64_checked.S - fc_copy_checked's copy for RV64: the Linux riscv patches' two
 * paths (a word fast path when src and dst agree mod 8, a shifted word copy
 * when they do not) with the kernel's per-access fixups, as the Linux riscv
 * uaccess routines have them: every load and store that may fault lies in a
 * range listed in fc__checked_table, and src/checked/checked.c's signal
 * handler resumes a fault there at the range's fixup.
 *
 * For:    any RV64GC Linux CPU (RV64I only; little-endian).
 * Needs:  precise faults (the faulting instruction's pc in the signal
 *         context).  Never a misaligned access: every ld/sd is 8-aligned.
 *
 * Registers: a0 = dst, a1 = src, a2 = n; t0 = done: [0, done) of dst holds
 * src.  Returns a0 = bytes not copied (0: all).
 *
 * How a fault ends with the exact count: every access in the word range
 * touches bytes at or above done, and done only grows past words already
 * stored.  A fault there resumes at .Lfix_words, which copies [done, n) byte
 * by byte; that loop faults, if at all, at the first byte that cannot be read
 * or written, and its fixup returns n - done.  The shifted copy's aligned
 * src words each hold at least one byte of [src + done, src + n) (an aligned
 * word never crosses a page), so it faults on no page the copy does not need.
 *
 * Size classes:
 *
 *   | n, alignment               | technique                                       |
 *   |----------------------------|-------------------------------------------------|
 *   | 0..15                      | byte loop                                       |
 *   | >= 16, dst head            | bytes until dst + done is 8-aligned (0..7)      |
 *   | src + done 8-aligned       | word fast path: blocks of 4 ld + 4 sd, then     |
 *   |                            | single words, then the last 0..7 bytes          |
 *   | src + done not 8-aligned   | shifted word copy: aligned src loads, out =     |
 *   |                            | (w[i] >> 8o) | (w[i+1] << (64 - 8o)); then bytes |
 *
 * Forward only.  Overlapping buffers: as memcpy, undefined.
 */
#if defined(__riscv) && __riscv_xlen == 64 && defined(__linux__)

        .text
        .p2align 3
        .globl  fc__checked_copy
        .hidden fc__checked_copy
        .type   fc__checked_copy, @function
fc__checked_copy:
        li      t0, 0
        li      t1, 16
        bltu    a2, t1, .Lbytes
        neg     t1, a0
        andi    t1, t1, 7               /* head: bytes until dst + done is 8-aligned */

/* ---- bytes range 1: the head --------------------------------------------- */
.Lhead_begin:
1:      beq     t0, t1, 2f
        add     t2, a1, t0
        lbu     t3, 0(t2)
        add     t2, a0, t0
        sb      t3, 0(t2)
        addi    t0, t0, 1
        j       1b
.Lhead_end:
2:      add     t2, a1, t0
        andi    t3, t2, 7
        bnez    t3, .Lshifted

/* ---- word range: the fast path and the shifted copy --------------------- */
.Lwords_begin:
        addi    t4, a2, -32             /* 4-word blocks while done <= n - 32 */
3:      bgt     t0, t4, 4f
        add     t5, a1, t0
        add     t6, a0, t0
        ld      a3, 0(t5)
        ld      a4, 8(t5)
        ld      a5, 16(t5)
        ld      a6, 24(t5)
        sd      a3, 0(t6)
        sd      a4, 8(t6)
        sd      a5, 16(t6)
        sd      a6, 24(t6)
        addi    t0, t0, 32
        j       3b
4:      addi    t4, a2, -8              /* single words while done <= n - 8 */
5:      bgt     t0, t4, .Lbytes
        add     t5, a1, t0
        add     t6, a0, t0
        ld      a3, 0(t5)
        sd      a3, 0(t6)
        addi    t0, t0, 8
        j       5b

.Lshifted:
        /* t2 = src + done, t3 = its offset in its word (1..7) */
        slli    a3, t3, 3               /* right shift: 8 o */
        li      a4, 64
        sub     a4, a4, a3              /* left shift: 64 - 8 o */
        andi    t5, t2, -8              /* the aligned word holding src + done */
        ld      a5, 0(t5)
        addi    t4, a2, -8
6:      bgt     t0, t4, .Lbytes         /* a whole dst word needs done + 8 <= n */
        ld      a6, 8(t5)               /* holds src + done + 7: needed */
        srl     a7, a5, a3
        sll     t6, a6, a4
        or      a7, a7, t6
        add     t6, a0, t0
        sd      a7, 0(t6)
        mv      a5, a6
        addi    t5, t5, 8
        addi    t0, t0, 8
        j       6b
.Lwords_end:

/* ---- bytes range 2: [done, n) one byte at a time ------------------------- */
.Lfix_words:
.Lbytes:
.Lbytes_begin:
        bgeu    t0, a2, 8f
7:      add     t2, a1, t0
        lbu     t3, 0(t2)
        add     t2, a0, t0
        sb      t3, 0(t2)
        addi    t0, t0, 1
        bltu    t0, a2, 7b
8:      li      a0, 0
        ret
.Lbytes_end:

/* a fault in a byte loop: byte `done` is the first one that cannot be copied */
.Lfix_bytes:
        sub     a0, a2, t0
        ret
        .size   fc__checked_copy, .-fc__checked_copy

/* The fault table (checked.c): { first pc, end pc, fixup }, ended by zeros. */
        .section .data.rel.ro, "aw"
        .p2align 3
        .globl  fc__checked_table
        .hidden fc__checked_table
fc__checked_table:
        .dword  .Lhead_begin, .Lhead_end, .Lfix_bytes
        .dword  .Lwords_begin, .Lwords_end, .Lfix_words
        .dword  .Lbytes_begin, .Lbytes_end, .Lfix_bytes
        .dword  0, 0, 0
#endif

        .section .note.GNU-stack, "", @progbits
