/*
 * rv64_copyw.h - the word-block primitive the RV64 assembly routines share
 * (#include'd by rv64_shifted.S and rv64_misaligned_fast.S; GAS macro).
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
