"""Report section "Percent of peak": hot sizes results as a share of the peak of the level the copy lives in, and
of the copy ceiling at the same size (scenario sizes-ceiling)."""

from .fmt import fmt_num, fmt_size


def plot_pct_peak(plots, panels):
    """panels: [(label, [(contender, n, pct)])]."""
    fig, axes = plots.figure(w=4.0 * len(panels) + 1, h=4.2, ncols=len(panels), sharey=True, squeeze=False)
    for ax, (label, pts) in zip(axes[0], panels):
        ns = [p[1] for p in pts]
        for c in plots.run.ordered({p[0] for p in pts}):
            xs = sorted((n, v) for cc, n, v in pts if cc == c)
            ax.plot([x[0] for x in xs], [x[1] for x in xs], lw=1.1, color=plots.color(c), label=c)
        plots.size_axis(ax, min(ns), max(ns), step=16)
        plots.cache_marks(ax, min(ns), max(ns), peaks=False)
        ax.axhline(100, color="0.3", ls="--", lw=1)
        ax.set_title(f"{label}, hot")
        ax.set_xlabel("n")
    axes[0][0].set_ylabel("% of the level's peak")
    axes[0][0].set_ylim(bottom=0)
    axes[0][-1].legend(fontsize=7)
    return plots.save(fig, "fcbench-pct-peak.png")

# ratio to aligned in bins: the cliff threshold is a colour edge (reds below it), like fcbench grid's map


def render(ctx):
    run, page = ctx.run, ctx.page
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
    page.img(ctx.plot(plot_pct_peak, panels), "% of the level's peak vs n, per placement (hot)")
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
