"""The plain sentences that top the report (and that `report` prints): fastcopy against libc and the peers, cliffs,
kernel uaccess, fastcopy vs libc, the machine, the background load and the method."""

import math
from collections import defaultdict

from .run import BUSY_NOISY, CLIFF_RATIO, OFFSET_TESTS, STEAL_NOISY
from .section_peers import comparison
from .fmt import fmt_num, fmt_p, fmt_ratio, fmt_size, geomean, int_ranges, size_ranges
from .analysis import (describe_distances, describe_grid, distance_sweeps, grid_cells, grid_cliffs, grid_line_rule,
                       offset_groups, offset_stats, sweep_flags)


def cliff_sentences(run, cliffs=None):
    """The cliff summary: one sentence per contender with flagged cliffs."""
    cliffs = run.data["cliffs"] if cliffs is None else cliffs
    if not cliffs:
        return []
    sweeps = distance_sweeps(run)
    cache = {}
    for r in run.by_scenario.get("cliffs-aligned", ()):
        cache[(r["contender"], r["n"])] = r["cache"]
    by_c = defaultdict(list)
    for c in cliffs:
        by_c[c["contender"]].append(c)
    out = []
    for name in run.ordered(by_c):
        flagged = [c for c in by_c[name] if c["flagged"]]
        if not flagged:
            continue
        worst = min(flagged, key=lambda c: c["ratio"])
        lo, hi = min(c["ratio"] for c in flagged), max(c["ratio"] for c in flagged)
        ratios = fmt_ratio(lo) if fmt_ratio(lo) == fmt_ratio(hi) else f"{fmt_ratio(lo)}-{fmt_ratio(hi)}"
        sizes = [c["n"] for c in flagged]
        cells = grid_cells(run, name, set(sizes))
        where = grid_line_rule(cells)
        swept = [(sweeps[k], c["aligned_gbps"]) for c in flagged
                 if (k := (name, c["n"], cache.get((name, c["n"]), run.method["cache"]))) in sweeps]
        if not where and swept:
            common = set.intersection(*(set(s) for s, _ in swept))
            votes = defaultdict(int)
            for s, ref in swept:
                for d in sweep_flags(s, ref):
                    votes[d] += 1
            major = {d for d in common if 2 * votes[d] > len(swept)}
            if major:
                where = ("typically when " if len(swept) > 1 else "when ") + describe_distances(major, common)
        if not where and cells:
            where = describe_grid(cells)
        # a severe cliff inside a broad slowdown, e.g. everything misaligned at 0.5x and dst_off = 9 at 0.06x
        severe = math.sqrt(max(worst["ratio"], 1e-6) * CLIFF_RATIO)  # halfway to the flag line, in log terms
        line = grid_line_rule(cells, severe) if worst["ratio"] < 0.5 else ""
        if line and line != where:
            where = (where + "; " if where else "") + f"below {fmt_ratio(severe)} {line}"
        out.append(f"{name}: {ratios} of its aligned speed at {size_ranges(sizes, [c['n'] for c in by_c[name]])}"
                   f"{', ' + where if where else ''} (worst: n={worst['n']} at src_off {worst['src_off']}, "
                   f"dst_off {worst['dst_off']}, dist {worst['dist']}: {fmt_num(worst['worst_gbps'])} vs "
                   f"{fmt_num(worst['aligned_gbps'])} GB/s).")
    if not out:
        sizes = sorted({c["n"] for c in cliffs})
        out.append(f"No cliffs: every contender keeps >= {CLIFF_RATIO}x of its aligned speed at its worst "
                   f"placement ({size_ranges(sizes, sizes)}).")
    return out


