"""Report section "Pipe bandwidth" (scenario pipe): lmbench bw_pipe style MiB/s by message size, with the IQR."""

from .fmt import fmt_num, fmt_size, mibs


def plot_pipe(plots, rows):
    fig, ax = plots.figure(w=8, h=4.2)
    rows = sorted(rows, key=lambda r: r["n"])
    x = [r["n"] for r in rows]
    y = [mibs(r) for r in rows]
    lo = [mibs(r) * r["med_ns"] / r["q3_ns"] for r in rows]   # slower quartile -> lower rate
    hi = [mibs(r) * r["med_ns"] / r["q1_ns"] for r in rows]
    ax.errorbar(x, y, yerr=[[a - b for a, b in zip(y, lo)], [b - a for a, b in zip(y, hi)]], marker="o",
                ms=4, capsize=3, color=plots.color("pipe"))
    plots.size_axis(ax, min(x), max(x))
    ax.set_ylim(bottom=0)
    ax.set_xlabel("message size (bytes)")
    ax.set_ylabel("MiB/s (median, IQR bars)")
    ax.set_title("pipe bandwidth (writer process -> pipe -> reader)")
    return plots.save(fig, "fcbench-pipe.png")


def render(ctx):
    rs = ctx.run.by_scenario.get("pipe")
    if not rs:
        return
    page = ctx.page
    page.section("Pipe bandwidth", "pipe")
    page.p("lmbench bw_pipe style: a writer process, a pipe, this process reading; both copies are the "
           "kernel's (copy_from_user, copy_to_user).")
    page.img(ctx.plot(plot_pipe, rs), "pipe MiB/s vs message size")
    page.table(["message", "MiB/s", "ns per message", "IQR ns", "messages per sample"],
               [[fmt_size(r["n"]), f"{mibs(r):,.0f}", fmt_num(r["med_ns"]),
                 f"{fmt_num(r['q1_ns'])}..{fmt_num(r['q3_ns'])}", r["iters"]]
                for r in sorted(rs, key=lambda r: r["n"])])
