/*
 * Between the three parts of the x86-64 CPU layer (none of it leaves src/cpu/):
 *
 *   x86_detect.c    what the CPU is: CPUID, XCR0, the cache leaves, the
 *                   signature a profile names, FASTCOPY_TEST_CPU (tests)
 *   x86_settings.c  what the user asks for: a tuned profile (found, read,
 *                   checked) and FASTCOPY_TUNE
 *   x86_policy.c    what fastcopy decides: the defaults from features, the
 *                   exceptions for measured CPUs, the decision in that order
 *                   (fc__x86_init) and its publication, the registry probes
 *
 * x86_policy.c calls the other two; they call neither each other nor it (and
 * all three call dispatch/early.c).  Everything here runs before libc is
 * usable (inside the ifunc resolvers): no libc calls.
 */
#ifndef FC_CPU_X86_PRIVATE_H
#define FC_CPU_X86_PRIVATE_H

#include <stddef.h>

#include "cpu/x86.h"

#define FC_UP_TO_NT ((size_t)-1) /* movsb_max: the window ends where non-temporal stores begin */

/* The settings being decided, with where each came from. */
struct fc_settings {
    struct fc_x86_tune t;
    int zmm;                      /* FC_ZMM_*: the default entry among the ladders */
    char impl[32];                /* a profile's entry ("": none) */
    unsigned char src[FC_SET_COUNT]; /* FC_SRC_* (internal.h) of each FC_SET_* */
};

static inline void fc_set(struct fc_settings *s, int which, int source) { s->src[which] = (unsigned char)source; }

/* ---- x86_detect.c ---------------------------------------------------------- */

/* This CPU's features and caches into *in (cleared first; prefer_zmm is left
 * 0: the policy's).  Test builds: FASTCOPY_TEST_CPU replaces them. */
void fc__x86_detect(struct fc_x86_info *in);

/* This CPU as a profile's cpu line names it: vendor, family, model, stepping,
 * the features dispatch looks at, the cache sizes. */
void fc__x86_signature(const struct fc_x86_info *in, char *buf, size_t size);

/* ---- x86_settings.c -------------------------------------------------------- */

/* Parses a profile's text (format: docs/profile.md), checked against the
 * signature sig and the features in *in, into *s: 1, or 0 and the reason in
 * why - then *s is unchanged (nothing of a wrong profile is used). */
int fc__x86_profile_apply(const char *text, long len, const char *sig, const struct fc_x86_info *in,
                          struct fc_settings *s, char *why, size_t whylen);

/* Step 3: the tuned profile, if one is found and valid for this CPU, into *s;
 * st->profile and st->notes say which was tried and what came of it.  Reads
 * st->secure and st->signature. */
void fc__x86_load_profile(struct fc_x86_status *st, const struct fc_x86_info *in, struct fc_settings *s);

/* Step 4: FASTCOPY_TUNE into *s (not in a secure-execution process); a value
 * that is not understood changes nothing and is reported once on stderr. */
void fc__x86_env_tune(int secure, struct fc_settings *s);

#endif
