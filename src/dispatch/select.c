/*
 * The choice of implementation, made once: the available registry entry of
 * highest rank that the CPU policy does not keep out of the default (its
 * `preferred` hook), unless FASTCOPY_IMPL names another available one.  An unknown
 * or unavailable name gives one warning line on stderr and the default.
 * Callable from an ifunc resolver: no libc calls (see early.c).
 */
#include "internal.h"

static const struct fc_impl *fc_chosen;
static int fc_warned;

static int fc_streq(const char *a, const char *b)
{
    for (; *a && *a == *b; a++, b++) {
    }
    return *a == *b;
}

static const struct fc_impl *fc_compute(void)
{
    fc__registry_probe();
    const struct fc_entry *best = NULL;
    for (size_t i = 0; i < fc__registry_len; i++) {
        const struct fc_entry *e = &fc__registry[i];
        if (e->pub.available && (!e->preferred || e->preferred()) && (!best || e->rank > best->rank)) best = e;
    }

    char want[64];
    if (!fc__early_getenv("FASTCOPY_IMPL", want, sizeof want) || !want[0]) return &best->pub;
    const struct fc_entry *forced = NULL;
    for (size_t i = 0; i < fc__registry_len; i++)
        if (fc_streq(fc__registry[i].pub.name, want)) forced = &fc__registry[i];
    if (forced && forced->pub.available) return &forced->pub;
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
