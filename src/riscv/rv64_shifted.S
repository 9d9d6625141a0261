/*
 * rv64-shifted - memcpy/memmove for RV64 cores where misaligned scalar access
 * traps or is slow (SiFive U74 class: the kernel emulates it, orders of
 * magnitude slower; D23).
 *
 * For:   any RV64GC Linux CPU; the default when hwprobe does not report fast
 *        misaligned access (also when hwprobe is missing: ENOSYS, qemu-user).
 * Needs: RV64I only (no C-extension dependence, no V).  Little-endian.
 * Never: performs a misaligned scalar access.  Every ld/sd is 8-aligned,
 *        every lw/sw 4-aligned, every lh/sh 2-aligned (scripts/rv-audit.py
 *        proves it over the test grid under qemu).
 *
 * Size-class policy (W = 8 bytes; d = dst, s = src):
 *
 *   | n       | alignment                   | technique                                        |
 *   |---------|-----------------------------|--------------------------------------------------|
 *   | any     | d, s both 8-aligned         | word path: 32-word blocks (8 loads, then 8       |
 *   |         |  (below 71 bytes this is    | stores); the k = 0..31 words left enter an ld/sd |
 *   |         |  the Linux patch's small    | ladder k pairs before its end, which ends in a   |
 *   |         |  aligned word path)         | jump to tail leaf r = n%8 (aligned sw/sh/sb at   |
 *   |         |                             | fixed offsets: no compares on r)                 |
 *   | 0..15   | any other; memmove backward | byte loop                                        |
 *   | >= 16   | co-aligned (d%8 == s%8)     | one jump to head leaf d%8 (at most one aligned   |
 *   |         |                             | sb, sh, sw); 64-word blocks; 0..63 words via the |
 *   |         |                             | ladder, tail leaf as above                       |
 *   | >= 16   | mutually misaligned         | shifted word copy: aligned src loads, out =      |
 *   |         |                             | (w[i] >> 8o) | (w[i+1] << (64-8o)), 5            |
 *   |         |                             | instructions per word.  Head: the merged word    |
 *   |         |                             | holding d, stored with at most one aligned sb,   |
 *   |         |                             | sh, sw (3-level compare tree on d%8).  Words: a  |
 *   |         |                             | 64-word loop body entered k = words%64 words     |
 *   |         |                             | before its end (Duff).  Tail: the final merged   |
 *   |         |                             | word, one jump to leaf r (aligned sw/sh/sb)      |
 *
 * Backward (memmove with dst in (src, src + n); not audited by the check):
 * co-aligned 1/2/4-byte head and tail pieces around 16-word blocks with
 * 8/4/2/1 remainders; mutually misaligned: the partial dst words at both ends
 * are merged words (same load rules as forward) stored with aligned
 * sw/sh/sb picked by compare trees, 16-word shifted blocks with 8/4/2/1
 * remainders between; n < 16 a byte loop.
 *
 * Cost (dynamic instructions, forward, scripts/rv-audit.py): 0.25/B for
 * aligned words and 0.625/B for shifted words, plus per call ~10 to pick the
 * class, 11-15 (co-aligned) or 16-19 (shifted, merge included) for the
 * head, ~10 to enter the ladder or the loop body
 * mid-way, 3 per 256 B (aligned) or 512 B (co-aligned, shifted) of loop
 * control, and a tail leaf of at most 3 aligned stores (+ 1 load and 3 ALU
 * for the shifted tail).  Worst over the rv-audit check placements:
 * co-aligned 0.414/0.332/0.295 insn/B at 256/512/1024 B, mutually misaligned
 * 0.863/0.744/0.688: the budgets of 0.3/0.7 insn/B hold from 1 KiB (D24; the fixed cost is
 * ~35-45 instructions above the per-word floor; at 256 B the budgets leave
 * 13 and 19).  32/64 B aligned: 29/37 instructions.
 *
 * Code layout: the ladder (8 bytes a word), the shifted body (20 bytes a
 * word) and the leaf tables (.org-pinned 32/64-byte slots) are entered by
 * computed jumps, so they are assembled with .option norvc and their sizes
 * are checked at assembly time.  memcpy is ~4.2 KiB of code.
 *
 * memmove: copies backward only when dst lies in
 * (src, src + n); otherwise it is memcpy, whose forward order is safe for any
 * dst < src because no store reaches a source byte that is still unread.
 *
 * OVER-READ: the shifted copy loads whole aligned source words, so it reads up
 * to 7 bytes before the first and after the last source byte, but only inside
 * aligned words that hold at least one source byte: it never touches a page
 * (or cache line) the source does not.  (The forward head loads the word
 * holding src in place of the word below it when that one holds no source
 * byte; the forward tail loads the last word only if it holds source bytes.)
 * AddressSanitizer/valgrind may flag it.
 */

    .text
    .option push
    .option norelax

