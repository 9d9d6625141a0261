/*
 * rv64-misaligned-fast - memcpy/memmove for RV64 cores whose hardware handles
 * misaligned scalar loads and stores at full speed (T-Head C906/C910 class).
 *
 * For:   CPUs for which riscv_hwprobe reports MISALIGNED_SCALAR_PERF (or the
 *        older CPUPERF_0) = FAST; only then is this entry available.  On a
 *        core that traps (SiFive U74) every misaligned access here would be
 *        emulated by firmware, orders of magnitude slower (D23): never pick it there.
 * Needs: RV64I; misaligned ld/sd/lw/sw allowed (they are on Linux user space,
 *        fast or emulated).  Little-endian not required.
 *
 * Size-class policy (d = dst, s = src, loads before stores wherever sizes
 * overlap, so memmove needs a direction only above 64 bytes):
 *
 *   | n      | technique                                                        |
 *   |--------|------------------------------------------------------------------|
 *   | 0      | return                                                           |
 *   | 1..3   | bytes 0, n/2, n-1                                                 |
 *   | 4..7   | first and last 4 bytes (two overlapping lw/sw)                   |
 *   | 8..16  | first and last 8 bytes (two overlapping ld/sd)                   |
 *   | 17..32 | first 16 and last 16 bytes (4 ld, then 4 sd)                     |
 *   | 33..64 | first 32 and last 32 bytes (8 ld, then 8 sd)                     |
 *   | > 64   | head and tail words loaded first; dst-aligned 8-word blocks      |
 *   |        | (misaligned ld, aligned sd), then 4/2/1-word blocks; the head   |
 *   |        | and tail words stored last (they overlap the aligned body)       |
 *
 * memmove above 64 bytes copies backward (the mirror) only when dst lies in
 * (src, src + n); the head/tail words are stored after the body in both
 * directions, so an overlapping move never reads a byte it already overwrote.
 *
 * Registers: named in the #define block after the #include (dstin a0, src a1,
 * count a2, dst a3, dstend a4, srcend a5, ...).
 */

    .text
    .option push
    .option norelax

/* COPYW cnt, off, spare: cnt (1..8) words, loads from src+off (any alignment), stores to dst+off. */
#include "rv64_copyw.h"

/* Registers.  Some hold one thing up to 64 bytes and another above; each
 * role has its own name, grouped by register.  Up to 64 bytes the data
 * registers are A_l .. D_h, all loaded before any store: 1..3 bytes A_l, A_h,
 * B_l (bytes 0, n - 1, n / 2; B_l first holds that byte's address); 4..16
 * A_l first, A_h last; 17..32 A first 16, B last 16; 33..64 A, B first 32,
 * C, D last 32. */
#define dstin   a0      /* dst as passed: the return value; the head word's home */
#define src     a1      /* source; above 64 bytes a cursor (backward: an end cursor) */
#define count   a2      /* n; dead once the ends are computed, then: */
#define spare   a2      /* > 64: COPYW/STEP's 8th word (their `last`) */
#define dst     a3      /* > 64: 8-aligned destination cursor (backward: end cursor) */
#define dstend  a4      /* dst + n */
#define srcend  a5      /* src + n */
#define rest    a5      /* > 64: bytes between the cursor and the far end */
#define blkend  a5      /* > 64: where the cursor leaves the 8-word blocks */
#define tmp     t0      /* size thresholds, n / 2, head bytes, dst - src */
#define tmp2    t1      /* > 64: the constant 8 */
#define A_l     t1
#define A_h     t2
#define B_l     t3
#define B_h     t4
#define C_l     t5
#define C_h     t6
#define D_l     a6
#define D_h     a7
#define headw   a6      /* > 64: the first 8 bytes, stored last */
#define tailw   a7      /* > 64: the last 8 bytes, stored last */

    .p2align 2
    .globl  fc_rv64_misaligned_fast_memcpy
    .hidden fc_rv64_misaligned_fast_memcpy
    .type   fc_rv64_misaligned_fast_memcpy, @function
fc_rv64_misaligned_fast_memcpy:
    .cfi_startproc
    add     dstend, dstin, count
    add     srcend, src, count
    li      tmp, 16
    bgtu    count, tmp, .Lm_gt16
.Lm_le16:                           /* 0..16: shared with memmove */
    li      tmp, 8
    bltu    count, tmp, 1f
    ld      A_l, 0(src)
    ld      A_h, -8(srcend)
    sd      A_l, 0(dstin)
    sd      A_h, -8(dstend)
    ret
1:  li      tmp, 4
    bltu    count, tmp, 2f
    lw      A_l, 0(src)
    lw      A_h, -4(srcend)
    sw      A_l, 0(dstin)
    sw      A_h, -4(dstend)
    ret
