/*
 * preload.c - libfastcopy-preload.so: the C library's copy functions, routed
 * to fastcopy's dispatch, for `LD_PRELOAD=libfastcopy-preload.so PROGRAM`.
 *
 * An LD_PRELOAD object comes first in the dynamic linker's search order, so
 * every call through a PLT to these names - the program's, and every shared
 * library's - lands here.  glibc's calls to its own copies inside libc.so are
 * internal (hidden aliases) and stay glibc's.
 *
 *   memcpy          fc_memcpy, or fc_memmove when the buffers overlap (one
 *                   compare): glibc's x86-64 memcpy behaves as memmove, and
 *                   programs that overlap by mistake (glibc 2.13's memcpy change
 *                   broke Flash and others in 2010) must not be corrupted by a
 *                   drop-in
 *   memmove         fc_memmove
 *   mempcpy         memcpy's, returning dst + n
 *   bcopy           fc_memmove with the arguments swapped
 *   __memcpy_chk, __memmove_chk, __mempcpy_chk
 *                   _FORTIFY_SOURCE's checked forms: when the object size the
 *                   compiler knew (destlen) is smaller than n they call glibc's
 *                   __chk_fail, which prints "*** buffer overflow detected ***:
 *                   terminated" and aborts, as glibc's own do; else as above
 *
 * The choice is fastcopy's, made once at load in the ifunc resolvers (or at
 * the first call where there are none): FASTCOPY_IMPL, FASTCOPY_TUNE and the
 * profile apply as in any program linked with libfastcopy.so.
 * FASTCOPY_PRELOAD_REPORT=1 prints one line with that choice to stderr when the
 * object loads.
 *
 * Nothing here may call the C library's copies (they are these functions):
 * the file is built with -fno-builtin and the whole object passes the same
 * disassembly check as libfastcopy.so.
 *
 * Before this object is relocated.  The dynamic linker relocates objects in
 * reverse search order, so every library of the program and every later
 * LD_PRELOAD entry is relocated before this one; an IRELATIVE (ifunc) resolver
 * in one of them that calls memcpy lands here while fc_memcpy's GOT slot (and,
 * with pointer dispatch, its function pointer) still holds a link-time offset.
 * Each function therefore first tests fc_shim_self, a pointer to itself that
 * a relative relocation sets (the first kind applied to an object; the same
 * test dispatch.c's resolvers make): until it reads back as its own address,
 * the copy is fc_generic_memmove, called directly (a hidden function: no GOT,
 * no PLT), and a _chk overflow traps instead of calling glibc's __chk_fail
 * through the GOT.  One load and one compare per call.
 */
#include <stddef.h>
#include <stdint.h>

#include "internal.h"
#include "portable/portable.h"

#if defined(FC_RECORD)
/* libfastcopy-record.so (fcbench record): the same functions, each call
 * counted first (record.h, record.c) */
#include "preload/record.h"
#define FC_NOTE(fn, dst, src, n) fc_rec_note(fn, dst, src, n)
#else
#define FC_NOTE(fn, dst, src, n) ((void)0)
#endif

/* glibc's (GLIBC_2.3.4): prints the fortify message and aborts */
extern void __chk_fail(void) __attribute__((noreturn));

#define FC_EXPORT __attribute__((visibility("default")))

/* the C library's prototypes, declared here rather than through <string.h>
 * (whose _FORTIFY_SOURCE wrappers would rename them) */
FC_EXPORT void *memcpy(void *dst, const void *src, size_t n);
FC_EXPORT void *memmove(void *dst, const void *src, size_t n);
FC_EXPORT void *mempcpy(void *dst, const void *src, size_t n);
FC_EXPORT void bcopy(const void *src, void *dst, size_t n);
FC_EXPORT void *__memcpy_chk(void *dst, const void *src, size_t n, size_t destlen);
FC_EXPORT void *__memmove_chk(void *dst, const void *src, size_t n, size_t destlen);
FC_EXPORT void *__mempcpy_chk(void *dst, const void *src, size_t n, size_t destlen);