/* ---- word-block helpers (GAS macros) ---------------------------------------
 * Registers: a1 src cursor, a3 dst cursor, t0..t6/a7 scratch for blocks.
 * FWD blocks copy from the cursors upward; BWD blocks copy the words just
 * below the cursors (offsets -8*cnt .. -8).                                   */

/* COPYW cnt, off: cnt (1..8) aligned words at offset off, all loads, then all stores. */
#include "rv64_copyw.h"

/* Forward shifted words: a1 = 8 below the aligned source word w[0] (w[0] is
 * already in register t2), a3 = aligned dst, t0 = 8o, t1 = 64 - 8o (mod 64).
 * Output word i = (w[i] >> t0) | (w[i+1] << t1).  cnt even: the current word
 * ends in t2 again; cnt odd: it ends in t3 (the caller moves it). */
.macro SHF cnt
    .set .Li, 0
    .rept \cnt
    .if (.Li % 2) == 0
    ld      t3, (8 * .Li + 16)(a1)
    srl     t4, t2, t0
    sll     t5, t3, t1
    or      t4, t4, t5
    sd      t4, (8 * .Li)(a3)
    .else
    ld      t2, (8 * .Li + 16)(a1)
    srl     t4, t3, t0
    sll     t5, t2, t1
    or      t4, t4, t5
    sd      t4, (8 * .Li)(a3)
    .endif
    .set .Li, .Li + 1
    .endr
.endm

/* Backward shifted words: a1 = aligned word holding the last source byte
 * (that word, "hi", is in t2), a3 = aligned dst end.  Output word j below a3
 * = (w[-j] >> t0) | (w[-j+1] << t1). */
.macro SHB cnt
    .set .Li, 1
    .rept \cnt
    .if (.Li % 2) == 1
    ld      t3, (-8 * .Li)(a1)
    srl     t4, t3, t0
    sll     t5, t2, t1
    or      t4, t4, t5
    sd      t4, (-8 * .Li)(a3)
    .else
    ld      t2, (-8 * .Li)(a1)
    srl     t4, t2, t0
    sll     t5, t3, t1
    or      t4, t4, t5
    sd      t4, (-8 * .Li)(a3)
    .endif
    .set .Li, .Li + 1
    .endr
.endm

/* The k-word tail of the aligned word path, entered k pairs before its end
 * (offsets relative to the end: the caller advances a1/a3 by 8k first). */
.macro WLADDER
    .set .Li, 0
    .rept 64
    .if (.Li % 2) == 0
    ld      t0, (8 * .Li - 512)(a1)
    sd      t0, (8 * .Li - 512)(a3)
    .else
    ld      t1, (8 * .Li - 512)(a1)
    sd      t1, (8 * .Li - 512)(a3)
    .endif
    .set .Li, .Li + 1
    .endr
.endm

