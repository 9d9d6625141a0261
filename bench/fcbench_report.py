#!/usr/bin/env python3
"""fcbench_report.py - HTML reports and run comparisons for fcbench results.

fcbench writes its measurements as JSON (schema "fcbench-2": see
fcbench.schema.json next to this file).  `fcbench report` and `fcbench
compare` exec this script with their remaining arguments:

  fcbench_report.py report RESULTS.json [-o OUTDIR]
      Writes OUTDIR/report.html and its PNG plots (relative links, so the
      directory is self-contained; OUTDIR defaults to the JSON's directory).
      Prints the page's path and the plain-text summary that tops the page.

  fcbench_report.py compare A.json [B.json] [--base NAME] [--alpha 0.01]
                    [--scenario S,...] [--min-n N] [--max-diff F] [--all]
      Two runs: cases are matched on (scenario, contender, label, cache, n,
      src_off, dst_off, dist); per case the ratio of the median times B/A and
      the two-sided Mann-Whitney U p-value of the two sample sets.  One run
      with --base NAME: every other contender against NAME on the same case.
      Prints the significant cases (--all: every case) and a summary per
      scenario and contender (geometric mean, min, max, faster/slower counts).
      --max-diff F makes the exit status 1 when a case's ratio is outside
      [1-F, 1+F] (those cases are listed).

  fcbench_report.py selftest
      Unit checks of the statistics against hand-computed values, then report
      and compare on a synthetic run in a temporary directory.

Design notes
  * compare needs only the standard library.  report imports matplotlib (Agg
    backend) and numpy lazily; without them it writes the tables only.
  * Mann-Whitney U: the exact null distribution (Gaussian binomial
    coefficients) when there are no ties and both samples have at most 20
    values; otherwise the normal approximation with tie and continuity
    corrections.
  * Units follow fcbench: GB/s = n / ns per call (bytes copied counted once,
    1 GB = 1e9 B).  large, offsets, uaccess and pipe are also shown in MiB/s,
    the unit of the mailing-list tables those scenarios reproduce.

Exit status: 0 success; 1 compare --max-diff exceeded, or selftest failed;
2 usage or input error (missing file, wrong schema, no matching cases).
"""

import argparse
import contextlib
import functools
import html
import importlib.util
import io
import json
import math
import os
import random
import sys
import tempfile
from collections import defaultdict

SCHEMA = "fcbench-2"
CLIFF_RATIO = 0.8        # fcbench flags a placement below this fraction of aligned speed
BUSY_NOISY, STEAL_NOISY = 0.1, 0.02  # fcbench's "absolute figures are noisy" thresholds
EXACT_MAX = 20           # exact Mann-Whitney distribution up to this many samples per side
DPI = 90
MIB = 1048576.0
RESULT_KEYS = ("scenario", "contender", "label", "cache", "n", "src_off", "dst_off", "dist", "med_ns", "q1_ns",
               "q3_ns", "gbps", "samples", "iters", "samples_ns")
MACHINE_KEYS = ("cpu", "cpus", "flags", "l1d_bytes", "l2_bytes", "l3_bytes", "libc", "kernel", "machine",
                "fastcopy_version", "fc_active", "timer_resolution_ns")
METHOD_KEYS = ("samples", "min_sample_ns", "cache", "cold_region_bytes", "pinned")
CASE_KEY = ("scenario", "contender", "label", "cache", "n", "src_off", "dst_off", "dist")
LEVELS = ("L1", "L2", "L3", "DRAM")
# (scenario, the result field holding the offset under test, what is tested)
OFFSET_TESTS = (("offsets-read", "src_off", "read (src at the offset)"),
                ("offsets-write", "dst_off", "write (dst at the offset)"),
                ("uaccess-read", "dst_off", "copy_to_user (pread into the user buffer)"),
                ("uaccess-write", "src_off", "copy_from_user (pwrite from the user buffer)"))


class UsageError(Exception):
    """A problem with the command line or the input: reported in one line, exit status 2."""


# ---------------------------------------------------------------------------------------------------------------
# Input


def load_run(path):
    """Reads an fcbench-2 results file; UsageError (not a traceback) when it is not one."""
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except FileNotFoundError:
        raise UsageError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise UsageError(f"{path}: is a directory, not a results file") from None
    except OSError as e:
        raise UsageError(f"{path}: {e.strerror}") from None
    except UnicodeDecodeError:
        raise UsageError(f"{path}: not a text file") from None
    except json.JSONDecodeError as e:
        raise UsageError(f"{path}: not valid JSON ({e.msg} at line {e.lineno}; a run cut short?)") from None
    if not isinstance(data, dict) or "schema" not in data:
        raise UsageError(f"{path}: not an fcbench results file (no \"schema\" field)")
    if data["schema"] != SCHEMA:
        hint = " - written by an older fcbench; run it again with this one" if data["schema"] == "fcbench-1" else ""
        raise UsageError(f"{path}: schema {data['schema']!r}, this script reads {SCHEMA!r}{hint}")
    for key in ("machine", "method", "contenders", "results", "grids", "cliffs", "peaks"):
        if key not in data:
            raise UsageError(f"{path}: schema {SCHEMA} file without {key!r}")
    for where, obj, keys in (("machine", data["machine"], MACHINE_KEYS), ("method", data["method"], METHOD_KEYS)):
        missing = [k for k in keys if not isinstance(obj, dict) or k not in obj]
        if missing:
            raise UsageError(f"{path}: {where} lacks {', '.join(missing)}")
    for i, r in enumerate(data["results"]):
        missing = [k for k in RESULT_KEYS if not isinstance(r, dict) or k not in r]
        if missing:
            raise UsageError(f"{path}: results[{i}] lacks {', '.join(missing)}")
        if not r["med_ns"] > 0 or not r["samples_ns"]:
            raise UsageError(f"{path}: results[{i}] has no time (med_ns {r['med_ns']}, {len(r['samples_ns'])} samples)")
    return data


class Run:
    """One results file, indexed for the report."""

    def __init__(self, data, path):
        self.data, self.path = data, path
        self.machine, self.method = data["machine"], data["method"]
        self.contenders = list(data["contenders"])
        self.by_scenario = defaultdict(list)
        self.seen = {c: i for i, c in enumerate(self.contenders)}  # contenders, then others by first appearance
        for r in data["results"]:
            self.by_scenario[r["scenario"]].append(r)
            self.seen.setdefault(r["contender"], len(self.seen))

    def results(self, scenario, **match):
        return [r for r in self.by_scenario.get(scenario, ()) if all(r[k] == v for k, v in match.items())]

    def ordered(self, names):
        """names in the run's contender order; others (kernels, pipe) after, in the order the results name them;
        derived names ('kernel-memfd memfd') after their contender."""
        def key(name):
            base = name.split(" ")[0]
            return self.seen.get(name, self.seen.get(base, len(self.seen))), name
        return sorted(set(names), key=key)

    def cache_levels(self):
        """[(level, bytes)] of the known cache levels, smallest first."""
        m = self.machine
        out = [(lv, m.get(key) or 0) for lv, key in (("L1", "l1d_bytes"), ("L2", "l2_bytes"), ("L3", "l3_bytes"))]
        return [(lv, b) for lv, b in out if b > 0]

    def level_of(self, n):
        """The level a hot copy of n bytes lives in: the smallest cache holding src + dst = 2n, else DRAM."""
        for lv, size in self.cache_levels():
            if size >= 2 * n:
                return lv
        return "DRAM"

    def peaks(self):
        return {p["level"]: p for p in self.data["peaks"]}

    def ceilings(self):
        """{n: the best sizes-ceiling kernel's result} - peak's kernels on a hot aligned copy of n, timed in the same
        rounds as `sizes` (runs since 2026-11-25 afternoon; empty before)."""
        out = {}
        for r in self.results("sizes-ceiling", label="aligned", cache="hot"):
            if r["gbps"] > 0 and (r["n"] not in out or r["gbps"] > out[r["n"]]["gbps"]):
                out[r["n"]] = r
        return out

    def ceiling_at(self, n):
        """The copy ceiling for a hot aligned copy of n bytes: the best kernel on n rounded up to a multiple of 256
        B (as fcbench's sizes does); None if the run has none there."""
        return self.ceilings().get((n + 255) & ~255)


# ---------------------------------------------------------------------------------------------------------------
# Formatting


def fmt_size(n):
    """4096 -> '4 KiB', 8191 -> '8191 B'."""
    n = int(n)
    if n >= 1 << 30 and n % (1 << 30) == 0:
        return f"{n >> 30} GiB"
    if n >= 1 << 20 and n % (1 << 20) == 0:
        return f"{n >> 20} MiB"
    if n >= 1024 and n % 1024 == 0:
        return f"{n >> 10} KiB"
    return f"{n} B"


def fmt_size_short(n):
    """Axis labels: 1, 16, 1K, 64K, 1M."""
    n = int(n)
    for shift, unit in ((30, "G"), (20, "M"), (10, "K")):
        if n >= 1 << shift and n % (1 << shift) == 0:
            return f"{n >> shift}{unit}"
    return str(n)


def fmt_num(x):
    """About three significant digits, never in exponent form."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "-"
    a = abs(x)
    if a >= 1000:
        return f"{x:,.0f}"
    if a >= 100:
        return f"{x:.0f}"
    if a >= 10:
        return f"{x:.1f}"
    if a >= 1:
        return f"{x:.2f}"
    return f"{x:.3f}"


def fmt_ratio(r):
    return "-" if r is None else (f"{r:.2f}x" if r >= 0.1 else f"{r:.3f}x")


def fmt_p(p):
    return "1" if p >= 0.9995 else (f"{p:.3f}" if p >= 0.001 else f"{p:.1e}")


def mibs(r):
    """A result's rate in MiB/s (n bytes per median call)."""
    return r["n"] / MIB / (r["med_ns"] * 1e-9)


def geomean(xs):
    xs = [x for x in xs if x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def size_ranges(chosen, universe):
    """Sizes as runs over the sorted universe: [256, 4096, 16384] of the cliff sizes -> '256 B, 4 KiB-16 KiB'."""
    universe = sorted(set(universe) | set(chosen))
    chosen = set(chosen)
    runs, cur = [], []
    for n in universe:
        if n in chosen:
            cur.append(n)
        elif cur:
            runs.append(cur)
            cur = []
    if cur:
        runs.append(cur)
    return ", ".join(fmt_size(r[0]) if len(r) == 1 else f"{fmt_size(r[0])}-{fmt_size(r[-1])}" for r in runs)


def text_table(headers, rows, right=None):
    """Rows of strings as aligned text; `right` = indices of right-aligned columns (default: all but the first)."""
    right = set(range(1, len(headers))) if right is None else set(right)
    widths = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(headers)]

    def line(cells):
        return "  ".join(c.rjust(w) if i in right else c.ljust(w)
                         for i, (c, w) in enumerate(zip(cells, widths))).rstrip()

    return "\n".join([line(headers)] + [line(r) for r in rows]) + "\n"


# ---------------------------------------------------------------------------------------------------------------
# Statistics: the Mann-Whitney U test, standard library only


def rank_with_ties(values):
    """1-based ranks of values (ties share their average rank) and the sizes of the tie groups."""
    order = sorted(range(len(values)), key=values.__getitem__)
    ranks, ties = [0.0] * len(values), []
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        if j > i:
            ties.append(j - i + 1)
        i = j + 1
    return ranks, ties


@functools.lru_cache(maxsize=None)
def u_null_counts(m, n):
    """counts[u], u = 0..m*n: how many of the C(m+n, m) equally likely orderings of m x's and n y's have U = u.

    These are the coefficients of the Gaussian binomial [m+n choose m]_q = prod_{i=1..m} (1 - q^(n+i)) / (1 - q^i),
    computed as integer power series truncated at degree m*n (exact: coefficient k only depends on those below)."""
    top = m * n
    c = [1] + [0] * top
    for i in range(1, m + 1):
        e = n + i
        for k in range(top, e - 1, -1):   # times (1 - q^e)
            c[k] -= c[k - e]
        for k in range(i, top + 1):        # divided by (1 - q^i)
            c[k] += c[k - i]
    return tuple(c)


def mann_whitney(x, y):
    """Two-sided Mann-Whitney U test of samples x and y.

    Returns (u, p, method): u = the number of pairs with x > y (a tie counts 1/2), p the two-sided p-value, method
    'exact' (no ties, both samples <= EXACT_MAX values) or 'normal' (with tie and continuity corrections)."""
    m, n = len(x), len(y)
    if not m or not n:
        raise ValueError("mann_whitney needs two non-empty samples")
    ranks, ties = rank_with_ties(list(x) + list(y))
    u = sum(ranks[:m]) - m * (m + 1) / 2
    if not ties and m <= EXACT_MAX and n <= EXACT_MAX:
        counts = u_null_counts(m, n)
        tail = sum(counts[: int(round(min(u, m * n - u))) + 1])
        return u, min(1.0, 2.0 * tail / math.comb(m + n, m)), "exact"
    total = m + n
    var = m * n / 12.0 * ((total + 1) - sum(t ** 3 - t for t in ties) / (total * (total - 1)))
    if var <= 0:  # every value equal
        return u, 1.0, "normal"
    z = max(0.0, abs(u - m * n / 2.0) - 0.5) / math.sqrt(var)
    return u, min(1.0, math.erfc(z / math.sqrt(2.0))), "normal"


def min_exact_p(m, n):
    """The smallest two-sided p the exact test can give (completely separated samples)."""
    return min(1.0, 2.0 / math.comb(m + n, m))


# ---------------------------------------------------------------------------------------------------------------
# compare


