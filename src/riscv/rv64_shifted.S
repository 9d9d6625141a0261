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
 * Registers: named in the #define block after the #include (dstin a0, src a1,
 *        count a2, dst a3, dstend a4, loopend a5, skew a6, ...).
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
 * Registers: src and dst cursors, t0..t6/a7 scratch for blocks.
 * FWD blocks copy from the cursors upward; BWD blocks copy the words just
 * below the cursors (offsets -8*cnt .. -8).                                   */

/* COPYW cnt, off: cnt (1..8) aligned words at offset off, all loads, then all stores. */
#include "rv64_copyw.h"

/* ---- registers --------------------------------------------------------------
 * A register that holds different things on different paths has a name for
 * each role, grouped by register.  (rv64_copyw.h names its own: its cursors
 * are src and dst, its scratch t0..t6 and a7.) */
#define dstin   a0      /* dst as passed: the return value; backward: the low end */
#define src     a1      /* source cursor (backward: an end cursor) */
#define count   a2      /* n; then the bytes left from the dst cursor */
#define dst     a3      /* destination cursor (backward: an end cursor) */
#define dstend  a4      /* forward, not both aligned: dst + n */
#define loopend a5      /* where the dst cursor leaves a block loop */
#define srcw    a5      /* forward shifted head: the aligned word holding src */
#define skew    a6      /* forward shifted: o = (src - dst) mod 8, 1..7 */
#define mleaf   a7      /* forward shifted: the tail, leaf r of .Lf_mleaves */
#define srcin   a7      /* backward shifted: src as passed (the lowest byte) */
#define tmp     t0      /* alignment tests, thresholds, leaf offsets, dst - src */
#define rsh     t0      /* shifted: 8 o, the low word's right shift */
#define wl0     t0      /* WLADDER: its even words */
#define lsh     t1      /* shifted: 64 - 8 o, the high word's left shift (mod 64) */
#define wl1     t1      /* WLADDER: its odd words */
#define piece1  t1      /* co-aligned heads, tail leaves, byte loops: the */
#define piece2  t2      /*   1-, 2- and 4-byte pieces, lowest address first */
#define piece3  t3
#define weven   t2      /* shifted: the source words w[i], i even (w[0]: the */
#define wodd    t3      /*   word the next output word starts in), i odd */
#define entry   t3      /* .Lf_wdisp: the ladder entry, 8k bytes before its end */
#define out     t4      /* shifted: the merged output word */
#define tleaf   t4      /* .Lf_wdisp: the tail, leaf r of .Lf_tleaves */
#define adj     t4      /* Duff entry: the cursors' step back, then 20k */
#define addr    t5      /* a computed jump's target or its table; a word's address */
#define part    t5      /* shifted: the high word's shifted part; a piece of out */
#define flag    t5      /* compare trees and leaves: a bit of m, o < limit */
#define wleft   t6      /* 8k: the bytes of the k whole words left */
#define dmod    t6      /* shifted: m, the dst (backward: dst end) mod 8 */

/* Forward shifted words: src = 8 below the aligned source word w[0] (w[0] is
 * already in weven), dst = aligned dst, rsh = 8o, lsh = 64 - 8o (mod 64).
 * Output word i = (w[i] >> rsh) | (w[i+1] << lsh).  cnt even: the current
 * word ends in weven again; cnt odd: it ends in wodd (the caller moves it). */
.macro SHF cnt
    .set .Li, 0
    .rept \cnt
    .if (.Li % 2) == 0
    ld      wodd, (8 * .Li + 16)(src)
    srl     out, weven, rsh
    sll     part, wodd, lsh
    or      out, out, part
    sd      out, (8 * .Li)(dst)
    .else
    ld      weven, (8 * .Li + 16)(src)
    srl     out, wodd, rsh
    sll     part, weven, lsh
    or      out, out, part
    sd      out, (8 * .Li)(dst)
    .endif
    .set .Li, .Li + 1
    .endr
.endm

