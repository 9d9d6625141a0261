"""fcbench compare: cases of two runs (or of every contender against a base within one run) matched on their
case key, with time ratios and Mann-Whitney p-values, a summary per scenario and contender, and --max-diff."""

import sys
from collections import defaultdict

from .run import CASE_KEY, EXACT_MAX, Run, UsageError, load_run
from .fmt import fmt_ns, fmt_p, geomean, text_table
from .stats import mann_whitney, min_exact_p
from .summary import load_sentence


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