class Case:
    """A matched pair of results: `a` the reference (file A, or the base contender), `b` the one compared."""

    __slots__ = ("a", "b", "ratio", "p", "method", "marker")

    def __init__(self, a, b, alpha):
        self.a, self.b = a, b
        self.ratio = b["med_ns"] / a["med_ns"]
        u, self.p, self.method = mann_whitney(b["samples_ns"], a["samples_ns"])
        self.marker = "~"
        if self.p < alpha:
            b_lower = self.ratio < 1 if self.ratio != 1 else u < len(a["samples_ns"]) * len(b["samples_ns"]) / 2
            self.marker = "faster" if b_lower else "slower"

    def cells(self):
        b = self.b
        return [b["scenario"], b["contender"], b["label"] or "-", b["cache"], str(b["n"]), str(b["src_off"]),
                str(b["dst_off"]), str(b["dist"]), fmt_ns(self.a["med_ns"]), fmt_ns(b["med_ns"]),
                f"{self.ratio:.3f}", fmt_p(self.p), self.marker]


def scenario_filter(spec, available):
    """--scenario sizes,offsets: exact names, or a family before '-' (offsets = offsets-read + offsets-write)."""
    if not spec:
        return None
    wanted = set()
    for s in (x.strip() for x in spec.split(",")):
        if not s:
            continue
        hit = {a for a in available if a == s or a.split("-")[0] == s}
        if not hit:
            raise UsageError(f"--scenario {s}: not in the input (it has {', '.join(sorted(available)) or 'none'})")
        wanted |= hit
    return wanted


def keyed(results, fields):
    """{key + (occurrence,): result}: a key repeated in one run (--sizes 64,64) pairs by occurrence."""
    seen, out = defaultdict(int), {}
    for r in results:
        k = tuple(r[f] for f in fields)
        out[k + (seen[k],)] = r
        seen[k] += 1
    return out


def resolve_contender(run, name):
    names = run.ordered({r["contender"] for r in run.data["results"]})
    if name in names:
        return name
    fuzzy = [c for c in names if c.startswith(name + "[")]  # --base fc -> fc[avx2]
    if len(fuzzy) == 1:
        return fuzzy[0]
    raise UsageError(f"--base {name}: no such contender in {run.path} (it has {', '.join(names)})")


def machine_brief(data):
    m = data["machine"]
    return f"{m['cpu']}, {m['machine']}, Linux {m['kernel']}, libc {m['libc']}, fc_active {m['fc_active']}"


def fmt_ns(x):
    return f"{x:,.0f}" if x >= 1000 else f"{x:.4g}"


def match_runs(a_run, b_run, keep, alpha, w):
    """Cases of two runs with the same CASE_KEY; notes what differs between the runs."""
    ka = keyed([r for r in a_run.data["results"] if keep(r)], CASE_KEY)
    kb = keyed([r for r in b_run.data["results"] if keep(r)], CASE_KEY)
    cases = [Case(ra, kb[k], alpha) for k, ra in ka.items() if k in kb]
    for tag, run in (("A", a_run), ("B", b_run)):
        w(f"{tag} = {run.path} ({run.data['scenario']}, {run.data['date']})\n")
    if machine_brief(a_run.data) != machine_brief(b_run.data):
        w(f"note: the runs differ:\n  A: {machine_brief(a_run.data)}\n  B: {machine_brief(b_run.data)}\n")
    for tag, run in (("A", a_run), ("B", b_run)):
        load = load_sentence(run.data)
        if load and "noisy" in load:
            w(f"note: {tag}: {load[0].lower()}{load[1:]}\n")
    ca, cb = {k[1] for k in ka}, {k[1] for k in kb}
    if ca != cb:
        w(f"note: contenders only in A: {', '.join(sorted(ca - cb)) or '-'}; "
          f"only in B: {', '.join(sorted(cb - ca)) or '-'} (not compared)\n")
    if not cases:
        raise UsageError(f"no case of {a_run.path} matches one of {b_run.path}: scenarios "
                         f"{sorted({k[0] for k in ka})} vs {sorted({k[0] for k in kb})}, contenders "
                         f"{sorted(ca)} vs {sorted(cb)}")
    w(f"ratio = B / A median time per call (< 1: B faster); {len(cases)} matched cases "
      f"(only in A: {len(ka) - len(cases)}, only in B: {len(kb) - len(cases)})\n")
    return cases


def match_base(run, base, keep, alpha, w):
    """Cases pairing every other contender with `base` on the same (scenario, label, cache, n, offsets, dist)."""
    fields = tuple(f for f in CASE_KEY if f != "contender")
    rs = [r for r in run.data["results"] if keep(r)]
    kbase = keyed([r for r in rs if r["contender"] == base], fields)
    cases = []
    for c in run.ordered({r["contender"] for r in rs} - {base}):
        for k, r in keyed([r for r in rs if r["contender"] == c], fields).items():
            if k in kbase:
                cases.append(Case(kbase[k], r, alpha))
    w(f"{run.path} ({run.data['scenario']}, {run.data['date']}): every contender against {base}\n")
    if not cases:
        raise UsageError(f"no case of {run.path} has {base} and another contender; {base} was measured in "
                         f"{', '.join(sorted({k[0] for k in kbase})) or 'no scenario'}")
    w(f"ratio = contender / {base} median time per call (< 1: faster than {base}); {len(cases)} cases\n")
    return cases


def summary_rows(cases):
    """Per (scenario, contender), then all together: cases, geomean, min, max, faster, slower."""
    groups = defaultdict(list)
    for c in cases:
        groups[(c.b["scenario"], c.b["contender"])].append(c)
    items = list(groups.items()) + ([(("all", ""), cases)] if len(groups) > 1 else [])
    rows = []
    for (s, c), cs in items:
        rs = [x.ratio for x in cs]
        rows.append([s, c, str(len(cs)), f"{geomean(rs):.3f}", f"{min(rs):.3f}", f"{max(rs):.3f}",
                     str(sum(x.marker == "faster" for x in cs)), str(sum(x.marker == "slower" for x in cs))])
    return rows


def cmd_compare(args, out=None):
    out = out or sys.stdout
    w = out.write
    if not 0 < args.alpha < 1:
        raise UsageError("--alpha must be between 0 and 1")
    if args.max_diff is not None and not args.max_diff >= 0:
        raise UsageError("--max-diff must be >= 0 (e.g. 0.05 for 5%)")
    runs = [Run(load_run(p), p) for p in (args.a, args.b) if p]
    scen = scenario_filter(args.scenario, {r["scenario"] for run in runs for r in run.data["results"]})

    def keep(r):
        return (scen is None or r["scenario"] in scen) and r["n"] >= args.min_n

    if len(runs) == 2:
        if args.base:
            raise UsageError("--base compares contenders within one run: give one results file")
        cases = match_runs(runs[0], runs[1], keep, args.alpha, w)
        heads = ["A ns", "B ns"]
    else:
        if not args.base:
            raise UsageError("one results file needs --base NAME (the contender the others are compared with)")
        base = resolve_contender(runs[0], args.base)
        cases = match_base(runs[0], base, keep, args.alpha, w)
        heads = [f"{base} ns", "ns"]
    scope = ", ".join(x for x in (f"scenarios {args.scenario}" if args.scenario else "",
                                  f"n >= {args.min_n}" if args.min_n else "") if x)
    if scope:
        w(f"only {scope}\n")
    w(f"p: Mann-Whitney U, two-sided, on the samples (exact when no ties and both have <= {EXACT_MAX}, "
      f"else normal approximation); faster/slower: p < {args.alpha:g}\n")
    blind = [c for c in cases if min_exact_p(len(c.a["samples_ns"]), len(c.b["samples_ns"])) >= args.alpha]
    if blind:
        fewest = min(min(len(c.a["samples_ns"]), len(c.b["samples_ns"])) for c in blind)
        which = ("no case can" if len(blind) == len(cases) else
                 f"{len(blind)} cases ({', '.join(sorted({c.b['scenario'] for c in blind}))}) cannot")
        w(f"note: {which} reach p < {args.alpha:g} with so few samples (fewest: {fewest})\n")

    heads = ["scenario", "contender", "label", "cache", "n", "src", "dst", "dist"] + heads + ["ratio", "p", ""]
    right = range(4, 12)
    shown = cases if args.all else [c for c in cases if c.marker != "~"]
    w(f"\n{'every case' if args.all else 'significant cases'}: {len(shown)} of {len(cases)}"
      f"{'' if args.all or not shown else ' (--all: every case)'}\n")
    if shown:
        w(text_table(heads, [c.cells() for c in shown], right))
    w("\nsummary per scenario and contender (geomean = geometric mean of the ratios):\n")
    w(text_table(["scenario", "contender", "cases", "geomean", "min", "max", "faster", "slower"], summary_rows(cases),
                 range(2, 8)))

    if args.max_diff is None:
        return 0
    lo, hi = 1 - args.max_diff, 1 + args.max_diff
    bad = [c for c in cases if not lo <= c.ratio <= hi]
    if not bad:
        rs = [c.ratio for c in cases]
        w(f"\nmax-diff {args.max_diff:g}: all {len(cases)} cases within [{lo:.3f}, {hi:.3f}] "
          f"(ratios {min(rs):.3f}..{max(rs):.3f})\n")
        return 0
    w(f"\nmax-diff {args.max_diff:g}: {len(bad)} of {len(cases)} cases outside [{lo:.3f}, {hi:.3f}]:\n")
    w(text_table(heads, [c.cells() for c in bad], right))
    return 1


# ---------------------------------------------------------------------------------------------------------------
# Analysis shared by the report's summary and its sections (standard library only)


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


def label_n_rows(rs, names, cell):
    """One row per (label, n) of results rs, labels in first-seen order, n ascending: [label, size, one
    cell per contender in names ("-" where it has no result; else cell(contender, result, case), case being
    that row's results by contender)].  Returns the rows and their (label, n, case)."""
    by = defaultdict(dict)
    for r in rs:
        by[(r["label"], r["n"])][r["contender"]] = r
    rows, cases = [], []
    for lbl in dict.fromkeys(r["label"] for r in rs):
        for n in sorted({r["n"] for r in rs if r["label"] == lbl}):
            case = by[(lbl, n)]
            rows.append([lbl, fmt_size(n)] + [cell(c, case[c], case) if c in case else "-" for c in names])
            cases.append((lbl, n, case))
    return rows, cases


def int_ranges(values):
    """Sorted integers as "1..31, 40, 42..44"."""
    v = sorted(values)
    parts, start = [], None
    for i, x in enumerate(v):
        if start is None:
            start = x
        if i + 1 == len(v) or v[i + 1] != x + 1:
            parts.append(f"{start}..{x}" if x > start else f"{x}")
            start = None
    return ", ".join(parts)


def versus_libc_sentence(run):
    """fastcopy's dispatcher against libc in the same run: throughput by size band, time on real distributions."""
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
    if not parts and not dr:
        return None
    text = f"{fc} vs libc in this run:"
    if parts:
        text += " throughput (aligned, hot; geometric mean) " + ", ".join(parts)
    if dr:
        text += ("; " if parts else " ") + (f"{fmt_ratio(geomean(dr))} libc's time per call on the real size "
                                            f"distributions (dist)")
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
    # per-case counts, when a scenario took more (sizes from 4 MiB: 3x since 2026-11-25)
    more = sorted({r["samples"] for r in run.results("sizes") if r.get("samples", 0) > m["samples"]})
    extra = f" (sizes from 4 MiB: {', '.join(map(str, more))})" if more else ""
    return (f"Method: {m['samples']} samples per case{extra}, each >= {m['min_sample_ns'] / 1e3:g} us of calls "
            f"(timer resolution {run.machine['timer_resolution_ns']:g} ns), contenders interleaved within each "
            f"sample round; the median is reported with the IQR, every sample is kept. Hot: the same buffers every "
            f"call; cold: every call moves to another slot of a {fmt_size(m['cold_region_bytes'])} region "
            f"(default mode of this run: {m['cache']}). Bytes copied are counted once: GB/s = n / ns per call. "
            f"{m['pinned'].capitalize()}.")


def summary_items(run):
    """The plain sentences that top the report (and that `report` prints)."""
    items = []
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


# ---------------------------------------------------------------------------------------------------------------
# Plots (matplotlib, imported lazily)