/* ========================================================================== */
    .p2align 2
    .globl  fc_rv64_shifted_memcpy
    .hidden fc_rv64_shifted_memcpy
    .type   fc_rv64_shifted_memcpy, @function
fc_rv64_shifted_memcpy:
    .cfi_startproc
    or      t0, a0, a1
    andi    t0, t0, 7
    mv      a3, a0                  /* dst cursor; a0 is the return value */
    beqz    t0, .Lf_words
/* ---- not both aligned ---- */
    add     a4, a0, a2              /* dst end */
    li      t0, 16
    bltu    a2, t0, .Lf_bytes
    sub     a6, a1, a0
    andi    a6, a6, 7               /* o = (src - dst) mod 8 */
    bnez    a6, .Lf_mis
    /* co-aligned, n >= 16: the h = 8 - m byte head (m = dst mod 8 != 0) is
     * leaf m of .Lf_cheads (64 bytes each): at most one aligned sb, sh, sw,
     * equally aligned loads; then 64-word blocks */
    andi    t0, a3, 7
    slli    t0, t0, 6
    lla     t5, .Lf_cheads - 64
    add     t5, t5, t0
    jr      t5
    .p2align 2
.Lf_cheads:
    lbu     t1, 0(a1)
    lhu     t2, 1(a1)
    lwu     t3, 3(a1)
    sb      t1, 0(a3)
    sh      t2, 1(a3)
    sw      t3, 3(a3)
    addi    a1, a1, 7
    addi    a3, a3, 7
    j       3f
    .org    .Lf_cheads + 64 * 1
    lhu     t1, 0(a1)
    lwu     t2, 2(a1)
    sh      t1, 0(a3)
    sw      t2, 2(a3)
    addi    a1, a1, 6
    addi    a3, a3, 6
    j       3f
    .org    .Lf_cheads + 64 * 2
    lbu     t1, 0(a1)
    lwu     t2, 1(a1)
    sb      t1, 0(a3)
    sw      t2, 1(a3)
    addi    a1, a1, 5
    addi    a3, a3, 5
    j       3f
    .org    .Lf_cheads + 64 * 3
    lwu     t1, 0(a1)
    sw      t1, 0(a3)
    addi    a1, a1, 4
    addi    a3, a3, 4
    j       3f
    .org    .Lf_cheads + 64 * 4
    lbu     t1, 0(a1)
    lhu     t2, 1(a1)
    sb      t1, 0(a3)
    sh      t2, 1(a3)
    addi    a1, a1, 3
    addi    a3, a3, 3
    j       3f
    .org    .Lf_cheads + 64 * 5
    lhu     t1, 0(a1)
    sh      t1, 0(a3)
    addi    a1, a1, 2
    addi    a3, a3, 2
    j       3f
    .org    .Lf_cheads + 64 * 6
    lbu     t1, 0(a1)
    sb      t1, 0(a3)
    addi    a1, a1, 1
    addi    a3, a3, 1
    j       3f
    .org    .Lf_cheads + 64 * 7
3:  sub     a2, a4, a3
    andi    a5, a2, -512
    beqz    a5, 5f
    add     a5, a3, a5              /* end of the 64-word blocks */
4:  COPYW   8, 0
    COPYW   8, 64
    COPYW   8, 128
    COPYW   8, 192
    COPYW   8, 256
    COPYW   8, 320
    COPYW   8, 384
    COPYW   8, 448
    addi    a1, a1, 512
    addi    a3, a3, 512
    bne     a3, a5, 4b
5:  andi    t6, a2, 504             /* 8k: k = 0..63 words left */
    j       .Lf_wdisp
/* ---- both 8-aligned, any n (the Linux patch's small aligned path below 71 bytes) ---- */
.Lf_words:                          /* a3, a1 8-aligned; a2 = bytes left */
    andi    a5, a2, -256
    beqz    a5, .Lf_wrest
    add     a5, a3, a5              /* end of the 32-word blocks */
