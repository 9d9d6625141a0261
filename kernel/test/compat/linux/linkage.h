/* User-space stand-in for the kernel's <linux/linkage.h>, enough to assemble
 * the patched arch/riscv/lib/memcpy.S for kernel/test/umemcpy.c (run.sh
 * names the function with -D__memcpy=...).  The aliases (memcpy, __pi_*)
 * are dropped: user space keeps libc's memcpy. */
#define SYM_FUNC_START(name) .globl name; .type name, @function; .p2align 2; name:
#define SYM_FUNC_END(name) .size name, . - name
#define SYM_FUNC_ALIAS(alias, name)
#define SYM_FUNC_ALIAS_WEAK(alias, name)
