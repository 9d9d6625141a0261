"""fcbench targets: the x86-64 issue's six targets read off one run (fc[...] and tuned[...] against libc), with
the A/A noise allowance (fc[X] against X, the same routine under two names)."""

import sys

from .run import TARGETS_NOISE, Run, UsageError, load_runs, noise_limit  # the A/A tolerance (D37)
from .fmt import fmt_size, geomean
from .compare import machine_brief



def _noise_limits(run, scenario, fc, **match):
    """{n: the time ratio to glibc above which fc counts as slower beyond noise}: 1 + TARGETS_NOISE, or wider where
    the run's A/A pair disagreed more at that size - fc[X] and X, the same routine under two names, measured in the
    same rounds (their median times' ratio, either way round), capped at 1 + TARGETS_NOISE_MAX.  What the run itself
    could not resolve between two copies of one routine, it cannot resolve between fastcopy and glibc either;
    `fcbench targets` lists every size that the wider limit excuses."""
    if fc.startswith("tuned["):  # the profile's contender has no twin: the run's fc[X] / X pair stands for it
        fc = next((c for c in run.contenders if c.startswith("fc[")), fc)
    alias = fc[3:-1] if fc.startswith("fc[") and fc.endswith("]") else None
    aa = _time_ratios(run, scenario, fc, alias, **match) if alias in run.contenders else {}
    return {n: noise_limit(r) for n, r in aa.items() if r > 0}


def _twin(run, fc):
    """X for fc[X] or tuned[X], where the run measured X itself: the same routine under its registry name, in the
    same rounds (tuned[X] with the profile's settings, X with the defaults).  Where a target misses, its figure there
    is printed beside the miss - it tells this run's noise from a shortfall of the code; the verdict is fc's alone."""
    x = fc[fc.index("[") + 1:-1] if "[" in fc and fc.endswith("]") else None
    return x if x in run.contenders and x != fc else None


def _excused(ratios, limits):
    """The sizes above 1 + TARGETS_NOISE that the A/A noise at that size excuses: [(n, ratio, limit)]."""
    return [(n, r, limits[n]) for n, r in ratios.items() if 1 + TARGETS_NOISE < r <= limits.get(n, 0)]


def _time_ratios(run, scenario, fc, base, **match):
    """{n: fc median time / base median time} for the cases both have."""
    a = {r["n"]: r for r in run.results(scenario, contender=fc, **match)}
    b = {r["n"]: r for r in run.results(scenario, contender=base, **match)}
    return {n: a[n]["med_ns"] / b[n]["med_ns"] for n in sorted(a) if n in b}


BIMODAL_TOL = 0.03  # a sample within 3% of a case's fastest is in its fast group
BIMODAL_SHARE = (0.25, 0.75)  # a fast group this share of the samples: the median can land in either group


def _fast_share(samples):
    """The share of the samples within BIMODAL_TOL of the fastest one, and the fastest."""
    lo = min(samples)
    return sum(1 for x in samples if x <= lo * (1 + BIMODAL_TOL)) / len(samples), lo


def _two_groups(run, scenario, fc, base, n, **match):
    """For a size that reads above glibc beyond noise: where fc's or glibc's samples fall in a fast group holding
    25-75% of them, the median can land in either group, and a 10-20% gap between two medians may be the groups,
    not the code (Zen 4, 2026-11-27 13:49: memmove at 64 KiB, fc 16 of 33 samples at 574-585 ns and 17 at 702-903,
    median 702; glibc 17 of 33 at 588-592, median 592).  Returns that text, or "" where neither is so split or the
    run kept no samples.  The verdict does not change: the note says why it may differ in the next run."""
    a = next(iter(run.results(scenario, contender=fc, n=n, **match)), None)
    b = next(iter(run.results(scenario, contender=base, n=n, **match)), None)
    if not a or not b or not a.get("samples_ns") or not b.get("samples_ns"):
        return ""
    (fa, la), (fb, lb) = _fast_share(a["samples_ns"]), _fast_share(b["samples_ns"])
    lo, hi = BIMODAL_SHARE
    if not (lo <= fa <= hi or lo <= fb <= hi):
        return ""
    return (f" [samples in two groups: fc {round(fa * len(a['samples_ns']))} of {len(a['samples_ns'])} within "
            f"{BIMODAL_TOL:.0%} of its fastest, glibc {round(fb * len(b['samples_ns']))} of {len(b['samples_ns'])}; "
            f"fastest samples {la / lb:.2f}x]")