3:  COPYW   8, 0
    COPYW   8, 64
    COPYW   8, 128
    COPYW   8, 192
    addi    a1, a1, 256
    addi    a3, a3, 256
    bne     a3, a5, 3b
.Lf_wrest:                          /* 0..31 words, then 0..7 bytes */
    andi    t6, a2, 255
    beqz    t6, .Lret
    andi    t6, a2, 248             /* 8k: k = 0..31 words left */
.Lf_wdisp:                          /* t6 = 8k, k = 0..63 words, then r = a2 & 7 bytes */
    /* the r-byte tail is leaf r of .Lf_tleaves (32 bytes each); the k words
     * enter the ld/sd ladder k pairs before its end (offsets relative to the
     * end, so the cursors advance by 8k first), which ends in jr to the leaf */
    andi    t0, a2, 7
    slli    t0, t0, 5
    lla     t5, .Lf_tleaves
    add     t4, t5, t0              /* leaf r */
    beqz    t6, .Lf_tjr
    sub     t3, t5, t6              /* each pair is 8 bytes of code */
    add     a1, a1, t6
    add     a3, a3, t6
    jalr    zero, -4(t3)            /* .Lf_tjr - 8k */
    .option push
    .option norvc
.Lf_wduff:
    WLADDER
.Lf_tjr:
    jr      t4
.Lf_tleaves:
    .option pop
    .if (.Lf_tjr - .Lf_wduff) != 64 * 8 || (.Lf_tleaves - .Lf_tjr) != 4
    .error "rv64_shifted: word ladder is not 8 bytes per word"
    .endif
.Lret:                              /* r = 0 */
    ret
    .org    .Lf_tleaves + 32 * 1
    lbu     t1, 0(a1)
    sb      t1, 0(a3)
    ret
    .org    .Lf_tleaves + 32 * 2
    lhu     t1, 0(a1)
    sh      t1, 0(a3)
    ret
    .org    .Lf_tleaves + 32 * 3
    lhu     t1, 0(a1)
    lbu     t2, 2(a1)
    sh      t1, 0(a3)
    sb      t2, 2(a3)
    ret
    .org    .Lf_tleaves + 32 * 4
    lwu     t1, 0(a1)
    sw      t1, 0(a3)
    ret
    .org    .Lf_tleaves + 32 * 5
    lwu     t1, 0(a1)
    lbu     t2, 4(a1)
    sw      t1, 0(a3)
    sb      t2, 4(a3)
    ret
    .org    .Lf_tleaves + 32 * 6
    lwu     t1, 0(a1)
    lhu     t2, 4(a1)
    sw      t1, 0(a3)
    sh      t2, 4(a3)
    ret
    .org    .Lf_tleaves + 32 * 7
    lwu     t1, 0(a1)
    lhu     t2, 4(a1)
    lbu     t3, 6(a1)
    sw      t1, 0(a3)
    sh      t2, 4(a3)
    sb      t3, 6(a3)
    ret

.Lf_bytes:                          /* n < 16, not both aligned */
    beqz    a2, .Lret
9:  lbu     t1, 0(a1)
    sb      t1, 0(a3)
    addi    a1, a1, 1
    addi    a3, a3, 1
    bne     a3, a4, 9b
    ret

