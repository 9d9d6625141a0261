"""Report section "Field" (scenarios field-rx, field-pvp, field-programs): packets per second by frame size, real
programs under glibc and under the preload object, and the copy sizes fcbench record saw in them."""

import os
from collections import defaultdict

from .run import SCRIPT_DIR
from .fmt import fmt_ratio
from .page import label_n_rows, vs_libc
from .plots import safe


def plot_field(plots, rs):
    """Mpps by frame size per contender, one panel per thread count (fcbench field)."""
    labels = list(dict.fromkeys(r["label"] for r in rs))
    fig, axes = plots.figure(w=5.0 * len(labels), h=4.2, ncols=len(labels), squeeze=False)
    for ax, lbl in zip(axes[0], labels):
        for c in plots.run.ordered({r["contender"] for r in rs if r["label"] == lbl}):
            pts = sorted((r["n"], 1e3 / r["med_ns"]) for r in rs if r["label"] == lbl and r["contender"] == c
                         and r["med_ns"] > 0)
            if pts:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", ms=4, label=c, color=plots.color(c))
        plots.size_axis(ax, 64, 9000, step=2)
        ax.set_ylim(bottom=0)
        ax.set_xlabel("frame size (bytes)")
        ax.set_ylabel("Mpps (median)")
        ax.set_title(f"packets, {lbl}")
        ax.legend(fontsize=8)
    return plots.save(fig, "fcbench-field.png")


def plot_size_hist(plots, name, probs):
    """A recorded distribution's sizes: probability per size, 0..4096 (log x from 1)."""
    fig, ax = plots.figure(w=8, h=3.2)
    xs = [i for i, p in enumerate(probs) if p > 0]
    ax.bar([max(x, 0.8) for x in xs], [probs[x] for x in xs], width=[max(x, 1) * 0.08 for x in xs],
           color=plots.color(name))
    ax.set_xscale("log", base=2)
    ax.set_xlim(0.7, 4096 * 1.2)
    ax.set_xlabel("copy size (bytes; 0 drawn at 0.8)")
    ax.set_ylabel("share of calls <= 4 KiB")
    ax.set_title(f"recorded: {name}")
    return plots.save(fig, f"fcbench-recorded-{safe(name)}.png")


def recorded_distributions():
    """The recordings shipped beside fcbench_report.py (bench/distributions/recorded, or its installed copy):
    [(name, probabilities of sizes 0..4096)]."""
    d = os.path.join(SCRIPT_DIR, "distributions", "recorded")
    out = []
    for f in sorted(os.listdir(d)) if os.path.isdir(d) else []:
        if f.endswith(".csv") and not f.endswith(".align.csv"):
            try:
                with open(os.path.join(d, f)) as fh:
                    probs = [float(v) for v in fh.read().strip().split(",")]
            except (OSError, ValueError):
                continue
            out.append((f[:-4], probs))
    return out


def render(ctx):
    run, page = ctx.run, ctx.page
    rs = run.by_scenario.get("field-rx", []) + run.by_scenario.get("field-pvp", [])
    if not rs:
        return
    page.section("Field: packets per second by frame size", "field")
    page.p("fcbench field: frames from a packet ring larger than the last-level cache (128 B headroom + 2 B "
           "NET_IP_ALIGN) copied into application buffers, one thread (the UDP RX shape); and through a "
           "shared ring between two threads on two CPUs (the vhost/PVP shape). Mpps, and in brackets the "
           "time per packet relative to libc's in the same run.")
    names = run.ordered({r["contender"] for r in rs})

    rows, _ = label_n_rows(rs, names, vs_libc(lambda r: f"{1e3 / r['med_ns'] if r['med_ns'] > 0 else 0:.2f}"))
    page.img(ctx.plot(plot_field, rs), "Mpps by frame size, one and two threads")
    page.table(["threads", "frame"] + [f"{c} Mpps" for c in names], rows, num={1})
    progs = run.by_scenario.get("field-programs", [])
    if progs:
        page.p("Real programs (fcbench field-programs) under glibc and under libfastcopy-preload.so, runs "
               "alternated, output checked identical: median CPU seconds (user + system) and the ratio; the "
               "95% bootstrap interval is in fcbench's text output.")
        by = defaultdict(dict)
        for r in progs:
            by[r["label"]][r["contender"]] = r
        prow = []
        for name, d in by.items():
            a, b = d.get("libc"), d.get("preload")
            prow.append([name, f"{a['med_ns'] / 1e9:.3f}" if a else "-", f"{b['med_ns'] / 1e9:.3f}" if b else "-",
                         fmt_ratio(b["med_ns"] / a["med_ns"]) if a and b else "-"])
        page.table(["program", "glibc CPU s", "preload CPU s", "preload / glibc"], prow)
    rec = recorded_distributions()
    if rec:
        page.p("The copy sizes of the programs as fcbench record saw them (bench/distributions/recorded, with "
               "their provenance; replay one with fcbench dist --file).")
        for name, probs in rec:
            page.img(ctx.plot(plot_size_hist, name, probs), f"recorded copy sizes of {name}")