def uaccess_sentences(run):
    """Per kernel copy direction and file kind: offset 0 vs misaligned user buffers."""
    out = []
    for scenario, field, what in OFFSET_TESTS[2:]:
        for name in run.ordered({c for c, _, _ in offset_groups(run, scenario, field)}):
            rows = [(b, offset_stats(by)) for c, b, by in offset_groups(run, scenario, field) if c == name]
            rows = [(b, s) for b, s in rows if s]
            if not rows:
                continue
            fn = what.split(" ")[0]
            sizes = " / ".join(fmt_size(b) for b, _ in rows)
            base = " / ".join(f"{s['mibs0']:,.0f}" for _, s in rows)
            near = " / ".join(fmt_ratio(s["near_mean"]) for _, s in rows)
            wb, ws = min(((b, s) for b, s in rows if s["worst"] is not None), key=lambda x: x[1]["worst"],
                         default=(None, None))
            text = (f"{fn} ({name}): offset 0 moves {base} MiB/s at {sizes}; offsets 1..7 average {near} of that"
                    + (f"; the worst offset is {ws['worst_off']} at {fmt_ratio(ws['worst'])} ({fmt_size(wb)})"
                       if ws else "") + ". ")
            slow = [s for _, s in rows if s["near_mean"] is not None and s["near_mean"] < 0.95
                    and s["p"] is not None and s["p"] < 0.01]
            if slow:
                sb, ss = min(((b, s) for b, s in rows if any(s is x for x in slow)), key=lambda x: x[1]["near_mean"])
                text += (f"Misaligned user buffers are slower: offsets 1..7 average {fmt_ratio(ss['near_mean'])} of "
                         f"offset 0 at {fmt_size(sb)} (Mann-Whitney p = {fmt_p(ss['p'])}).")
            elif ws and ws["worst"] < 0.9:
                text += (f"Offsets 1..7 are not clearly slower, but offset {ws['worst_off']} is "
                         f"({fmt_ratio(ws['worst'])}).")
            else:
                text += "Misaligned user buffers are not measurably slower (every offset within 10% of offset 0)."
            # which offsets fall off a cliff, as ranges (e.g. "1..31": the page-offset window of a rep movsb erratum)
            cliff_sets = [{o for o, r in st["ratios"].items() if r < CLIFF_RATIO} for _, st in rows]
            every = set.intersection(*cliff_sets) if cliff_sets else set()
            if every:
                text += (f" Below {CLIFF_RATIO}x of offset 0 at every size: offsets {int_ranges(every)} "
                         f"({len(every)} of {len(rows[0][1]['ratios'])}).")
            out.append(text)
    return out


def versus_libc_sentence(run):
    """fastcopy's dispatcher against libc in the same run: throughput by size band, time on real distributions
    and when the copy is read back at once."""
    fc = next((c for c in run.contenders if c.startswith("fc[")), None)
    if not fc or "libc" not in run.contenders:
        return None
    sizes = {(r["contender"], r["n"]): r["gbps"] for r in run.results("sizes", label="aligned", cache="hot")}
    bands = (("below 256 B", 0, 255), ("at 256 B-64 KiB", 256, 65536), ("above 64 KiB", 65537, 1 << 62))
    parts = []
    for text, lo, hi in bands:
        rs = [sizes[(fc, n)] / sizes[("libc", n)] for c, n in sizes
              if c == fc and lo <= n <= hi and sizes.get(("libc", n))]
        if rs:
            parts.append(f"{fmt_ratio(geomean(rs))} {text}")
    dist = {(r["contender"], r["label"]): r["med_ns"] for r in run.by_scenario.get("dist", ())}
    dr = [dist[(fc, lbl)] / dist[("libc", lbl)] for c, lbl in dist if c == fc and ("libc", lbl) in dist]
    rb = {(r["contender"], r["n"]): r["med_ns"] for r in run.by_scenario.get("readback", ())}
    rr = [rb[(fc, n)] / rb[("libc", n)] for c, n in rb if c == fc and ("libc", n) in rb]
    if not parts and not dr and not rr:
        return None
    text = f"{fc} vs libc in this run:"
    if parts:
        text += " throughput (aligned, hot; geometric mean) " + ", ".join(parts)
    if dr:
        text += ("; " if parts else " ") + (f"{fmt_ratio(geomean(dr))} libc's time per call on the real size "
                                            f"distributions (dist)")
    if rr:
        text += ("; " if parts or dr else " ") + (f"{fmt_ratio(geomean(rr))} libc's time per call when the copy is "
                                                  f"read back at once (readback, {fmt_size(min(n for _, n in rb))}-"
                                                  f"{fmt_size(max(n for _, n in rb))})")
    return text + "."


