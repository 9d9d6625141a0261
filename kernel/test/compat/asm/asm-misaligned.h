/* User-space stand-in for <asm/asm-misaligned.h> from patch 0002: the
 * branch is always taken when KMEMCPY_FAST is defined (the kernel with
 * fast_unaligned_access_speed_key on), never otherwise (key off). */
	.macro FAST_MISALIGNED_BRANCH label, tmp
#ifdef KMEMCPY_FAST
	j	\label
#endif
	.endm
