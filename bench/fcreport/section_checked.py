"""Report section "fc_copy_checked" (scenario checked): the fault-tolerant copy beside fc_memcpy, libc and the
guards programs use instead, with its throughput over fc_memcpy's against the target."""

from .fmt import fmt_num
from .page import label_n_rows


def render(ctx):
    run, page = ctx.run, ctx.page
    rs = ctx.open("checked", "fc_copy_checked (nothing faults)", "checked",
                  "The fault-tolerant copy beside fc_memcpy, libc's memcpy and what programs use instead (a "
                  "sigsetjmp guard per call, with and without saving the signal mask; process_vm_readv on the own "
                  "pid); hot. GB/s, and for fc_copy_checked in brackets its throughput over fc_memcpy's in the same "
                  "case (target: >= 0.95x from 256 B, >= 0.90x below).")
    if not rs:
        return
    names = run.ordered({r["contender"] for r in rs})

    def x(case):  # fc_copy_checked's throughput over fc_memcpy's in one case
        c, f = case.get("fc_copy_checked"), case.get("fc_memcpy")
        return f["med_ns"] / c["med_ns"] if c and f else None

    def cell(c, r, case):
        return fmt_num(r["gbps"]) + (f" ({x(case):.2f}x)" if c == "fc_copy_checked" and x(case) else "")
    rows, cases = label_n_rows(rs, names, cell)
    flags = [i for i, (lbl, n, case) in enumerate(cases)
             if lbl in ("aligned", "src+1") and x(case) and x(case) < (0.95 if n >= 256 else 0.90)]
    page.table(["placement", "n"] + [f"{c} GB/s" for c in names], rows, num={1}, flags=flags)