class Plots:
    """Writes the report's PNGs; one colour per contender across every plot."""

    def __init__(self, outdir, run):
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.colors as mcolors
        import matplotlib.pyplot as plt
        import numpy as np
        self.plt, self.np, self.mcolors, self.outdir, self.run = plt, np, mcolors, outdir, run
        self.palette = list(plt.get_cmap("tab10").colors) + list(plt.get_cmap("Dark2").colors)
        self.colors = {}
        for c in run.contenders:
            self.color(c)

    def color(self, name):
        if name not in self.colors:
            self.colors[name] = self.palette[len(self.colors) % len(self.palette)]
        return self.colors[name]

    def figure(self, w=9.0, h=4.8, **kw):
        return self.plt.subplots(figsize=(w, h), layout="constrained", **kw)

    def save(self, fig, name):
        fig.savefig(os.path.join(self.outdir, name), dpi=DPI)
        self.plt.close(fig)
        return name

    @staticmethod
    def size_axis(ax, lo, hi, step=4):
        ax.set_xscale("log", base=2)
        ticks, t = [], 1
        while t <= hi * 1.01:
            if t >= lo / 1.01:
                ticks.append(t)
            t *= step
        ax.set_xticks(ticks)
        ax.set_xticklabels([fmt_size_short(t) for t in ticks])
        ax.set_xlim(lo / 1.2, hi * 1.2)
        ax.grid(True, which="major", alpha=0.3)

    def cache_marks(self, ax, lo, hi, peaks=True):
        """Vertical lines where src + dst = 2n outgrow a cache level; the level's peak as a dashed step."""
        edges = [lo / 1.2]
        for lv, size in self.run.cache_levels():
            x = size / 2
            if lo < x < hi:
                ax.axvline(x, color="0.5", lw=0.8, ls=":")
                ax.text(x, 1.0, f" 2n = {lv}", transform=ax.get_xaxis_transform(), va="top", fontsize=7, color="0.35")
            edges.append(x)
        edges.append(hi * 1.2)
        if not peaks:
            return
        pk = self.run.peaks()
        names = [lv for lv, _ in self.run.cache_levels()] + ["DRAM"]
        for i, lv in enumerate(names):
            if lv in pk and i + 1 < len(edges):
                a, b = max(edges[i], lo / 1.2), min(edges[i + 1], hi * 1.2)
                if a < b:
                    ax.hlines(pk[lv]["gbps"], a, b, colors="0.3", linestyles="--", lw=1)
                    ax.text(math.sqrt(a * b), pk[lv]["gbps"], f"{lv} peak {fmt_num(pk[lv]['gbps'])}",
                            ha="center", va="bottom", fontsize=7, color="0.3")

    def sizes(self, label, cache, rows):
        fig, ax = self.figure()
        ns = [r["n"] for r in rows]
        for c in self.run.ordered({r["contender"] for r in rows}):
            pts = sorted((r["n"], r["gbps"]) for r in rows if r["contender"] == c)
            ax.plot([p[0] for p in pts], [p[1] for p in pts], lw=1.2, marker="." if len(pts) <= 40 else None,
                    color=self.color(c), label=c)
        self.size_axis(ax, min(ns), max(ns))
        self.cache_marks(ax, min(ns), max(ns))
        ax.set_xlabel("n (bytes per call)")
        ax.set_ylabel("GB/s")
        ax.set_ylim(bottom=0)
        ax.set_title(f"sizes: {label}, {cache}")
        ax.legend(fontsize=8)
        return self.save(fig, f"fcbench-sizes-{safe(label)}-{cache}.png")

    def small_ns(self, label, cache, rows):
        rows = [r for r in rows if r["n"] <= 512]
        if not rows:
            return None
        fig, ax = self.figure(h=4.2)
        for c in self.run.ordered({r["contender"] for r in rows}):
            pts = sorted((r["n"], r["med_ns"]) for r in rows if r["contender"] == c)
            ax.plot([p[0] for p in pts], [p[1] for p in pts], lw=1.2, marker=".", ms=3, color=self.color(c), label=c)
        ax.set_xlabel("n (bytes per call)")
        ax.set_ylabel("ns per call (median, log)")
        self.log_y(ax)
        ax.grid(True, which="both", alpha=0.25)
        ax.set_title(f"small copies: time per call, {label}, {cache}")
        ax.legend(fontsize=8)
        return self.save(fig, f"fcbench-small-{safe(label)}-{cache}.png")

    def pct_peak(self, panels):
        """panels: [(label, [(contender, n, pct)])]."""
        fig, axes = self.figure(w=4.0 * len(panels) + 1, h=4.2, ncols=len(panels), sharey=True, squeeze=False)
        for ax, (label, pts) in zip(axes[0], panels):
            ns = [p[1] for p in pts]
            for c in self.run.ordered({p[0] for p in pts}):
                xs = sorted((n, v) for cc, n, v in pts if cc == c)
                ax.plot([x[0] for x in xs], [x[1] for x in xs], lw=1.1, color=self.color(c), label=c)
            self.size_axis(ax, min(ns), max(ns), step=16)
            self.cache_marks(ax, min(ns), max(ns), peaks=False)
            ax.axhline(100, color="0.3", ls="--", lw=1)
            ax.set_title(f"{label}, hot")
            ax.set_xlabel("n")
        axes[0][0].set_ylabel("% of the level's peak")
        axes[0][0].set_ylim(bottom=0)
        axes[0][-1].legend(fontsize=7)
        return self.save(fig, "fcbench-pct-peak.png")

    # ratio to aligned in bins: the cliff threshold is a colour edge (reds below it), like fcbench grid's map
    RATIO_BINS = (0, 0.1, 0.25, 0.5, CLIFF_RATIO, 0.95, 1.05, 1e9)
    RATIO_COLORS = ("#67000d", "#a50f15", "#ef3b2c", "#fc9272", "#fee391", "#c7e9c0", "#6baed6")

    def heatmaps(self, source, n, cache, grids):
        """One panel per contender: src_off rows x dst_off columns, coloured by the ratio to its aligned speed."""
        np = self.np
        cmap = self.mcolors.ListedColormap(self.RATIO_COLORS)
        cmap.set_bad("#bbbbbb")
        norm = self.mcolors.BoundaryNorm(self.RATIO_BINS, cmap.N)
        ncol = min(3, len(grids))
        nrow = -(-len(grids) // ncol)
        fig, axes = self.figure(w=3.3 * ncol + 1.2, h=3.2 * nrow + 0.4, nrows=nrow, ncols=ncol, squeeze=False)
        im = None
        for k, ax in enumerate(axes.flat):
            if k >= len(grids):
                ax.axis("off")
                continue
            g = grids[k]
            a = np.array(g["gbps"], dtype=float)
            ref = g["aligned_gbps"] or (a[0][0] if a.size else 0)
            ratio = np.ma.masked_where(a <= 0, a / ref if ref > 0 else a * 0)
            im = ax.imshow(ratio, cmap=cmap, norm=norm, aspect="auto", interpolation="nearest")
            worst = ratio.min() if ratio.count() and ref > 0 else None
            low = int(((a > 0) & (a < CLIFF_RATIO * ref)).sum()) if ref > 0 else 0
            ax.set_title(f"{g['contender']}: aligned {fmt_num(g['aligned_gbps'])} GB/s\n"
                         f"worst {fmt_ratio(worst)}, {low} of {ratio.count()} cells < {CLIFF_RATIO}x", fontsize=8)
            so, do = g["src_offs"], g["dst_offs"]
            step_r = max(1, len(so) // 8)
            step_c = max(1, len(do) // 8)
            ax.set_yticks(range(0, len(so), step_r))
            ax.set_yticklabels([so[i] for i in range(0, len(so), step_r)], fontsize=7)
            ax.set_xticks(range(0, len(do), step_c))
            ax.set_xticklabels([do[i] for i in range(0, len(do), step_c)], fontsize=7)
            ax.set_xlabel("dst_off", fontsize=8)
            ax.set_ylabel("src_off", fontsize=8)
        if im is not None:
            cb = fig.colorbar(im, ax=axes, shrink=0.8, label="GB/s / aligned GB/s", ticks=self.RATIO_BINS[1:-1])
            cb.ax.tick_params(labelsize=7)
        fig.suptitle(f"{source}: n = {fmt_size(n)}, {cache}; reds: below {CLIFF_RATIO}x of the contender's aligned "
                     f"speed; grey: not measured", fontsize=10)
        return self.save(fig, f"fcbench-grid-{source}-{n}-{cache}.png")

    def distance(self, contender, cache, sweeps):
        """sweeps: [(n, {dist: gbps})]; three panels: dist just above 0, the middle, just below 4096."""
        segs = [(lambda d: d <= 160, "0 .. 160"), (lambda d: 160 < d < 3936, "160 .. 3936"),
                (lambda d: d >= 3936, "3936 .. 4095 (= -160 .. -1)")]
        used = [(f, t) for f, t in segs if any(f(d) for _, s in sweeps for d in s)]
        fig, axes = self.figure(w=10, h=4.4, ncols=len(used), sharey=True, squeeze=False,
                                gridspec_kw={"width_ratios": [2 if "(" in t or t.startswith("0") else 1
                                                              for _, t in used]})
        cmap = self.plt.get_cmap("viridis")
        for ax, (f, t) in zip(axes[0], used):
            for i, (n, s) in enumerate(sweeps):
                pts = sorted((d, g) for d, g in s.items() if f(d) and g > 0)
                ax.plot([p[0] for p in pts], [p[1] for p in pts], lw=1, marker="." if len(pts) < 40 else None,
                        ms=3, color=cmap(i / max(1, len(sweeps) - 1) * 0.9), label=fmt_size(n))
            self.log_y(ax)
            ax.set_xlabel(f"(dst - src) mod 4096: {t}", fontsize=8)
            ax.grid(True, which="both", alpha=0.25)
        axes[0][0].set_ylabel("GB/s (log)")
        axes[0][-1].legend(fontsize=7, title="n", title_fontsize=7)
        fig.suptitle(f"distance: {contender}, {cache} (src page-aligned)", fontsize=10)
        return self.save(fig, f"fcbench-distance-{safe(contender)}-{cache}.png")

    def dist_bars(self, labels, contenders, ns):
        """ns[(contender, label)] = median ns per call."""
        fig, ax = self.figure(w=9, h=4.4)
        width = 0.8 / max(1, len(contenders))
        for j, c in enumerate(contenders):
            xs = [i + (j - (len(contenders) - 1) / 2) * width for i in range(len(labels))]
            ax.bar(xs, [ns.get((c, lbl), 0) for lbl in labels], width, color=self.color(c), label=c)
        vals = [v for v in ns.values() if v > 0]
        if vals and max(vals) / min(vals) > 20:
            self.log_y(ax)
        ax.set_xticks(range(len(labels)))
        ax.set_xticklabels(labels, fontsize=8)
        ax.set_ylabel("ns per call (median)")
        ax.grid(True, axis="y", alpha=0.3)
        ax.legend(fontsize=8)
        ax.set_title("dist: real memcpy size distributions (lower is better)")
        return self.save(fig, "fcbench-dist.png")

    def per_offset(self, name, tests, log):
        """tests: [(title, [(contender, base, {off: result})])]: one row per test, one column per size."""
        bases = sorted({b for _, groups in tests for _, b, _ in groups})
        fig, axes = self.figure(w=3.4 * len(bases) + 0.8, h=3.0 * len(tests) + 0.3, nrows=len(tests),
                                ncols=len(bases), squeeze=False, sharex=True)
        for row, (title, groups) in zip(axes, tests):
            for ax, b in zip(row, bases):
                for c, bb, by in groups:
                    if bb != b:
                        continue
                    offs = sorted(by)
                    ax.plot(offs, [mibs(by[o]) for o in offs], lw=1, marker="." if len(offs) <= 16 else None,
                            ms=4, color=self.color(c), label=c)
                ax.set_title(f"{title.split(' (')[0]}, {fmt_size(b)} - offset", fontsize=9)
                if log:
                    self.log_y(ax)
                ax.grid(True, which="both", alpha=0.25)
            row[0].set_ylabel("MiB/s")
        for ax in axes[-1]:
            ax.set_xlabel("offset")
        axes[0][-1].legend(fontsize=7)
        return self.save(fig, f"fcbench-{name}.png")

    @staticmethod
    def log_y(ax):
        """A log y axis labelled in plain numbers (1,000 not 10^3): powers of ten, and 2x and 5x them."""
        import matplotlib.ticker as ticker

        def label(v, _pos, minor=False):
            if v <= 0 or (minor and round(v / 10 ** math.floor(math.log10(v) + 1e-9)) not in (2, 5)):
                return ""
            return f"{v:,.0f}" if v >= 1 else f"{v:g}"

        ax.set_yscale("log")
        ax.yaxis.set_major_formatter(ticker.FuncFormatter(label))
        ax.yaxis.set_minor_formatter(ticker.FuncFormatter(lambda v, p: label(v, p, True)))

    def pipe(self, rows):
        fig, ax = self.figure(w=8, h=4.2)
        rows = sorted(rows, key=lambda r: r["n"])
        x = [r["n"] for r in rows]
        y = [mibs(r) for r in rows]
        lo = [mibs(r) * r["med_ns"] / r["q3_ns"] for r in rows]   # slower quartile -> lower rate
        hi = [mibs(r) * r["med_ns"] / r["q1_ns"] for r in rows]
        ax.errorbar(x, y, yerr=[[a - b for a, b in zip(y, lo)], [b - a for a, b in zip(y, hi)]], marker="o",
                    ms=4, capsize=3, color=self.color("pipe"))
        self.size_axis(ax, min(x), max(x))
        ax.set_ylim(bottom=0)
        ax.set_xlabel("message size (bytes)")
        ax.set_ylabel("MiB/s (median, IQR bars)")
        ax.set_title("pipe bandwidth (writer process -> pipe -> reader)")
        return self.save(fig, "fcbench-pipe.png")

    def field(self, rs):
        """Mpps by frame size per contender, one panel per thread count (fcbench field)."""
        labels = list(dict.fromkeys(r["label"] for r in rs))
        fig, axes = self.figure(w=5.0 * len(labels), h=4.2, ncols=len(labels), squeeze=False)
        for ax, lbl in zip(axes[0], labels):
            for c in self.run.ordered({r["contender"] for r in rs if r["label"] == lbl}):
                pts = sorted((r["n"], 1e3 / r["med_ns"]) for r in rs if r["label"] == lbl and r["contender"] == c
                             and r["med_ns"] > 0)
                if pts:
                    ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", ms=4, label=c, color=self.color(c))
            self.size_axis(ax, 64, 9000, step=2)
            ax.set_ylim(bottom=0)
            ax.set_xlabel("frame size (bytes)")
            ax.set_ylabel("Mpps (median)")
            ax.set_title(f"packets, {lbl}")
            ax.legend(fontsize=8)
        return self.save(fig, "fcbench-field.png")

    def size_hist(self, name, probs):
        """A recorded distribution's sizes: probability per size, 0..4096 (log x from 1)."""
        fig, ax = self.figure(w=8, h=3.2)
        xs = [i for i, p in enumerate(probs) if p > 0]
        ax.bar([max(x, 0.8) for x in xs], [probs[x] for x in xs], width=[max(x, 1) * 0.08 for x in xs],
               color=self.color(name))
        ax.set_xscale("log", base=2)
        ax.set_xlim(0.7, 4096 * 1.2)
        ax.set_xlabel("copy size (bytes; 0 drawn at 0.8)")
        ax.set_ylabel("share of calls <= 4 KiB")
        ax.set_title(f"recorded: {name}")
        return self.save(fig, f"fcbench-recorded-{safe(name)}.png")


def recorded_distributions():
    """The recordings shipped beside this script (bench/distributions/recorded, or its installed copy):
    [(name, probabilities of sizes 0..4096)]."""
    d = os.path.join(os.path.dirname(os.path.abspath(__file__)), "distributions", "recorded")
    out = []
    for f in sorted(os.listdir(d)) if os.path.isdir(d) else []:
        if f.endswith(".csv") and not f.endswith(".align.csv"):
            try:
                with open(os.path.join(d, f)) as fh:
                    probs = [float(v) for v in fh.read().strip().split(",")]
            except (OSError, ValueError):
                continue
            out.append((f[:-4], probs))
    return out


def safe(name):
    """A contender or label as part of a file name."""
    return "".join(ch if ch.isalnum() or ch in "-_" else ("p" if ch == "+" else "_") for ch in name)


# ---------------------------------------------------------------------------------------------------------------
# The HTML page


CSS = """
body { font-family: system-ui, -apple-system, Segoe UI, sans-serif; max-width: 1250px; margin: 1em auto;
       padding: 0 1em; color: #222; line-height: 1.45; }
h1 { font-size: 1.5em; } h2 { border-bottom: 1px solid #ccc; margin-top: 1.8em; } h3 { margin-bottom: .3em; }
table { border-collapse: collapse; margin: .4em 0 1.2em; font-size: .9em; }
th, td { border: 1px solid #ccc; padding: 2px 7px; }
th { background: #f2f2f2; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tr.flag td { background: #fde2e2; }
td.bad { background: #fde2e2; }
figure { margin: .6em 0 1.4em; } figcaption { font-size: .85em; color: #555; }
img { max-width: 100%; border: 1px solid #eee; }
.summary li { margin: .35em 0; } .note { color: #555; font-size: .9em; }
pre { background: #f6f6f6; padding: .5em; overflow-x: auto; font-size: .85em; }
code { background: #f3f3f3; padding: 0 .2em; }
"""


class Page:
    """A minimal HTML builder: every piece of data goes through esc()."""

    def __init__(self):
        self.parts, self.toc = [], []

    @staticmethod
    def esc(x):
        return html.escape(str(x), quote=True)

    def section(self, title, anchor):
        self.toc.append((anchor, title))
        self.parts.append(f'<h2 id="{anchor}">{self.esc(title)}</h2>')

    def h3(self, title):
        self.parts.append(f"<h3>{self.esc(title)}</h3>")

    def p(self, text, cls=None):
        self.parts.append(f'<p{f" class={cls!r}" if cls else ""}>{self.esc(text)}</p>')

    def raw(self, s):
        self.parts.append(s)

    def table(self, headers, rows, num=None, flags=None, bad_cells=None):
        """rows of values (str or number); `num`: column indices right-aligned (default: every column but the
        first whose cells are all numeric-looking); `flags`: row indices to highlight; `bad_cells`: (row, col)."""
        flags, bad_cells = set(flags or ()), set(bad_cells or ())
        if num is None:
            num = {j for j in range(1, len(headers))}
        out = ["<table><tr>" + "".join(f"<th>{self.esc(h)}</th>" for h in headers) + "</tr>"]
        for i, r in enumerate(rows):
            cells = []
            for j, v in enumerate(r):
                cls = [x for x in ("num" if j in num else "", "bad" if (i, j) in bad_cells else "") if x]
                cells.append(f"<td{' class=' + repr(' '.join(cls)) if cls else ''}>{self.esc(v)}</td>")
            out.append(f"<tr{' class=flag' if i in flags else ''}>" + "".join(cells) + "</tr>")
        self.parts.append("".join(out) + "</table>")

    def img(self, name, caption):
        if name:
            self.parts.append(f'<figure><img src="{self.esc(name)}" alt="{self.esc(caption)}">'
                              f"<figcaption>{self.esc(caption)}</figcaption></figure>")

    def details(self, summary, build):
        self.parts.append(f"<details><summary>{self.esc(summary)}</summary>")
        build()
        self.parts.append("</details>")

    def render(self, title, head_parts):
        toc = "".join(f'<li><a href="#{a}">{self.esc(t)}</a></li>' for a, t in self.toc)
        return ("<!doctype html>\n<html lang=en><head><meta charset=utf-8>"
                f"<title>{self.esc(title)}</title><style>{CSS}</style></head><body>\n"
                f"<h1>{self.esc(title)}</h1>\n" + "\n".join(head_parts)
                + f"\n<nav><b>Sections</b><ul>{toc}</ul></nav>\n" + "\n".join(self.parts) + "\n</body></html>\n")


class Report:
    """Builds report.html for one run: each section renders only what the run contains."""

    def __init__(self, run, plots):
        self.run, self.plots, self.page = run, plots, Page()

    def plot(self, method, *args):
        return getattr(self.plots, method)(*args) if self.plots else None

    def build(self, summary):
        """The page; summary: summary_items(run)."""
        run, page = self.run, self.page
        head = []
        head.append('<h2 id="summary">Summary</h2><div class="summary">')
        for title, sentences in summary:
            head.append(f"<h3>{Page.esc(title)}</h3><ul>" + "".join(f"<li>{Page.esc(s)}</li>" for s in sentences)
                        + "</ul>")
        head.append(f"<p class=note>{Page.esc(method_sentence(run))}</p>")
        head.append(f"<p class=note>Command: <code>{Page.esc(run.data['argv'])}</code>; contenders: "
                    f"{Page.esc(', '.join(run.contenders))}.</p>")
        if not self.plots:
            head.append("<p class=note><b>Plots omitted: matplotlib (and numpy) are not installed.</b></p>")
        head.append("</div>")
        for section in (self.cliffs, self.sizes, self.pct_peak, self.grids, self.distance, self.dist, self.memmove, self.checked,
                        self.field, self.large, self.offsets, self.uaccess, self.pipe, self.peaks):
            section()
        if not run.data["results"] and not run.data["grids"]:
            page.p("This run holds no results.")
        m = run.machine
        title = f"fcbench report: {run.data['scenario']} on {m['cpu']} ({run.data['date']})"
        return page.render(title, head)

    # -- sections ------------------------------------------------------------------------------------------------

    def cliffs(self):
        cl = self.run.data["cliffs"]
        if not cl:
            return
        page = self.page
        page.section("Cliffs", "cliffs")
        page.p(f"Each contender's worst placement per size (screened over the distance sweep and the src_off x "
               f"dst_off grid, then re-measured), as a fraction of its own aligned speed; flagged below "
               f"{CLIFF_RATIO}x.")
        order = {c: i for i, c in enumerate(self.run.contenders)}
        rows = sorted(cl, key=lambda c: (c["n"], order.get(c["contender"], 99)))
        page.table(["n", "contender", "aligned GB/s", "worst GB/s", "ratio", "src_off", "dst_off", "dist",
                    "flagged"],
                   [[fmt_size(c["n"]), c["contender"], fmt_num(c["aligned_gbps"]), fmt_num(c["worst_gbps"]),
                     fmt_ratio(c["ratio"]), c["src_off"], c["dst_off"], c["dist"], "CLIFF" if c["flagged"] else ""]
                    for c in rows], num={0, 2, 3, 4, 5, 6, 7}, flags=[i for i, c in enumerate(rows) if c["flagged"]])

    def sizes(self):
        run, page = self.run, self.page
        rs = run.by_scenario.get("sizes")
        if not rs:
            return
        page.section("Throughput vs size", "sizes")
        page.p("GB/s (median) per contender; dotted lines: where src + dst = 2n reaches the size of a cache level "
               "(2n = L1 ...); dashed: the machine's peak for the level (fcbench peak).")
        combos = list(dict.fromkeys((r["label"], r["cache"]) for r in rs))
        for label, cache in combos:
            rows = [r for r in rs if r["label"] == label and r["cache"] == cache]
            page.img(self.plot("sizes", label, cache, rows), f"sizes, {label}, {cache}: GB/s vs n")
        label, cache = combos[0]
        page.img(self.plot("small_ns", label, cache, [r for r in rs if r["label"] == label and r["cache"] == cache]),
                 f"ns per call for n <= 512 B ({label}, {cache})")
        for label, cache in combos:
            rows = [r for r in rs if r["label"] == label and r["cache"] == cache]
            table = self.power_table(rows)
            if table:
                page.details(f"GB/s at powers of two: {label}, {cache}", lambda t=table: page.table(*t))

    def power_table(self, rows):
        names = self.run.ordered({r["contender"] for r in rows})
        at = {(r["contender"], r["n"]): r for r in rows}
        ns = sorted({n for _, n in at if n >= 8 and n & (n - 1) == 0})
        if not ns:
            return None
        body = [[fmt_size(n)] + [fmt_num(at[(c, n)]["gbps"]) if (c, n) in at else "-" for c in names] for n in ns]
        return ["n"] + [f"{c} GB/s" for c in names], body

    def pct_peak(self):
        run, page = self.run, self.page
        peaks = run.peaks()
        rs = [r for r in run.by_scenario.get("sizes", ()) if r["cache"] == "hot"]
        if not rs or not peaks:
            return
        panels = []
        for label in dict.fromkeys(r["label"] for r in rs):
            pts = [(r["contender"], r["n"], 100 * r["gbps"] / peaks[lv]["gbps"]) for r in rs
                   if r["label"] == label and (lv := run.level_of(r["n"])) in peaks and peaks[lv]["gbps"] > 0]
            if pts:
                panels.append((label, pts))
        if not panels:
            return
        page.section("Percent of peak", "peak-pct")
        page.p("Hot copies: each contender's GB/s as a percentage of the peak of the level the copy lives in "
               "(the smallest cache holding src + dst = 2n, else DRAM; cache sizes from the machine record). "
               "The peak is the best fcbench peak kernel at one size per level, so a contender can exceed 100% "
               "(at another size, or by being faster than every peak kernel).")
        page.img(self.plot("pct_peak", panels), "% of the level's peak vs n, per placement (hot)")
        label = panels[0][0]
        at = {(r["contender"], r["n"]): r for r in rs if r["label"] == label}
        names = run.ordered({c for c, _ in at})
        ns = sorted({n for _, n in at if n >= 8 and n & (n - 1) == 0})
        rows = []
        for n in ns:
            lv = run.level_of(n)
            pk = peaks.get(lv)
            rows.append([fmt_size(n), lv, fmt_num(pk["gbps"]) if pk else "-"]
                        + [f"{fmt_num(at[(c, n)]['gbps'])} ({100 * at[(c, n)]['gbps'] / pk['gbps']:.0f}%)"
                           if pk and pk["gbps"] > 0 and (c, n) in at else "-" for c in names])
        page.p(f"{label}, hot: GB/s (% of the level's peak) at powers of two.")
        page.table(["n", "level", "peak GB/s"] + names, rows, num=set(range(2, 3 + len(names))) | {0})
        ceil = run.ceilings()
        if ceil and label == "aligned":
            ns = sorted({n for _, n in at if n >= 4096 and run.ceiling_at(n)})
            rows = [[fmt_size(n), fmt_num(run.ceiling_at(n)["gbps"]), run.ceiling_at(n)["contender"]]
                    + [f"{100 * at[(c, n)]['gbps'] / run.ceiling_at(n)['gbps']:.0f}%" if (c, n) in at else "-"
                       for c in names] for n in ns]
            page.p("The copy ceiling at each size (aligned, hot, from 4 KiB): the best of peak's kernels on the same "
                   "working set (n rounded up to 256 B), timed in the same rounds as the contenders. Where src + dst "
                   "reach a cache's size, every routine and kernel slows down together; this is the yardstick "
                   "`fcbench targets` reads the 4-512 KiB window against.")
            page.table(["n", "ceiling GB/s", "kernel"] + [f"{c} %" for c in names], rows,
                       num=set(range(3, 3 + len(names))) | {0, 1})

    def grids(self):
        gs = self.run.data["grids"]
        if not gs:
            return
        page = self.page
        page.section("Offset maps (src_off x dst_off)", "grids")
        page.p(f"Every src_off (rows) x dst_off (columns) within a 64-byte line, one map per contender, coloured by "
               f"the cell's GB/s over the contender's aligned GB/s (one scale for all maps; reds: below "
               f"{CLIFF_RATIO}x, the cliff threshold; grey: not measured). 'cliffs-screen' maps come from the cliff "
               f"finder's screening pass (fewer, shorter samples), 'grid' maps from fcbench grid.")
        groups = defaultdict(list)
        for g in gs:
            groups[(g["source"], g["n"], g["cache"])].append(g)
        rows = []
        for (source, n, cache), grids in groups.items():
            grids = sorted(grids, key=lambda g: self.run.ordered([x["contender"] for x in grids]).index(g["contender"]))
            page.img(self.plot("heatmaps", source, n, cache, grids), f"{source}, n = {fmt_size(n)}, {cache}")
            for g in grids:
                cells = [(so, do, v / g["aligned_gbps"]) for i, so in enumerate(g["src_offs"])
                         for j, do in enumerate(g["dst_offs"]) if (v := g["gbps"][i][j]) > 0 and g["aligned_gbps"]]
                if cells:
                    w = min(cells, key=lambda x: x[2])
                    bad = sum(1 for x in cells if x[2] < CLIFF_RATIO)
                    rows.append([source, fmt_size(n), cache, g["contender"], fmt_num(g["aligned_gbps"]),
                                 fmt_ratio(w[2]), f"{w[0]} / {w[1]}", f"{bad} / {len(cells)}",
                                 (grid_line_rule(cells) or grid_residue_rule(cells)) if bad else ""])
        if rows:
            page.table(["source", "n", "cache", "contender", "aligned GB/s", "worst", "at src/dst", "cells < 0.8x",
                        "pattern"], rows, num={1, 4, 5, 6, 7},
                       bad_cells=[(i, 7) for i, r in enumerate(rows) if not r[7].startswith("0 ")])

    def distance(self):
        run, page = self.run, self.page
        sweeps = distance_sweeps(run)
        if not sweeps:
            return
        page.section("Distance sweep", "distance")
        page.p("GB/s over (dst - src) mod 4096 with src page-aligned, one line per size (log scale: a 0.03x cliff "
               "stays visible). The table lists, per size, the distances below "
               f"{CLIFF_RATIO}x of the dist-0 speed.")
        rows, flags = [], []
        for c in run.ordered({k[0] for k in sweeps}):
            for cache in dict.fromkeys(k[2] for k in sweeps if k[0] == c):
                ss = sorted((k[1], s) for k, s in sweeps.items() if k[0] == c and k[2] == cache)
                page.img(self.plot("distance", c, cache, ss), f"distance sweep: {c}, {cache}")
                for n, s in ss:
                    bad = sweep_flags(s, None)
                    d_min = min(s, key=s.get)
                    ref = s.get(0)
                    if bad:
                        flags.append(len(rows))
                    rows.append([c, fmt_size(n), cache, fmt_num(ref) if ref else "-", fmt_num(s[d_min]),
                                 d_min, fmt_ratio(s[d_min] / ref) if ref else "-", f"{len(bad)} / {len(s)}",
                                 describe_distances(bad, s) if bad else ""])
        page.table(["contender", "n", "cache", "dist 0 GB/s", "min GB/s", "at dist", "min / dist 0",
                    f"below {CLIFF_RATIO}x", "where"], rows, num={1, 3, 4, 5, 6, 7}, flags=flags)

    def dist(self):
        run, page = self.run, self.page
        rs = run.by_scenario.get("dist")
        if not rs:
            return
        page.section("Real size distributions (dist)", "dist")
        page.p("Median ns per call over batches of calls whose sizes follow recorded memcpy size distributions "
               "(random src/dst offsets 0..63); n = the batch's mean size. Lower is better.")
        labels = list(dict.fromkeys(r["label"] for r in rs))
        names = run.ordered({r["contender"] for r in rs})
        ns = {(r["contender"], r["label"]): r["med_ns"] for r in rs}
        mean = {r["label"]: r["n"] for r in rs}
        page.img(self.plot("dist_bars", labels, names, ns), "ns per call per distribution")
        has_libc = any(c == "libc" for c in names)
        rows = []
        for lbl in labels:
            row = [lbl, mean[lbl]]
            for c in names:
                v = ns.get((c, lbl))
                ref = ns.get(("libc", lbl))
                row.append("-" if v is None else fmt_num(v) + (f" ({v / ref:.2f}x)" if has_libc and ref else ""))
            rows.append(row)
        if has_libc and len(labels) > 1:
            rows.append(["geomean vs libc", ""] + [fmt_ratio(geomean([ns[(c, lbl)] / ns[("libc", lbl)] for lbl in labels
                                                                      if (c, lbl) in ns and ("libc", lbl) in ns]))
                                                   for c in names])
        page.table(["distribution", "mean B"] + [f"{c} ns" + (" (x libc)" if has_libc else "") for c in names], rows)

    def memmove(self):
        run, page = self.run, self.page
        rs = run.by_scenario.get("memmove")
        if not rs:
            return
        page.section("memmove with overlap", "memmove")
        page.p("Each contender's memmove with src and dst in one buffer, dst = src + delta (delta > 0 needs a "
               "backward copy, delta < 0 a forward one), and the aligned non-overlapping move as reference; hot. "
               "GB/s, and in brackets the time relative to libc's memmove in the same case.")
        names = run.ordered({r["contender"] for r in rs})

        def cell(c, r, case):
            base = case.get("libc")
            return fmt_num(r["gbps"]) + (f" ({fmt_ratio(r['med_ns'] / base['med_ns'])})" if base and c != "libc" else "")
        rows, _ = label_n_rows(rs, names, cell)
        page.table(["overlap", "n"] + [f"{c} GB/s" for c in names], rows, num={1})

    def checked(self):
        run, page = self.run, self.page
        rs = run.by_scenario.get("checked")
        if not rs:
            return
        page.section("fc_copy_checked (nothing faults)", "checked")
        page.p("The fault-tolerant copy beside fc_memcpy, libc's memcpy and what programs use instead (a "
               "sigsetjmp guard per call, with and without saving the signal mask; process_vm_readv on the own "
               "pid); hot. GB/s, and for fc_copy_checked in brackets its throughput over fc_memcpy's in the same "
               "case (target: >= 0.95x from 256 B, >= 0.90x below).")
        names = run.ordered({r["contender"] for r in rs})

        def x(case):  # fc_copy_checked's throughput over fc_memcpy's in one case
            c, f = case.get("fc_copy_checked"), case.get("fc_memcpy")
            return f["med_ns"] / c["med_ns"] if c and f else None

        def cell(c, r, case):
            return fmt_num(r["gbps"]) + (f" ({x(case):.2f}x)" if c == "fc_copy_checked" and x(case) else "")
        rows, cases = label_n_rows(rs, names, cell)
        flags = [i for i, (lbl, n, case) in enumerate(cases)
                 if lbl in ("aligned", "src+1") and x(case) and x(case) < (0.95 if n >= 256 else 0.90)]
        page.table(["placement", "n"] + [f"{c} GB/s" for c in names], rows, num={1}, flags=flags)

    def field(self):
        run, page = self.run, self.page
        rs = run.by_scenario.get("field-rx", []) + run.by_scenario.get("field-pvp", [])
        if not rs:
            return
        page.section("Field: packets per second by frame size", "field")
        page.p("fcbench field: frames from a packet ring larger than the last-level cache (128 B headroom + 2 B "
               "NET_IP_ALIGN) copied into application buffers, one thread (the UDP RX shape); and through a "
               "shared ring between two threads on two CPUs (the vhost/PVP shape). Mpps, and in brackets the "
               "time per packet relative to libc's in the same run.")
        names = run.ordered({r["contender"] for r in rs})

        def cell(c, r, case):
            base = case.get("libc")
            mpps = 1e3 / r["med_ns"] if r["med_ns"] > 0 else 0
            return f"{mpps:.2f}" + (f" ({fmt_ratio(r['med_ns'] / base['med_ns'])})" if base and c != "libc" else "")
        rows, _ = label_n_rows(rs, names, cell)
        page.img(self.plot("field", rs), "Mpps by frame size, one and two threads")
        page.table(["threads", "frame"] + [f"{c} Mpps" for c in names], rows, num={1})
        progs = run.by_scenario.get("field-programs", [])
        if progs:
            page.p("Real programs (fcbench field-programs) under glibc and under libfastcopy-preload.so, runs "
                   "alternated, output checked identical: median CPU seconds (user + system) and the ratio; the "
                   "95% bootstrap interval is in fcbench's text output.")
            by = defaultdict(dict)
            for r in progs:
                by[r["label"]][r["contender"]] = r
            prow = []
            for name, d in by.items():
                a, b = d.get("libc"), d.get("preload")
                prow.append([name, f"{a['med_ns'] / 1e9:.3f}" if a else "-", f"{b['med_ns'] / 1e9:.3f}" if b else "-",
                             fmt_ratio(b["med_ns"] / a["med_ns"]) if a and b else "-"])
            page.table(["program", "glibc CPU s", "preload CPU s", "preload / glibc"], prow)
        rec = recorded_distributions()
        if rec:
            page.p("The copy sizes of the programs as fcbench record saw them (bench/distributions/recorded, with "
                   "their provenance; replay one with fcbench dist --file).")
            for name, probs in rec:
                page.img(self.plot("size_hist", name, probs), f"recorded copy sizes of {name}")

    def large(self):
        run, page = self.run, self.page
        rs = run.by_scenario.get("large")
        if not rs:
            return
        page.section("Large copies", "large")
        page.p("One copy of n bytes per call (aligned: src_off 0; unaligned: src_off 1), median of the samples, "
               "in MiB/s as in the seed patch's lines (MBytes = MiB).")
        at = {(r["contender"], r["label"]): r for r in rs}
        labels = list(dict.fromkeys(r["label"] for r in rs))
        rows = []
        for c in run.ordered({r["contender"] for r in rs}):
            row = [c]
            for lbl in labels:
                r = at.get((c, lbl))
                row += [f"{mibs(r):,.0f}" if r else "-", f"{r['med_ns'] / 1e6:.1f}" if r else "-"]
            if "aligned" in labels and "unaligned" in labels and (c, "aligned") in at and (c, "unaligned") in at:
                row.append(fmt_ratio(mibs(at[(c, "unaligned")]) / mibs(at[(c, "aligned")])))
            rows.append(row)
        heads = ["contender"] + [h for lbl in labels for h in (f"{lbl} MiB/s", f"{lbl} ms")]
        if len(rows[0]) > len(heads):
            heads.append("unaligned / aligned")
        page.table(heads, rows)
        for lbl in labels:
            ceil = sorted(run.results("large-ceiling", label=lbl), key=lambda r: -r["gbps"])
            if ceil:
                page.p(f"DRAM ceiling, timed in the same samples as the {lbl} copies (peak's non-temporal and rep "
                       "movsb kernels; the aligned and unaligned copies' samples alternate round by round): "
                       + ", ".join(f"{r['contender']} {mibs(r):,.0f} MiB/s" for r in ceil) + ".")
        lines = [f"{r['contender']} memcpy: {r['label']} copy of {r['n'] >> 20} MBytes in {r['med_ns'] / 1e6:.0f} "
                 f"msecs ({mibs(r):.0f} MB/s)" for r in rs]
        page.details("the seed format", lambda: page.raw("<pre>" + Page.esc("\n".join(lines)) + "</pre>"))

    def offset_section(self, title, anchor, tests, intro, plot_name, log):
        run, page = self.run, self.page
        present = [(s, f, w) for s, f, w in OFFSET_TESTS if s in tests and run.by_scenario.get(s)]
        if not present:
            return
        page.section(title, anchor)
        page.p(intro)
        groups = [(w, offset_groups(run, s, f)) for s, f, w in present]
        page.img(self.plot("per_offset", plot_name, groups, log), f"{title}: MiB/s vs offset")
        rows, bad = [], []
        for what, gs in groups:
            for c, b, by in gs:
                st = offset_stats(by)
                if not st:
                    continue
                if (st["worst"] or 1) < 0.9 or (st["near_mean"] or 1) < 0.95:
                    bad.append(len(rows))
                rows.append([what, c, fmt_size(b), f"{st['mibs0']:,.0f}", fmt_ratio(st["near_mean"]),
                             fmt_p(st["p"]) if st["p"] is not None else "-",
                             st["worst_off"] if st["worst_off"] is not None else "-", fmt_ratio(st["worst"])])
        page.table(["test", "contender", "size", "offset 0 MiB/s", "mean 1..7 / offset 0", "p (0 vs 1..7)",
                    "worst offset", "worst / offset 0"], rows, num={2, 3, 4, 5, 6, 7}, flags=bad)
        page.p("p: Mann-Whitney U on the per-byte sample times of offset 0 against those of offsets 1..7 pooled. "
               "Highlighted: the mean of offsets 1..7 below 0.95x, or an offset below 0.9x.", cls="note")

    def offsets(self):
        self.offset_section("Offsets (user space)", "offsets", ("offsets-read", "offsets-write"),
                            "The riscv uaccess thread's table with every contender as the copier: read = src at the "
                            "offset, write = dst at the offset; size = 8/16/32 KiB minus the offset.",
                            "offsets", True)

    def uaccess(self):
        self.offset_section("Kernel uaccess", "uaccess", ("uaccess-read", "uaccess-write"),
                            "The running kernel's copy_to_user (pread into a user buffer at the offset) and "
                            "copy_from_user (pwrite from it), on a memfd and on a tmpfs file; user offsets 0..63, "
                            "size 8/16/32 KiB minus the offset; one syscall per call (its fixed cost included).",
                            "uaccess", False)

    def pipe(self):
        rs = self.run.by_scenario.get("pipe")
        if not rs:
            return
        page = self.page
        page.section("Pipe bandwidth", "pipe")
        page.p("lmbench bw_pipe style: a writer process, a pipe, this process reading; both copies are the "
               "kernel's (copy_from_user, copy_to_user).")
        page.img(self.plot("pipe", rs), "pipe MiB/s vs message size")
        page.table(["message", "MiB/s", "ns per message", "IQR ns", "messages per sample"],
                   [[fmt_size(r["n"]), f"{mibs(r):,.0f}", fmt_num(r["med_ns"]),
                     f"{fmt_num(r['q1_ns'])}..{fmt_num(r['q3_ns'])}", r["iters"]]
                    for r in sorted(rs, key=lambda r: r["n"])])

    def peaks(self):
        run, page = self.run, self.page
        pk = run.data["peaks"]
        rs = run.by_scenario.get("peak", [])
        if not pk and not rs:
            return
        page.section("Peak copy ceilings", "peaks")
        page.p("The machine's copy ceiling per level: the best of several kernels (vector loops, rep movsb, "
               "non-temporal stores) on a page-aligned copy whose src + dst (2n) fit the level.")
        sizes = dict(run.cache_levels())
        if pk:
            page.table(["level", "level size", "n", "GB/s", "best kernel"],
                       [[p["level"], fmt_size(sizes[p["level"]]) if p["level"] in sizes else "-", fmt_size(p["n"]),
                         fmt_num(p["gbps"]), p["kernel"]] for p in pk], num={1, 2, 3})
        if rs:
            levels = [lv for lv in LEVELS if any(r["label"] == lv for r in rs)]
            at = {(r["contender"], r["label"]): r["gbps"] for r in rs}
            best = {lv: max(v for (k, l), v in at.items() if l == lv) for lv in levels}
            kernels = list(dict.fromkeys(r["contender"] for r in rs))
            page.table(["kernel"] + [f"{lv} GB/s" for lv in levels],
                       [[k] + [fmt_num(at[(k, lv)]) + (" *" if at[(k, lv)] == best[lv] else "")
                               if (k, lv) in at else "-" for lv in levels] for k in kernels])


def cmd_report(args, out=None):
    out = out or sys.stdout
    run = Run(load_run(args.results), args.results)
    outdir = args.outdir or os.path.dirname(os.path.abspath(args.results))
    try:
        os.makedirs(outdir, exist_ok=True)
    except OSError as e:
        raise UsageError(f"-o {outdir}: {e.strerror}") from None
    try:
        plots = Plots(outdir, run)
    except ImportError as e:
        print(f"fcbench report: {e.name or 'matplotlib'} is not installed: writing the tables without plots",
              file=sys.stderr)
        plots = None
    summary = summary_items(run)
    page = Report(run, plots).build(summary)
    path = os.path.join(outdir, "report.html")
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(page)
    except OSError as e:
        raise UsageError(f"{path}: {e.strerror}") from None
    out.write(f"{path}\n\n{summary_text(summary)}")
    return 0


# ---------------------------------------------------------------------------------------------------------------
# A synthetic fcbench-2 run (for the self test; the model is rough but has the real shapes: cache levels, libc's
# 4K-aliasing cliff, misalignment penalties, a pipe curve, uaccess per offset)


def synthetic_run(seed=1, full=False, slow=None):
    """A schema-valid fcbench-2 document.  full: the size of a real `fcbench all` (~15k results, 35 grids);
    otherwise about quick mode.  slow: {contender: factor} multiplies those contenders' times."""
    rnd = random.Random(seed)
    slow = slow or {}
    samples = 11 if full else 5
    l1, l2, l3 = 32768, 524288, 33554432
    contenders = ["libc", "fc[generic]", "byte", "word-coaligned", "generic"]
    level_bw = {"L1": 80.0, "L2": 45.0, "L3": 22.0, "DRAM": 11.0}

    def level(n):
        return "L1" if 2 * n <= l1 else "L2" if 2 * n <= l2 else "L3" if 2 * n <= l3 else "DRAM"

    def model_ns(c, n, so, do, cold=False):
        dist = (do - so) % 4096
        sd = signed_dist(dist)
        lv = "DRAM" if cold else level(n)
        if c == "byte":
            t = 2.0 + n / 1.4
        elif c == "word-coaligned" and (do - so) % 8:
            t = 3.0 + n / 2.5
        elif c == "libc":
            bw = level_bw[lv]
            if n >= 256 and sd and -128 < sd < 128 and sd % 32 and not cold:
                bw *= 0.035 if n >= 4096 else 0.14
            t = 3.0 + n / bw
        else:
            bw = level_bw[lv] * (0.4 if lv in ("L1", "L2") else 0.8)
            if sd % 8 and -128 < sd < 128 and n >= 256:
                bw *= 0.55
            t = 5.0 + n / bw
        return (t + (40.0 if cold else 0.0)) * slow.get(c, 1.0)

    def quantile(v, q):
        pos = q * (len(v) - 1)
        i = int(pos)
        return v[i] + (pos - i) * (v[i + 1] - v[i]) if i + 1 < len(v) else v[i]

    results = []

    def record(scenario, c, label, n, so, do, ns, cold=False, k=samples, bytes_=None):
        xs = [ns * math.exp(rnd.gauss(0, 0.015)) * (1.25 if rnd.random() < 0.08 else 1.0) for _ in range(k)]
        v = sorted(xs)
        med = quantile(v, 0.5)
        results.append({"scenario": scenario, "contender": c, "label": label, "cache": "cold" if cold else "hot",
                        "n": n, "src_off": so % 64, "dst_off": do % 64, "dist": (do - so) % 4096,
                        "med_ns": round(med, 3), "q1_ns": round(quantile(v, 0.25), 3),
                        "q3_ns": round(quantile(v, 0.75), 3), "gbps": round((bytes_ or n) / med, 4), "samples": k,
                        "iters": max(1, int(1e5 / ns)), "samples_ns": [round(x, 3) for x in xs]})
        return results[-1]

    # peak
    kernels = {"word-loop": 0.5, "sse2-loop": 0.8, "avx2-loop": 0.95, "rep-movsb": 0.9, "sse2-nt": 0.3,
               "avx2-nt": 0.35}
    peaks = []
    for lv, n in (("L1", l1 // 4), ("L2", l2 // 4), ("L3", l3 // 4), ("DRAM", 2 * l3)):
        best = None
        for k, f in kernels.items():
            f = f if lv in ("L1", "L2") else (f * 0.8 if k.endswith("loop") or k == "rep-movsb" else 1.6 * f)
            r = record("peak", k, lv, n, 0, 0, n / (level_bw[lv] * f))
            if not best or r["gbps"] > best["gbps"]:
                best = r
        peaks.append({"level": lv, "n": n, "gbps": best["gbps"], "kernel": best["contender"]})

    # cliffs: screening grids, aligned and worst re-measured; distance sweep
    step = 1 if full else 9
    dists = list(range(0, 129, 1 if full else 8)) + list(range(192, 3968, 64 if full else 512)) + \
        list(range(3968, 4096, 1 if full else 8))
    cliff_sizes = [256, 1024, 4096, 16384, 65536, 262144] if full else [4096, 65536]
    grids, cliffs = [], []
    for n in cliff_sizes:
        for c in contenders:
            aligned = record("cliffs-aligned", c, "", n, 0, 0, model_ns(c, n, 0, 0))["gbps"]
            dofs = list(range(0, 64, step))
            m = [[round(n / (model_ns(c, n, so, do) * math.exp(rnd.gauss(0, 0.03))), 3) for do in dofs]
                 for so in range(64)]
            grids.append({"source": "cliffs-screen", "contender": c, "n": n, "cache": "hot", "samples": 3,
                          "src_offs": list(range(64)), "dst_offs": dofs, "gbps": m, "aligned_gbps": aligned})
            so, do = min(((s, d) for s in range(64) for d in dofs), key=lambda p: m[p[0]][dofs.index(p[1])])
            w = record("cliffs-worst", c, "", n, so, do, model_ns(c, n, so, do))
            cliffs.append({"contender": c, "n": n, "aligned_gbps": aligned, "worst_gbps": w["gbps"],
                           "ratio": round(w["gbps"] / aligned, 4), "src_off": so, "dst_off": do,
                           "dist": (do - so) % 4096, "flagged": w["gbps"] / aligned < CLIFF_RATIO})
    if full:
        for c in contenders:
            grids.append({"source": "grid", "contender": c, "n": 4096, "cache": "hot", "samples": 5,
                          "src_offs": list(range(64)), "dst_offs": list(range(64)),
                          "gbps": [[round(4096 / model_ns(c, 4096, so, do), 3) for do in range(64)]
                                   for so in range(64)],
                          "aligned_gbps": round(4096 / model_ns(c, 4096, 0, 0), 4)})

    # sizes: as fcbench's size_list, and an aligned cold table at powers of two
    sizes = list(range(1, 65)) + list(range(72, 512, 8 if full else 64))
    p = 512
    while p <= (64 << 20 if full else 1 << 20):
        sizes += [p - 1, p, p + 1]
        p *= 2
    for label, so, do in (("aligned", 0, 0), ("src+1", 1, 0), ("dst+1", 0, 1)):
        for n in sizes:
            for c in contenders:
                record("sizes", c, label, n, so, do, model_ns(c, n, so, do))
    for n in (x for x in sizes if x >= 8 and not x & (x - 1)):
        for c in contenders:
            record("sizes", c, "aligned", n, 0, 0, model_ns(c, n, 0, 0, cold=True), cold=True)
    for n in sorted({(x + 255) & ~255 for x in sizes if x >= 4096}):  # the copy ceiling at each size, as fcbench
        for k, f in kernels.items():
            lv = level(n)
            f = f if lv in ("L1", "L2") else (f * 0.8 if k.endswith("loop") or k == "rep-movsb" else 1.6 * f)
            record("sizes-ceiling", k, "aligned", n, 0, 0, 1.0 + n / (level_bw[lv] * f))

    for n in cliff_sizes:
        for d in dists:
            for c in contenders:
                record("distance", c, "", n, 0, d, model_ns(c, n, 0, d))

    big = (400 if full else 16) << 20
    for label, so in (("aligned", 0), ("unaligned", 1)):
        for c in contenders:
            record("large", c, label, big, so, 0, model_ns(c, big, so, 0), k=5 if full else 3)

    for scenario, src_side in (("offsets-read", True), ("offsets-write", False)):
        for base in (8192, 16384, 32768):
            for off in range(8):
                so, do = (off, 0) if src_side else (0, off)
                for c in contenders:
                    record(scenario, c, "", base - off, so, do, model_ns(c, base - off, so, do))

    for scenario, user_is_dst in (("uaccess-read", True), ("uaccess-write", False)):
        for base in (8192, 16384, 32768):
            for off in range(64):
                n = base - off
                for c, bw in (("kernel-memfd", 13.0), ("kernel-tmpfs", 12.5)):
                    f = 1.0 if off == 0 else 0.99
                    if user_is_dst and base == 16384 and off == 41:
                        f = 0.72
                    so, do = (0, off) if user_is_dst else (off, 0)
                    record(scenario, c, "", n, so, do, 300.0 + n / (bw * f))

    m = 32
    while m <= 65536:
        record("pipe", "pipe", "", m, 0, 0, 900.0 + m / (2.2 if m <= 8192 else 1.8))
        m *= 2

    for label, mean in (("MemcpyGoogleA", 142), ("MemcpyGoogleB", 64), ("MemcpyGoogleD", 44),
                        ("MemcpyGoogleL", 41), ("MemcpyGoogleM", 49), ("MemcpyGoogleW", 50)):
        for c in contenders:
            so, do = rnd.randrange(64), rnd.randrange(64)
            record("dist", c, label, mean, 0, 0, model_ns(c, mean, so, do) + 2.0)

    return {
        "schema": SCHEMA, "scenario": "all",
        "argv": "fcbench all --json synthetic.json" + ("" if full else " --quick"),
        "date": "2026-01-01T00:00:00Z",
        "machine": {"cpu": "Synthetic CPU", "cpus": 2, "flags": "sse2 avx avx2 erms fsrm ", "l1d_bytes": l1,
                    "l2_bytes": l2, "l3_bytes": l3, "libc": "2.36", "kernel": "6.1.0-synthetic",
                    "machine": "x86_64", "fastcopy_version": "0.1.0", "fc_active": "generic",
                    "timer_resolution_ns": 20.0},
        "method": {"samples": samples, "min_sample_ns": 100000 if full else 20000, "statistic": "median",
                   "spread": "iqr", "bytes": "copied, counted once", "cache": "hot",
                   "cold_region_bytes": 4 * l3, "other_cpus_busy": 0.03, "steal": 0.0,
                   "pinned": "pinned to cpu 1"},
        "contenders": contenders, "results": results, "grids": grids, "cliffs": cliffs, "peaks": peaks,
    }


# ---------------------------------------------------------------------------------------------------------------
# selftest


def check_mann_whitney():
    """Hand-checked values; returns a list of failures."""
    bad = []

    def expect(what, got, want, rel=1e-9):
        if not math.isclose(got, want, rel_tol=rel, abs_tol=1e-15):
            bad.append(f"{what}: got {got!r}, expected {want!r}")

    # null distribution: 3 vs 3 is 1 1 2 3 3 3 3 2 1 1 (20 orderings); every table sums to C(m+n, m), symmetric
    if u_null_counts(3, 3) != (1, 1, 2, 3, 3, 3, 3, 2, 1, 1):
        bad.append(f"U counts 3x3: {u_null_counts(3, 3)}")
    for m, n in ((1, 1), (2, 5), (7, 4), (11, 11), (20, 20)):
        c = u_null_counts(m, n)
        if sum(c) != math.comb(m + n, m) or c != c[::-1]:
            bad.append(f"U counts {m}x{n} do not sum to C({m + n},{m}) or are not symmetric")
    # completely separated 11 vs 11: U = 0, exact two-sided p = 2 / C(22, 11) = 2 / 705432
    u, p, how = mann_whitney([float(i) for i in range(11)], [float(i) for i in range(100, 111)])
    expect("11 vs 11 separated: U", u, 0)
    expect("11 vs 11 separated: p", p, 2 / 705432)
    if how != "exact":
        bad.append("11 vs 11 without ties must use the exact distribution")
    # x = 1 2 4, y = 3 5 6: one pair with x > y (4 > 3), P(U <= 1) = 2/20, two-sided 0.2; swapped: same p
    expect("3 vs 3, U = 1: p", mann_whitney([1, 2, 4], [3, 5, 6])[1], 0.2)
    expect("3 vs 3 swapped: p", mann_whitney([3, 5, 6], [1, 2, 4])[1], 0.2)
    expect("3 vs 3 swapped: U", mann_whitney([3, 5, 6], [1, 2, 4])[0], 8)
    expect("3 vs 3 separated: p", mann_whitney([1, 2, 3], [4, 5, 6])[1], 0.1)
    # a tie (x = 1 2 3, y = 3 4 5): ranks 1 2 3.5 | 3.5 5 6, U = 6.5 - 6 = 0.5; normal approximation:
    # var = 9/12 * (7 - (2^3 - 2)/(6*5)) = 5.1, z = (4.5 - 0.5 - 0.5)/sqrt(5.1) = 1.549826, p = erfc(z/sqrt 2)
    u, p, how = mann_whitney([1, 2, 3], [3, 4, 5])
    expect("tie: U", u, 0.5)
    expect("tie: p", p, math.erfc(3.5 / math.sqrt(5.1) / math.sqrt(2)))
    expect("tie: p (0.12118)", p, 0.12118, rel=1e-4)
    if how != "normal":
        bad.append("samples with a tie must use the normal approximation")
    # 25 vs 25 separated (too many for the exact table): var = 25*25*51/12 = 2656.25, z = 312/51.5388 = 6.05369
    p = mann_whitney(list(range(25)), list(range(100, 125)))[1]
    expect("25 vs 25 separated: p", p, math.erfc(312 / math.sqrt(2656.25) / math.sqrt(2)))
    expect("25 vs 25 separated: p (1.4157e-9)", p, 1.4157e-9, rel=1e-4)
    # identical samples: p = 1; every value equal: p = 1
    expect("identical: p", mann_whitney([3.0, 1.0, 2.0], [1.0, 2.0, 3.0])[1], 1.0)
    expect("all equal: p", mann_whitney([5, 5, 5], [5, 5, 5, 5])[1], 1.0)
    return bad


def check_describers():
    """The summary's pattern finders on hand-made data; returns a list of failures."""
    bad = []

    def expect(what, got, want):
        if got != want:
            bad.append(f"{what}: got {got!r}, expected {want!r}")

    measured = list(range(0, 129)) + list(range(192, 3968, 64)) + list(range(3968, 4096))
    near8 = {d for d in measured if signed_dist(d) % 8 and abs(signed_dist(d)) < 128}
    expect("distances: +-127 but multiples of 8", describe_distances(near8, measured),
           "dst - src (mod 4096) = -127..127 except multiples of 8")
    expect("distances: 1..63 and a far one", describe_distances(set(range(1, 64)) | {1024}, measured),
           "dst - src (mod 4096) = 1..63, and 1 other distance")
    expect("distances: singles", describe_distances({9, 73, 4041}, measured), "dst - src (mod 4096) = -55; 9; 73")
    cells = [(s_, d, 0.1 if d == 9 else 1.0) for s_ in range(64) for d in range(64)]
    expect("grid: dst_off column", grid_line_rule(cells), "whenever dst_off = 9")
    cells = [(s_, d, 0.5 if (d - s_) % 8 else 1.0) for s_ in range(64) for d in range(64)]
    expect("grid: residue", grid_residue_rule(cells), "when (dst_off - src_off) mod 8 != 0")
    expect("grid: no line rule for a residue", grid_line_rule(cells), "")
    expect("size ranges", size_ranges([256, 4096, 16384], [256, 1024, 4096, 16384, 65536]), "256 B, 4 KiB-16 KiB")
    expect("fmt_size", [fmt_size(x) for x in (8191, 4096, 64 << 20)], ["8191 B", "4 KiB", "64 MiB"])
    return bad


def selftest(_args, out=None):
    out = out or sys.stdout
    failures = [f"mann_whitney: {b}" for b in check_mann_whitney()]
    out.write(f"mann-whitney: {'ok' if not failures else 'FAILED'}\n")
    described = [f"summary patterns: {b}" for b in check_describers()]
    out.write(f"summary patterns: {'ok' if not described else 'FAILED'}\n")
    failures += described

    def run_main(argv):
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(buf):
            rc = main(argv)
        return rc, buf.getvalue()

    def check(ok, what, detail=""):
        out.write(f"{'ok' if ok else 'FAIL'}: {what}\n")
        if not ok:
            failures.append(what + (f"\n{detail}" if detail else ""))

    with tempfile.TemporaryDirectory(prefix="fcbench-selftest-") as tmp:
        a, b, c = (os.path.join(tmp, x) for x in ("a.json", "b.json", "c.json"))
        docs = ((a, synthetic_run(1)), (b, synthetic_run(2)), (c, synthetic_run(1, slow={"generic": 1.2})))
        for path, doc in docs:
            with open(path, "w") as f:
                json.dump(doc, f)
        schema = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fcbench.schema.json")
        if importlib.util.find_spec("jsonschema") and os.path.exists(schema):  # optional: the synthetic run's shape
            import jsonschema
            try:
                jsonschema.validate(docs[0][1], json.load(open(schema)))
                check(True, "the synthetic run validates against fcbench.schema.json")
            except jsonschema.ValidationError as e:
                check(False, "the synthetic run validates against fcbench.schema.json", str(e)[:2000])

        rc, text = run_main(["compare", a, a, "--min-n", "1024", "--max-diff", "0.05"])
        check(rc == 0 and "within" in text, "compare: a run agrees with itself", text[-2000:])
        rc, text = run_main(["compare", a, c, "--scenario", "sizes", "--max-diff", "0.1"])
        check(rc == 1 and "generic" in text and "slower" in text, "compare: 20% slower generic found, exit 1",
              text[-3000:])
        rc, text = run_main(["compare", a, b, "--all", "--scenario", "dist"])
        check(rc == 0 and "MemcpyGoogleA" in text, "compare --all lists every case", text[-2000:])
        rc, text = run_main(["compare", a, "--base", "libc", "--scenario", "sizes,dist"])
        check(rc == 0 and "byte" in text and "slower" in text, "compare --base libc: byte slower", text[-2000:])
        rc, text = run_main(["compare", a, "--base", "fc"])
        check(rc == 0 and "against fc[generic]" in text, "compare --base fc picks fc[NAME]", text[:500])
        rc, text = run_main(["targets", a])
        check(rc == 0 and text.count("\n  [") == 6 and "of 6 targets met" in text and "GoogleA" in text,
              "targets: six targets read off the synthetic run", text[-3000:])
        check("share of the ceiling at n" in text and "not the yardstick" in text,
              "targets: the 4-512 KiB window read against the ceiling at each size", text[-3000:])
        # the A/A noise allowance: fc 1.08x glibc where fc[x] and x read 10% apart is excused, 1.12x is not
        def res(c, n, ns):
            return {"scenario": "sizes", "contender": c, "label": "aligned", "cache": "hot", "n": n, "med_ns": ns}
        tiny = Run({"machine": {}, "method": {}, "contenders": ["libc", "fc[x]", "x"], "peaks": [], "results": [
            res("libc", 100, 10.0), res("fc[x]", 100, 10.8), res("x", 100, 9.8),
            res("libc", 200, 10.0), res("fc[x]", 200, 11.2), res("x", 200, 10.2),
            res("libc", 300, 10.0), res("fc[x]", 300, 10.4), res("x", 300, 10.4),
            res("libc", 400, 10.0), res("fc[x]", 400, 11.2), res("x", 400, 8.0)]}, "tiny")
        lim = _noise_limits(tiny, "sizes", "fc[x]", label="aligned", cache="hot")
        r = _time_ratios(tiny, "sizes", "fc[x]", "libc", label="aligned", cache="hot")
        check([n for n, _, _ in _excused(r, lim)] == [100] and [n for n in r if r[n] > lim[n]] == [200, 400],
              "targets: a size is excused only within its A/A spread, and never beyond 10%", f"{lim} {r}")
        rc2, _ = run_main(["targets", a, "--check"])
        check(rc2 == (0 if "6 of 6 targets met" in text else 1), "targets --check: exit 1 when one is missed")

        bogus = os.path.join(tmp, "old.json")
        with open(bogus, "w") as f:
            json.dump({"schema": "fcbench-1", "results": []}, f)
        for argv, want in ((["compare", os.path.join(tmp, "none.json"), a], "no such file"),
                           (["compare", bogus, a], "fcbench-1"),
                           (["compare", a, b, "--scenario", "nosuch"], "not in the input"),
                           (["compare", a, "--base", "libc", "--min-n", str(1 << 40)], "no case"),
                           (["report", bogus], "fcbench-1")):
            rc, text = run_main(argv)
            check(rc == 2 and want in text and "Traceback" not in text, f"error: {' '.join(argv[:2])}.. -> {want}",
                  text)

        rep = os.path.join(tmp, "report")
        rc, text = run_main(["report", a, "-o", rep])
        page_path = os.path.join(rep, "report.html")
        check(rc == 0 and os.path.exists(page_path) and text.startswith(page_path), "report writes report.html",
              text)
        if rc == 0 and os.path.exists(page_path):
            page = open(page_path, encoding="utf-8").read()
            imgs = [x.split('"')[1] for x in page.split('<img src=')[1:]]
            missing = [x for x in imgs if not os.path.exists(os.path.join(rep, x))]
            want_imgs = 10 if importlib.util.find_spec("matplotlib") else 0
            check(len(imgs) >= want_imgs and not missing, f"report has {len(imgs)} plots, all present", str(missing))
            check("libc:" in text and "copy_to_user" in text and "Machine:" in text,
                  "report summary names libc's cliff, copy_to_user and the machine", text)
            check("worst offset is 41 at" in text, "uaccess summary finds the synthetic slow offset 41", text)
    out.write(f"selftest: {'FAILED: ' + str(len(failures)) if failures else 'all checks passed'}\n")
    for f in failures:
        out.write(f"  {f}\n")
    return 1 if failures else 0


# ---------------------------------------------------------------------------------------------------------------
# Command line


COMPARE_HELP = f"""\
Two runs: per case (scenario, contender, label, cache, n, src_off, dst_off, dist) the ratio of the
median times B/A.  One run with --base NAME: each contender's time / NAME's on the same case.

Significance: the Mann-Whitney U test, two-sided, on the two cases' samples (samples_ns): the exact
distribution of U when there are no ties and both samples have <= {EXACT_MAX} values, otherwise the
normal approximation with tie and continuity corrections.  A case is 'faster' or 'slower' when
p < alpha.

Printed: the significant cases (--all: every case), then per scenario and contender the number of
cases, the geometric mean, min and max of the ratios and the counts of significantly faster and
slower cases.

Exit status: 0; 1 when --max-diff is exceeded; 2 on errors (missing file, wrong schema, no matching
cases)."""


# ---------------------------------------------------------------------------------------------------------------
# targets: the x86-64 issue's targets, read off one run

TARGETS_NOISE = 0.05  # "above glibc": a time ratio above 1 + this, or above the A/A limit (_noise_limits)
TARGETS_NOISE_MAX = 0.10  # ... and never more than 1 + this, whatever the A/A pair read


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
    return {n: 1 + min(TARGETS_NOISE_MAX, max(TARGETS_NOISE, max(r, 1 / r) - 1)) for n, r in aa.items() if r > 0}


def _excused(ratios, limits):
    """The sizes above 1 + TARGETS_NOISE that the A/A noise at that size excuses: [(n, ratio, limit)]."""
    return [(n, r, limits[n]) for n, r in ratios.items() if 1 + TARGETS_NOISE < r <= limits.get(n, 0)]


def _time_ratios(run, scenario, fc, base, **match):
    """{n: fc median time / base median time} for the cases both have."""
    a = {r["n"]: r for r in run.results(scenario, contender=fc, **match)}
    b = {r["n"]: r for r in run.results(scenario, contender=base, **match)}
    return {n: a[n]["med_ns"] / b[n]["med_ns"] for n in sorted(a) if n in b}


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

    def noise_limit(n):
        return lim.get(n, 1 + TARGETS_NOISE)

    if al:
        g = geomean(list(al.values()))
        worst_n = max(al, key=al.get)
        above = [n for n, r in al.items() if r > noise_limit(n)]
        exc = _excused(al, lim)
        rows.append((
            TARGET_NAMES[0],
            f"geomean {g:.2f}x over {len(al)} sizes; 8-256 B {_class_text(al, 8, 256)}, "
            f"257 B-4 KiB {_class_text(al, 257, 4 * kib)}, 4-512 KiB {_class_text(al, 4 * kib + 1, 512 * kib)}, "
            f"512 KiB-32 MiB {_class_text(al, 512 * kib + 1, 32 * mib)}; worst {al[worst_n]:.2f}x at "
            f"{fmt_size(worst_n)}; {len(above)} sizes above glibc beyond noise"
            + (f" ({', '.join(f'{fmt_size(n)} {al[n]:.2f}x' for n in above[:8])}{', ...' if len(above) > 8 else ''})"
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
        slow = [n for n, r in win.items() if r > noise_limit(n)]
        low = min(frac, key=frac.get) if frac else None
        parts = [f"time ratio {min(win.values()):.2f}-{max(win.values()):.2f}x ({len(slow)} sizes above glibc beyond "
                 f"noise{': ' + ', '.join(f'{fmt_size(n)} {win[n]:.2f}x' for n in slow[:6]) if slow else ''})"]
        if cei:
            lc = min(cei, key=cei.get)
            c = run.ceiling_at(lc)
            parts.append(f"lowest share of the ceiling at n {cei[lc]:.0%} at {fmt_size(lc)} ({c['contender']} "
                         f"{c['gbps']:.1f} GB/s on {fmt_size(c['n'])})")
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
            txt = f"{fmt_size(n)} {c['ratio']:.2f}x"
            if n <= 4 * kib and b:
                good = good and c["worst_gbps"] >= b["worst_gbps"]
                txt += f" ({c['worst_gbps']:.1f} vs glibc's worst {b['worst_gbps']:.1f} GB/s)"
            ok = ok and good
            parts.append(txt + ("" if good else " MISS"))
        rows.append((TARGET_NAMES[2],
                     "; ".join(parts), ok))
    dist = _by_label(run, "dist", fc, base)
    if dist:
        rows.append((TARGET_NAMES[3],
                     ", ".join(f"{k.replace('Memcpy', '')} {v:.2f}x" for k, v in dist.items()),
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
            if ceil:
                where = f"the DRAM ceiling ({ceil['contender']} {ceil['gbps']:.1f} GB/s beside the {ceil['label']} copy"
                if own and own is not ceil:
                    where += f"; beside this one {own['contender']} {own['gbps']:.1f} GB/s, " \
                             f"{large[lab]['gbps'] / own['gbps']:.0%}"
                where += ")"
            else:
                where = "the DRAM peak"
            sp = large[lab]["gbps"] / lbase[lab]["gbps"]
            share = large[lab]["gbps"] / dram["gbps"] if dram else float("nan")
            ok = ok and sp >= 1.0 and share >= 0.95
            parts.append(f"{lab} {sp:.2f}x glibc's speed, {large[lab]['gbps']:.1f} GB/s = {share:.0%} of {where}")
        rows.append((TARGET_NAMES[4], "; ".join(parts), ok))
    mm = {}
    for lab in sorted({r["label"] for r in run.results("memmove", contender=fc)}):
        rr = _time_ratios(run, "memmove", fc, base, label=lab)
        if rr:
            ml = _noise_limits(run, "memmove", fc, label=lab)
            over = [n for n, r in rr.items() if r > ml.get(n, 1 + TARGETS_NOISE)]
            mm[lab] = (geomean(list(rr.values())), max(rr.values()), max(rr, key=rr.get), over, _excused(rr, ml))
    if mm:
        def mtext(lab, g, m, n, over, exc):
            t = f"{lab} {g:.2f}x (max {m:.2f}x at {fmt_size(n)}"
            if exc:
                t += "; within the A/A noise there: " + ", ".join(f"{fmt_size(x)} {r:.2f}x (A/A {lm - 1:.0%})"
                                                                  for x, r, lm in exc)
            return t + ")" + (" MISS" if g > 0.95 or over else "")
        rows.append((TARGET_NAMES[5],
                     "; ".join(mtext(lab, *v) for lab, v in mm.items()),
                     all(g <= 0.95 and not over for g, m, n, over, exc in mm.values())))
    return rows


def _by_label(run, scenario, fc, base):
    a = {r["label"]: r for r in run.results(scenario, contender=fc)}
    b = {r["label"]: r for r in run.results(scenario, contender=base)}
    return {k: a[k]["med_ns"] / b[k]["med_ns"] for k in a if k in b}


def cmd_targets(args, out=None):
    out = out or sys.stdout
    run = Run(load_run(args.results), args.results)
    fc = next((c for c in run.contenders if c.startswith("fc[")), None)
    if fc is None or "libc" not in run.contenders:
        raise UsageError(f"{args.results}: needs the contenders libc and fc[...] (fcbench all without --impl)")
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


def _human(n):
    if n >= 2**64 - 1:
        return "never"
    for unit, shift in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if n >= 1 << shift and n % (1 << shift) == 0:
            return f"{n >> shift} {unit}"
    return f"{n} B"


def _settings_text(fs):
    if not fs:
        return "(not recorded in this run)"
    win = (f"rep movsb {_human(fs['movsb_min'])} .. {_human(fs['movsb_max'])}, gap {fs['movsb_gap']}"
           if fs["movsb_min"] < fs["movsb_max"] else "rep movsb never")
    nt = "NT never" if fs["nt_threshold"] >= 2**64 - 1 else f"NT from {_human(fs['nt_threshold'])}"
    exc = f"; exception: {fs['exception']}" if fs.get("exception") else ""
    return f"{win}; {nt}, {fs['nt_pages']} stream{'s' if fs['nt_pages'] > 1 else ''}{exc}"


def cmd_machine(args, out=None):
    """docs/machines/<cpu>.md from one `make bench` run: the machine, what fastcopy chose (defaults and the tuned
    profile), the six targets side by side."""
    run = Run(load_run(args.results), args.results)
    d = run.data
    m = d["machine"]
    fc = next((c for c in run.contenders if c.startswith("fc[")), None)
    tuned = next((c for c in run.contenders if c.startswith("tuned[")), None)
    if fc is None or "libc" not in run.contenders:
        raise UsageError(f"{args.results}: needs the contenders libc and fc[...] (fcbench all without --impl)")
    lines = []
    w = lines.append
    title = args.title or m["cpu"]
    w(f"# {title}\n")
    w(f"Generated by `fcbench machine` from one `make bench` run (`{d['argv']}`, {d['date']}); regenerate it, do not "
      "edit it. Time ratios are fastcopy's time over glibc's in the same run (< 1: fastcopy faster); the targets are "
      "those of the x86-64 issue, as `fcbench targets` reads them.\n")
    w("## The machine\n")
    w("| | |\n|---|---|")
    w(f"| CPU | {m['cpu']}, {m['cpus']} logical CPUs |")
    if m.get("cpu_signature"):
        w(f"| signature (a profile's `cpu` line) | `{m['cpu_signature']}` |")
    w(f"| flags seen | {m['flags'].strip()} |")
    w(f"| caches | L1d {_human(m['l1d_bytes'])}, L2 {_human(m['l2_bytes'])}, L3 {_human(m['l3_bytes'])} |")
    w(f"| software | glibc {m['libc']}, Linux {m['kernel']}, fastcopy {m['fastcopy_version']}, THP {m.get('thp', '?')} |")
    w("")
    w("## What fastcopy chose\n")
    w(f"- **Defaults** (no profile): `{m['fc_active']}`; {_settings_text(m.get('fastcopy_settings'))}.")
    if tuned:
        w(f"- **Tuned** (`fastcopy-tune --quick` on this machine before the run): `{tuned[6:-1]}` with the profile below.")
    if args.profile:
        w("\n```\n" + open(args.profile).read().rstrip() + "\n```")
    if args.tune_log:
        picks = [ln.strip() for ln in open(args.tune_log) if ln.startswith("   -> ")]
        if picks:
            w("\nfastcopy-tune's choices: " + "; ".join(p[3:] for p in picks) + ".")
    w("")
    w("## The six targets\n")
    who = [(fc, "defaults")] + ([(tuned, "tuned profile")] if tuned else [])
    rows = {name: targets_rows(run, name) for name, _ in who}
    w("| target | " + " | ".join(f"{label} (`{name}`)" for name, label in who) + " |")
    w("|---|" + "---|" * len(who))
    for i, target in enumerate(TARGET_NAMES):
        cells = []
        for name, _ in who:
            _, measured, met = rows[name][i]
            mark = "met" if met else "not measured" if met is None else "**NOT MET**"
            cells.append(f"{mark}: {measured}".replace("|", "/"))
        w(f"| {target} | " + " | ".join(cells) + " |")
    counts = [sum(1 for *_, met in rows[name] if met) for name, _ in who]
    w("\n" + ", ".join(f"{c} of {len(TARGET_NAMES)} met with the {label}" for c, (_, label) in zip(counts, who)) + ".\n")
    if args.new_default:
        entry, lo, hi = args.new_default.split(":")
        lo, hi = int(lo), int(hi)
        w(f"## What the current default would run here\n")
        upto = ("to any size (no non-temporal stores)" if hi >= 2**64 - 1
                else f"to {_human(hi)} (the NT threshold), non-temporal stores above")
        w(f"This run predates it; on this CPU the default is now `{entry}` below {_human(lo)} and rep movsb from "
          f"{_human(lo)} {upto} ([docs/x86-policy.md](../x86-policy.md); the `policy-*` tests check it on this CPU's "
          "CPUID). Each size's fastest contender in this run (aligned, hot), against the contender that runs what "
          f"the default now runs there (`{entry}`, or `erms`: rep movsb alone):\n")
        w("| n | fastest here | GB/s | the default's path | GB/s | ratio |")
        w("|---:|---|---:|---|---:|---:|")
        by = {}
        for r in run.results("sizes", label="aligned", cache="hot"):
            by.setdefault(r["n"], {})[r["contender"]] = r["gbps"]
        for n in (512, 4096, 16384, 65536, 262144, 1 << 20, 8 << 20, 32 << 20):
            if n not in by:
                continue
            row = {c: g for c, g in by[n].items() if not c.startswith("fc[") and c not in ("byte", "word-coaligned")}
            best = max(row, key=row.get)
            path = "erms" if lo <= n < hi else entry
            if path not in row:
                continue
            w(f"| {_human(n)} | {best} | {row[best]:.1f} | {path} | {row[path]:.1f} | {row[path] / row[best]:.2f} |")
        w("")
    if args.note:
        w(open(args.note).read().rstrip() + "\n")
    text = "\n".join(lines)
    if args.output:
        with open(args.output, "w") as f:
            f.write(text)
        print(f"wrote {args.output}", file=out or sys.stdout)
    else:
        print(text, file=out or sys.stdout)
    return 0


def parser():
    top = argparse.ArgumentParser(
        prog="fcbench_report.py", description="fcbench reports and comparisons (run as `fcbench report|compare`).")
    sub = top.add_subparsers(dest="cmd", required=True, metavar="report|compare|targets|machine|selftest")
    rp = sub.add_parser("report", help="HTML report with plots",
                        description="Writes OUTDIR/report.html and its PNG plots for one fcbench JSON file; prints "
                                    "the page's path and the summary that tops it.")
    rp.add_argument("results", metavar="RESULTS.json")
    rp.add_argument("-o", dest="outdir", metavar="OUTDIR", help="output directory (default: the JSON's directory)")
    cp = sub.add_parser(
        "compare", help="per-case ratios and significance",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description=COMPARE_HELP,
        epilog="examples:\n  fcbench compare run1.json run2.json --scenario sizes --min-n 1024 --max-diff 0.05\n"
               "  fcbench compare run.json --base libc --scenario sizes,dist")
    cp.add_argument("a", metavar="A.json")
    cp.add_argument("b", metavar="B.json", nargs="?", help="a second run (else: --base NAME within A)")
    cp.add_argument("--base", metavar="NAME", help="one run: compare every contender with NAME (fc = fc[...])")
    cp.add_argument("--alpha", type=float, default=0.01, help="significance level (default 0.01)")
    cp.add_argument("--scenario", metavar="S,...", help="only these scenarios (offsets = offsets-read,-write)")
    cp.add_argument("--min-n", type=int, default=0, metavar="N", help="only cases with n >= N bytes")
    cp.add_argument("--max-diff", type=float, metavar="F",
                    help="exit 1 if a case's ratio is outside [1-F, 1+F], listing those cases")
    cp.add_argument("--all", action="store_true", help="print every case, not only the significant ones")
    tp = sub.add_parser("targets", help="the x86-64 issue's targets, fc[...] vs libc, read off one run",
                        description="Prints each target of the x86-64 issue (aligned sizes, glibc's rep movsb window, "
                                    "worst placements, size distributions, large copies, memmove) with the figures "
                                    "one `fcbench all` run measured and whether it holds.")
    tp.add_argument("results", metavar="RESULTS.json")
    tp.add_argument("--check", action="store_true", help="exit 1 if a target is not met")
    mp = sub.add_parser("machine", help="docs/machines/<cpu>.md from one make bench run",
                        description="Writes the machine's page: the machine, what fastcopy chose (defaults and the "
                                    "tuned profile), the six targets side by side.")
    mp.add_argument("results", metavar="RESULTS.json")
    mp.add_argument("-o", dest="output", metavar="OUT.md")
    mp.add_argument("--title", help="the page's title (default: the CPU name)")
    mp.add_argument("--profile", metavar="FILE", help="the profile fastcopy-tune wrote (bench-results/profile)")
    mp.add_argument("--tune-log", metavar="FILE", help="fastcopy-tune's output (bench-results/tune.txt)")
    mp.add_argument("--new-default", metavar="ENTRY:MOVSB_MIN:MOVSB_MAX",
                    help="for a run older than the current policy: what the default now runs there, by size")
    mp.add_argument("--note", metavar="FILE", help="markdown appended at the end")
    sub.add_parser("selftest", help="statistics unit checks, report and compare on a synthetic run")
    return top


def main(argv=None):
    args = parser().parse_args(argv)
    try:
        return {"report": cmd_report, "compare": cmd_compare, "targets": cmd_targets, "machine": cmd_machine,
                "selftest": selftest}[args.cmd](args)
    except UsageError as e:
        print(f"fcbench {args.cmd}: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:  # `... | head`
        sys.stderr.close()
        sys.exit(0)
    except KeyboardInterrupt:
        sys.exit(130)
