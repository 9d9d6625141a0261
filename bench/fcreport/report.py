"""fcbench report: report.html and its PNGs for one run.  SECTIONS names the page's sections in order, one module
each (section_NAME.py, with render(ctx)); Report is the context they render into: ctx.run, ctx.page (the Page
being built) and ctx.plot(fn, *args) (fn(plots, *args), or None without matplotlib)."""

import importlib
import os
import sys

from .run import Run, UsageError, load_runs
from .page import Page
from .plots import Plots
from .summary import method_sentence, summary_items, summary_text

# The page's sections, in order: NAME is the module section_NAME.py, with render(ctx).  A new scenario: one module,
# and its name here.
SECTIONS = (
    "peers",
    "cliffs",
    "sizes",
    "pct_peak",
    "grids",
    "distance",
    "dist",
    "readback",
    "memmove",
    "checked",
    "field",
    "packet",
    "large",
    "offsets",
    "uaccess",
    "pipe",
    "peaks",
)
SECTION_MODULES = tuple(importlib.import_module(f"{__package__}.section_{name}") for name in SECTIONS)


class Report:
    """Builds report.html for one run: each section renders only what the run contains."""

    def __init__(self, run, plots):
        self.run, self.plots, self.page = run, plots, Page()

    def open(self, scenario, title, anchor, text):
        """A section's start: None when the run has no results of the scenario (nothing written), else the
        heading and the opening paragraph written and the results returned."""
        rs = self.run.by_scenario.get(scenario)
        if not rs:
            return None
        self.page.section(title, anchor)
        self.page.p(text)
        return rs

    def plot(self, fn, *args):
        """A section's plot: fn(plots, *args), its PNG's name; None when there are no plots (no matplotlib)."""
        return fn(self.plots, *args) if self.plots else None

    def build(self, summary):
        """The page; summary: summary_items(run)."""
        run, page = self.run, self.page
        head = []
        head.append('<h2 id="summary">Summary</h2><div class="summary">')
        for title, sentences in summary:
            head.append(f"<h3>{Page.esc(title)}</h3><ul>" + "".join(f"<li>{Page.esc(s)}</li>" for s in sentences)
                        + "</ul>")
        head.append(f"<p class=note>{Page.esc(method_sentence(run))}</p>")
        head.append(f"<p class=note>Command: <code>{Page.esc(run.data['argv'])}</code>; contenders: "
                    f"{Page.esc(', '.join(run.contenders))}.</p>")
        if not self.plots:
            head.append("<p class=note><b>Plots omitted: matplotlib (and numpy) are not installed.</b></p>")
        head.append("</div>")
        for section in SECTION_MODULES:
            section.render(self)
        if not run.data["results"] and not run.data["grids"]:
            page.p("This run holds no results.")
        m = run.machine
        title = f"fcbench report: {run.data['scenario']} on {m['cpu']} ({run.data['date']})"
        return page.render(title, head)


def cmd_report(args, out=None):
    out = out or sys.stdout
    run = Run(load_runs(args.results), " + ".join(args.results))
    outdir = args.outdir or os.path.dirname(os.path.abspath(args.results[0]))
    try:
        os.makedirs(outdir, exist_ok=True)
    except OSError as e:
        raise UsageError(f"-o {outdir}: {e.strerror}") from None
    try:
        plots = Plots(outdir, run)
    except ImportError as e:
        print(f"fcbench report: {e.name or 'matplotlib'} is not installed: writing the tables without plots",
              file=sys.stderr)
        plots = None
    summary = summary_items(run)
    page = Report(run, plots).build(summary)
    path = os.path.join(outdir, "report.html")
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(page)
    except OSError as e:
        raise UsageError(f"{path}: {e.strerror}") from None
    out.write(f"{path}\n\n{summary_text(summary)}")
    return 0
