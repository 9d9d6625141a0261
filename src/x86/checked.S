/*
 * checked.S - fc_copy_checked's copy for x86-64: a copy whose faults
 * (SIGSEGV, SIGBUS) end it with the exact number of bytes not copied, the way
 * the kernel's copy_to_user/copy_from_user end theirs: every instruction that
 * may fault lies in a range listed in fc__checked_table (end of this file),
 * and src/checked/checked.c's signal handler resumes the copy at that
 * range's fixup instead of letting the fault kill the process.  No setjmp,
 * no system call per call.
 *
 * For:    x86-64 (SysV ABI).  fc__checked_avx2 needs AVX2 and an OS that saves
 *         the ymm state; fc__checked_sse2 runs on every x86-64.
 * Needs:  precise faults (the faulting instruction's address in the signal
 *         context) and no partial stores: an x86 store that faults writes none
 *         of its bytes.
 *
 * Registers (both entries; named by the #define block below): dst = rdi,
 * src = rsi, n = rdx; done = r8: [0, done) of dst holds src; limit = r9 =
 * n - 4W, the loop's last block start; dst_save = r10, src_save = r11, the
 * bases kept across rep movsb (which advances rdi, rsi and rcx, raw there:
 * its implied operands).  The short classes name their own offsets and
 * pointers next to the code.  Returns rax = bytes not copied (0: all); rax,
 * rcx, r9-r11 as data or scratch, and the xmm/ymm slots, stay raw.  Above 8W
 * the copy follows fc_memcpy's settings (fc__x86_tune, read at the FC_TUNE_*
 * offsets that src/checked/checked.c asserts): non-temporal stores from
 * nt_threshold, rep movsb in the [movsb_min, movsb_max) window away from 4K
 * aliasing by movsb_gap, both behind one compare with special_min.
 *
 * How a fault ends with the exact count: every access in the "bulk" ranges
 * touches bytes at or above done, and done only grows past bytes already
 * copied.  A fault there resumes at the range's fixup, which copies [done, n)
 * byte by byte (.Lbytes).  That loop faults, if at all, at the first byte
 * that cannot be read from src or written to dst: its own fixup returns
 * n - done.  Bytes that the vector moves had stored above done before the
 * fault hold their src bytes; nothing outside dst[0, n) is ever written.
 * The byte loop redoes at most one block (4W bytes) in the loop and at most
 * n <= 8W bytes in the short classes.  Below 8 bytes the 4..16 class moves 8
 * bytes through the red zone (scratch, never src or dst): a fault there is
 * impossible, and its stores are not dst's.
 *
 * Size classes (W = 32 for avx2, 16 for sse2):
 *
 *   | n          | technique                                                 |
 *   |------------|-----------------------------------------------------------|
 *   | 0..3       | bytes first, middle, last                                 |
 *   | 4..16      | two 4-byte and two 8-byte moves, no branch at 8 (red zone)|
 *   | 17..64     | four 16-byte moves at 0, a, n-16-a, n-16, a = 0 up to 32  |
 *   |            | bytes, else 16 (the fall-through: no taken branch)        |
 *   | 65..128    | avx2: 4 W moves, first 2, last 2, loads before stores     |
 *   | 4W+1..8W   | 8 W moves: first 4, last 4, loads before stores           |
 *   | > 8W       | first W unaligned; then forward blocks of 4 unaligned     |
 *   |            | loads + 4 aligned stores (done = block start); the last   |
 *   |            | 4W bytes unaligned after the loop                         |
 *   | >= NT      | the same loop with non-temporal stores, sfence after it   |
 *   | window     | fc_memcpy's rep movsb window and gap: the first 64 bytes  |
 *   |            | by vectors, rep movsb from the 64-aligned dst (a fault    |
 *   |            | leaves rcx = bytes it had not copied: done = n - rcx)     |
 *
 * Forward only: done must only grow (the memcpy routines' backward loops for
 * 4K-aliased buffers are not used here).  Overlapping buffers: as memcpy,
 * undefined.
 */
#if defined(__x86_64__) && defined(__linux__)
#include "gnu_property.h"