/* Backward shifted words: src = aligned word holding the last source byte
 * (that word, "hi", is in weven), dst = aligned dst end.  Output word j below
 * dst = (w[-j] >> rsh) | (w[-j+1] << lsh). */
.macro SHB cnt
    .set .Li, 1
    .rept \cnt
    .if (.Li % 2) == 1
    ld      wodd, (-8 * .Li)(src)
    srl     out, wodd, rsh
    sll     part, weven, lsh
    or      out, out, part
    sd      out, (-8 * .Li)(dst)
    .else
    ld      weven, (-8 * .Li)(src)
    srl     out, weven, rsh
    sll     part, wodd, lsh
    or      out, out, part
    sd      out, (-8 * .Li)(dst)
    .endif
    .set .Li, .Li + 1
    .endr
.endm

/* The k-word tail of the aligned word path, entered k pairs before its end
 * (offsets relative to the end: the caller advances src/dst by 8k first). */
.macro WLADDER
    .set .Li, 0
    .rept 64
    .if (.Li % 2) == 0
    ld      wl0, (8 * .Li - 512)(src)
    sd      wl0, (8 * .Li - 512)(dst)
    .else
    ld      wl1, (8 * .Li - 512)(src)
    sd      wl1, (8 * .Li - 512)(dst)
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
    or      tmp, dstin, src
    andi    tmp, tmp, 7
    mv      dst, dstin              /* dst cursor; dstin is the return value */
    beqz    tmp, .Lf_words
/* ---- not both aligned ---- */
    add     dstend, dstin, count    /* dst end */
    li      tmp, 16
    bltu    count, tmp, .Lf_bytes
    sub     skew, src, dstin
    andi    skew, skew, 7           /* o = (src - dst) mod 8 */
    bnez    skew, .Lf_mis
    /* co-aligned, n >= 16: the h = 8 - m byte head (m = dst mod 8 != 0) is
     * leaf m of .Lf_cheads (64 bytes each): at most one aligned sb, sh, sw,
     * equally aligned loads; then 64-word blocks */
    andi    tmp, dst, 7
    slli    tmp, tmp, 6
    lla     addr, .Lf_cheads - 64
    add     addr, addr, tmp
    jr      addr
    .p2align 2
.Lf_cheads:
    lbu     piece1, 0(src)
    lhu     piece2, 1(src)
    lwu     piece3, 3(src)
    sb      piece1, 0(dst)
    sh      piece2, 1(dst)
    sw      piece3, 3(dst)
    addi    src, src, 7
    addi    dst, dst, 7
    j       3f
    .org    .Lf_cheads + 64 * 1
    lhu     piece1, 0(src)
    lwu     piece2, 2(src)
    sh      piece1, 0(dst)
    sw      piece2, 2(dst)
    addi    src, src, 6
    addi    dst, dst, 6
    j       3f
    .org    .Lf_cheads + 64 * 2
    lbu     piece1, 0(src)
    lwu     piece2, 1(src)
    sb      piece1, 0(dst)
    sw      piece2, 1(dst)
    addi    src, src, 5
    addi    dst, dst, 5
    j       3f
    .org    .Lf_cheads + 64 * 3
    lwu     piece1, 0(src)
    sw      piece1, 0(dst)
    addi    src, src, 4
    addi    dst, dst, 4
    j       3f
    .org    .Lf_cheads + 64 * 4
    lbu     piece1, 0(src)
    lhu     piece2, 1(src)
    sb      piece1, 0(dst)
    sh      piece2, 1(dst)
    addi    src, src, 3
    addi    dst, dst, 3
    j       3f
    .org    .Lf_cheads + 64 * 5
    lhu     piece1, 0(src)
    sh      piece1, 0(dst)
    addi    src, src, 2
    addi    dst, dst, 2
    j       3f
    .org    .Lf_cheads + 64 * 6
    lbu     piece1, 0(src)
    sb      piece1, 0(dst)
    addi    src, src, 1
    addi    dst, dst, 1
    j       3f
    .org    .Lf_cheads + 64 * 7