/* ---- mutually misaligned, n >= 16: o = a6 = (src - dst) mod 8 != 0 ---- */
.Lf_mis:
    slli    t0, a6, 3               /* 8o */
    neg     t1, t0                  /* 64 - 8o: sll uses the low 6 bits */
    andi    t6, a3, 7               /* m = dst mod 8 */
    andi    a5, a1, -8              /* the aligned word holding src */
    beqz    t6, .Lf_mnohead
    /* Head: the aligned dst word D0 holding dst is output word
     * (P >> 8o) | (A0 << (64 - 8o)), A0 and P the aligned source words at
     * src - m + 8 - o and 8 below it.  A0 holds source bytes (n >= 16).  P
     * holds source bytes only when it is the word holding src; otherwise
     * its bytes land below dst, in bytes that are not stored, so the word
     * holding src (= A0 then) is loaded in its place. */
    ld      t3, 0(a5)               /* P (or A0) */
    sub     a1, a1, t6
    andi    a1, a1, -8
    ld      t2, 8(a1)               /* A0; a1 stays 8 below it */
    srl     t4, t3, t0
    sll     t5, t2, t1
    or      t4, t4, t5              /* dst word D0 (bytes m..7 wanted) */
    /* store bytes m..7 of it: leaf m of a compare tree does at most one
     * aligned sb, sh, sw (offsets from dst) and advances dst by h = 8 - m */
    andi    t5, t6, 4
    bnez    t5, .Lf_h4567
    andi    t5, t6, 2
    bnez    t5, .Lf_h23
    srli    t5, t4, 8               /* m = 1 */
    sb      t5, 0(a3)
    srli    t5, t4, 16
    sh      t5, 1(a3)
    srli    t5, t4, 32
    sw      t5, 3(a3)
    addi    a3, a3, 7
    j       .Lf_mwords
.Lf_h23:
    andi    t5, t6, 1
    bnez    t5, .Lf_h3
    srli    t5, t4, 16              /* m = 2 */
    sh      t5, 0(a3)
    srli    t5, t4, 32
    sw      t5, 2(a3)
    addi    a3, a3, 6
    j       .Lf_mwords
.Lf_h3:
    srli    t5, t4, 24
    sb      t5, 0(a3)
    srli    t5, t4, 32
    sw      t5, 1(a3)
    addi    a3, a3, 5
    j       .Lf_mwords
.Lf_h4567:
    andi    t5, t6, 2
    bnez    t5, .Lf_h67
    andi    t5, t6, 1
    bnez    t5, .Lf_h5
    srli    t5, t4, 32              /* m = 4 */
    sw      t5, 0(a3)
    addi    a3, a3, 4
    j       .Lf_mwords
.Lf_h5:
    srli    t5, t4, 40
    sb      t5, 0(a3)
    srli    t5, t4, 48
    sh      t5, 1(a3)
    addi    a3, a3, 3
    j       .Lf_mwords
.Lf_h67:
    andi    t5, t6, 1
    bnez    t5, .Lf_h7
    srli    t5, t4, 48              /* m = 6 */
    sh      t5, 0(a3)
    addi    a3, a3, 2
    j       .Lf_mwords
.Lf_h7:
    srli    t5, t4, 56
    sb      t5, 0(a3)
    addi    a3, a3, 1
    j       .Lf_mwords
.Lf_mnohead:                        /* dst aligned: w[0] = the word holding src */
    addi    a1, a5, -8
    ld      t2, 8(a1)
.Lf_mwords:                         /* a3 8-aligned; t2 = 8(a1); >= 9 bytes left */
    sub     a2, a4, a3
    andi    a5, a4, -8              /* end of the whole dst words */
    andi    a7, a2, 7               /* r: the tail is leaf r of .Lf_mleaves */
    slli    a7, a7, 6
    lla     t5, .Lf_mleaves
    add     a7, a7, t5
    andi    t6, a2, 504             /* 8k: k = words mod 64 */
    beqz    t6, .Lf_sbody           /* k = 0: a multiple of 64 words, >= 64 */
    /* enter the 64-word loop body k words before its end (Duff): cursors
     * back by 8(64 - k), target = end - 20k (5 instructions a word) */
    mv      t3, t2                  /* odd entry points expect w in t3 */
    addi    t4, t6, -512
    add     a1, a1, t4
    add     a3, a3, t4
    slli    t4, t6, 1
    srli    t6, t6, 1
    add     t4, t4, t6              /* 20k */
    sub     t5, t5, t4
    jalr    zero, 64 * 8 + 64 * 20(t5)  /* .Lf_sbody_end - 20k */
