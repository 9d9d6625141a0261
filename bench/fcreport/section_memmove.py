"""Report section "memmove with overlap" (scenario memmove): GB/s per overlap and size, and each contender's time
relative to libc's memmove in the same case."""

from .fmt import fmt_num
from .page import label_n_rows, vs_libc


def render(ctx):
    run, page = ctx.run, ctx.page
    rs = ctx.open("memmove", "memmove with overlap", "memmove",
                  "Each contender's memmove with src and dst in one buffer, dst = src + delta (delta > 0 needs a "
                  "backward copy, delta < 0 a forward one), and the aligned non-overlapping move as reference; hot. "
                  "GB/s, and in brackets the time relative to libc's memmove in the same case.")
    if not rs:
        return
    names = run.ordered({r["contender"] for r in rs})

    rows, _ = label_n_rows(rs, names, vs_libc(lambda r: fmt_num(r["gbps"])))
    page.table(["overlap", "n"] + [f"{c} GB/s" for c in names], rows, num={1})
