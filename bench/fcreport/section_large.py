"""Report section "Large copies" (scenario large): MiB/s and ms of one large copy per call, aligned and unaligned,
the DRAM ceiling timed beside them (large-ceiling), and the seed patch's line format."""

from .fmt import fmt_ratio, mibs
from .page import Page


def render(ctx):
    run, page = ctx.run, ctx.page
    rs = ctx.open("large", "Large copies", "large",
                  "One copy of n bytes per call (aligned: src_off 0; unaligned: src_off 1), median of the samples, "
                  "in MiB/s as in the seed patch's lines (MBytes = MiB).")
    if not rs:
        return
    at = {(r["contender"], r["label"]): r for r in rs}
    labels = list(dict.fromkeys(r["label"] for r in rs))
    rows = []
    for c in run.ordered({r["contender"] for r in rs}):
        row = [c]
        for lbl in labels:
            r = at.get((c, lbl))
            row += [f"{mibs(r):,.0f}" if r else "-", f"{r['med_ns'] / 1e6:.1f}" if r else "-"]
        if "aligned" in labels and "unaligned" in labels and (c, "aligned") in at and (c, "unaligned") in at:
            row.append(fmt_ratio(mibs(at[(c, "unaligned")]) / mibs(at[(c, "aligned")])))
        rows.append(row)
    heads = ["contender"] + [h for lbl in labels for h in (f"{lbl} MiB/s", f"{lbl} ms")]
    if len(rows[0]) > len(heads):
        heads.append("unaligned / aligned")
    page.table(heads, rows)
    for lbl in labels:
        ceil = sorted(run.results("large-ceiling", label=lbl), key=lambda r: -r["gbps"])
        if ceil:
            page.p(f"DRAM ceiling, timed in the same samples as the {lbl} copies (peak's non-temporal and rep "
                   "movsb kernels; the aligned and unaligned copies' samples alternate round by round): "
                   + ", ".join(f"{r['contender']} {mibs(r):,.0f} MiB/s" for r in ceil) + ".")
    lines = [f"{r['contender']} memcpy: {r['label']} copy of {r['n'] >> 20} MBytes in {r['med_ns'] / 1e6:.0f} "
             f"msecs ({mibs(r):.0f} MB/s)" for r in rs]
    page.details("the seed format", lambda: page.raw("<pre>" + Page.esc("\n".join(lines)) + "</pre>"))