static const void *const fc_shim_self = &fc_shim_self;

/* nonzero once this object's relative relocations are applied (volatile: the
 * compiler must not fold the constant) */
static inline __attribute__((always_inline)) int fc_shim_relocated(void)
{
    return __builtin_expect(*(const void *const volatile *)&fc_shim_self == (const void *)&fc_shim_self, 1);
}

/* memcpy's body: the exported functions call these, not each other (an
 * exported name is preemptible, so a call to it would go through the PLT) */
static inline __attribute__((always_inline)) void *fc_tolerant_copy(void *dst, const void *src, size_t n)
{
    if (!fc_shim_relocated()) return fc_generic_memmove(dst, src, n);
    /* dst and src overlap: |dst - src| < n, one compare (n < 2^63) */
    if (__builtin_expect((uintptr_t)dst - (uintptr_t)src + n < 2 * n, 0)) return fc_memmove(dst, src, n);
    return fc_memcpy(dst, src, n);
}

static inline __attribute__((always_inline)) void *fc_shim_move(void *dst, const void *src, size_t n)
{
    if (!fc_shim_relocated()) return fc_generic_memmove(dst, src, n);
    return fc_memmove(dst, src, n);
}

/* a _chk form's object-size check */
static inline __attribute__((always_inline)) void fc_shim_chk(size_t n, size_t destlen)
{
    if (__builtin_expect(destlen < n, 0)) {
        if (!fc_shim_relocated()) __builtin_trap(); /* __chk_fail's GOT slot is not set yet */
        __chk_fail();
    }
}

FC_EXPORT void *memcpy(void *dst, const void *src, size_t n)
{
    FC_NOTE(0, dst, src, n);
    return fc_tolerant_copy(dst, src, n);
}

FC_EXPORT void *memmove(void *dst, const void *src, size_t n)
{
    FC_NOTE(1, dst, src, n);
    return fc_shim_move(dst, src, n);
}

FC_EXPORT void *mempcpy(void *dst, const void *src, size_t n)
{
    FC_NOTE(2, dst, src, n);
    return (char *)fc_tolerant_copy(dst, src, n) + n;
}

FC_EXPORT void bcopy(const void *src, void *dst, size_t n)
{
    FC_NOTE(3, dst, src, n);
    fc_shim_move(dst, src, n);
}

FC_EXPORT void *__memcpy_chk(void *dst, const void *src, size_t n, size_t destlen)
{
    fc_shim_chk(n, destlen);
    FC_NOTE(4, dst, src, n);
    return fc_tolerant_copy(dst, src, n);
}

FC_EXPORT void *__memmove_chk(void *dst, const void *src, size_t n, size_t destlen)
{
    fc_shim_chk(n, destlen);
    FC_NOTE(5, dst, src, n);
    return fc_shim_move(dst, src, n);
}

FC_EXPORT void *__mempcpy_chk(void *dst, const void *src, size_t n, size_t destlen)
{
    fc_shim_chk(n, destlen);
    FC_NOTE(6, dst, src, n);
    return (char *)fc_tolerant_copy(dst, src, n) + n;
}

/* FASTCOPY_PRELOAD_REPORT=1: one line on stderr at load, what the process
 * will run (the same choice fastcopy-info reports for this environment). */
__attribute__((constructor)) static void fc_preload_report(void)
{
    char v[8];
    if (fc__early_getenv("FASTCOPY_PRELOAD_REPORT", v, sizeof v) != 1 || v[0] != '1' || v[1]) return;
    static const char *const source[] = {"the CPU's default", "the CPU's default", "a tuned profile",
                                         "FASTCOPY_IMPL"};
    int k = fc__impl_source();
#if defined(FC_RECORD)
    fc__warn("fastcopy-record: memcpy, memmove, mempcpy, bcopy and their _chk forms counted, then run fastcopy's ",
#else
    fc__warn("fastcopy-preload: memcpy, memmove, mempcpy, bcopy and their _chk forms run fastcopy's ",
#endif
             fc__select()->name, ", chosen by ", k >= 0 && k <= 3 ? source[k] : "?");
}
