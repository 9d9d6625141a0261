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

/* write(2) to stderr without stdio (usable in a resolver). */
void fc__warn(const char *a, const char *b, const char *c, const char *d);

#endif
