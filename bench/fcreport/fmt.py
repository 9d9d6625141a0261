"""Formatting shared by every command: sizes, numbers, ratios, p-values, rates, size and integer ranges, and
aligned plain-text tables."""

import math

from .run import MIB


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


def fmt_ns(x):
    return f"{x:,.0f}" if x >= 1000 else f"{x:.4g}"


def text_table(headers, rows, right=None):
    """Rows of strings as aligned text; `right` = indices of right-aligned columns (default: all but the first)."""
    right = set(range(1, len(headers))) if right is None else set(right)
    widths = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(headers)]

    def line(cells):
        return "  ".join(c.rjust(w) if i in right else c.ljust(w)
                         for i, (c, w) in enumerate(zip(cells, widths))).rstrip()

    return "\n".join([line(headers)] + [line(r) for r in rows]) + "\n"
