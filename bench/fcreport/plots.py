"""Shared plot helpers (matplotlib, imported lazily by Plots): one colour per contender across every plot, figure
setup and saving, the log-2 size axis with cache-level marks and peaks, the plain-number log y axis.  Each section's
own plots are functions in its module taking the Plots instance first."""

import math
import os

from .run import DPI
from .fmt import fmt_num, fmt_size_short


class Plots:
    """Writes the report's PNGs; one colour per contender across every plot."""

    def __init__(self, outdir, run):
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.colors as mcolors
        import matplotlib.pyplot as plt
        import numpy as np
        self.plt, self.np, self.mcolors, self.outdir, self.run = plt, np, mcolors, outdir, run
        self.palette = list(plt.get_cmap("tab10").colors) + list(plt.get_cmap("Dark2").colors)
        self.colors = {}
        for c in run.contenders:
            self.color(c)

    def color(self, name):
        if name not in self.colors:
            self.colors[name] = self.palette[len(self.colors) % len(self.palette)]
        return self.colors[name]

    def figure(self, w=9.0, h=4.8, **kw):
        return self.plt.subplots(figsize=(w, h), layout="constrained", **kw)

    def save(self, fig, name):
        fig.savefig(os.path.join(self.outdir, name), dpi=DPI)
        self.plt.close(fig)
        return name

    @staticmethod
    def size_axis(ax, lo, hi, step=4):
        ax.set_xscale("log", base=2)
        ticks, t = [], 1
        while t <= hi * 1.01:
            if t >= lo / 1.01:
                ticks.append(t)
            t *= step
        ax.set_xticks(ticks)
        ax.set_xticklabels([fmt_size_short(t) for t in ticks])
        ax.set_xlim(lo / 1.2, hi * 1.2)
        ax.grid(True, which="major", alpha=0.3)

    def cache_marks(self, ax, lo, hi, peaks=True):
        """Vertical lines where src + dst = 2n outgrow a cache level; the level's peak as a dashed step."""
        edges = [lo / 1.2]
        for lv, size in self.run.cache_levels():
            x = size / 2
            if lo < x < hi:
                ax.axvline(x, color="0.5", lw=0.8, ls=":")
                ax.text(x, 1.0, f" 2n = {lv}", transform=ax.get_xaxis_transform(), va="top", fontsize=7, color="0.35")
            edges.append(x)
        edges.append(hi * 1.2)
        if not peaks:
            return
        pk = self.run.peaks()
        names = [lv for lv, _ in self.run.cache_levels()] + ["DRAM"]
        for i, lv in enumerate(names):
            if lv in pk and i + 1 < len(edges):
                a, b = max(edges[i], lo / 1.2), min(edges[i + 1], hi * 1.2)
                if a < b:
                    ax.hlines(pk[lv]["gbps"], a, b, colors="0.3", linestyles="--", lw=1)
                    ax.text(math.sqrt(a * b), pk[lv]["gbps"], f"{lv} peak {fmt_num(pk[lv]['gbps'])}",
                            ha="center", va="bottom", fontsize=7, color="0.3")

    @staticmethod
    def log_y(ax):
        """A log y axis labelled in plain numbers (1,000 not 10^3): powers of ten, and 2x and 5x them."""
        import matplotlib.ticker as ticker

        def label(v, _pos, minor=False):
            if v <= 0 or (minor and round(v / 10 ** math.floor(math.log10(v) + 1e-9)) not in (2, 5)):
                return ""
            return f"{v:,.0f}" if v >= 1 else f"{v:g}"

        ax.set_yscale("log")
        ax.yaxis.set_major_formatter(ticker.FuncFormatter(label))
        ax.yaxis.set_minor_formatter(ticker.FuncFormatter(lambda v, p: label(v, p, True)))


def safe(name):
    """A contender or label as part of a file name."""
    return "".join(ch if ch.isalnum() or ch in "-_" else ("p" if ch == "+" else "_") for ch in name)