2:  beqz    count, 3f
    srli    tmp, count, 1
    add     B_l, src, tmp
    lbu     A_l, 0(src)
    lbu     A_h, -1(srcend)
    lbu     B_l, 0(B_l)
    add     tmp, dstin, tmp
    sb      A_l, 0(dstin)
    sb      A_h, -1(dstend)
    sb      B_l, 0(tmp)
3:  ret

.Lm_gt16:                           /* 17..64: shared with memmove */
    li      tmp, 32
    bgtu    count, tmp, 4f
    ld      A_l, 0(src)
    ld      A_h, 8(src)
    ld      B_l, -16(srcend)
    ld      B_h, -8(srcend)
    sd      A_l, 0(dstin)
    sd      A_h, 8(dstin)
    sd      B_l, -16(dstend)
    sd      B_h, -8(dstend)
    ret
4:  li      tmp, 64
    bgtu    count, tmp, .Lm_fwd
    ld      A_l, 0(src)
    ld      A_h, 8(src)
    ld      B_l, 16(src)
    ld      B_h, 24(src)
    ld      C_l, -32(srcend)
    ld      C_h, -24(srcend)
    ld      D_l, -16(srcend)
    ld      D_h, -8(srcend)
    sd      A_l, 0(dstin)
    sd      A_h, 8(dstin)
    sd      B_l, 16(dstin)
    sd      B_h, 24(dstin)
    sd      C_l, -32(dstend)
    sd      C_h, -24(dstend)
    sd      D_l, -16(dstend)
    sd      D_h, -8(dstend)
    ret

.Lm_fwd:                            /* n > 64, forward */
    ld      headw, 0(src)           /* head word */
    ld      tailw, -8(srcend)       /* tail word */
    andi    tmp, dstin, 7
    li      tmp2, 8
    sub     tmp, tmp2, tmp          /* 1..8: the head word covers these */
    add     dst, dstin, tmp         /* 8-aligned dst cursor */
    add     src, src, tmp
    sub     rest, dstend, dst       /* bytes from the cursor to the end */
    andi    tmp, rest, -64
    beqz    tmp, 6f
    add     blkend, dst, tmp        /* end of the 8-word blocks */
5:  COPYW   8, 0, spare
    addi    src, src, 64
    addi    dst, dst, 64
    bne     dst, blkend, 5b
6:  sub     rest, dstend, dst       /* < 64 bytes left */
    STEP    1, rest, 32, spare
    STEP    1, rest, 16, spare
    STEP    1, rest, 8, advance=0
9:  sd      headw, 0(dstin)         /* head and tail last: they overlap the body */
    sd      tailw, -8(dstend)
    ret
    .cfi_endproc
    .size   fc_rv64_misaligned_fast_memcpy, . - fc_rv64_misaligned_fast_memcpy

    .p2align 2
    .globl  fc_rv64_misaligned_fast_memmove
    .hidden fc_rv64_misaligned_fast_memmove
    .type   fc_rv64_misaligned_fast_memmove, @function
fc_rv64_misaligned_fast_memmove:
    .cfi_startproc
    add     dstend, dstin, count
    add     srcend, src, count
    li      tmp, 16
    bleu    count, tmp, .Lm_le16
    li      tmp, 64
    bleu    count, tmp, .Lm_gt16
    sub     tmp, dstin, src
    bgeu    tmp, count, .Lm_fwd     /* dst not inside (src, src + n) */
    beqz    tmp, 9f
    /* backward: dst/src are end cursors, dst end aligned down */
    ld      headw, 0(src)           /* head word */
    ld      tailw, -8(srcend)       /* tail word */
    andi    tmp, dstend, 7          /* 0..7: the tail word covers these */
    sub     dst, dstend, tmp
    sub     src, srcend, tmp
    sub     rest, dst, dstin        /* bytes below the cursor */
    andi    tmp, rest, -64
    beqz    tmp, 6f
    sub     blkend, dst, tmp        /* end (bottom) of the 8-word blocks */
5:  COPYW   8, -64, spare
    addi    src, src, -64
    addi    dst, dst, -64
    bne     dst, blkend, 5b
6:  sub     rest, dst, dstin        /* bytes left below the cursor (< 64 here) */
    STEP    -1, rest, 32, spare
    STEP    -1, rest, 16, spare
    STEP    -1, rest, 8, advance=0
10: sd      tailw, -8(dstend)
    sd      headw, 0(dstin)
9:  ret
    .cfi_endproc
    .size   fc_rv64_misaligned_fast_memmove, . - fc_rv64_misaligned_fast_memmove

    .option pop
    .section .note.GNU-stack, "", @progbits
