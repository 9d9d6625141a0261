/*
 * i386/checked.S - fc_copy_checked's copy for 32-bit x86 (i686, cdecl): the
 * portable method (a block loop and a byte loop whose accesses lie in ranges
 * listed in fc__checked_table; src/checked/checked.c's signal handler resumes
 * a fault there at the range's fixup), with 4-byte general-register moves
 * only (Debian's i386 baseline has no SSE2).  Correct first: no size ladder.
 *
 * For:    any i686 Linux CPU.
 * Needs:  precise faults (the faulting instruction's EIP in the signal
 *         context); an x86 store that faults writes none of its bytes.
 *
 * Registers (named by the #define block below): dst = edi, src = esi, n =
 * edx (from the stack), done = ecx: [0, done) of dst holds src.  Returns
 * eax = bytes not copied (0: all); eax is otherwise data or scratch and
 * stays raw.  esi and edi are the caller's: saved on entry, restored on
 * every return (the fixups run in this frame).
 *
 * How a fault ends with the exact count: every access in the block range
 * touches bytes at or above done, and done only grows past blocks already
 * stored.  A fault there resumes at .Lfix_blocks, which copies [done, n)
 * byte by byte; that loop faults, if at all, at the first byte that cannot
 * be read or written, and its fixup returns n - done.
 *
 * Size classes:
 *
 *   | n      | technique                                                     |
 *   |--------|---------------------------------------------------------------|
 *   | 0..15  | byte loop                                                     |
 *   | >= 16  | 16-byte blocks (four 4-byte moves) while done + 16 <= n, then |
 *   |        | the last 0..15 bytes by the byte loop                         |
 *
 * Forward only.  Overlapping buffers: as memcpy, undefined.
 */
#if defined(__i386__) && defined(__linux__)

#define dst     %edi
#define src     %esi
#define n       %edx
#define done    %ecx            /* [0, done) of dst holds src */

        .text
        .p2align 4
        .globl  fc__checked_copy
        .hidden fc__checked_copy
        .type   fc__checked_copy, @function
fc__checked_copy:
        pushl   %esi                    /* the caller's esi and edi (callee-saved) */
        pushl   %edi
        movl    12(%esp), dst
        movl    16(%esp), src
        movl    20(%esp), n
        xorl    done, done
        cmpl    $16, n
        jb      .Lbytes

/* ---- block range --------------------------------------------------------- */
.Lblocks_begin:
1:      movl    (src, done), %eax
        movl    %eax, (dst, done)
        movl    4(src, done), %eax
        movl    %eax, 4(dst, done)
        movl    8(src, done), %eax
        movl    %eax, 8(dst, done)
        movl    12(src, done), %eax
        movl    %eax, 12(dst, done)
        addl    $16, done
        leal    16(done), %eax          /* done + 16: the next block's end */
        cmpl    n, %eax
        jbe     1b
.Lblocks_end:

/* ---- byte range: [done, n) one byte at a time ------------------------------ */
.Lfix_blocks:
.Lbytes:
.Lbytes_begin:
        cmpl    n, done
        jae     3f
2:      movzbl  (src, done), %eax
        movb    %al, (dst, done)
        incl    done
        cmpl    n, done
        jb      2b
3:      xorl    %eax, %eax
        popl    %edi
        popl    %esi
        ret
.Lbytes_end:

/* a fault in the byte loop: byte `done` is the first one that cannot be copied */
.Lfix_bytes:
        movl    n, %eax
        subl    done, %eax
        popl    %edi
        popl    %esi
        ret
        .size   fc__checked_copy, .-fc__checked_copy

/* The fault table (checked.c): { first pc, end pc, fixup }, ended by zeros. */
        .section .data.rel.ro, "aw"
        .p2align 2
        .globl  fc__checked_table
        .hidden fc__checked_table
fc__checked_table:
        .long   .Lblocks_begin, .Lblocks_end, .Lfix_blocks
        .long   .Lbytes_begin, .Lbytes_end, .Lfix_bytes
        .long   0, 0, 0
#endif

        .section .note.GNU-stack, "", @progbits
