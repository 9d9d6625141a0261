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
 */

    .text
    .option push
    .option norelax

/* COPYW cnt, off, a2: cnt (1..8) words, loads from a1+off (any alignment), stores to a3+off. */
#include "rv64_copyw.h"

    .p2align 2
    .globl  fc_rv64_misaligned_fast_memcpy
    .hidden fc_rv64_misaligned_fast_memcpy
    .type   fc_rv64_misaligned_fast_memcpy, @function
fc_rv64_misaligned_fast_memcpy:
    .cfi_startproc
    add     a4, a0, a2              /* dst end */
    add     a5, a1, a2              /* src end */
    li      t0, 16
    bgtu    a2, t0, .Lm_gt16
.Lm_le16:                           /* 0..16: shared with memmove */
    li      t0, 8
    bltu    a2, t0, 1f
    ld      t1, 0(a1)
    ld      t2, -8(a5)
    sd      t1, 0(a0)
    sd      t2, -8(a4)
    ret
1:  li      t0, 4
    bltu    a2, t0, 2f
    lw      t1, 0(a1)
    lw      t2, -4(a5)
    sw      t1, 0(a0)
    sw      t2, -4(a4)
    ret
2:  beqz    a2, 3f
    srli    t0, a2, 1
    add     t3, a1, t0
    lbu     t1, 0(a1)
    lbu     t2, -1(a5)
    lbu     t3, 0(t3)
    add     t0, a0, t0
    sb      t1, 0(a0)
    sb      t2, -1(a4)
    sb      t3, 0(t0)
3:  ret

.Lm_gt16:                           /* 17..64: shared with memmove */
    li      t0, 32
    bgtu    a2, t0, 4f
    ld      t1, 0(a1)
    ld      t2, 8(a1)
    ld      t3, -16(a5)
    ld      t4, -8(a5)
    sd      t1, 0(a0)
    sd      t2, 8(a0)
    sd      t3, -16(a4)
    sd      t4, -8(a4)
    ret
4:  li      t0, 64
    bgtu    a2, t0, .Lm_fwd
    ld      t1, 0(a1)
    ld      t2, 8(a1)
    ld      t3, 16(a1)
    ld      t4, 24(a1)
    ld      t5, -32(a5)
    ld      t6, -24(a5)
    ld      a6, -16(a5)
    ld      a7, -8(a5)
    sd      t1, 0(a0)
    sd      t2, 8(a0)
    sd      t3, 16(a0)
    sd      t4, 24(a0)
    sd      t5, -32(a4)
    sd      t6, -24(a4)
    sd      a6, -16(a4)
    sd      a7, -8(a4)
    ret

.Lm_fwd:                            /* n > 64, forward */
    ld      a6, 0(a1)               /* head word */
    ld      a7, -8(a5)              /* tail word */
    andi    t0, a0, 7
    li      t1, 8
    sub     t0, t1, t0              /* 1..8: the head word covers these */
    add     a3, a0, t0              /* 8-aligned dst cursor */
    add     a1, a1, t0
    sub     a5, a4, a3              /* bytes from the cursor to the end */
    andi    t0, a5, -64
    beqz    t0, 6f
    add     a5, a3, t0              /* end of the 8-word blocks */
5:  COPYW   8, 0, a2
    addi    a1, a1, 64
    addi    a3, a3, 64
    bne     a3, a5, 5b
6:  sub     a5, a4, a3              /* < 64 bytes left */
    STEP    1, a5, 32, a2
    STEP    1, a5, 16, a2
    STEP    1, a5, 8, advance=0
9:  sd      a6, 0(a0)               /* head and tail last: they overlap the body */
    sd      a7, -8(a4)
    ret
    .cfi_endproc
    .size   fc_rv64_misaligned_fast_memcpy, . - fc_rv64_misaligned_fast_memcpy

    .p2align 2
    .globl  fc_rv64_misaligned_fast_memmove
    .hidden fc_rv64_misaligned_fast_memmove
    .type   fc_rv64_misaligned_fast_memmove, @function
fc_rv64_misaligned_fast_memmove:
    .cfi_startproc
    add     a4, a0, a2
    add     a5, a1, a2
    li      t0, 16
    bleu    a2, t0, .Lm_le16
    li      t0, 64
    bleu    a2, t0, .Lm_gt16
    sub     t0, a0, a1
    bgeu    t0, a2, .Lm_fwd         /* dst not inside (src, src + n) */
    beqz    t0, 9f
    /* backward: a3/a1 are end cursors, dst end aligned down */
    ld      a6, 0(a1)               /* head word */
    ld      a7, -8(a5)              /* tail word */
    andi    t0, a4, 7               /* 0..7: the tail word covers these */
    sub     a3, a4, t0
    sub     a1, a5, t0
    sub     a5, a3, a0              /* bytes below the cursor */
    andi    t0, a5, -64
    beqz    t0, 6f
    sub     a5, a3, t0              /* end (bottom) of the 8-word blocks */
5:  COPYW   8, -64, a2
    addi    a1, a1, -64
    addi    a3, a3, -64
    bne     a3, a5, 5b
6:  sub     a5, a3, a0              /* bytes left below the cursor (< 64 here) */
    STEP    -1, a5, 32, a2
    STEP    -1, a5, 16, a2
    STEP    -1, a5, 8, advance=0
10: sd      a7, -8(a4)
    sd      a6, 0(a0)
9:  ret
    .cfi_endproc
    .size   fc_rv64_misaligned_fast_memmove, . - fc_rv64_misaligned_fast_memmove

    .option pop
    .section .note.GNU-stack, "", @progbits
