"""Report section "fastcopy and the alternatives on this machine" (first on the page): per metric - fixed sizes,
placements, distributions, large sizes, the packet path - libc, fc, tuned (where the run has a tuned[...]
contender) and each peer (another library's copy, e.g. DPDK's rte_memcpy as rte-avx2), as time relative to libc's
(the median of the per-case ratios), and one verdict line per metric."""

import statistics
from collections import namedtuple

from .fmt import fmt_ratio, fmt_size, size_ranges
from .run import TARGETS_NOISE, noise_limit

# A peer is a contender whose name starts with one of these (bench/contenders.c adds them; a new peer: its prefix).
PEER_PREFIXES = ("rte-",)
LARGE_FROM = 1 << 20  # sizes above this are "large sizes"; up to it "fixed sizes"


def is_peer(name):
    return name.startswith(PEER_PREFIXES)


def _columns(run):
    """[(column title, contender name)] in the run's order: libc, fc, tuned, the peers."""
    cs = list(run.contenders)
    cols = [("libc", "libc")] if "libc" in cs else []
    fc = next((c for c in cs if c.startswith("fc[")), None)
    tuned = next((c for c in cs if c.startswith("tuned[")), None)
    if fc:
        cols.append(("fc", fc))
    if tuned:
        cols.append(("tuned", tuned))
    cols += [(c, c) for c in cs if is_peer(c)]
    return cols


def _cases(run, scenario, twin=None, keep=None, name=None):
    """[(case name, {contender: med_ns}, A/A ratio or None, (label, n))] of a scenario's results, one per (label,
    cache, n);
    keep(result) filters; twin(by) gives the case's A/A ratio from its contenders' times; name(label, n) the case's
    name (default: the size, with the label where the scenario has several)."""
    by = {}
    for r in run.by_scenario.get(scenario, ()):
        if keep and not keep(r):
            continue
        by.setdefault((r["label"], r["cache"], r["n"]), {})[r["contender"]] = r["med_ns"]
    labels = {k[0] for k in by}
    out = []
    for (label, cache, n), t in by.items():
        nm = name(label, n) if name else (fmt_size(n) if len(labels) < 2 else f"{fmt_size(n)} {label}")
        out.append((nm, t, twin(t) if twin else None, None if name else (label, n)))
    return out


def _fc_twin(run):
    """A/A from fc[X] and X (the same routine under two names, same rounds), where the run has both."""
    fc = next((c for c in run.contenders if c.startswith("fc[")), None)
    x = fc[3:-1] if fc else None
    if not fc or x not in run.contenders:
        return None
    return lambda t: t[fc] / t[x] if fc in t and x in t and t[x] > 0 else None


def _metric_row(title, cases, cols, cells=None):
    """One table row and its verdict: value per column = median over the cases of the contender's time / libc's
    (cols: [(column, contender)]; a column whose contender has no case is "-")."""
    vals = {}
    for col, c in cols:
        rs = [t[c] / t["libc"] for _, t, _, _ in cases if c in t and t.get("libc")]
        vals[col] = statistics.median(rs) if rs else None
    row = [title] + [fmt_ratio(vals[col]) if vals[col] is not None else "-" for col, _ in cols]
    row.append(str(len(cases)))
    return row, _verdict(cases, cols, vals)


def _verdict(cases, cols, vals):
    """"fc fastest", or who is, and each column that beats fc beyond noise in some case: where, by how much."""
    have = {col: v for col, v in vals.items() if v is not None}
    if not have or "fc" not in have:
        return "no fc result here" if have else "no results"
    best = min(have, key=have.get)
    fcv = have["fc"]
    if best == "fc":
        head = f"fc fastest ({fmt_ratio(fcv)} libc's time)"
    elif have[best] * noise_limit(None) >= fcv:
        head = f"fc within noise of {best}, the fastest ({fmt_ratio(fcv)} against {fmt_ratio(have[best])})"
    else:
        head = f"{best} fastest ({fmt_ratio(have[best])} libc's time, fc {fmt_ratio(fcv)})"
    fc_name = dict(cols)["fc"]
    extra = []
    for col, c in cols:
        if col in ("fc", "libc") or have.get(col) is None:
            continue
        wins = [(nm, t[c] / t[fc_name], at) for nm, t, aa, at in cases
                if c in t and fc_name in t and t[fc_name] > 0 and t[c] * noise_limit(aa) < t[fc_name]]
        if wins:
            lo, hi = min(r for _, r, _ in wins), max(r for _, r, _ in wins)
            if all(at for _, _, at in wins):  # sizes: as size ranges, per label
                labels = list(dict.fromkeys(at[0] for _, _, at in wins))
                where = "; ".join((f"{lbl} " if len(labels) > 1 or len({a[0] for *_, a in cases if a}) > 1 else "")
                                  + size_ranges([at[1] for _, _, at in wins if at[0] == lbl],
                                                [a[1] for *_, a in cases if a and a[0] == lbl]) for lbl in labels)
            else:
                where = ", ".join(nm for nm, _, _ in wins[:8]) + (f" and {len(wins) - 8} more" if len(wins) > 8 else "")
            rng = fmt_ratio(lo) if fmt_ratio(lo) == fmt_ratio(hi) else f"{fmt_ratio(lo)}-{fmt_ratio(hi)}"
            extra.append(f"{col} faster than fc at {where} ({rng} fc's time)")
    return head + ("; " + "; ".join(extra) if extra else "")


