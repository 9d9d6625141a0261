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
 * Registers: named in the #define block below (dst a0, src a1, count a2 = n,
 * done t0: [0, done) of dst holds src).  Returns a0 = bytes not copied
 * (0: all); a0 is written raw where it is the return value.
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

/* Registers.  Several hold one thing on one path and another on the other;
 * each role has its own name, grouped by register. */
#define dst     a0      /* destination (never moves; a0 is also the result) */
#define src     a1      /* source (never moves) */
#define count   a2      /* n */
#define done    t0      /* bytes copied: [0, done) of dst holds src */
#define tmp     t1      /* entry: the 16-byte threshold */
#define head    t1      /* the head ends when done reaches it: (-dst) & 7 */
#define addr    t2      /* byte loops: src + done, dst + done; then src + done */
#define val     t3      /* byte loops: the byte moved */
#define srcoff  t3      /* (src + done) & 7: 0 takes the word fast path */
#define limit   t4      /* done's last value that starts a block or word */
#define srcp    t5      /* fast path: src + done; shifted: its aligned word */
#define dstp    t6      /* dst + done */
#define hipart  t6      /* shifted: the next word's part of the merged word */
#define wa      a3      /* fast path: the 4 words of a block */
#define wb      a4
#define wc      a5
#define wd      a6
#define rshift  a3      /* shifted: 8 o, o = srcoff */
#define lshift  a4      /* shifted: 64 - 8 o */
#define wcur    a5      /* shifted: the aligned src word holding src + done */
#define wnext   a6      /* shifted: the word after it */
#define merged  a7      /* shifted: the dst word built from the two */

        .text
        .p2align 3
        .globl  fc__checked_copy
        .hidden fc__checked_copy
        .type   fc__checked_copy, @function
fc__checked_copy:
        li      done, 0
        li      tmp, 16
        bltu    count, tmp, .Lbytes
        neg     head, dst
        andi    head, head, 7           /* head: bytes until dst + done is 8-aligned */

/* ---- bytes range 1: the head --------------------------------------------- */
.Lhead_begin:
1:      beq     done, head, 2f
        add     addr, src, done
        lbu     val, 0(addr)
        add     addr, dst, done
        sb      val, 0(addr)
        addi    done, done, 1
        j       1b
.Lhead_end:
2:      add     addr, src, done
        andi    srcoff, addr, 7
        bnez    srcoff, .Lshifted

/* ---- word range: the fast path and the shifted copy --------------------- */
.Lwords_begin:
        addi    limit, count, -32       /* 4-word blocks while done <= n - 32 */
3:      bgt     done, limit, 4f
        add     srcp, src, done
        add     dstp, dst, done
        ld      wa, 0(srcp)
        ld      wb, 8(srcp)
        ld      wc, 16(srcp)
        ld      wd, 24(srcp)
        sd      wa, 0(dstp)
        sd      wb, 8(dstp)
        sd      wc, 16(dstp)
        sd      wd, 24(dstp)
        addi    done, done, 32
        j       3b
4:      addi    limit, count, -8        /* single words while done <= n - 8 */
5:      bgt     done, limit, .Lbytes
        add     srcp, src, done
        add     dstp, dst, done
        ld      wa, 0(srcp)
        sd      wa, 0(dstp)
        addi    done, done, 8
        j       5b

.Lshifted:
        /* addr = src + done, srcoff = its offset in its word (1..7) */
        slli    rshift, srcoff, 3       /* right shift: 8 o */
        li      lshift, 64
        sub     lshift, lshift, rshift  /* left shift: 64 - 8 o */
        andi    srcp, addr, -8          /* the aligned word holding src + done */
        ld      wcur, 0(srcp)
        addi    limit, count, -8
6:      bgt     done, limit, .Lbytes    /* a whole dst word needs done + 8 <= n */
        ld      wnext, 8(srcp)          /* holds src + done + 7: needed */
        srl     merged, wcur, rshift
        sll     hipart, wnext, lshift
        or      merged, merged, hipart
        add     dstp, dst, done
        sd      merged, 0(dstp)
        mv      wcur, wnext
        addi    srcp, srcp, 8
        addi    done, done, 8
        j       6b
.Lwords_end:

/* ---- bytes range 2: [done, n) one byte at a time ------------------------- */
.Lfix_words:
.Lbytes:
.Lbytes_begin:
        bgeu    done, count, 8f
7:      add     addr, src, done
        lbu     val, 0(addr)
        add     addr, dst, done
        sb      val, 0(addr)
        addi    done, done, 1
        bltu    done, count, 7b
8:      li      a0, 0
        ret
.Lbytes_end:

/* a fault in a byte loop: byte `done` is the first one that cannot be copied */
.Lfix_bytes:
        sub     a0, count, done
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