def _fr(v, limit, pct=False):
    """A ratio against a target's limit: 2 decimals (a percentage: none), or one more where the shorter form would
    print the limit itself for a value on the wrong side of it (0.998x against >= 1.0x reads "0.998x", not "1.00x";
    94.6% against >= 95% "94.6%")."""
    if pct:
        t = f"{v:.0%}"
        return f"{v:.1%}" if v != limit and t == f"{limit:.0%}" else t
    t = f"{v:.2f}"
    return f"{v:.3f}" if v != limit and t == f"{limit:.2f}" else t


def _class_text(ratios, lo, hi):
    sel = [r for n, r in ratios.items() if lo <= n <= hi]
    return f"{geomean(sel):.2f}x" if sel else "-"


TARGET_NAMES = (
    "aligned 8 B - 32 MiB: geomean <= 0.95x, none above 1.00x (beyond noise: 5%, or the A/A pair's spread)",
    "4-512 KiB: never below glibc (beyond noise), >= 95% of the copy ceiling at the same size",
    "worst placement >= 0.85x own aligned (n >= 4 KiB), >= 0.6x and >= glibc's worst (256 B-4 KiB)",
    "random sizes, every distribution: <= 0.85x glibc's time",
    "large (400 MiB): >= 1.0x glibc, >= 95% of the DRAM copy peak",
    "memmove by overlap: geomean <= 0.95x, none above 1.00x (beyond noise: 5%, or the A/A pair's spread)",
)


def targets_rows(run, fc, base="libc"):
    """[(target, measured, met)] for the issue's targets, in TARGET_NAMES order; met is True, False or None
    (the run lacks the scenario)."""
    found = {name: (name, "not in this run", None) for name in TARGET_NAMES}
    for target, measured, met in _targets_found(run, fc, base):
        found[target] = (target, measured, met)
    return [found[name] for name in TARGET_NAMES]


