"""Report section "Cliffs": each contender's worst placement per size (screened over the distance sweep and the
src_off x dst_off grid, the worst candidates re-measured, the lowest measured once more) against its own aligned
speed, from the run's cliff records."""

from .run import CLIFF_RATIO
from .fmt import fmt_num, fmt_ratio, fmt_size


def render(ctx):
    cl = ctx.run.data["cliffs"]
    if not cl:
        return
    page = ctx.page
    page.section("Cliffs", "cliffs")
    page.p(f"Each contender's worst placement per size (screened over the distance sweep and the src_off x "
           f"dst_off grid, the 24 worst re-measured, the lowest of those measured once more: the ratio shown; "
           f"selected: the lowest re-measured ratio, biased low by that choice), as a fraction of its own aligned "
           f"speed; flagged below {CLIFF_RATIO}x.")
    order = {c: i for i, c in enumerate(ctx.run.contenders)}
    rows = sorted(cl, key=lambda c: (c["n"], order.get(c["contender"], 99)))
    # selected: the lowest re-measured ratio, which chose the placement (runs before 2026-11-26 evening
    # reported that one as the ratio and lack the field)
    sel = any("selected_ratio" in c for c in rows)
    page.table(["n", "contender", "aligned GB/s", "worst GB/s", "ratio"] + (["selected"] if sel else []) +
               ["src_off", "dst_off", "dist", "flagged"],
               [[fmt_size(c["n"]), c["contender"], fmt_num(c["aligned_gbps"]), fmt_num(c["worst_gbps"]),
                 fmt_ratio(c["ratio"])] + ([fmt_ratio(c["selected_ratio"]) if "selected_ratio" in c else ""]
                                           if sel else []) +
                [c["src_off"], c["dst_off"], c["dist"], "CLIFF" if c["flagged"] else ""]
                for c in rows], num={0, 2, 3, 4, 5, 6, 7, 8} if sel else {0, 2, 3, 4, 5, 6, 7},
               flags=[i for i, c in enumerate(rows) if c["flagged"]])
