"""Report section "Packet path" (scenario packet): ns per packet of a packet path's copies - headers and frames of
constant size, and variable sizes - with each variant's copy inlined where the program's code would inline it
(fastcopy's inline header, rte_memcpy), beside libc called; the A/A column is this run's noise."""

from .fmt import fmt_ratio, fmt_size
from .page import label_n_rows, vs_libc

AA = "fc_memcpy_inline A/A"  # the same code as fc_memcpy_inline, a second function (packet.c)


def render(ctx):
    run, page = ctx.run, ctx.page
    rs = ctx.open("packet", "Packet path: copies inlined (packet)", "packet",
                  "fcbench packet: a pool of mbuf-like 2304 B elements (data at 256), each packet copied from an "
                  "rx element to a tx element, its lengths set and a header byte read back. Constant sizes (14, 20, "
                  "32, 64, 128 B headers; 1518 B frames) reach the copy as constants; var: sizes 1-1024 B from a "
                  "fixed pseudo-random sequence (n = their mean). libc: memcpy called through a pointer; "
                  "libc-builtin: memcpy() in the source (the compiler's expansion, else a call); fc_memcpy: called; "
                  "fc_memcpy_inline: fastcopy/inline.h built for the baseline, [avx2]: built with -mavx2; rte-avx2 / "
                  "rte-avx512: DPDK's rte_memcpy inlined, built with -mavx2 / -mavx512f -DRTE_MEMCPY_AVX512. Median "
                  "ns per packet, in brackets the time relative to libc's; A/A: fc_memcpy_inline's twin over "
                  "fc_memcpy_inline (the same code: the run's noise in that case).")
    if not rs:
        return
    names = [c for c in run.ordered({r["contender"] for r in rs}) if c != AA]
    rows, cases = label_n_rows(rs, names, vs_libc(lambda r: f"{r['med_ns']:.2f}"))
    for row, (_, _, case) in zip(rows, cases):
        a, b = case.get(AA), case.get("fc_memcpy_inline")
        row.append(fmt_ratio(a["med_ns"] / b["med_ns"]) if a and b else "-")
    for row, (lbl, n, _) in zip(rows, cases):
        row[1] = fmt_size(n) if lbl == "const" else f"mean {fmt_size(n)}"
    page.table(["sizes", "bytes"] + [f"{c} ns" for c in names] + ["A/A"], rows)
