/*
 * tune_inorder.h - fastcopy-tune's decision on the in-order forward path
 * (inorder_min: copies without overlap whose dst is 1..4 LW bytes behind src
 * mod 4096 go forward in address order from this size; src/x86/vec_copy.h),
 * apart from the measurement so that tests/test_tune_inorder.c can feed it
 * figures.
 *
 * In: the sizes measured (ascending), at each the time without the path over
 * the time with it at that size (r > 1: the path wins; geometric mean over
 * the placements), the A/A noise band, the default inorder_min.
 *   - the path loses beyond the band at a size at or above the default: the
 *     minimum moves up past the largest such size (to the next size
 *     measured), or to never when that was the largest;
 *   - else, below the default: the minimum moves down to the smallest size
 *     from which the path wins beyond the band at every size up to the
 *     default (only where the default is above the smallest size measured);
 *   - else the default stands (within the band, nothing moves).
 * Why a measurement: on the Zen 4 guest the path took 0.89-0.91x the time at
 * 4 KiB; on Emerald Rapids the same entry without it read 0.92x glibc's
 * speed at 2 KiB (dst 64 bytes behind src) against 0.75x with it
 * (docs/x86.md).
 */
#ifndef FASTCOPY_TUNE_INORDER_H
#define FASTCOPY_TUNE_INORDER_H

#include <stddef.h>

#define TUNE_INORDER_NEVER ((size_t)-1)

static inline size_t tune_inorder_decide(const size_t *sizes, const double *r, size_t ns, double noise, size_t def)
{
    size_t lost = 0; /* 1 + the index of the largest size at or above the default where the path lost */
    for (size_t i = 0; i < ns; i++)
        if (sizes[i] >= def && r[i] < 1 - noise) lost = i + 1;
    if (lost) return lost < ns ? sizes[lost] : TUNE_INORDER_NEVER;
    size_t from = def;
    for (size_t i = ns; i-- > 0;) {
        if (sizes[i] >= def) continue;
        if (r[i] > 1 + noise) from = sizes[i];
        else break; /* it must win at every size up to the default */
    }
    return from;
}

#endif
