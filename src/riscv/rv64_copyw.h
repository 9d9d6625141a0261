/*
 * rv64_copyw.h - the block primitives the RV64 scalar assembly routines share
 * (#include'd by rv64_shifted.S and rv64_misaligned_fast.S; GAS macros):
 * COPYW (1..8 words, loads before stores) and STEP (one bit of a size
 * class: 1, 2, 4, 8 bytes or 2..8 words, forward or backward).
 *
 * COPYW cnt, off[, last]: cnt (1..8) 8-byte words from a1+off to a3+off, every
 * load before any store (so a block of an overlapping memmove stays correct
 * in either direction).  Scratch: t0..t6 and `last` (default a7; a routine
 * that keeps something in a7 names another free register).  The words are
 * aligned or not as the caller's pointers are: rv64-shifted calls it only with
 * 8-aligned a1 and a3, rv64-misaligned-fast with any a1.
 */
.macro COPYW cnt, off, last=a7
    .set .Li, 0
    .irp r, t0, t1, t2, t3, t4, t5, t6, \last
    .if .Li < \cnt
    ld      \r, (\off + 8 * .Li)(a1)
    .endif
    .set .Li, .Li + 1
    .endr
    .set .Li, 0
    .irp r, t0, t1, t2, t3, t4, t5, t6, \last
    .if .Li < \cnt
    sd      \r, (\off + 8 * .Li)(a3)
    .endif
    .set .Li, .Li + 1
    .endr
.endm

/*
 * STEP dir, test, bytes[, last[, advance]]: if (test & bytes), copy the
 * `bytes` (1, 2, 4, 8, or 16/32/64 through COPYW) at the cursors a1/a3 -
 * above them for dir = 1, just below them for dir = -1 - and, unless
 * advance = 0, move both cursors past them.  The size-class tails and heads
 * of both routines are runs of these, one per bit of a count or an address.
 * Scratch: t0, t1 (t0..t6 and `last` for 16..64).  Accesses are as aligned as
 * the cursors: callers keep 2-, 4- and 8-byte steps naturally aligned where
 * misaligned access is not allowed.
 */
.macro STEP dir, test, bytes, last=a7, advance=1
    andi    t0, \test, \bytes
    beqz    t0, .Lstep_end\@
    .if \dir > 0
    .set .Loff, 0
    .else
    .set .Loff, -\bytes
    .endif
    .if \bytes == 1
    lbu     t1, .Loff(a1)
    sb      t1, .Loff(a3)
    .elseif \bytes == 2
    lhu     t1, .Loff(a1)
    sh      t1, .Loff(a3)
    .elseif \bytes == 4
    lwu     t1, .Loff(a1)
    sw      t1, .Loff(a3)
    .elseif \bytes == 8
    ld      t1, .Loff(a1)
    sd      t1, .Loff(a3)
    .else
    COPYW   (\bytes / 8), .Loff, \last
    .endif
    .if \advance
    addi    a1, a1, \dir * \bytes
    addi    a3, a3, \dir * \bytes
    .endif
.Lstep_end\@:
.endm
