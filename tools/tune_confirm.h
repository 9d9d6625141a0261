/*
 * tune_confirm.h - fastcopy-tune's rule for a second measurement.  A setting
 * moves away from the default only where two independent measurements of the
 * same cases (each with its own A/A band) both show the move beyond the band:
 * whenever the first measurement would move a setting, the tuner measures the
 * phase again and decides on the consensus of the two.
 *
 * Why: the first version moved on one measurement.  On the Zen 4 guest 13
 * runs of the tuner (2026-11-27, an adversarial review) moved the NT
 * threshold from 16 to 8 MiB in 5 of them (NT / no NT at 8 MiB read 0.67-1.01
 * from run to run, against an A/A band of 9-28% from 5-6 pairs), and one
 * full run moved inorder_min to 4 KiB.
 *
 * tune_consensus: the ratio to decide on from two measurements' ratios of
 * the same case (time with the candidate over time without, or its inverse:
 * the rule is symmetric about 1): the nearer one to 1 where both are beyond
 * the band on the same side, else 1 (no evidence to move on).
 */
#ifndef FASTCOPY_TUNE_CONFIRM_H
#define FASTCOPY_TUNE_CONFIRM_H

static inline double tune_consensus(double a, double b, double band)
{
    if (a < 1 - band && b < 1 - band) return a > b ? a : b;
    if (a > 1 + band && b > 1 + band) return a < b ? a : b;
    return 1.0;
}

/* a per-size on/off/default decision of two measurements: agreed, or the default */
static inline int tune_agree(int a, int b, int def) { return a == b ? a : def; }

#endif
