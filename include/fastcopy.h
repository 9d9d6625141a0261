/*
 * fastcopy - memcpy/memmove that are correct and fast for every size and alignment.
 *
 * Public API.  The names, types and struct fields below are a contract used by
 * fcbench, the tests and outside tools: they only ever grow.
 *
 *   fc_memcpy / fc_memmove   the routines chosen for this CPU, once, at load time
 *   fc_active()              which registry entry they are
 *   fc_impl_*                every implementation compiled into the library, for
 *                            tests and benchmarks (call one directly through its
 *                            function pointers; check `available` first)
 *
 * Environment: FASTCOPY_IMPL=<name> forces the choice at load time.  An unknown
 * or unavailable name prints one warning line on stderr and keeps the default.
 *
 * Language: C89 or later, and C++98 or later (fastcopy/inline.h, the inline
 * copy, needs C99; tests/check_inline.cmake compiles both at their stated
 * minimum).
 */
#ifndef FASTCOPY_H
#define FASTCOPY_H

#include <stddef.h>
#if defined(__linux__) && (defined(__x86_64__) || defined(__i386__) || defined(__aarch64__) || \
                          (defined(__riscv) && __riscv_xlen == 64) || defined(__s390x__))
#define FC_HAVE_COPY_CHECKED 1
#include <signal.h> /* siginfo_t, for fc_checked_handle_fault */
#endif

#ifdef __cplusplus
extern "C" {
#define FC_RESTRICT
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 199901L
#define FC_RESTRICT restrict
#elif defined(__GNUC__)
#define FC_RESTRICT __restrict /* C89/C90 consumers (gcc, clang) */
#else
#define FC_RESTRICT
#endif

/* Symbol visibility.  The library is built with hidden visibility, and this
 * marks the public API: default in libfastcopy.so (and for the code that
 * calls it, whatever its own visibility settings), hidden in libfastcopy.a
 * (FASTCOPY_STATIC_BUILD, set by its build), so that a shared object which
 * links the archive in exports none of fastcopy's symbols - only what it
 * chose to export - and two such objects in one process never bind to each
 * other's copy. */
#if defined(__GNUC__) && !defined(_WIN32) && !defined(__CYGWIN__)
#if defined(FASTCOPY_STATIC_BUILD)
#define FC_API __attribute__((visibility("hidden")))
#else
#define FC_API __attribute__((visibility("default")))
#endif
#else
#define FC_API
#endif

#define FASTCOPY_VERSION_MAJOR 0
#define FASTCOPY_VERSION_MINOR 1
#define FASTCOPY_VERSION_PATCH 0

/* Same contract as ISO C memcpy/memmove: return dst; memcpy's buffers must not overlap. */
FC_API void *fc_memcpy(void *FC_RESTRICT dst, const void *FC_RESTRICT src, size_t n);
FC_API void *fc_memmove(void *dst, const void *src, size_t n);

/* Name of the implementation fc_memcpy/fc_memmove use (a registry name). */
FC_API const char *fc_active(void);

struct fc_impl {
    const char *name;    /* unique: "byte", "generic", "avx2", "rv64-shifted", ... */
    const char *summary; /* one line */
    int available;       /* nonzero if it runs on this CPU */
    void *(*memcpy)(void *FC_RESTRICT, const void *FC_RESTRICT, size_t);
    void *(*memmove)(void *, const void *, size_t);
};

FC_API size_t fc_impl_count(void);
FC_API const struct fc_impl *fc_impl_at(size_t i);          /* NULL past the end */
FC_API const struct fc_impl *fc_impl_find(const char *name); /* NULL if unknown */

/* "0.1.0" */
FC_API const char *fc_version(void);

/* Fault-tolerant copy (docs/checked.md).  Built where FC_HAVE_COPY_CHECKED is
 * defined: Linux on x86-64, AArch64, RV64, s390x and i386.
 *
 * fc_copy_checked copies n bytes from src to dst like memcpy (buffers that
 * overlap: undefined, as memcpy) and survives the faults of a bad buffer:
 * SIGSEGV (unmapped, PROT_NONE, read-only dst, non-canonical address) and
 * SIGBUS (a shared file mapping past the file's end).  It returns the number
 * of bytes NOT copied: 0 when all were.  On a return r > 0, dst[0, n-r) holds
 * src[0, n-r); byte n-r is the first that could not be read from src or
 * written to dst (exact to the byte); each byte of dst[n-r, n) is unchanged
 * or holds its src byte; nothing outside dst[0, n) is written.
 * The first call installs SIGSEGV and SIGBUS handlers (SA_SIGINFO |
 * SA_ONSTACK | SA_NODEFER) that resolve the copy's own faults and pass every
 * other one to the disposition that was there before, as the kernel would
 * have delivered it (a handler with its sa_mask and flags, SIG_IGN or
 * SIG_DFL, which then kills the process as it would have).
 * The calling thread must not block SIGSEGV or SIGBUS: the kernel kills a
 * process whose fault signal is blocked without calling any handler (a
 * server that blocks every signal for a sigwait thread must leave these two
 * out: sigfillset, then sigdelset both).  Checking the mask on every call
 * would be a system call, 40 times a 64-byte copy.
 *
 * fc_checked_handle_fault is for programs that install their own SIGSEGV or
 * SIGBUS handler after the first fc_copy_checked: call it first thing in the
 * handler; it returns 1 when the fault came from fc_copy_checked and has been
 * resolved (return from the handler at once: the copy then goes on and
 * returns its count), 0 otherwise.  Async-signal-safe. */
#if defined(FC_HAVE_COPY_CHECKED)
FC_API size_t fc_copy_checked(void *FC_RESTRICT dst, const void *FC_RESTRICT src, size_t n);
/* siginfo_t is POSIX: declared where <signal.h> has it (not under -std=c11
 * alone; glibc decides when its first header is read, so ask glibc) */
#if defined(__GLIBC__) ? defined(__USE_POSIX199309)                                                          \
                       : ((defined(_POSIX_C_SOURCE) && _POSIX_C_SOURCE >= 199309L) || defined(_XOPEN_SOURCE) || \
                          defined(_GNU_SOURCE) || defined(_BSD_SOURCE) || defined(_DEFAULT_SOURCE))
FC_API int fc_checked_handle_fault(int sig, siginfo_t *info, void *ucontext);
#endif
#endif

#ifdef __cplusplus
}
#endif
#undef FC_RESTRICT
#undef FC_API
#endif /* FASTCOPY_H */