3:  sub     count, dstend, dst
    andi    loopend, count, -512
    beqz    loopend, 5f
    add     loopend, dst, loopend   /* end of the 64-word blocks */
4:  COPYW   8, 0
    COPYW   8, 64
    COPYW   8, 128
    COPYW   8, 192
    COPYW   8, 256
    COPYW   8, 320
    COPYW   8, 384
    COPYW   8, 448
    addi    src, src, 512
    addi    dst, dst, 512
    bne     dst, loopend, 4b
5:  andi    wleft, count, 504       /* 8k: k = 0..63 words left */
    j       .Lf_wdisp
/* ---- both 8-aligned, any n (the Linux patch's small aligned path below 71 bytes) ---- */
.Lf_words:                          /* dst, src 8-aligned; count = bytes left */
    andi    loopend, count, -256
    beqz    loopend, .Lf_wrest
    add     loopend, dst, loopend   /* end of the 32-word blocks */
3:  COPYW   8, 0
    COPYW   8, 64
    COPYW   8, 128
    COPYW   8, 192
    addi    src, src, 256
    addi    dst, dst, 256
    bne     dst, loopend, 3b
.Lf_wrest:                          /* 0..31 words, then 0..7 bytes */
    andi    wleft, count, 255
    beqz    wleft, .Lret
    andi    wleft, count, 248       /* 8k: k = 0..31 words left */
.Lf_wdisp:                          /* wleft = 8k, k = 0..63 words, then r = count & 7 bytes */
    /* the r-byte tail is leaf r of .Lf_tleaves (32 bytes each); the k words
     * enter the ld/sd ladder k pairs before its end (offsets relative to the
     * end, so the cursors advance by 8k first), which ends in jr to the leaf */
    andi    tmp, count, 7
    slli    tmp, tmp, 5
    lla     addr, .Lf_tleaves
    add     tleaf, addr, tmp        /* leaf r */
    beqz    wleft, .Lf_tjr
    sub     entry, addr, wleft      /* each pair is 8 bytes of code */
    add     src, src, wleft
    add     dst, dst, wleft
    jalr    zero, -4(entry)         /* .Lf_tjr - 8k */
    .option push
    .option norvc
.Lf_wduff:
    WLADDER
.Lf_tjr:
    jr      tleaf
.Lf_tleaves:
    .option pop
    .if (.Lf_tjr - .Lf_wduff) != 64 * 8 || (.Lf_tleaves - .Lf_tjr) != 4
    .error "rv64_shifted: word ladder is not 8 bytes per word"
    .endif
.Lret:                              /* r = 0 */
    ret
    .org    .Lf_tleaves + 32 * 1
    lbu     piece1, 0(src)
    sb      piece1, 0(dst)
    ret
    .org    .Lf_tleaves + 32 * 2
    lhu     piece1, 0(src)
    sh      piece1, 0(dst)
    ret
    .org    .Lf_tleaves + 32 * 3
    lhu     piece1, 0(src)
    lbu     piece2, 2(src)
    sh      piece1, 0(dst)
    sb      piece2, 2(dst)
    ret
    .org    .Lf_tleaves + 32 * 4
    lwu     piece1, 0(src)
    sw      piece1, 0(dst)
    ret
    .org    .Lf_tleaves + 32 * 5
    lwu     piece1, 0(src)
    lbu     piece2, 4(src)
    sw      piece1, 0(dst)
    sb      piece2, 4(dst)
    ret
    .org    .Lf_tleaves + 32 * 6
    lwu     piece1, 0(src)
    lhu     piece2, 4(src)
    sw      piece1, 0(dst)
    sh      piece2, 4(dst)
    ret
    .org    .Lf_tleaves + 32 * 7
    lwu     piece1, 0(src)
    lhu     piece2, 4(src)
    lbu     piece3, 6(src)
    sw      piece1, 0(dst)
    sh      piece2, 4(dst)
    sb      piece3, 6(dst)
    ret