/* offsets in struct fc_x86_tune (src/cpu/x86.h; checked.c asserts them) */
#define FC_TUNE_NT_THRESHOLD 0
#define FC_TUNE_MOVSB_MIN 8
#define FC_TUNE_MOVSB_MAX 16
#define FC_TUNE_SPECIAL_MIN 24
#define FC_TUNE_MOVSB_GAP 32

#define dst      %rdi
#define dst_d    %edi
#define src      %rsi
#define n        %rdx
#define done     %r8            /* [0, done) of dst holds src */
#define done_d   %r8d
#define limit    %r9            /* n - 4W: the loop runs while done <= limit */
#define dst_save %r10           /* dst and src across rep movsb, for its fixup */
#define src_save %r11

        .text

/* ---- the sse2 range: the short classes (shared) and the sse2 entry ------ */
        .p2align 6
        .globl  fc__checked_sse_begin
        .hidden fc__checked_sse_begin
fc__checked_sse_begin:

/* n <= 16, both entries (done = 0), as fc_memcpy's short classes
 * (src/x86/avx2_ladder.S): 0..3 bytes first, middle, last; 4..16 two 4-byte
 * and two 8-byte moves with no branch at 8 (below 8 the 8-byte moves go to a
 * scratch block in the red zone below the stack pointer, which a leaf
 * function owns and signal delivery skips: loads from rsp-28..rsp-17, stores
 * to rsp-16..rsp-5). */
#define s8       %rax           /* 4..16: the 8-byte pair's source, src or the red zone */
#define d8       %rcx           /* 4..16: its destination, dst or the red zone */
#define rz_s     %r9            /* 4..7: s8's block in the red zone */
#define rz_d     %r10           /* 4..7: d8's */
#define half     %rcx           /* 1..3: n / 2, the middle byte's offset */
        .p2align 6
.Lle16:
        cmp     $4, n
        jb      .Llt4
        mov     src, s8
        mov     dst, d8
        lea     -24(%rsp), rz_s
        lea     -12(%rsp), rz_d
        cmp     $8, n
        cmovb   rz_s, s8
        cmovb   rz_d, d8
        movl    (src), %r9d                     /* r9d, r10d, r11: data from here */
        movl    -4(src, n), %r10d
        movq    (s8), %r11
        movq    -8(s8, n), %rax                 /* s8's last use: rax now holds data */
        movl    %r9d, (dst)
        movl    %r10d, -4(dst, n)
        movq    %r11, (d8)
        movq    %rax, -8(d8, n)
        xorl    %eax, %eax
        ret
        .p2align 6
.Llt4:
        test    n, n
        jz      1f
        mov     n, half
        shr     half                            /* n / 2 */
        movzbl  (src), %eax
        movzbl  (src, half), %r9d
        movzbl  -1(src, n), %r10d
        movb    %al, (dst)
        movb    %r9b, (dst, half)
        movb    %r10b, -1(dst, n)
1:      xorl    %eax, %eax
        ret
#undef s8
#undef d8
#undef rz_s
#undef rz_d
#undef half

/* The loop: 4 loads at done, 4 aligned stores (STORE: ordinary or
 * non-temporal) at done, done += 4W, again while done <= limit = n - 4W.
 * done is the block's start at every load and store of it. */
.macro CHECKED_LOOP W, LD, STORE, R0, R1, R2, R3
        .p2align 4
4:      \LD     (src, done), %\R0
        \LD     \W(src, done), %\R1
        \LD     (2*\W)(src, done), %\R2
        \LD     (3*\W)(src, done), %\R3
        \STORE  %\R0, (dst, done)
        \STORE  %\R1, \W(dst, done)
        \STORE  %\R2, (2*\W)(dst, done)
        \STORE  %\R3, (3*\W)(dst, done)
        add     $(4*\W), done
        cmp     limit, done
        jbe     4b
.endm

/* Every jump target starts a 64-byte line (as -falign-jumps=64 does for the
 * C routines, CMakeLists.txt): the padding before it is never executed.
 * The ladder and the loop for one width.  LD/ST/STA/STNT: unaligned load,
 * unaligned store, aligned store, non-temporal store; R0..R7 the registers. */
