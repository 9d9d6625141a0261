"""Report section "Throughput vs size" (scenario sizes): GB/s against n per placement and cache state, ns per call
of the small copies, and GB/s at powers of two."""

from .fmt import fmt_num, fmt_size
from .plots import safe


def plot_sizes(plots, label, cache, rows):
    fig, ax = plots.figure()
    ns = [r["n"] for r in rows]
    for c in plots.run.ordered({r["contender"] for r in rows}):
        pts = sorted((r["n"], r["gbps"]) for r in rows if r["contender"] == c)
        ax.plot([p[0] for p in pts], [p[1] for p in pts], lw=1.2, marker="." if len(pts) <= 40 else None,
                color=plots.color(c), label=c)
    plots.size_axis(ax, min(ns), max(ns))
    plots.cache_marks(ax, min(ns), max(ns))
    ax.set_xlabel("n (bytes per call)")
    ax.set_ylabel("GB/s")
    ax.set_ylim(bottom=0)
    ax.set_title(f"sizes: {label}, {cache}")
    ax.legend(fontsize=8)
    return plots.save(fig, f"fcbench-sizes-{safe(label)}-{cache}.png")


def plot_small_ns(plots, label, cache, rows):
    rows = [r for r in rows if r["n"] <= 512]
    if not rows:
        return None
    fig, ax = plots.figure(h=4.2)
    for c in plots.run.ordered({r["contender"] for r in rows}):
        pts = sorted((r["n"], r["med_ns"]) for r in rows if r["contender"] == c)
        ax.plot([p[0] for p in pts], [p[1] for p in pts], lw=1.2, marker=".", ms=3, color=plots.color(c), label=c)
    ax.set_xlabel("n (bytes per call)")
    ax.set_ylabel("ns per call (median, log)")
    plots.log_y(ax)
    ax.grid(True, which="both", alpha=0.25)
    ax.set_title(f"small copies: time per call, {label}, {cache}")
    ax.legend(fontsize=8)
    return plots.save(fig, f"fcbench-small-{safe(label)}-{cache}.png")


def power_table(run, rows):
    names = run.ordered({r["contender"] for r in rows})
    at = {(r["contender"], r["n"]): r for r in rows}
    ns = sorted({n for _, n in at if n >= 8 and n & (n - 1) == 0})
    if not ns:
        return None
    body = [[fmt_size(n)] + [fmt_num(at[(c, n)]["gbps"]) if (c, n) in at else "-" for c in names] for n in ns]
    return ["n"] + [f"{c} GB/s" for c in names], body


def render(ctx):
    run, page = ctx.run, ctx.page
    rs = ctx.open("sizes", "Throughput vs size", "sizes",
                  "GB/s (median) per contender; dotted lines: where src + dst = 2n reaches the size of a cache level "
                  "(2n = L1 ...); dashed: the machine's peak for the level (fcbench peak).")
    if not rs:
        return
    combos = list(dict.fromkeys((r["label"], r["cache"]) for r in rs))
    for label, cache in combos:
        rows = [r for r in rs if r["label"] == label and r["cache"] == cache]
        page.img(ctx.plot(plot_sizes, label, cache, rows), f"sizes, {label}, {cache}: GB/s vs n")
    label, cache = combos[0]
    page.img(ctx.plot(plot_small_ns, label, cache, [r for r in rs if r["label"] == label and r["cache"] == cache]),
             f"ns per call for n <= 512 B ({label}, {cache})")
    for label, cache in combos:
        rows = [r for r in rs if r["label"] == label and r["cache"] == cache]
        table = power_table(run, rows)
        if table:
            page.details(f"GB/s at powers of two: {label}, {cache}", lambda t=table: page.table(*t))
