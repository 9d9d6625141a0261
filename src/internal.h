/* Library-internal interfaces between the registry, dispatch and CPU layers. */
#ifndef FC_INTERNAL_H
#define FC_INTERNAL_H

#include "fastcopy.h"

/* One registry entry: the public description plus what dispatch needs. */
struct fc_entry {
    struct fc_impl pub;   /* first member: &entry->pub is what the API hands out */
    int (*probe)(void);   /* NULL: runs everywhere; else nonzero if this CPU can run it */
    int rank;             /* the default is the available entry of highest rank... */
    int (*preferred)(void); /* ...among those with NULL here or nonzero from it; 0: runs here but
                             * the CPU policy keeps it out of the default (FASTCOPY_IMPL, tests
                             * and fcbench still reach it by name) */
};

extern struct fc_entry fc__registry[];
extern const size_t fc__registry_len;

/* Fills in `available` for every entry (idempotent, done once at load). */
void fc__registry_probe(void);

/* The implementation fc_memcpy/fc_memmove use: computed once (CPU default,
 * then FASTCOPY_IMPL), safe to call from an ifunc resolver. */
const struct fc_impl *fc__select(void);

/* Environment lookup that works before libc is initialised (ifunc resolvers):
 * copies the value of `name` into buf (NUL-terminated); returns 0 if unset, 1
 * if set, 2 if set but longer than size - 1 bytes (buf holds the cut value:
 * callers reject it rather than act on a prefix). */
int fc__early_getenv(const char *name, char *buf, size_t size);

/* n bytes from s to d, a byte at a time, never through libc's memcpy (which
 * the compiler makes of a large struct assignment): for a resolver, and for
 * code that must call no libc copy (tests/check_no_libc_calls.cmake). */
void fc__copy_bytes(void *d, const void *s, size_t n);

/* write(2) to stderr without stdio (usable in a resolver). */
void fc__warn(const char *a, const char *b, const char *c, const char *d);

/* A whole small regular file into buf (NUL-terminated), without libc: its
 * length (at most size - 1 bytes), or FC_FILE_ABSENT (cannot be opened),
 * FC_FILE_TOO_BIG, FC_FILE_ERROR (not a regular file, a read error).
 * *trusted: owned by root and writable by nobody else. */
enum { FC_FILE_ABSENT = -1, FC_FILE_TOO_BIG = -2, FC_FILE_ERROR = -3 };
long fc__read_file(const char *path, char *buf, size_t size, int *trusted);

/* One entry of the auxiliary vector (/proc/self/auxv, without libc); *found
 * is 0 where it is absent or cannot be read. */
unsigned long fc__auxv(unsigned long type, int *found);

/* Nonzero in a secure-execution process (AT_SECURE: set-user-ID, set-group-ID,
 * file capabilities; without an auxv to read, real and effective ids that
 * differ or a process that is not dumpable).  There FASTCOPY_IMPL,
 * FASTCOPY_TUNE, FASTCOPY_PROFILE and the per-user profile are ignored. */
int fc__secure(void);
#ifdef FC_TEST_HOOKS
void fc__secure_reset(void); /* forget the cached answer (tests) */
#endif

/* The implementation a tuned profile names (x86-64: src/cpu/x86_policy.c,
 * from the profile src/cpu/x86_settings.c read), or NULL. */
const char *fc__profile_impl(void);

/* Where a setting came from (fastcopy-info prints it): the default (CPU
 * features and policy), the exception for a measured CPU (x86-64:
 * src/cpu/x86_policy.c), a tuned profile, the environment (FASTCOPY_TUNE;
 * for the entry, FASTCOPY_IMPL).  The values are fixed: fastcopy-info and
 * struct fc_x86_status's src[] (cpu/x86.h) index by them. */
enum { FC_SRC_DEFAULT = 0, FC_SRC_EXCEPTION = 1, FC_SRC_PROFILE = 2, FC_SRC_ENV = 3 };

/* Where fc__select()'s choice came from: FC_SRC_DEFAULT, FC_SRC_PROFILE or
 * FC_SRC_ENV (FASTCOPY_IMPL). */
int fc__impl_source(void);

#endif
