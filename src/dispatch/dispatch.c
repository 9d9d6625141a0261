/*
 * fc_memcpy / fc_memmove: bound once, at load, to the entry fc__select() picks.
 *
 * FC_DISPATCH_IFUNC (glibc ELF targets, the default there): the symbols are
 * GNU indirect functions, so a call goes straight to the chosen routine
 * through the PLT/GOT like any library call, with no extra indirection.
 *
 * Otherwise: a function pointer, set by a constructor before main and, for
 * calls that come even earlier (another library's constructor), by the first
 * call itself.  Setting it is idempotent, so concurrent first calls are safe;
 * the cost is one indirect jump per call.
 */
#include "internal.h"

typedef void *(*fc_memcpy_fn)(void *restrict, const void *restrict, size_t);
typedef void *(*fc_memmove_fn)(void *, const void *, size_t);

#if FC_DISPATCH_IFUNC

/* A resolver can run before its own object is relocated: glibc relocates a
 * shared object that uses fc_memcpy without being linked against
 * libfastcopy.so (no DT_NEEDED) before libfastcopy.so when libfastcopy.so comes
 * first in the search list, prints "Relink `...' with `libfastcopy.so' for
 * IFUNC symbol `fc_memcpy'", and calls the resolver anyway.  The registry's
 * pointers are then still unrelocated, so fc__select() would jump to nowhere.
 * fc_self holds its own address through a relative relocation, the first kind
 * the dynamic linker applies to an object: until it reads back as its address
 * (computed PC-relative, which needs no relocation), the resolvers return a
 * late-bound entry that makes the choice at its first call (one more indirect
 * call per copy, for such a mislinked caller only). */
static const void *const fc_self = &fc_self;
static int fc_relocated(void) { return *(const void *const volatile *)&fc_self == (const void *)&fc_self; }
static void *fc_late_memcpy(void *restrict dst, const void *restrict src, size_t n)
{
    return fc__select()->memcpy(dst, src, n);
}
static void *fc_late_memmove(void *dst, const void *src, size_t n) { return fc__select()->memmove(dst, src, n); }

__attribute__((used)) static fc_memcpy_fn fc_resolve_memcpy(void)
{
    return fc_relocated() ? fc__select()->memcpy : fc_late_memcpy;
}
__attribute__((used)) static fc_memmove_fn fc_resolve_memmove(void)
{
    return fc_relocated() ? fc__select()->memmove : fc_late_memmove;
}

void *fc_memcpy(void *restrict dst, const void *restrict src, size_t n)
    __attribute__((ifunc("fc_resolve_memcpy")));
void *fc_memmove(void *dst, const void *src, size_t n) __attribute__((ifunc("fc_resolve_memmove")));

#else

static void *fc_first_memcpy(void *restrict dst, const void *restrict src, size_t n);
static void *fc_first_memmove(void *dst, const void *src, size_t n);
static fc_memcpy_fn fc_memcpy_ptr = fc_first_memcpy;
static fc_memmove_fn fc_memmove_ptr = fc_first_memmove;

static void fc_install(void)
{
    const struct fc_impl *c = fc__select();
    __atomic_store_n(&fc_memcpy_ptr, c->memcpy, __ATOMIC_RELEASE);
    __atomic_store_n(&fc_memmove_ptr, c->memmove, __ATOMIC_RELEASE);
}

__attribute__((constructor(101))) static void fc_dispatch_init(void) { fc_install(); }

static void *fc_first_memcpy(void *restrict dst, const void *restrict src, size_t n)
{
    fc_install();
    return fc__select()->memcpy(dst, src, n);
}

static void *fc_first_memmove(void *dst, const void *src, size_t n)
{
    fc_install();
    return fc__select()->memmove(dst, src, n);
}

void *fc_memcpy(void *restrict dst, const void *restrict src, size_t n)
{
    return __atomic_load_n(&fc_memcpy_ptr, __ATOMIC_ACQUIRE)(dst, src, n);
}

void *fc_memmove(void *dst, const void *src, size_t n)
{
    return __atomic_load_n(&fc_memmove_ptr, __ATOMIC_ACQUIRE)(dst, src, n);
}

#endif

const char *fc_active(void) { return fc__select()->name; }

#define FC_STR2(x) #x
#define FC_STR(x) FC_STR2(x)
const char *fc_version(void)
{
    return FC_STR(FASTCOPY_VERSION_MAJOR) "." FC_STR(FASTCOPY_VERSION_MINOR) "." FC_STR(
        FASTCOPY_VERSION_PATCH);
}
