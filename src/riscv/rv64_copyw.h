/*
 * rv64_copyw.h - the block primitives the RV64 scalar assembly routines share
 * (#include'd by rv64_shifted.S and rv64_misaligned_fast.S; GAS macros):
 * COPYW (1..8 words, loads before stores) and STEP (one bit of a size
 * class: 1, 2, 4, 8 bytes or 2..8 words, forward or backward).
 *
 * Registers (named below for these macros only; #undef'd at the end of this
 * header, so an including file names its own):
 *   cur_src  a1      source cursor (the including file's src cursor)
 *   cur_dst  a3      destination cursor (its dst cursor)
 *   w0..w6   t0..t6  COPYW's words, loaded first, stored after
 *   w7       a7      the 8th word: `last`'s default
 *   hit      t0      STEP: test & bytes (zero: nothing to copy)
 *   piece    t1      STEP: the 1, 2, 4 or 8 bytes moved
 *
 * COPYW cnt, off[, last]: cnt (1..8) 8-byte words from cur_src+off to
 * cur_dst+off, every load before any store (so a block of an overlapping
 * memmove stays correct in either direction).  Scratch: w0..w6 and `last`
 * (default w7; a routine that keeps something in a7 names another free
 * register).  The words are aligned or not as the caller's pointers are:
 * rv64-shifted calls it only with 8-aligned cursors, rv64-misaligned-fast
 * with any source cursor.
 */
#define cur_src a1
#define cur_dst a3
#define w0      t0
#define w1      t1
#define w2      t2
#define w3      t3
#define w4      t4
#define w5      t5
#define w6      t6
#define w7      a7
#define hit     t0
#define piece   t1

.macro COPYW cnt, off, last=w7
    .set .Li, 0
    .irp r, w0, w1, w2, w3, w4, w5, w6, \last
    .if .Li < \cnt
    ld      \r, (\off + 8 * .Li)(cur_src)
    .endif
    .set .Li, .Li + 1
    .endr
    .set .Li, 0
    .irp r, w0, w1, w2, w3, w4, w5, w6, \last
    .if .Li < \cnt
    sd      \r, (\off + 8 * .Li)(cur_dst)
    .endif
    .set .Li, .Li + 1
    .endr
.endm

/*
 * STEP dir, test, bytes[, last[, advance]]: if (test & bytes), copy the
 * `bytes` (1, 2, 4, 8, or 16/32/64 through COPYW) at the cursors cur_src and
 * cur_dst - above them for dir = 1, just below them for dir = -1 - and,
 * unless advance = 0, move both cursors past them.  The size-class tails and
 * heads of both routines are runs of these, one per bit of a count or an
 * address.  Scratch: hit, piece (w0..w6 and `last` for 16..64).  Accesses are
 * as aligned as the cursors: callers keep 2-, 4- and 8-byte steps naturally
 * aligned where misaligned access is not allowed.
 */
.macro STEP dir, test, bytes, last=w7, advance=1
    andi    hit, \test, \bytes
    beqz    hit, .Lstep_end\@
    .if \dir > 0
    .set .Loff, 0
    .else
    .set .Loff, -\bytes
    .endif
    .if \bytes == 1
    lbu     piece, .Loff(cur_src)
    sb      piece, .Loff(cur_dst)
    .elseif \bytes == 2
    lhu     piece, .Loff(cur_src)
    sh      piece, .Loff(cur_dst)
    .elseif \bytes == 4
    lwu     piece, .Loff(cur_src)
    sw      piece, .Loff(cur_dst)
    .elseif \bytes == 8
    ld      piece, .Loff(cur_src)
    sd      piece, .Loff(cur_dst)
    .else
    COPYW   (\bytes / 8), .Loff, \last
    .endif
    .if \advance
    addi    cur_src, cur_src, \dir * \bytes
    addi    cur_dst, cur_dst, \dir * \bytes
    .endif
.Lstep_end\@:
.endm

#undef cur_src
#undef cur_dst
#undef w0
#undef w1
#undef w2
#undef w3
#undef w4
#undef w5
#undef w6
#undef w7
#undef hit
#undef piece