def machine_sentence(run):
    m, d = run.machine, run.data
    caches = ", ".join(f"{lv} {fmt_size(b)}" for lv, b in run.cache_levels()) or "cache sizes unknown"
    return (f"Machine: {m['cpu']} ({m['machine']}, {m['cpus']} CPUs; {m['flags'].strip() or 'no listed flags'}), "
            f"{caches}; libc {m['libc']}; Linux {m['kernel']}; fastcopy {m['fastcopy_version']}, active "
            f"implementation {m['fc_active']}; run {d['date']} ({d['scenario']}).")


def load_sentence(data):
    """The background load fcbench recorded (schema fcbench-2 since it has other_cpus_busy and steal), or None."""
    m = data["method"]
    if "other_cpus_busy" not in m or "steal" not in m:
        return None
    busy, steal = m["other_cpus_busy"], m["steal"]
    text = (f"Background load: the other CPUs were busy {100 * busy:.0f}% of the run and the hypervisor stole "
            f"{100 * steal:.1f}% of this CPU's time")
    if busy > BUSY_NOISY or steal > STEAL_NOISY:
        return text + " - absolute figures are noisy; compare ratios within the run."
    return text + "."


def method_sentence(run):
    m = run.method
    # per-case counts, where scenarios took more (sizes, memmove, dist: 3x since 2026-11-27; before, sizes from
    # 4 MiB only): read off the results, so an older run is described as it was measured
    more = [r for r in run.data["results"] if r.get("samples", 0) > m["samples"]]
    counts = ", ".join(map(str, sorted({r["samples"] for r in more})))
    where = ", ".join(sorted({r["scenario"] for r in more}))
    extra = f" ({counts} in cases of {where})" if more else ""
    return (f"Method: {m['samples']} samples per case{extra}, each >= {m['min_sample_ns'] / 1e3:g} us of calls "
            f"(timer resolution {run.machine['timer_resolution_ns']:g} ns), contenders interleaved within each "
            f"sample round; the median is reported with the IQR, every sample is kept. Hot: the same buffers every "
            f"call; cold: every call moves to another slot of a {fmt_size(m['cold_region_bytes'])} region "
            f"(default mode of this run: {m['cache']}). Bytes copied are counted once: GB/s = n / ns per call. "
            f"{m['pinned'].capitalize()}.")


def summary_items(run):
    """The plain sentences that top the report (and that `report` prints)."""
    items = []
    cmp = comparison(run)
    if cmp and cmp.rows:  # first: fastcopy against libc and the peers, one verdict per metric
        items.append(("fastcopy and the alternatives on this machine", [f"{t}: {v}." for t, v in cmp.verdicts]))
    cl = cliff_sentences(run)
    if cl:
        items.append(("Cliffs (worst placement vs own aligned speed, flagged below "
                      f"{CLIFF_RATIO}x)", cl))
    elif not run.data["cliffs"] and (cl := cliff_sentences(run, grid_cliffs(run))):
        items.append((f"Cliffs in the grid maps (worst cell vs aligned speed, below {CLIFF_RATIO}x; not "
                      "re-measured)", cl))
    ua = uaccess_sentences(run)
    if ua:
        items.append(("Kernel uaccess (misaligned user buffers)", ua))
    vs = versus_libc_sentence(run)
    if vs:
        items.append(("fastcopy vs libc", [vs]))
    load = load_sentence(run.data)
    items.append(("Machine", [machine_sentence(run)] + ([load] if load else [])))
    return items


def summary_text(items):
    """summary_items() as indented plain text."""
    lines = []
    for head, sentences in items:
        lines.append(head + ":")
        lines.extend("  - " + s for s in sentences)
    return "\n".join(lines) + "\n"