def _targets_found(run, fc, base):
    rows = []
    kib, mib = 1024, 1024 * 1024
    al = _time_ratios(run, "sizes", fc, base, label="aligned", cache="hot")
    al = {n: r for n, r in al.items() if 8 <= n <= 32 * mib}
    lim = _noise_limits(run, "sizes", fc, label="aligned", cache="hot")
    twin = _twin(run, fc)  # printed beside a miss: the same routine under its registry name, same rounds

    def limit_at(n):
        return lim.get(n, 1 + TARGETS_NOISE)

    if al:
        g = geomean(list(al.values()))
        worst_n = max(al, key=al.get)
        above = [n for n, r in al.items() if r > limit_at(n)]
        exc = _excused(al, lim)
        rows.append((
            TARGET_NAMES[0],
            f"geomean {_fr(g, 0.95)}x over {len(al)} sizes; 8-256 B {_class_text(al, 8, 256)}, "
            f"257 B-4 KiB {_class_text(al, 257, 4 * kib)}, 4-512 KiB {_class_text(al, 4 * kib + 1, 512 * kib)}, "
            f"512 KiB-32 MiB {_class_text(al, 512 * kib + 1, 32 * mib)}; worst {al[worst_n]:.2f}x at "
            f"{fmt_size(worst_n)}; {len(above)} sizes above glibc beyond noise"
            + (f" ({', '.join(f'{fmt_size(n)} {al[n]:.2f}x' + _two_groups(run, 'sizes', fc, base, n, label='aligned', cache='hot') for n in above[:8])}{', ...' if len(above) > 8 else ''})"
               if above else "")
            + (f"; above {1 + TARGETS_NOISE:.2f}x but within the A/A noise at that size (fc vs its own routine "
               "under its registry name, same rounds): " + ", ".join(f"{fmt_size(n)} {r:.2f}x (A/A {m - 1:.0%})"
                                                                       for n, r, m in exc) if exc else ""),
            g <= 0.95 and not above))
    win = {n: r for n, r in al.items() if 4 * kib <= n <= 512 * kib}
    if win:
        # The yardstick: the copy ceiling at the same n (peak's best kernel on that working set, same rounds) where
        # the run has it; runs before it have only `peak`'s one size per level (src + dst = half the level), which
        # a copy whose src + dst reach the level's size cannot approach - nor can any kernel.  Both are printed.
        peaks = run.peaks()
        fcr = {r["n"]: r for r in run.results("sizes", contender=fc, label="aligned", cache="hot")}
        lvl = {n: fcr[n]["gbps"] / peaks[run.level_of(n)]["gbps"] for n in win if run.level_of(n) in peaks}
        cei = {n: fcr[n]["gbps"] / run.ceiling_at(n)["gbps"] for n in win if run.ceiling_at(n)}
        frac = cei if len(cei) == len(win) else lvl
        slow = [n for n, r in win.items() if r > limit_at(n)]
        low = min(frac, key=frac.get) if frac else None
        parts = [f"time ratio {min(win.values()):.2f}-{max(win.values()):.2f}x ({len(slow)} sizes above glibc beyond "
                 f"noise{': ' + ', '.join(f'{fmt_size(n)} {win[n]:.2f}x' for n in slow[:6]) if slow else ''})"]
        tw = {r["n"]: r["gbps"] for r in run.results("sizes", contender=twin, label="aligned", cache="hot")} \
            if twin else {}
        if cei:
            lc = min(cei, key=cei.get)
            c = run.ceiling_at(lc)
            parts.append(f"lowest share of the ceiling at n {_fr(cei[lc], 0.95, pct=True)} at {fmt_size(lc)} ({c['contender']} "
                         f"{c['gbps']:.1f} GB/s on {fmt_size(c['n'])}"
                         + (f"; {twin}, the same routine, {tw[lc] / c['gbps']:.0%} there"
                            if cei[lc] < 0.95 and lc in tw else "") + ")")
        if lvl:
            ll = min(lvl, key=lvl.get)
            parts.append(f"lowest share of the level's peak {lvl[ll]:.0%} at {fmt_size(ll)} ({run.level_of(ll)} peak "
                         f"{peaks[run.level_of(ll)]['gbps']:.1f} GB/s, measured at one size"
                         + (", not the yardstick)" if frac is cei else ")"))
        rows.append((
            TARGET_NAMES[1],
            "; ".join(parts) if frac else "no peaks",
            not slow and bool(frac) and frac[low] >= 0.95))
    cl = {(c["contender"], c["n"]): c for c in run.data["cliffs"]}
    sizes = sorted(n for (c, n) in cl if c == fc)
    if sizes:
        parts, ok = [], True
        for n in sizes:
            c, b = cl[(fc, n)], cl.get((base, n))
            need = 0.85 if n >= 4 * kib else 0.6
            good = c["ratio"] >= need
            txt = f"{fmt_size(n)} {_fr(c['ratio'], need)}x"
            # The one exception: 256 B with a buffer across a page boundary, where a store that
            # straddles the page costs more than the whole aligned copy (docs/x86.md).  The 0.6x floor is
            # waived for that placement alone, its figure printed; glibc's worst still holds.
            split = _page_split(c) if n == 256 and not good else None
            good = good or split is not None
            note = f"; {split}: page split, the 256 B exception to 0.6x" if split else ""
            if n <= 4 * kib and b:
                good = good and c["worst_gbps"] >= b["worst_gbps"]
                txt += f" ({c['worst_gbps']:.1f} vs glibc's worst {b['worst_gbps']:.1f} GB/s{note})"
            elif note:
                txt += f" ({note[2:]})"
            ok = ok and good
            tc = cl.get((twin, n)) if twin else None
            parts.append(txt + ("" if good else " MISS" + (f" ({twin}, the same routine: {tc['ratio']:.2f}x)"
                                                           if tc else "")))
        rows.append((TARGET_NAMES[2],
                     "; ".join(parts), ok))
    dist = _by_label(run, "dist", fc, base)
    if dist:
        td = _by_label(run, "dist", twin, base) if twin else {}
        rows.append((TARGET_NAMES[3],
                     ", ".join(f"{k.replace('Memcpy', '')} {_fr(v, 0.85)}x"
                               + ("" if v <= 0.85 else " MISS" + (f" ({twin}, the same routine: {td[k]:.2f}x)"
                                                                  if k in td else ""))
                               for k, v in dist.items()),
                     all(v <= 0.85 for v in dist.values())))
    large = {r["label"]: r for r in run.results("large", contender=fc)}
    lbase = {r["label"]: r for r in run.results("large", contender=base)}
    # The DRAM ceiling: peak's kernels timed inside `large`, in the same samples as
    # the contenders (scenario large-ceiling, under each copy's label; runs before
    # 2026-11-25 have it for the aligned copy only), when the run has them; else
    # `peak`'s DRAM level, measured minutes away (runs before 2026-11-24 evening).
    # Each copy is read against the best kernel of either copy's samples, the
    # stricter yardstick: the kernels beside the unaligned copy read its src + 1.
    # Since 2026-11-25 (morning) the two copies' samples alternate round by round,
    # so a gap between the two ceilings is misalignment, not the host's DRAM
    # moving between two windows (as it could be in earlier runs); the ceiling
    # beside the copy itself is printed too.
    best_ceil = max(run.results("large-ceiling"), key=lambda r: r["gbps"], default=None)

    if large and lbase:
        parts, ok = [], True
        for lab in large:
            if lab not in lbase:
                continue
            ceil = best_ceil
            dram = ceil or run.peaks().get("DRAM")
            own = max(run.results("large-ceiling", label=lab), key=lambda r: r["gbps"], default=None)
            sp = large[lab]["gbps"] / lbase[lab]["gbps"]
            share = large[lab]["gbps"] / dram["gbps"] if dram else float("nan")
            good = sp >= 1.0 and share >= 0.95
            ok = ok and good
            tl = next(iter(run.results("large", contender=twin, label=lab)), None) if twin else None
            twin_txt = f"{twin}, the same routine, {tl['gbps'] / dram['gbps']:.0%}" \
                if tl and dram and (sp < 1.0 or share < 0.95) else ""
            if ceil:
                where = f"the DRAM ceiling ({ceil['contender']} {ceil['gbps']:.1f} GB/s beside the {ceil['label']} copy"
                if own and own is not ceil:
                    where += f"; beside this one {own['contender']} {own['gbps']:.1f} GB/s, " \
                             f"{large[lab]['gbps'] / own['gbps']:.0%}"
                where += (f"; {twin_txt}" if twin_txt else "") + ")"
            else:
                where = "the DRAM peak" + (f" ({twin_txt})" if twin_txt else "")
            parts.append(f"{lab} {_fr(sp, 1.0)}x glibc's speed, {large[lab]['gbps']:.1f} GB/s = "
                         f"{_fr(share, 0.95, pct=True)} of {where}" + ("" if good else " MISS"))
        rows.append((TARGET_NAMES[4], "; ".join(parts), ok))
    mm = {}
    for lab in sorted({r["label"] for r in run.results("memmove", contender=fc)}):
        rr = _time_ratios(run, "memmove", fc, base, label=lab)
        if rr:
            ml = _noise_limits(run, "memmove", fc, label=lab)
            over = [n for n, r in rr.items() if r > ml.get(n, 1 + TARGETS_NOISE)]
            marks = [(x, _two_groups(run, "memmove", fc, base, x, label=lab)) for x in over]
            notes = "".join(f"; {fmt_size(x)}{m}" for x, m in marks if m)
            mm[lab] = (geomean(list(rr.values())), max(rr.values()), max(rr, key=rr.get), over, _excused(rr, ml), notes)
    if mm:
        def mtext(lab, g, m, n, over, exc, notes):
            t = f"{lab} {_fr(g, 0.95)}x (max {m:.2f}x at {fmt_size(n)}"
            if exc:
                t += "; within the A/A noise there: " + ", ".join(f"{fmt_size(x)} {r:.2f}x (A/A {lm - 1:.0%})"
                                                                  for x, r, lm in exc)
            return t + notes + ")" + (" MISS" if g > 0.95 or over else "")
        rows.append((TARGET_NAMES[5],
                     "; ".join(mtext(lab, *v) for lab, v in mm.items()),
                     all(g <= 0.95 and not over for g, m, n, over, exc, notes in mm.values())))
    return rows


