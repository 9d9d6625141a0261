/*
 * tune_confirm.h - fastcopy-tune's rule for a second measurement.  A setting
 * moves away from the default only where two independent measurements of the
 * same cases both make it, each decided with the wider of their A/A bands:
 * whenever the first measurement would move a setting, the tuner measures the
 * phase again, decides on each measurement alone, and moves the setting only
 * as far as both decisions go.
 *
 * Why: the first version moved on one measurement.  On the Zen 4 guest 13
 * runs of the tuner (2026-11-27, an adversarial review) moved the NT
 * threshold from 16 to 8 MiB in 5 of them (NT / no NT at 8 MiB read 0.67-1.01
 * from run to run, against an A/A band of 9-28% from 5-6 pairs), and one
 * full run moved inorder_min to 4 KiB.
 *
 * tune_combine: a setting's value from the two measurements' decisions: the
 * one nearer the default where both moved it the same way, else the default.
 * (Combining the measurements case by case first, as the first version did,
 * could move a setting where the two decisions disagreed, even the other way:
 * two losses at different sizes above the default left no common loss, and
 * the rule for wins below the default then lowered it - found by a review.)
 * tune_agree: the same for a per-size on/off decision (the rep movsb window:
 * each size on or off where both agree, the default's choice otherwise; the
 * window is then the longest run of sizes on, which may be narrower than
 * either measurement's own).
 */
#ifndef FASTCOPY_TUNE_CONFIRM_H
#define FASTCOPY_TUNE_CONFIRM_H

#include <stddef.h>

static inline size_t tune_combine(size_t a, size_t b, size_t def)
{
    if (a < def && b < def) return a > b ? a : b;
    if (a > def && b > def) return a < b ? a : b;
    return def;
}

/* a per-size on/off/default decision of two measurements: agreed, or the default */
static inline int tune_agree(int a, int b, int def) { return a == b ? a : def; }

#endif
