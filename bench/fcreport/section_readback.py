"""Report section "Copy, then read back" (scenario readback): ns per call of a copy whose last 8 bytes are loaded at
once and feed the next call (store-to-load forwarding latency), each contender against libc."""

from .fmt import fmt_num, fmt_ratio, geomean
from .page import label_n_rows, vs_libc


def plot_readback(plots, rs):
    fig, ax = plots.figure(h=4.2)
    ns = [r["n"] for r in rs]
    for c in plots.run.ordered({r["contender"] for r in rs}):
        pts = sorted((r["n"], r["med_ns"]) for r in rs if r["contender"] == c)
        ax.plot([p[0] for p in pts], [p[1] for p in pts], lw=1.2, marker=".", color=plots.color(c), label=c)
    plots.size_axis(ax, min(ns), max(ns), step=2)
    vals = [r["med_ns"] for r in rs if r["med_ns"] > 0]
    log = bool(vals) and max(vals) / min(vals) > 20
    if log:
        plots.log_y(ax)
    else:
        ax.set_ylim(bottom=0)
    ax.set_xlabel("n (bytes per call)")
    ax.set_ylabel("ns per call (median" + (", log)" if log else ")"))
    ax.set_title("readback: copy, then load dst's last 8 bytes (lower is better)")
    ax.legend(fontsize=8)
    return plots.save(fig, "fcbench-readback.png")


def render(ctx):
    run, page = ctx.run, ctx.page
    rs = ctx.open("readback", "Copy, then read back (readback)", "readback",
                  "The latency of a copy whose result is read at once, as when a struct is copied and then used: each "
                  "call copies n bytes, then loads dst's last 8 bytes, and the next call's src address depends on the "
                  "loaded value, so the calls form a dependent chain. A copy whose stores cannot forward to that load (a "
                  "masked store, a load spanning two stores) waits for them to reach L1. Median ns per call (hot, "
                  "aligned), and in brackets the time relative to libc's in the same case; lower is better.")
    if not rs:
        return
    names = run.ordered({r["contender"] for r in rs})
    page.img(ctx.plot(plot_readback, rs), "readback: ns per call vs n")

    rows, cases = label_n_rows(rs, names, vs_libc(lambda r: fmt_num(r["med_ns"])))
    rows = [row[1:] for row in rows]  # readback has no placements: its label is always ""
    if "libc" in names and len(cases) > 1:
        rows.append(["geomean vs libc"] + [fmt_ratio(geomean([case[c]["med_ns"] / case["libc"]["med_ns"]
                                                              for _, _, case in cases if c in case and "libc" in case]))
                                           for c in names])
    page.table(["n"] + [f"{c} ns" for c in names], rows)
