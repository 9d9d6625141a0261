"""Patterns read off a run, shared by the report's summary and its sections (standard library only): distance
sweeps and their flagged distances, grid cells and the rule behind the slow ones, cliff records from grid maps,
per-offset groups and their statistics."""

from collections import defaultdict

from .run import CLIFF_RATIO
from .fmt import mibs
from .stats import mann_whitney


def signed_dist(d):
    """(dst - src) mod 4096 as a signed distance in -2048..2047."""
    return d - 4096 if d >= 2048 else d


def describe_distances(flagged, measured):
    """A set of distances in words, e.g. 'dst - src (mod 4096) = -127..127 except multiples of 8'.

    Distances are signed (-2048..2047) and taken in the order measured: a run of flagged ones may bridge single
    unflagged points (holes), which are then named - as '(most) multiples of g' when they are (nearly) those, else
    listed.  0 (the aligned reference) is never named.  At most three runs are shown, the longest."""
    pts = sorted({signed_dist(d) for d in measured})
    flag = {signed_dist(d) for d in flagged}
    runs = []  # [first index, last index, holes]
    for i, p in enumerate(pts):
        if p not in flag:
            continue
        if runs and runs[-1][1] == i - 1:
            runs[-1][1] = i
        elif runs and runs[-1][1] == i - 2:
            runs[-1][2].append(pts[i - 1])
            runs[-1][1] = i
        else:
            runs.append([i, i, []])
    if not runs:
        return ""

    def words(run):
        a, b = pts[run[0]], pts[run[1]]
        holes = [h for h in run[2] if h]
        if a == b:
            return str(a)
        text = f"{a}..{b}"
        for g in (64, 32, 16, 8, 4, 2):
            mult = [p for p in pts if a <= p <= b and p and p % g == 0]
            if holes and all(h % g == 0 for h in holes) and len(holes) >= 0.6 * len(mult):
                return text + (" except multiples of " if len(holes) >= 0.9 * len(mult) else
                               " except most multiples of ") + str(g)
        if holes and len(holes) <= 6:
            return text + " except " + ", ".join(map(str, holes))
        if holes:
            return text + f" except {len(holes)} distances in between"
        return text

    count = [r[1] - r[0] + 1 - len(r[2]) for r in runs]
    ranked = sorted(range(len(runs)), key=lambda i: -count[i])
    main = [i for i in ranked if count[i] >= 2][:3] or ranked[:6]
    rest = sum(count[i] for i in range(len(runs)) if i not in main)
    text = "dst - src (mod 4096) = " + "; ".join(words(runs[i]) for i in sorted(main))
    return text + (f", and {rest} other distance{'s' if rest > 1 else ''}" if rest else "")


def grid_cells(run, contender, sizes):
    """(src_off, dst_off, ratio to aligned) of every measured grid cell of the contender at these sizes; a size's
    'grid' matrix is preferred to its cliff-screening one."""
    best = {}
    for g in run.data["grids"]:
        if g["contender"] == contender and g["n"] in sizes:
            if g["n"] not in best or g["source"] == "grid":
                best[g["n"]] = g
    cells = []
    for g in best.values():
        ref = g["aligned_gbps"] or (g["gbps"][0][0] if g["src_offs"] and g["dst_offs"] else 0)
        if not ref:
            continue
        for i, so in enumerate(g["src_offs"]):
            for j, do in enumerate(g["dst_offs"]):
                if g["gbps"][i][j] > 0:
                    cells.append((so, do, g["gbps"][i][j] / ref))
    return cells


def _fraction_flagged(cells, key, limit):
    tot, bad = defaultdict(int), defaultdict(int)
    for s, d, r in cells:
        tot[key(s, d)] += 1
        bad[key(s, d)] += r < limit
    return {k: bad[k] / tot[k] for k in tot}