.macro CHECKED_BODY W, LD, ST, STA, STNT, R0, R1, R2, R3, R4, R5, R6, R7, VZ, P
        /* 17..64 falls through (one compare with 64, one with 16), as in
         * fc_memcpy's ladder: four 16-byte moves at 0, mid_lo, mid_hi, n-16
         * with mid_lo = a = ((n - 1) / 2) & 16 (16 above 32 bytes, else 0)
         * and mid_hi = n - 16 - a: no branch at 32 */
#define mid_lo   %rax           /* a: the second move's offset */
#define mid_lo_d %eax
#define mid_hi   %rcx           /* n - 16 - a: the third move's offset */
        xorl    done_d, done_d
        cmp     $64, n
        ja      .L\P\()gt64
        cmp     $16, n
        jbe     .Lle16
        lea     -16(n), mid_hi                  /* n - 16 */
        \LD     (src), %xmm0
        \LD     -16(src, n), %xmm3
        lea     -1(n), mid_lo_d
        shr     mid_lo_d
        and     $16, mid_lo_d                   /* a */
        sub     mid_lo, mid_hi                  /* n - 16 - a */
        \LD     (src, mid_lo), %xmm1
        \LD     (src, mid_hi), %xmm2
        \ST     %xmm0, (dst)
        \ST     %xmm1, (dst, mid_lo)
        \ST     %xmm2, (dst, mid_hi)
        \ST     %xmm3, -16(dst, n)
        xorl    %eax, %eax
        ret
#undef mid_lo
#undef mid_lo_d
#undef mid_hi
        .p2align 6
.L\P\()gt64:
.if \W == 32
        /* 65..128 (2W+1..4W): 4 W moves, first 2, last 2, loads before stores */
        cmp     $(4*\W), n
        ja      .L\P\()gt4
        \LD     (src), %\R0
        \LD     \W(src), %\R1
        \LD     -(2*\W)(src, n), %\R2
        \LD     -\W(src, n), %\R3
        \ST     %\R0, (dst)
        \ST     %\R1, \W(dst)
        \ST     %\R2, -(2*\W)(dst, n)
        \ST     %\R3, -\W(dst, n)
        \VZ
        xorl    %eax, %eax
        ret
.endif
        .p2align 6
.L\P\()gt4:
        cmp     $(8*\W), n
        ja      .L\P\()loop
        \LD     (src), %\R0
        \LD     \W(src), %\R1
        \LD     (2*\W)(src), %\R2
        \LD     (3*\W)(src), %\R3
        \LD     -(4*\W)(src, n), %\R4
        \LD     -(3*\W)(src, n), %\R5
        \LD     -(2*\W)(src, n), %\R6
        \LD     -\W(src, n), %\R7
        \ST     %\R0, (dst)
        \ST     %\R1, \W(dst)
        \ST     %\R2, (2*\W)(dst)
        \ST     %\R3, (3*\W)(dst)
        \ST     %\R4, -(4*\W)(dst, n)
        \ST     %\R5, -(3*\W)(dst, n)
        \ST     %\R6, -(2*\W)(dst, n)
        \ST     %\R7, -\W(dst, n)
        \VZ
        xorl    %eax, %eax
        ret
        .p2align 6
.L\P\()loop:
        /* n > 8W: the first W bytes, then done = the first W-aligned dst
         * offset above 0 (1..W), blocks of 4W while done + 4W <= n */
        \LD     (src), %\R0
        \ST     %\R0, (dst)
        movl    dst_d, done_d
        negl    done_d
        andl    $(\W-1), done_d
        jnz     1f
        movl    $\W, done_d
1:      lea     -(4*\W)(n), limit
        /* NT and the rep movsb window start at special_min: one compare below it */
        cmp     fc__x86_tune+FC_TUNE_SPECIAL_MIN(%rip), n
        jae     .L\P\()special
.L\P\()plain:
        CHECKED_LOOP \W, \LD, \STA, \R0, \R1, \R2, \R3
