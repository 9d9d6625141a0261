/* x86-64 CPU layer: features and copy thresholds, computed once at load
 * (from the registry probes, i.e. inside the ifunc resolver).  Detection in
 * src/cpu/x86_detect.c, profiles and FASTCOPY_TUNE in x86_settings.c, the
 * decision and the probes in x86_policy.c.  The entry points of the x86
 * routines are declared in src/x86/x86.h. */
#ifndef FC_CPU_X86_H
#define FC_CPU_X86_H

#include <stddef.h>

struct fc_x86_tune {
    size_t nt_threshold; /* no-overlap copies of n >= this use non-temporal stores */
    size_t movsb_min;    /* no-overlap copies with movsb_min <= n < movsb_max, away from */
    size_t movsb_max;    /*   4K aliasing, use rep movsb (empty window: min == max) */
    size_t special_min;  /* the smaller of nt_threshold and (if the window is open) movsb_min:
                          * below it the copy routines test neither (one compare) */
    size_t movsb_gap;    /* rep movsb keeps this many bytes away from (dst - src) mod 4096 == 0
                          * on both sides (AMD Zen 3/Zen 4: 128, rep movsb collapses inside (D16); Intel: 0) */
    size_t nt_pages;     /* 1: one non-temporal stream; 4: four pages interleaved (4 streams) */
    size_t inorder_min;  /* no-overlap copies of n >= this whose dst is 1..4 LW bytes behind src
                          * mod 4096 go forward in address order (vec_copy.h); SIZE_MAX: never */
};
#define FC_INORDER_DEFAULT 2048 /* bytes (Zen 4: docs/x86.md) */

/* Read by the copy routines.  Holds a safe default until fc__x86_init() runs. */
extern struct fc_x86_tune fc__x86_tune;

struct fc_x86_info {
    unsigned max_leaf, max_ext_leaf;
    unsigned family, model;    /* CPUID.1:EAX, extended family/model folded in */
    unsigned stepping;
    int vendor_intel, vendor_amd;
    int sse2, avx, avx2, erms, fsrm, os_ymm;
    int avx512f, os_zmm;       /* avx512f: CPUID bit and the OS saving opmask + zmm state */
    int avx512bw, bmi2;        /* avx512bw: with avx512f usable; bmi2: CPUID bit */
    int avx_vnni;              /* CPUID.7.1:EAX[4] (reported; Intel generations without the
                                * zmm clock penalty have it) */
    int prefer_zmm;            /* FC_ZMM_*: which ladder is the default (features, then an exception) */
    size_t l1d_size, l2_size;  /* bytes, 0 if unknown */
    size_t llc_size;           /* bytes of one last-level cache instance, 0 if unknown */
    unsigned llc_level;        /* its level (2 or 3) */
    unsigned llc_threads;      /* logical CPUs sharing it */
};

enum { FC_ZMM_NO = 0, FC_ZMM_AVX512 = 1, FC_ZMM_YMMLOOP = 2 }; /* avx2 / avx512 / avx512-ymmloop */

/* The settings whose source (FC_SRC_*, internal.h) fastcopy-info prints. */
enum { FC_SET_IMPL, FC_SET_NT, FC_SET_MOVSB, FC_SET_GAP, FC_SET_PAGES, FC_SET_INORDER, FC_SET_COUNT };
#define FC_PROFILE_MAX 4096 /* bytes; a larger profile is ignored */
#define FC_PATH_MAX 512
#define FC_NOTES 4
#define FC_NOTE_LEN 400
struct fc_x86_status {
    char signature[256];       /* this CPU as a profile's cpu line names it */
    const char *exception;     /* the measured-CPU exception applied (NULL: features only) */
    int secure;                /* a secure-execution process (environment ignored) */
    const char *impl;          /* the entry the profile names, or NULL */
    unsigned char src[FC_SET_COUNT]; /* FC_SRC_* (internal.h) of each FC_SET_* */
    char profile[FC_PATH_MAX]; /* the profile in use, "" if none */
    char notes[FC_NOTES][FC_NOTE_LEN]; /* each profile tried: "PATH: in use / absent / ignored: why" */
    int nnotes;
};
const struct fc_x86_status *fc__x86_status(void);

/* The settings the copy routines read, from the ones a profile or FASTCOPY_TUNE
 * gives: the rep movsb window ends at the NT threshold (empty if NT starts
 * below it), special_min is the smaller of the two starts.  The load path,
 * fc__x86_parse_profile and fastcopy-tune all go through it. */
void fc__x86_derive(struct fc_x86_tune *t);

/* The profile parser on a text of len bytes, checked against this CPU (for
 * the fuzz test, fcbench --tuned): 1 and the settings it gives (derived as
 * the load path derives them), or 0 and the reason in why.
 * Changes nothing the library uses. */
int fc__x86_parse_profile(const char *text, long len, char *why, size_t whylen, struct fc_x86_tune *out,
                          const char **impl);

/* rep movsb: the erms entry and the movsb window of vec_copy.h. */
static inline void fc__rep_movsb(void *d, const void *s, size_t n)
{
    __asm__ volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
}

/* Idempotent, no libc calls (safe in an ifunc resolver), never waits for
 * another caller. */
void fc__x86_init(void);
#ifdef FC_TEST_HOOKS
extern void (*fc__x86_test_hook)(void); /* called in the middle of a decision */
void fc__x86_test_reset(void);          /* the next call decides again */
#endif
const struct fc_x86_info *fc__x86_info(void);

int fc__x86_probe_sse2(void);
int fc__x86_probe_avx2(void);
int fc__x86_probe_avx512(void);
int fc__x86_probe_avx512_masked(void);
int fc__x86_prefer_avx512(void);
int fc__x86_prefer_avx512_ymmloop(void);
int fc__x86_probe_erms(void);

#endif