.Lf_bytes:                          /* n < 16, not both aligned */
    beqz    count, .Lret
9:  lbu     piece1, 0(src)
    sb      piece1, 0(dst)
    addi    src, src, 1
    addi    dst, dst, 1
    bne     dst, dstend, 9b
    ret

/* ---- mutually misaligned, n >= 16: o = skew = (src - dst) mod 8 != 0 ---- */
.Lf_mis:
    slli    rsh, skew, 3            /* 8o */
    neg     lsh, rsh                /* 64 - 8o: sll uses the low 6 bits */
    andi    dmod, dst, 7            /* m = dst mod 8 */
    andi    srcw, src, -8           /* the aligned word holding src */
    beqz    dmod, .Lf_mnohead
    /* Head: the aligned dst word D0 holding dst is output word
     * (P >> 8o) | (A0 << (64 - 8o)), A0 and P the aligned source words at
     * src - m + 8 - o and 8 below it.  A0 holds source bytes (n >= 16).  P
     * holds source bytes only when it is the word holding src; otherwise
     * its bytes land below dst, in bytes that are not stored, so the word
     * holding src (= A0 then) is loaded in its place. */
    ld      wodd, 0(srcw)           /* P (or A0) */
    sub     src, src, dmod
    andi    src, src, -8
    ld      weven, 8(src)           /* A0; src stays 8 below it */
    srl     out, wodd, rsh
    sll     part, weven, lsh
    or      out, out, part          /* dst word D0 (bytes m..7 wanted) */
    /* store bytes m..7 of it: leaf m of a compare tree does at most one
     * aligned sb, sh, sw (offsets from dst) and advances dst by h = 8 - m */
    andi    flag, dmod, 4
    bnez    flag, .Lf_h4567
    andi    flag, dmod, 2
    bnez    flag, .Lf_h23
    srli    part, out, 8            /* m = 1 */
    sb      part, 0(dst)
    srli    part, out, 16
    sh      part, 1(dst)
    srli    part, out, 32
    sw      part, 3(dst)
    addi    dst, dst, 7
    j       .Lf_mwords
.Lf_h23:
    andi    flag, dmod, 1
    bnez    flag, .Lf_h3
    srli    part, out, 16           /* m = 2 */
    sh      part, 0(dst)
    srli    part, out, 32
    sw      part, 2(dst)
    addi    dst, dst, 6
    j       .Lf_mwords
.Lf_h3:
    srli    part, out, 24
    sb      part, 0(dst)
    srli    part, out, 32
    sw      part, 1(dst)
    addi    dst, dst, 5
    j       .Lf_mwords
.Lf_h4567:
    andi    flag, dmod, 2
    bnez    flag, .Lf_h67
    andi    flag, dmod, 1
    bnez    flag, .Lf_h5
    srli    part, out, 32           /* m = 4 */
    sw      part, 0(dst)
    addi    dst, dst, 4
    j       .Lf_mwords
.Lf_h5:
    srli    part, out, 40
    sb      part, 0(dst)
    srli    part, out, 48
    sh      part, 1(dst)
    addi    dst, dst, 3
    j       .Lf_mwords
.Lf_h67:
    andi    flag, dmod, 1
    bnez    flag, .Lf_h7
    srli    part, out, 48           /* m = 6 */
    sh      part, 0(dst)
    addi    dst, dst, 2
    j       .Lf_mwords
.Lf_h7:
    srli    part, out, 56
    sb      part, 0(dst)
    addi    dst, dst, 1
    j       .Lf_mwords
.Lf_mnohead:                        /* dst aligned: w[0] = the word holding src */
    addi    src, srcw, -8
    ld      weven, 8(src)
