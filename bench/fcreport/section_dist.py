"""Report section "Real size distributions" (scenario dist): ns per call on the recorded memcpy size distributions,
each contender against libc."""

from .fmt import fmt_num, fmt_ratio, geomean


def plot_dist_bars(plots, labels, contenders, ns):
    """ns[(contender, label)] = median ns per call."""
    fig, ax = plots.figure(w=9, h=4.4)
    width = 0.8 / max(1, len(contenders))
    for j, c in enumerate(contenders):
        xs = [i + (j - (len(contenders) - 1) / 2) * width for i in range(len(labels))]
        ax.bar(xs, [ns.get((c, lbl), 0) for lbl in labels], width, color=plots.color(c), label=c)
    vals = [v for v in ns.values() if v > 0]
    if vals and max(vals) / min(vals) > 20:
        plots.log_y(ax)
    ax.set_xticks(range(len(labels)))
    ax.set_xticklabels(labels, fontsize=8)
    ax.set_ylabel("ns per call (median)")
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(fontsize=8)
    ax.set_title("dist: real memcpy size distributions (lower is better)")
    return plots.save(fig, "fcbench-dist.png")


def render(ctx):
    run, page = ctx.run, ctx.page
    rs = ctx.open("dist", "Real size distributions (dist)", "dist",
                  "Median ns per call over batches of calls whose sizes follow recorded memcpy size distributions "
                  "(random src/dst offsets 0..63); n = the batch's mean size. Lower is better.")
    if not rs:
        return
    labels = list(dict.fromkeys(r["label"] for r in rs))
    names = run.ordered({r["contender"] for r in rs})
    ns = {(r["contender"], r["label"]): r["med_ns"] for r in rs}
    mean = {r["label"]: r["n"] for r in rs}
    page.img(ctx.plot(plot_dist_bars, labels, names, ns), "ns per call per distribution")
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