.Lf_mleaves:
    /* Tail leaf r (64 bytes each): t2 = the aligned source word holding the
     * next source byte; the word after it is loaded only if it holds source
     * bytes (o + r > 8).  The r bytes are stored with aligned sw/sh/sb. */
    ret                             /* r = 0 */
    .org    .Lf_mleaves + 64 * 1
    srl     t4, t2, t0
    sb      t4, 0(a3)
    ret
    .org    .Lf_mleaves + 64 * 2
    srl     t4, t2, t0
    sltiu   t5, a6, 7
    bnez    t5, 1f
    ld      t3, 16(a1)
    sll     t5, t3, t1
    or      t4, t4, t5
1:
    sh      t4, 0(a3)
    ret
    .org    .Lf_mleaves + 64 * 3
    srl     t4, t2, t0
    sltiu   t5, a6, 6
    bnez    t5, 1f
    ld      t3, 16(a1)
    sll     t5, t3, t1
    or      t4, t4, t5
1:
    sh      t4, 0(a3)
    srli    t5, t4, 16
    sb      t5, 2(a3)
    ret
    .org    .Lf_mleaves + 64 * 4
    srl     t4, t2, t0
    sltiu   t5, a6, 5
    bnez    t5, 1f
    ld      t3, 16(a1)
    sll     t5, t3, t1
    or      t4, t4, t5
1:
    sw      t4, 0(a3)
    ret
    .org    .Lf_mleaves + 64 * 5
    srl     t4, t2, t0
    sltiu   t5, a6, 4
    bnez    t5, 1f
    ld      t3, 16(a1)
    sll     t5, t3, t1
    or      t4, t4, t5
1:
    sw      t4, 0(a3)
    srli    t5, t4, 32
    sb      t5, 4(a3)
    ret
    .org    .Lf_mleaves + 64 * 6
    srl     t4, t2, t0
    sltiu   t5, a6, 3
    bnez    t5, 1f
    ld      t3, 16(a1)
    sll     t5, t3, t1
    or      t4, t4, t5
1:
    sw      t4, 0(a3)
    srli    t5, t4, 32
    sh      t5, 4(a3)
    ret
    .org    .Lf_mleaves + 64 * 7
    srl     t4, t2, t0
    sltiu   t5, a6, 2
    bnez    t5, 1f
    ld      t3, 16(a1)
    sll     t5, t3, t1
    or      t4, t4, t5
1:
    sw      t4, 0(a3)
    srli    t5, t4, 32
    sh      t5, 4(a3)
    srli    t5, t4, 48
    sb      t5, 6(a3)
    ret
    .org    .Lf_mleaves + 64 * 8
    .option push
    .option norvc
.Lf_sbody:
    SHF     64                      /* every output word's second source  */
.Lf_sbody_end:                      /* word holds a needed byte: no load  */
    .option pop                     /* leaves the source                  */
    .if (.Lf_sbody_end - .Lf_sbody) != 64 * 20
    .error "rv64_shifted: shifted body is not 20 bytes per word"
    .endif
    addi    a1, a1, 512
    addi    a3, a3, 512
    bne     a3, a5, .Lf_sbody
    jr      a7
    .cfi_endproc
    .size   fc_rv64_shifted_memcpy, . - fc_rv64_shifted_memcpy

/* ========================================================================== */
    .p2align 2
    .globl  fc_rv64_shifted_memmove
    .hidden fc_rv64_shifted_memmove
    .type   fc_rv64_shifted_memmove, @function
fc_rv64_shifted_memmove:
    .cfi_startproc
    sub     t0, a0, a1
    bgeu    t0, a2, fc_rv64_shifted_memcpy  /* dst not inside (src, src + n] */
    beqz    t0, .Lb_ret                     /* dst == src */
    /* backward: a3/a1 are END cursors */
    add     a3, a0, a2
    add     a1, a1, a2
    li      t0, 16
    bltu    a2, t0, .Lb_small
    xor     t0, a3, a1              /* (d + n) - (s + n) = d - s */
    andi    t0, t0, 7
    bnez    t0, .Lb_mis