.L\P\()tail:
        /* [done, n) < 4W bytes left: the last 4W bytes as one block */
        \LD     -(4*\W)(src, n), %\R0
        \LD     -(3*\W)(src, n), %\R1
        \LD     -(2*\W)(src, n), %\R2
        \LD     -\W(src, n), %\R3
        \ST     %\R0, -(4*\W)(dst, n)
        \ST     %\R1, -(3*\W)(dst, n)
        \ST     %\R2, -(2*\W)(dst, n)
        \ST     %\R3, -\W(dst, n)
        \VZ
        xorl    %eax, %eax
        ret
        .p2align 6
.L\P\()special:
        cmp     fc__x86_tune+FC_TUNE_NT_THRESHOLD(%rip), n
        jae     .L\P\()nt
        /* fc_memcpy's rep movsb window (vec_copy.h's fc_copy_large): n - min <
         * max - min, and (dst - src + gap) mod 4096 >= 2 gap; else the loop */
        mov     fc__x86_tune+FC_TUNE_MOVSB_MIN(%rip), %rcx
        mov     n, %rax
        sub     %rcx, %rax                      /* n - min */
        neg     %rcx
        add     fc__x86_tune+FC_TUNE_MOVSB_MAX(%rip), %rcx
        cmp     %rcx, %rax                      /* n - min < max - min? */
        jae     .L\P\()plain
        mov     fc__x86_tune+FC_TUNE_MOVSB_GAP(%rip), %rcx
        mov     dst, %rax
        sub     src, %rax
        add     %rcx, %rax
        andl    $4095, %eax                     /* (dst - src + gap) mod 4096 */
        add     %rcx, %rcx
        cmp     %rcx, %rax                      /* >= 2 gap? */
        jb      .L\P\()plain
        /* the first 64 bytes by vectors ([0, W) is stored; every access here
         * is at or above done <= W), then rep movsb from the 64-aligned dst */
        .set    .Loff\P, \W
        .rept   64 / \W - 1
        \LD     .Loff\P(src), %\R1
        \ST     %\R1, .Loff\P(dst)
        .set    .Loff\P, .Loff\P + \W
        .endr
        \VZ
        jmp     .Lmovsb
        .p2align 6
.L\P\()nt:
        CHECKED_LOOP \W, \LD, \STNT, \R0, \R1, \R2, \R3
        sfence
        jmp     .L\P\()tail
.endm

/* size_t fc__checked_sse2(void *dst, const void *src, size_t n) */
        .p2align 6
        .globl  fc__checked_sse2
        .hidden fc__checked_sse2
        .type   fc__checked_sse2, @function
fc__checked_sse2:
        CHECKED_BODY 16, movdqu, movdqu, movdqa, movntdq, xmm0, xmm1, xmm2, xmm3, xmm4, xmm5, xmm6, xmm7, , s
        .size   fc__checked_sse2, .-fc__checked_sse2

        .globl  fc__checked_sse_end
        .hidden fc__checked_sse_end
fc__checked_sse_end:

/* ---- size_t fc_copy_checked(void *dst, const void *src, size_t n) -------
 * The API's entry: falls into the avx2 copy once installed with it (mode 1,
 * no taken branch); the sse2 copy for mode 2; the first call (mode 0) goes to
 * checked.c, which installs the handlers and sets the mode. */
        .p2align 6
        .globl  fc_copy_checked
#if defined(FASTCOPY_STATIC_BUILD) && FASTCOPY_STATIC_BUILD
        .hidden fc_copy_checked
#endif
        .type   fc_copy_checked, @function
fc_copy_checked:
        FC_ENDBR                /* an indirect-branch target (IBT): the API, called through pointers */
        cmpb    $1, fc__checked_mode(%rip)
        jne     .Lnot_avx2

/* ---- the avx2 range ----------------------------------------------------- */
/* size_t fc__checked_avx2(void *dst, const void *src, size_t n) */
        .globl  fc__checked_avx2_begin
        .hidden fc__checked_avx2_begin
fc__checked_avx2_begin:
        .globl  fc__checked_avx2
        .hidden fc__checked_avx2
        .type   fc__checked_avx2, @function
fc__checked_avx2:
        CHECKED_BODY 32, vmovdqu, vmovdqu, vmovdqa, vmovntdq, ymm0, ymm1, ymm2, ymm3, ymm4, ymm5, ymm6, ymm7, vzeroupper, a
        .size   fc__checked_avx2, .-fc__checked_avx2
        .globl  fc__checked_avx2_end
        .hidden fc__checked_avx2_end
