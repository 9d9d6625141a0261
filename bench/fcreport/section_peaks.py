"""Report section "Peak copy ceilings" (scenario peak): the machine's copy ceiling per cache level and DRAM, and
every peak kernel's GB/s per level."""

from .run import LEVELS
from .fmt import fmt_num, fmt_size


def render(ctx):
    run, page = ctx.run, ctx.page
    pk = run.data["peaks"]
    rs = run.by_scenario.get("peak", [])
    if not pk and not rs:
        return
    page.section("Peak copy ceilings", "peaks")
    page.p("The machine's copy ceiling per level: the best of several kernels (vector loops, rep movsb, "
           "non-temporal stores) on a page-aligned copy whose src + dst (2n) fit the level.")
    sizes = dict(run.cache_levels())
    if pk:
        page.table(["level", "level size", "n", "GB/s", "best kernel"],
                   [[p["level"], fmt_size(sizes[p["level"]]) if p["level"] in sizes else "-", fmt_size(p["n"]),
                     fmt_num(p["gbps"]), p["kernel"]] for p in pk], num={1, 2, 3})
    if rs:
        levels = [lv for lv in LEVELS if any(r["label"] == lv for r in rs)]
        at = {(r["contender"], r["label"]): r["gbps"] for r in rs}
        best = {lv: max(v for (k, l), v in at.items() if l == lv) for lv in levels}
        kernels = list(dict.fromkeys(r["contender"] for r in rs))
        page.table(["kernel"] + [f"{lv} GB/s" for lv in levels],
                   [[k] + [fmt_num(at[(k, lv)]) + (" *" if at[(k, lv)] == best[lv] else "")
                           if (k, lv) in at else "-" for lv in levels] for k in kernels])