.Lf_mwords:                         /* dst 8-aligned; weven = 8(src); >= 9 bytes left */
    sub     count, dstend, dst
    andi    loopend, dstend, -8     /* end of the whole dst words */
    andi    mleaf, count, 7         /* r: the tail is leaf r of .Lf_mleaves */
    slli    mleaf, mleaf, 6
    lla     addr, .Lf_mleaves
    add     mleaf, mleaf, addr
    andi    wleft, count, 504       /* 8k: k = words mod 64 */
    beqz    wleft, .Lf_sbody        /* k = 0: a multiple of 64 words, >= 64 */
    /* enter the 64-word loop body k words before its end (Duff): cursors
     * back by 8(64 - k), target = end - 20k (5 instructions a word) */
    mv      wodd, weven             /* odd entry points expect w in wodd */
    addi    adj, wleft, -512
    add     src, src, adj
    add     dst, dst, adj
    slli    adj, wleft, 1
    srli    wleft, wleft, 1
    add     adj, adj, wleft         /* 20k */
    sub     addr, addr, adj
    jalr    zero, 64 * 8 + 64 * 20(addr)  /* .Lf_sbody_end - 20k */
.Lf_mleaves:
    /* Tail leaf r (64 bytes each): weven = the aligned source word holding the
     * next source byte; the word after it is loaded only if it holds source
     * bytes (o + r > 8).  The r bytes are stored with aligned sw/sh/sb. */
    ret                             /* r = 0 */
    .org    .Lf_mleaves + 64 * 1
    srl     out, weven, rsh
    sb      out, 0(dst)
    ret
    .org    .Lf_mleaves + 64 * 2
    srl     out, weven, rsh
    sltiu   flag, skew, 7
    bnez    flag, 1f
    ld      wodd, 16(src)
    sll     part, wodd, lsh
    or      out, out, part
1:
    sh      out, 0(dst)
    ret
    .org    .Lf_mleaves + 64 * 3
    srl     out, weven, rsh
    sltiu   flag, skew, 6
    bnez    flag, 1f
    ld      wodd, 16(src)
    sll     part, wodd, lsh
    or      out, out, part
1:
    sh      out, 0(dst)
    srli    part, out, 16
    sb      part, 2(dst)
    ret
    .org    .Lf_mleaves + 64 * 4
    srl     out, weven, rsh
    sltiu   flag, skew, 5
    bnez    flag, 1f
    ld      wodd, 16(src)
    sll     part, wodd, lsh
    or      out, out, part
1:
    sw      out, 0(dst)
    ret
    .org    .Lf_mleaves + 64 * 5
    srl     out, weven, rsh
    sltiu   flag, skew, 4
    bnez    flag, 1f
    ld      wodd, 16(src)
    sll     part, wodd, lsh
    or      out, out, part
1:
    sw      out, 0(dst)
    srli    part, out, 32
    sb      part, 4(dst)
    ret
    .org    .Lf_mleaves + 64 * 6
    srl     out, weven, rsh
    sltiu   flag, skew, 3
    bnez    flag, 1f
    ld      wodd, 16(src)
    sll     part, wodd, lsh
    or      out, out, part
1:
    sw      out, 0(dst)
    srli    part, out, 32
    sh      part, 4(dst)
    ret
    .org    .Lf_mleaves + 64 * 7
    srl     out, weven, rsh
    sltiu   flag, skew, 2
    bnez    flag, 1f
    ld      wodd, 16(src)
    sll     part, wodd, lsh
    or      out, out, part
1:
    sw      out, 0(dst)
    srli    part, out, 32
    sh      part, 4(dst)
    srli    part, out, 48
    sb      part, 6(dst)
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
    addi    src, src, 512
    addi    dst, dst, 512
    bne     dst, loopend, .Lf_sbody
    jr      mleaf
    .cfi_endproc
    .size   fc_rv64_shifted_memcpy, . - fc_rv64_shifted_memcpy

/* ========================================================================== */
    .p2align 2
    .globl  fc_rv64_shifted_memmove
    .hidden fc_rv64_shifted_memmove
    .type   fc_rv64_shifted_memmove, @function
