"""Report section "Offset maps": the src_off x dst_off grids (fcbench grid, and the cliff finder's screening),
one heatmap panel per contender coloured by the ratio to its aligned speed, and the rule behind the slow cells."""

from collections import defaultdict

from .run import CLIFF_RATIO
from .fmt import fmt_num, fmt_ratio, fmt_size
from .analysis import grid_line_rule, grid_residue_rule


# ratio to aligned in bins: the cliff threshold is a colour edge (reds below it), like fcbench grid's map
RATIO_BINS = (0, 0.1, 0.25, 0.5, CLIFF_RATIO, 0.95, 1.05, 1e9)
RATIO_COLORS = ("#67000d", "#a50f15", "#ef3b2c", "#fc9272", "#fee391", "#c7e9c0", "#6baed6")


def plot_heatmaps(plots, source, n, cache, grids):
    """One panel per contender: src_off rows x dst_off columns, coloured by the ratio to its aligned speed."""
    np = plots.np
    cmap = plots.mcolors.ListedColormap(RATIO_COLORS)
    cmap.set_bad("#bbbbbb")
    norm = plots.mcolors.BoundaryNorm(RATIO_BINS, cmap.N)
    ncol = min(3, len(grids))
    nrow = -(-len(grids) // ncol)
    fig, axes = plots.figure(w=3.3 * ncol + 1.2, h=3.2 * nrow + 0.4, nrows=nrow, ncols=ncol, squeeze=False)
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
        cb = fig.colorbar(im, ax=axes, shrink=0.8, label="GB/s / aligned GB/s", ticks=RATIO_BINS[1:-1])
        cb.ax.tick_params(labelsize=7)
    fig.suptitle(f"{source}: n = {fmt_size(n)}, {cache}; reds: below {CLIFF_RATIO}x of the contender's aligned "
                 f"speed; grey: not measured", fontsize=10)
    return plots.save(fig, f"fcbench-grid-{source}-{n}-{cache}.png")


def render(ctx):
    gs = ctx.run.data["grids"]
    if not gs:
        return
    page = ctx.page
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
        grids = sorted(grids, key=lambda g: ctx.run.ordered([x["contender"] for x in grids]).index(g["contender"]))
        page.img(ctx.plot(plot_heatmaps, source, n, cache, grids), f"{source}, n = {fmt_size(n)}, {cache}")
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