fc__checked_avx2_end:
        .p2align 4
.Lnot_avx2:
        cmpb    $2, fc__checked_mode(%rip)
        je      fc__checked_sse2
        jmp     fc__checked_first
        .size   fc_copy_checked, .-fc_copy_checked

/* ---- fixups (never fault) ----------------------------------------------- */
        .p2align 4
        .globl  fc__checked_fixup_avx2
        .hidden fc__checked_fixup_avx2
fc__checked_fixup_avx2:
        vzeroupper
        .globl  fc__checked_fixup_sse
        .hidden fc__checked_fixup_sse
fc__checked_fixup_sse:
        sfence                  /* the non-temporal stores before the fault, ordered */
        jmp     .Lbytes_start

/* ---- the rep movsb range (both entries) --------------------------------- */
/* [0, 64) holds src: done = head = 1..64 bytes to the next 64-aligned dst
 * byte; rep movsb copies [head, n).  rdi, rsi and rcx are rep movsb's own
 * (they advance as it goes: raw names here), so the bases are kept in
 * dst_save and src_save.  A fault inside it leaves rcx = the bytes it had
 * not copied (what the kernel's copy_user relies on): its fixup resumes the
 * byte loop at done = n - rcx, which faults again at the first byte that
 * cannot be copied, or finishes. */
        .p2align 4
        .globl  fc__checked_movsb_begin
        .hidden fc__checked_movsb_begin
fc__checked_movsb_begin:
.Lmovsb:
        movl    dst_d, done_d
        negl    done_d
        andl    $63, done_d
        jnz     1f
        movl    $64, done_d
1:      mov     dst, dst_save
        mov     src, src_save
        mov     n, %rcx
        sub     done, %rcx
        add     done, %rdi
        add     done, %rsi
        rep movsb
        xorl    %eax, %eax
        ret
        .globl  fc__checked_movsb_end
        .hidden fc__checked_movsb_end
fc__checked_movsb_end:

        .globl  fc__checked_fixup_movsb
        .hidden fc__checked_fixup_movsb
fc__checked_fixup_movsb:
        mov     n, done
        sub     %rcx, done
        mov     dst_save, dst
        mov     src_save, src
        jmp     .Lbytes_start

/* ---- the byte range: [done, n) one byte at a time ----------------------- */
        .p2align 4
        .globl  fc__checked_bytes_begin
        .hidden fc__checked_bytes_begin
fc__checked_bytes_begin:
.Lbytes_start:
        cmp     n, done
        jae     2f
1:      movzbl  (src, done), %eax
        movb    %al, (dst, done)
        inc     done
        cmp     n, done
        jb      1b
2:      xorl    %eax, %eax
        ret
        .globl  fc__checked_bytes_end
        .hidden fc__checked_bytes_end
fc__checked_bytes_end:

/* a fault in the byte loop: byte `done` is the first one that cannot be copied */
        .globl  fc__checked_fixup_bytes
        .hidden fc__checked_fixup_bytes
fc__checked_fixup_bytes:
        mov     n, %rax
        sub     done, %rax
        ret

/* The fault table (checked.c): { first pc, end pc, fixup }, ended by zeros. */
        .section .data.rel.ro, "aw"
        .p2align 3
        .globl  fc__checked_table
        .hidden fc__checked_table
fc__checked_table:
        .quad   fc__checked_sse_begin, fc__checked_sse_end, fc__checked_fixup_sse
        .quad   fc__checked_avx2_begin, fc__checked_avx2_end, fc__checked_fixup_avx2
        .quad   fc__checked_movsb_begin, fc__checked_movsb_end, fc__checked_fixup_movsb
        .quad   fc__checked_bytes_begin, fc__checked_bytes_end, fc__checked_fixup_bytes
        .quad   0, 0, 0

/* With -fcf-protection (__CET__): this object supports IBT (the one indirect
 * target above) and the shadow stack (every ret returns to its call: the
 * fixups run in the copy's own frame), so it keeps the library's marking. */
FC_GNU_PROPERTY
#endif

        .section .note.GNU-stack, "", @progbits