fc_rv64_shifted_memmove:
    .cfi_startproc
    sub     tmp, dstin, src
    bgeu    tmp, count, fc_rv64_shifted_memcpy  /* dst not inside (src, src + n] */
    beqz    tmp, .Lb_ret                        /* dst == src */
    /* backward: dst/src are END cursors */
    add     dst, dstin, count
    add     src, src, count
    li      tmp, 16
    bltu    count, tmp, .Lb_small
    xor     tmp, dst, src           /* (d + n) - (s + n) = d - s */
    andi    tmp, tmp, 7
    bnez    tmp, .Lb_mis

/* ---- co-aligned, n >= 16, backward ---- */
    andi    tmp, dst, 7
    beqz    tmp, .Lb_words
    STEP    -1, dst, 1
    STEP    -1, dst, 2
    STEP    -1, dst, 4
.Lb_words:                          /* dst, src 8-aligned end cursors */
    sub     count, dst, dstin       /* bytes left, below the cursors */
    andi    loopend, count, -128
    beqz    loopend, .Lb_wrest
    sub     loopend, dst, loopend
3:  COPYW   8, -64
    COPYW   8, -128
    addi    src, src, -128
    addi    dst, dst, -128
    bne     dst, loopend, 3b
.Lb_wrest:
    STEP    -1, count, 64
    STEP    -1, count, 32
    STEP    -1, count, 16
    STEP    -1, count, 8
.Lb_ahead:                          /* dst 8-aligned, count & 7 bytes left below it */
    andi    tmp, count, 7
    beqz    tmp, .Lb_ret
    STEP    -1, count, 4
    STEP    -1, count, 2
    STEP    -1, count, 1, advance=0
.Lb_ret:
    ret

/* ---- n < 16, backward (dst overlaps the source's top: bytes) ---- */
.Lb_small:
.Lb_bytes:
    beqz    count, .Lb_ret
9:  lbu     piece1, -1(src)
    sb      piece1, -1(dst)
    addi    src, src, -1
    addi    dst, dst, -1
    bne     dst, dstin, 9b
    ret

/* ---- mutually misaligned, n >= 16, backward ---- */
.Lb_mis:                            /* dst = dst end, src = src end */
    sub     srcin, src, count       /* src */
    sub     rsh, src, dst
    andi    rsh, rsh, 7             /* o = (src - dst) mod 8 != 0 */
    slli    rsh, rsh, 3
    neg     lsh, rsh
    andi    dmod, dst, 7            /* m: dst bytes in the top partial word */
    beqz    dmod, .Lb_mnohead
    /* Top partial word D = dst end - m (bytes 0..m-1 wanted) = (Alo >> 8o) |
     * (Ahi << (64 - 8o)), Alo the aligned word holding src end - m (a source
     * byte: n >= 16), Ahi the next one.  If Ahi holds no source byte its bytes
     * land at m and above (not stored), so the word holding the last source
     * byte (= Alo then) is loaded in its place. */
    addi    addr, src, -1
    andi    addr, addr, -8
    ld      wodd, 0(addr)           /* Ahi (or Alo) */
    sub     src, src, dmod
    andi    src, src, -8
    ld      weven, 0(src)           /* Alo: the "hi" word of the next output word */
    srl     out, weven, rsh
    sll     part, wodd, lsh
    or      out, out, part
    sub     dst, dst, dmod          /* D */
    andi    flag, dmod, 4           /* aligned sw/sh/sb of bytes 0..m-1 */
    beqz    flag, .Lb_h123
    sw      out, 0(dst)
    andi    flag, dmod, 2
    beqz    flag, .Lb_h45
    srli    part, out, 32
    sh      part, 4(dst)
    andi    flag, dmod, 1
    beqz    flag, .Lb_mwords
    srli    part, out, 48
    sb      part, 6(dst)
    j       .Lb_mwords
.Lb_h45:
    andi    flag, dmod, 1
    beqz    flag, .Lb_mwords
    srli    part, out, 32
    sb      part, 4(dst)
    j       .Lb_mwords