def _page_split(c):
    """Where a cliffs placement puts a buffer across a 4 KiB page ("dst at page offset 4003"), or None.  fcbench
    places src at page offset src_off and dst (dist) bytes after it mod 4096 (bench_place, the distance sweep)."""
    n, so = c["n"], c.get("src_off", 0)
    do = (so + c.get("dist", c.get("dst_off", 0))) % 4096
    where = [f"{name} at page offset {off}" for name, off in (("src", so), ("dst", do)) if off + n > 4096]
    return ", ".join(where) or None


def _by_label(run, scenario, fc, base):
    a = {r["label"]: r for r in run.results(scenario, contender=fc)}
    b = {r["label"]: r for r in run.results(scenario, contender=base)}
    return {k: a[k]["med_ns"] / b[k]["med_ns"] for k in a if k in b}


def cmd_targets(args, out=None):
    out = out or sys.stdout
    run = Run(load_runs(args.results), " + ".join(args.results))
    fc = next((c for c in run.contenders if c.startswith("fc[")), None)
    if fc is None or "libc" not in run.contenders:
        raise UsageError(f"{run.path}: needs the contenders libc and fc[...] (fcbench all without --impl)")
    # the defaults (fc[...]) and, where the run has one, the tuned profile (tuned[...], fcbench --tuned)
    who = [fc] + [c for c in run.contenders if c.startswith("tuned[")][:1]
    missed_any = 0
    for i, name in enumerate(who):
        rows = targets_rows(run, name)
        what = "the defaults" if name == fc else "the tuned profile"
        print(f"{'' if i == 0 else chr(10)}Targets of the x86-64 issue, {name} ({what}) vs libc in one run "
              f"({machine_brief(run.data)}); time ratios, < 1 = fastcopy faster:", file=out)
        for target, measured, met in rows:
            print(f"  [{'met' if met else 'not measured' if met is None else 'NOT MET'}] {target}\n      {measured}",
                  file=out)
        missed = sum(1 for *_, met in rows if not met)
        print(f"{len(rows) - missed} of {len(rows)} targets met with {what}", file=out)
        missed_any = missed_any or missed
    return 1 if args.check and missed_any else 0