def _placement_row(run, cols):
    """cliffs: each contender's worst placement as a fraction of its own aligned speed (median over the sizes, and
    the lowest); higher is better, not relative to libc."""
    by = {}
    for c in run.data["cliffs"]:
        by.setdefault(c["contender"], []).append((c["n"], c["ratio"]))
    vals, row = {}, ["placements: worst / own aligned speed (cliffs; higher is better)"]
    for col, c in cols:
        rs = by.get(c)
        if rs:
            vals[col] = statistics.median(r for _, r in rs)
            lo = min(rs, key=lambda x: x[1])
            row.append(f"{vals[col]:.2f} (lowest {lo[1]:.2f} at {fmt_size(lo[0])})")
        else:
            row.append("-")
    row.append(str(len({n for rs in by.values() for n, _ in rs})))
    if "fc" not in vals:
        return row, "no fc result here"
    best = max(vals, key=vals.get)
    if best == "fc" or vals[best] <= vals["fc"] * (1 + TARGETS_NOISE):
        return row, f"fc keeps the most of its aligned speed at its worst placement ({vals['fc']:.2f})" + (
            "" if best == "fc" else f", within noise of {best} ({vals[best]:.2f})")
    return row, f"{best} keeps the most of its aligned speed at its worst placement ({vals[best]:.2f}, fc {vals['fc']:.2f})"


Comparison = namedtuple("Comparison", "cols rows verdicts peers")


def comparison(run):
    """The Comparison (cols, rows, verdicts, peers), or None where the run lacks libc or fc: the table's rows and
    one (metric, verdict) per row - the section below and the report's summary (summary.py) both show them."""
    cols = _columns(run)
    if "libc" not in dict(cols) or "fc" not in dict(cols):
        return None
    peers = [c for c in run.contenders if is_peer(c)]
    twin = _fc_twin(run)
    rows, verdicts = [], []

    def add(title, cases, metric_cols=None):
        if cases:
            row, v = _metric_row(title, cases, metric_cols or cols)
            rows.append(row)
            verdicts.append((title, v))

    add("fixed sizes, aligned (sizes, hot, up to 1 MiB)",
        _cases(run, "sizes", twin, lambda r: r["label"] == "aligned" and r["cache"] == "hot" and r["n"] <= LARGE_FROM))
    add("fixed sizes, misaligned (sizes src+1, dst+1, up to 1 MiB)",
        _cases(run, "sizes", twin, lambda r: r["label"] != "aligned" and r["cache"] == "hot" and r["n"] <= LARGE_FROM))
    if run.data["cliffs"]:
        row, v = _placement_row(run, cols)
        rows.append(row)
        verdicts.append((row[0], v))
    add("distributions (dist)", _cases(run, "dist", twin, name=lambda label, n: label))
    add("large sizes (sizes aligned above 1 MiB, large)",
        _cases(run, "sizes", twin, lambda r: r["label"] == "aligned" and r["cache"] == "hot" and r["n"] > LARGE_FROM)
        + _cases(run, "large", twin, name=lambda label, n: f"{fmt_size(n)} {label}"))
    # the packet path: fastcopy's inline header against rte_memcpy inlined (packet.c); libc called
    pk_cols = [(col, {"fc": "fc_memcpy_inline"}.get(col, c)) for col, c in cols if col != "tuned"]
    add("packet path, inlined (packet: fc = fc_memcpy_inline)",
        _cases(run, "packet", lambda t: t["fc_memcpy_inline A/A"] / t["fc_memcpy_inline"]
               if "fc_memcpy_inline A/A" in t and t.get("fc_memcpy_inline") else None,
               name=lambda label, n: f"{fmt_size(n)}" if label == "const" else label), pk_cols)
    rx_cols = [(col, {"fc": "fc_memcpy"}.get(col, c)) for col, c in cols if col != "tuned"]
    add("field-rx: frames from DRAM, called (fc = fc_memcpy)",
        _cases(run, "field-rx", name=lambda label, n: fmt_size(n)), rx_cols)
    return Comparison(cols, rows, verdicts, peers)


def render(ctx):
    run, page = ctx.run, ctx.page
    got = comparison(run)
    if not got:
        return
    cols, rows, verdicts, peers = got
    if not rows:
        return
    page.section("fastcopy and the alternatives on this machine", "peers")
    text = ("Each metric's cases (sizes, distributions, frames) as time relative to libc's in the same case, the "
            "median over the cases; lower is better (the placements row: the share of the contender's own aligned "
            "speed it keeps at its worst placement; higher is better). fc: the dispatched fc_memcpy (fc[...])"
            + (", tuned: the tuned profile's contender" if "tuned" in dict(cols) else "") + ". ")
    if peers:
        text += ("Peers: " + ", ".join(peers) + " - DPDK's rte_memcpy (libdpdk-dev's header) compiled by fcbench: "
                 "rte-avx2 with -mavx2, rte-avx512 with -mavx512f -DRTE_MEMCPY_AVX512 (DPDK's AVX-512 path, which "
                 "Debian's DPDK, built for corei7, never takes); memcpy only, so not in the memmove scenario. ")
    else:
        text += "No peers in this run (fcbench built without DPDK's rte_memcpy.h, or --impl left them out). "
    text += ("A verdict names a contender faster than fc in a case when its time is below fc's by more than 5%, or "
             "by more than the case's A/A spread (the same routine twice, same rounds) where that is wider, up to "
             "10%.")
    page.p(text)
    page.table(["metric"] + [col for col, _ in cols] + ["cases"], rows)
    page.raw("<ul>" + "".join(f"<li><b>{page.esc(t)}</b>: {page.esc(v)}</li>" for t, v in verdicts) + "</ul>")