.Lb_h123:
    andi    flag, dmod, 2
    beqz    flag, .Lb_h1
    sh      out, 0(dst)
    andi    flag, dmod, 1
    beqz    flag, .Lb_mwords
    srli    part, out, 16
    sb      part, 2(dst)
    j       .Lb_mwords
.Lb_h1:
    sb      out, 0(dst)
    j       .Lb_mwords
.Lb_mnohead:                        /* dst end aligned, src end misaligned */
    andi    src, src, -8            /* word holding the last source byte */
    ld      weven, 0(src)           /* hi */
.Lb_mwords:
    sub     count, dst, dstin
    andi    loopend, count, -128
    beqz    loopend, .Lb_srest
    sub     loopend, dst, loopend
3:  SHB     16
    addi    src, src, -128
    addi    dst, dst, -128
    bne     dst, loopend, 3b
.Lb_srest:
    andi    wleft, count, 120
    beqz    wleft, .Lb_shead
    andi    wleft, count, 64
    beqz    wleft, 4f
    SHB     8
    addi    src, src, -64
    addi    dst, dst, -64
4:  andi    wleft, count, 32
    beqz    wleft, 5f
    SHB     4
    addi    src, src, -32
    addi    dst, dst, -32
5:  andi    wleft, count, 16
    beqz    wleft, 6f
    SHB     2
    addi    src, src, -16
    addi    dst, dst, -16
6:  andi    wleft, count, 8
    beqz    wleft, .Lb_shead
    SHB     1
    mv      weven, wodd
    addi    src, src, -8
    addi    dst, dst, -8
.Lb_shead:                          /* r = dst - dstin = 0..7 bytes below dst */
    beq     dst, dstin, .Lb_ret
    /* word dst - 8 = (w[-1] >> 8o) | (hi << (64 - 8o)); w[-1] (at src - 8)
     * is loaded only if it holds source bytes (srcin < src) */
    sll     out, weven, lsh
    bgeu    srcin, src, 1f
    ld      wodd, -8(src)
    srl     part, wodd, rsh
    or      out, out, part
1:  andi    dmod, dstin, 7          /* m = dst mod 8 != 0: bytes m..7 wanted */
    andi    flag, dmod, 4           /* aligned sb/sh/sw at offsets from dst */
    bnez    flag, .Lb_t4567
    andi    flag, dmod, 2
    bnez    flag, .Lb_t23
    srli    part, out, 8            /* m = 1 */
    sb      part, 0(dstin)
    srli    part, out, 16
    sh      part, 1(dstin)
    srli    part, out, 32
    sw      part, 3(dstin)
    ret
.Lb_t23:
    andi    flag, dmod, 1
    bnez    flag, .Lb_t3
    srli    part, out, 16           /* m = 2 */
    sh      part, 0(dstin)
    srli    part, out, 32
    sw      part, 2(dstin)
    ret
.Lb_t3:
    srli    part, out, 24
    sb      part, 0(dstin)
    srli    part, out, 32
    sw      part, 1(dstin)
    ret
.Lb_t4567:
    andi    flag, dmod, 2
    bnez    flag, .Lb_t67
    andi    flag, dmod, 1
    bnez    flag, .Lb_t5
    srli    part, out, 32           /* m = 4 */
    sw      part, 0(dstin)
    ret
.Lb_t5:
    srli    part, out, 40
    sb      part, 0(dstin)
    srli    part, out, 48
    sh      part, 1(dstin)
    ret
.Lb_t67:
    andi    flag, dmod, 1
    bnez    flag, .Lb_t7
    srli    part, out, 48           /* m = 6 */
    sh      part, 0(dstin)
    ret
.Lb_t7:
    srli    part, out, 56
    sb      part, 0(dstin)
    ret
    .cfi_endproc
    .size   fc_rv64_shifted_memmove, . - fc_rv64_shifted_memmove

    .option pop
    .section .note.GNU-stack, "", @progbits
