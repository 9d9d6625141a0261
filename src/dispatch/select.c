/*
 * The choice of implementation, made once: the available registry entry of
 * highest rank that the CPU policy does not keep out of the default (its
 * `preferred` hook), unless a tuned profile (x86-64: read by
 * cpu/x86_settings.c) names another available one, unless FASTCOPY_IMPL does.
 * An unknown or unavailable name in FASTCOPY_IMPL gives one warning line on
 * stderr and keeps the choice before it.  A secure-execution process ignores
 * FASTCOPY_IMPL.  Callable from an ifunc resolver: no libc calls (see
 * early.c; its string helpers: dispatch/early.h).
 */
#include "dispatch/early.h"
#include "internal.h"

static const struct fc_impl *fc_chosen;
static int fc_warned;
static int fc_source; /* FC_SRC_DEFAULT, FC_SRC_PROFILE or FC_SRC_ENV (FASTCOPY_IMPL): fastcopy-info */

#if !defined(__x86_64__)
const char *fc__profile_impl(void) { return 0; } /* profiles: x86-64 only so far */
#endif

int fc__impl_source(void)
{
    (void)fc__select();
    return __atomic_load_n(&fc_source, __ATOMIC_RELAXED);
}

static const struct fc_entry *fc_find(const char *name)
{
    for (size_t i = 0; i < fc__registry_len; i++)
        if (fc__str_eq(fc__registry[i].pub.name, name)) return &fc__registry[i];
    return NULL;
}

/* The registry's public view (fastcopy.h): availability is known once a
 * choice has been made, so each asks for the choice first. */
size_t fc_impl_count(void) { return fc__registry_len; }

const struct fc_impl *fc_impl_at(size_t i)
{
    (void)fc__select();
    return i < fc__registry_len ? &fc__registry[i].pub : NULL;
}

const struct fc_impl *fc_impl_find(const char *name)
{
    if (!name) return NULL;
    const struct fc_entry *e = fc_find(name);
    (void)fc__select();
    return e ? &e->pub : NULL;
}

static const struct fc_impl *fc_compute(void)
{
    fc__registry_probe();
    const struct fc_entry *best = NULL;
    for (size_t i = 0; i < fc__registry_len; i++) {
        const struct fc_entry *e = &fc__registry[i];
        if (e->pub.available && (!e->preferred || e->preferred()) && (!best || e->rank > best->rank)) best = e;
    }

    const char *tuned = fc__profile_impl();
    const struct fc_entry *prof = tuned ? fc_find(tuned) : NULL;
    if (prof && prof->pub.available) best = prof, __atomic_store_n(&fc_source, FC_SRC_PROFILE, __ATOMIC_RELAXED);

    char want[64];
    /* fc__secure() last: it reads the auxiliary vector, which targets without
     * their own system calls can only do through libc */
    if (!fc__early_getenv("FASTCOPY_IMPL", want, sizeof want) || !want[0] || fc__secure()) return &best->pub;
    const struct fc_entry *forced = fc_find(want);
    if (forced && forced->pub.available) {
        __atomic_store_n(&fc_source, FC_SRC_ENV, __ATOMIC_RELAXED);
        return &forced->pub;
    }
    if (!__atomic_exchange_n(&fc_warned, 1, __ATOMIC_ACQ_REL))
        fc__warn("fastcopy: FASTCOPY_IMPL=", want,
                 forced ? " is not available on this CPU; using " : " is not a known implementation; using ",
                 best->pub.name);
    return &best->pub;
}

const struct fc_impl *fc__select(void)
{
    const struct fc_impl *c = __atomic_load_n(&fc_chosen, __ATOMIC_ACQUIRE);
    if (c) return c;
    c = fc_compute(); /* deterministic: racing first callers compute the same entry */
    const struct fc_impl *expected = NULL;
    if (!__atomic_compare_exchange_n(&fc_chosen, &expected, c, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        c = expected;
    return c;
}