/* ---- co-aligned, n >= 16, backward ---- */
    andi    t0, a3, 7
    beqz    t0, .Lb_words
    STEP    -1, a3, 1
    STEP    -1, a3, 2
    STEP    -1, a3, 4
.Lb_words:                          /* a3, a1 8-aligned end cursors */
    sub     a2, a3, a0              /* bytes left, below the cursors */
    andi    a5, a2, -128
    beqz    a5, .Lb_wrest
    sub     a5, a3, a5
3:  COPYW   8, -64
    COPYW   8, -128
    addi    a1, a1, -128
    addi    a3, a3, -128
    bne     a3, a5, 3b
.Lb_wrest:
    STEP    -1, a2, 64
    STEP    -1, a2, 32
    STEP    -1, a2, 16
    STEP    -1, a2, 8
.Lb_ahead:                          /* a3 8-aligned, a2 & 7 bytes left below it */
    andi    t0, a2, 7
    beqz    t0, .Lb_ret
    STEP    -1, a2, 4
    STEP    -1, a2, 2
    STEP    -1, a2, 1, advance=0
.Lb_ret:
    ret

/* ---- n < 16, backward (dst overlaps the source's top: bytes) ---- */
.Lb_small:
.Lb_bytes:
    beqz    a2, .Lb_ret
9:  lbu     t1, -1(a1)
    sb      t1, -1(a3)
    addi    a1, a1, -1
    addi    a3, a3, -1
    bne     a3, a0, 9b
    ret

/* ---- mutually misaligned, n >= 16, backward ---- */
.Lb_mis:                            /* a3 = dst end, a1 = src end */
    sub     a7, a1, a2              /* src */
    sub     t0, a1, a3
    andi    t0, t0, 7               /* o = (src - dst) mod 8 != 0 */
    slli    t0, t0, 3
    neg     t1, t0
    andi    t6, a3, 7               /* m: dst bytes in the top partial word */
    beqz    t6, .Lb_mnohead
    /* Top partial word D = dst end - m (bytes 0..m-1 wanted) = (Alo >> 8o) |
     * (Ahi << (64 - 8o)), Alo the aligned word holding src end - m (a source
     * byte: n >= 16), Ahi the next one.  If Ahi holds no source byte its bytes
     * land at m and above (not stored), so the word holding the last source
     * byte (= Alo then) is loaded in its place. */
    addi    t5, a1, -1
    andi    t5, t5, -8
    ld      t3, 0(t5)               /* Ahi (or Alo) */
    sub     a1, a1, t6
    andi    a1, a1, -8
    ld      t2, 0(a1)               /* Alo: the "hi" word of the next output word */
    srl     t4, t2, t0
    sll     t5, t3, t1
    or      t4, t4, t5
    sub     a3, a3, t6              /* D */
    andi    t5, t6, 4               /* aligned sw/sh/sb of bytes 0..m-1 */
    beqz    t5, .Lb_h123
    sw      t4, 0(a3)
    andi    t5, t6, 2
    beqz    t5, .Lb_h45
    srli    t5, t4, 32
    sh      t5, 4(a3)
    andi    t5, t6, 1
    beqz    t5, .Lb_mwords
    srli    t5, t4, 48
    sb      t5, 6(a3)
    j       .Lb_mwords
.Lb_h45:
    andi    t5, t6, 1
    beqz    t5, .Lb_mwords
    srli    t5, t4, 32
    sb      t5, 4(a3)
    j       .Lb_mwords