def grid_line_rule(cells, limit=CLIFF_RATIO):
    """'whenever dst_off = 9' when a few whole columns (or rows) hold nearly all the cells below limit, else ''."""
    flagged = [(s, d) for s, d, r in cells if r < limit]
    for name, key in (("dst_off", lambda s, d: d), ("src_off", lambda s, d: s)):
        frac = _fraction_flagged(cells, key, limit)
        hot = sorted(k for k, f in frac.items() if f >= 0.9)
        covered = sum(1 for s, d in flagged if key(s, d) in hot)
        if flagged and hot and len(hot) <= max(1, len(frac) // 4) and covered >= 0.9 * len(flagged):
            return f"whenever {name} = {', '.join(map(str, hot))}"
    return ""


def grid_residue_rule(cells, limit=CLIFF_RATIO):
    """'when (dst_off - src_off) mod 8 != 0' when the cells below limit are (nearly) those of some residues."""
    flagged = sum(1 for *_, r in cells if r < limit)
    best = None  # the cleanest split: the lowest flagged fraction among the spared residues
    for m in (2, 4, 8, 16, 32, 64):
        frac = _fraction_flagged(cells, lambda s, d: (d - s) % m, limit)
        bad = sorted(k for k, f in frac.items() if f >= 0.85)
        good = sorted(k for k in frac if k not in bad)
        covered = sum(1 for s, d, r in cells if r < limit and (d - s) % m in bad)
        if bad and good and covered >= 0.85 * flagged:
            spared = max(frac[k] for k in good)
            if spared <= 0.6 and (best is None or spared < best[0] - 0.02):
                best = (spared, m, bad, good)
    if best is None:
        return ""
    spared, m, bad, good = best
    text = (f"when (dst_off - src_off) mod {m} != {', '.join(map(str, good))}" if len(good) <= len(bad)
            else f"when (dst_off - src_off) mod {m} = {', '.join(map(str, bad))}")
    return text + (f" (and at up to {spared:.0%} of the other placements)" if spared >= 0.2 else "")


def describe_grid(cells):
    """The rule behind a contender's slow grid cells, in words: a few columns or rows, a residue of
    (dst_off - src_off), or else how many."""
    flagged = sum(1 for *_, r in cells if r < CLIFF_RATIO)
    if not flagged:
        return ""
    return (grid_line_rule(cells) or grid_residue_rule(cells)
            or f"at {flagged} of {len(cells)} src_off x dst_off placements")


def distance_sweeps(run):
    """{(contender, n, cache): {dist: gbps}} from the distance scenario."""
    out = defaultdict(dict)
    for r in run.by_scenario.get("distance", ()):
        out[(r["contender"], r["n"], r["cache"])][r["dist"]] = r["gbps"]
    return out


def sweep_flags(sweep, ref):
    """Distances of a sweep below CLIFF_RATIO of ref (its dist-0 speed when measured)."""
    ref = sweep.get(0, ref)
    return {d for d, g in sweep.items() if ref and g < CLIFF_RATIO * ref}


def grid_cliffs(run):
    """Cliff records made from fcbench grid maps (each contender's worst cell per size), for runs without `cliffs`."""
    out = []
    for g in run.data["grids"]:
        cells = [(g["gbps"][i][j], so, do) for i, so in enumerate(g["src_offs"]) for j, do in enumerate(g["dst_offs"])
                 if g["gbps"][i][j] > 0]
        if g["source"] != "grid" or not cells or not g["aligned_gbps"]:
            continue
        worst, so, do = min(cells)
        out.append({"contender": g["contender"], "n": g["n"], "aligned_gbps": g["aligned_gbps"], "worst_gbps": worst,
                    "ratio": worst / g["aligned_gbps"], "src_off": so, "dst_off": do, "dist": (do - so) % 4096,
                    "flagged": worst < CLIFF_RATIO * g["aligned_gbps"]})
    return out


def offset_groups(run, scenario, field):
    """[(series, base size, {offset: result})] for a per-offset scenario (base size = n + offset).  A series is a
    contender, with its label (e.g. a file kind) and cache state when those vary."""
    rs = run.by_scenario.get(scenario, ())
    multi_cache = len({r["cache"] for r in rs}) > 1
    groups = defaultdict(dict)
    for r in rs:
        name = r["contender"] + (f" {r['label']}" if r["label"] else "") + (f" ({r['cache']})" if multi_cache else "")
        groups[(name, r["n"] + r[field])][r[field]] = r
    return [(c, b, groups[(c, b)]) for c in run.ordered({c for c, _ in groups})
            for b in sorted(b for cc, b in groups if cc == c)]


def offset_stats(by_off, near=range(1, 8)):
    """Offset 0's MiB/s and how the other offsets compare: the mean ratio over `near` (1..7), the worst offset and
    its ratio, and the Mann-Whitney p of offset 0's vs the `near` offsets' per-byte sample times."""
    r0 = by_off.get(0)
    if r0 is None:
        return None
    m0 = mibs(r0)
    ratios = {o: mibs(r) / m0 for o, r in by_off.items() if o}
    near_r = [ratios[o] for o in near if o in ratios]
    p = None
    if near_r:
        x = [s / r0["n"] for s in r0["samples_ns"]]
        y = [s / by_off[o]["n"] for o in near if o in by_off for s in by_off[o]["samples_ns"]]
        p = mann_whitney(x, y)[1]
    worst = min(ratios, key=ratios.get) if ratios else None
    return {"mibs0": m0, "near_mean": sum(near_r) / len(near_r) if near_r else None, "p": p,
            "worst_off": worst, "worst": ratios.get(worst), "ratios": ratios}
