"""Report section "Offsets (user space)" (scenarios offsets-read, offsets-write), and offset_section(), the per-offset
plot and table it shares with section_uaccess: MiB/s per offset, offset 0 against offsets 1..7 (Mann-Whitney)."""

from .run import OFFSET_TESTS
from .fmt import fmt_p, fmt_ratio, fmt_size, mibs
from .analysis import offset_groups, offset_stats


def plot_per_offset(plots, name, tests, log):
    """tests: [(title, [(contender, base, {off: result})])]: one row per test, one column per size."""
    bases = sorted({b for _, groups in tests for _, b, _ in groups})
    fig, axes = plots.figure(w=3.4 * len(bases) + 0.8, h=3.0 * len(tests) + 0.3, nrows=len(tests),
                             ncols=len(bases), squeeze=False, sharex=True)
    for row, (title, groups) in zip(axes, tests):
        for ax, b in zip(row, bases):
            for c, bb, by in groups:
                if bb != b:
                    continue
                offs = sorted(by)
                ax.plot(offs, [mibs(by[o]) for o in offs], lw=1, marker="." if len(offs) <= 16 else None,
                        ms=4, color=plots.color(c), label=c)
            ax.set_title(f"{title.split(' (')[0]}, {fmt_size(b)} - offset", fontsize=9)
            if log:
                plots.log_y(ax)
            ax.grid(True, which="both", alpha=0.25)
        row[0].set_ylabel("MiB/s")
    for ax in axes[-1]:
        ax.set_xlabel("offset")
    axes[0][-1].legend(fontsize=7)
    return plots.save(fig, f"fcbench-{name}.png")


def offset_section(ctx, title, anchor, tests, intro, plot_name, log):
    run, page = ctx.run, ctx.page
    present = [(s, f, w) for s, f, w in OFFSET_TESTS if s in tests and run.by_scenario.get(s)]
    if not present:
        return
    page.section(title, anchor)
    page.p(intro)
    groups = [(w, offset_groups(run, s, f)) for s, f, w in present]
    page.img(ctx.plot(plot_per_offset, plot_name, groups, log), f"{title}: MiB/s vs offset")
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


def render(ctx):
    offset_section(ctx, "Offsets (user space)", "offsets", ("offsets-read", "offsets-write"),
                   "The riscv uaccess thread's table with every contender as the copier: read = src at the "
                   "offset, write = dst at the offset; size = 8/16/32 KiB minus the offset.",
                   "offsets", True)