.Lb_h123:
    andi    t5, t6, 2
    beqz    t5, .Lb_h1
    sh      t4, 0(a3)
    andi    t5, t6, 1
    beqz    t5, .Lb_mwords
    srli    t5, t4, 16
    sb      t5, 2(a3)
    j       .Lb_mwords
.Lb_h1:
    sb      t4, 0(a3)
    j       .Lb_mwords
.Lb_mnohead:                        /* dst end aligned, src end misaligned */
    andi    a1, a1, -8              /* word holding the last source byte */
    ld      t2, 0(a1)               /* hi */
.Lb_mwords:
    sub     a2, a3, a0
    andi    a5, a2, -128
    beqz    a5, .Lb_srest
    sub     a5, a3, a5
3:  SHB     16
    addi    a1, a1, -128
    addi    a3, a3, -128
    bne     a3, a5, 3b
.Lb_srest:
    andi    t6, a2, 120
    beqz    t6, .Lb_shead
    andi    t6, a2, 64
    beqz    t6, 4f
    SHB     8
    addi    a1, a1, -64
    addi    a3, a3, -64
4:  andi    t6, a2, 32
    beqz    t6, 5f
    SHB     4
    addi    a1, a1, -32
    addi    a3, a3, -32
5:  andi    t6, a2, 16
    beqz    t6, 6f
    SHB     2
    addi    a1, a1, -16
    addi    a3, a3, -16
6:  andi    t6, a2, 8
    beqz    t6, .Lb_shead
    SHB     1
    mv      t2, t3
    addi    a1, a1, -8
    addi    a3, a3, -8
.Lb_shead:                          /* r = a3 - a0 = 0..7 bytes below a3 */
    beq     a3, a0, .Lb_ret
    /* word a3 - 8 = (w[-1] >> 8o) | (hi << (64 - 8o)); w[-1] (at a1 - 8) is
     * loaded only if it holds source bytes (src < a1) */
    sll     t4, t2, t1
    bgeu    a7, a1, 1f
    ld      t3, -8(a1)
    srl     t5, t3, t0
    or      t4, t4, t5
1:  andi    t6, a0, 7               /* m = dst mod 8 != 0: bytes m..7 wanted */
    andi    t5, t6, 4               /* aligned sb/sh/sw at offsets from dst */
    bnez    t5, .Lb_t4567
    andi    t5, t6, 2
    bnez    t5, .Lb_t23
    srli    t5, t4, 8               /* m = 1 */
    sb      t5, 0(a0)
    srli    t5, t4, 16
    sh      t5, 1(a0)
    srli    t5, t4, 32
    sw      t5, 3(a0)
    ret
.Lb_t23:
    andi    t5, t6, 1
    bnez    t5, .Lb_t3
    srli    t5, t4, 16              /* m = 2 */
    sh      t5, 0(a0)
    srli    t5, t4, 32
    sw      t5, 2(a0)
    ret
.Lb_t3:
    srli    t5, t4, 24
    sb      t5, 0(a0)
    srli    t5, t4, 32
    sw      t5, 1(a0)
    ret
.Lb_t4567:
    andi    t5, t6, 2
    bnez    t5, .Lb_t67
    andi    t5, t6, 1
    bnez    t5, .Lb_t5
    srli    t5, t4, 32              /* m = 4 */
    sw      t5, 0(a0)
    ret
.Lb_t5:
    srli    t5, t4, 40
    sb      t5, 0(a0)
    srli    t5, t4, 48
    sh      t5, 1(a0)
    ret
.Lb_t67:
    andi    t5, t6, 1
    bnez    t5, .Lb_t7
    srli    t5, t4, 48              /* m = 6 */
    sh      t5, 0(a0)
    ret
.Lb_t7:
    srli    t5, t4, 56
    sb      t5, 0(a0)
    ret
    .cfi_endproc
    .size   fc_rv64_shifted_memmove, . - fc_rv64_shifted_memmove

    .option pop
    .section .note.GNU-stack, "", @progbits
