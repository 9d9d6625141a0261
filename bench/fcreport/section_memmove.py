"""Report section "memmove with overlap" (scenario memmove): GB/s per overlap and size, and each contender's time
relative to libc's memmove in the same case."""

from .fmt import fmt_num, fmt_ratio
from .page import label_n_rows


def render(ctx):
    run, page = ctx.run, ctx.page
    rs = run.by_scenario.get("memmove")
    if not rs:
        return
    page.section("memmove with overlap", "memmove")
    page.p("Each contender's memmove with src and dst in one buffer, dst = src + delta (delta > 0 needs a "
           "backward copy, delta < 0 a forward one), and the aligned non-overlapping move as reference; hot. "
           "GB/s, and in brackets the time relative to libc's memmove in the same case.")
    names = run.ordered({r["contender"] for r in rs})

    def cell(c, r, case):
        base = case.get("libc")
        return fmt_num(r["gbps"]) + (f" ({fmt_ratio(r['med_ns'] / base['med_ns'])})" if base and c != "libc" else "")
    rows, _ = label_n_rows(rs, names, cell)
    page.table(["overlap", "n"] + [f"{c} GB/s" for c in names], rows, num={1})
