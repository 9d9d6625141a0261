"""Report section "Distance sweep": GB/s over (dst - src) mod 4096 with src page-aligned, one plot per contender
and cache state, and the distances below the cliff threshold per size."""

from .run import CLIFF_RATIO
from .fmt import fmt_num, fmt_ratio, fmt_size
from .analysis import describe_distances, distance_sweeps, sweep_flags
from .plots import safe


def plot_distance(plots, contender, cache, sweeps):
    """sweeps: [(n, {dist: gbps})]; three panels: dist just above 0, the middle, just below 4096."""
    segs = [(lambda d: d <= 160, "0 .. 160"), (lambda d: 160 < d < 3936, "160 .. 3936"),
            (lambda d: d >= 3936, "3936 .. 4095 (= -160 .. -1)")]
    used = [(f, t) for f, t in segs if any(f(d) for _, s in sweeps for d in s)]
    fig, axes = plots.figure(w=10, h=4.4, ncols=len(used), sharey=True, squeeze=False,
                             gridspec_kw={"width_ratios": [2 if "(" in t or t.startswith("0") else 1
                                                           for _, t in used]})
    cmap = plots.plt.get_cmap("viridis")
    for ax, (f, t) in zip(axes[0], used):
        for i, (n, s) in enumerate(sweeps):
            pts = sorted((d, g) for d, g in s.items() if f(d) and g > 0)
            ax.plot([p[0] for p in pts], [p[1] for p in pts], lw=1, marker="." if len(pts) < 40 else None,
                    ms=3, color=cmap(i / max(1, len(sweeps) - 1) * 0.9), label=fmt_size(n))
        plots.log_y(ax)
        ax.set_xlabel(f"(dst - src) mod 4096: {t}", fontsize=8)
        ax.grid(True, which="both", alpha=0.25)
    axes[0][0].set_ylabel("GB/s (log)")
    axes[0][-1].legend(fontsize=7, title="n", title_fontsize=7)
    fig.suptitle(f"distance: {contender}, {cache} (src page-aligned)", fontsize=10)
    return plots.save(fig, f"fcbench-distance-{safe(contender)}-{cache}.png")


def render(ctx):
    run, page = ctx.run, ctx.page
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
            page.img(ctx.plot(plot_distance, c, cache, ss), f"distance sweep: {c}, {cache}")
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
