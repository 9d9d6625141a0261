#!/usr/bin/env python3
"""The self test of fcbench's report script (bench/fcbench_report.py and its package bench/fcreport/, not installed
with them): the statistics and the summary's pattern finders against hand-computed values, then every command on
synthetic runs in a temporary directory.  Run directly (the ctest fcbench-report-selftest):

  python3 tests/fcreport_selftest.py

Exit status 0 when every check passes, 1 otherwise."""

import contextlib
import importlib.util
import io
import json
import math
import os
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ in bench/fcreport/, which is installed
_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(os.path.dirname(_HERE), "bench"), _HERE]  # the fcreport package; fcreport_synthetic

from fcreport.run import SCRIPT_DIR, Run  # noqa: E402
from fcreport.fmt import fmt_size, size_ranges  # noqa: E402
from fcreport.stats import mann_whitney, u_null_counts  # noqa: E402
from fcreport.analysis import describe_distances, grid_line_rule, grid_residue_rule, signed_dist  # noqa: E402
from fcreport_synthetic import synthetic_run  # noqa: E402
from fcreport.machine import _same_as_defaults  # noqa: E402
from fcreport.targets import TARGET_NAMES, _excused, _fr, _noise_limits, _page_split, _time_ratios, _twin, _two_groups, \
    targets_rows


def check_mann_whitney():
    """Hand-checked values; returns a list of failures."""
    bad = []

    def expect(what, got, want, rel=1e-9):
        if not math.isclose(got, want, rel_tol=rel, abs_tol=1e-15):
            bad.append(f"{what}: got {got!r}, expected {want!r}")

    # null distribution: 3 vs 3 is 1 1 2 3 3 3 3 2 1 1 (20 orderings); every table sums to C(m+n, m), symmetric
    if u_null_counts(3, 3) != (1, 1, 2, 3, 3, 3, 3, 2, 1, 1):
        bad.append(f"U counts 3x3: {u_null_counts(3, 3)}")
    for m, n in ((1, 1), (2, 5), (7, 4), (11, 11), (20, 20)):
        c = u_null_counts(m, n)
        if sum(c) != math.comb(m + n, m) or c != c[::-1]:
            bad.append(f"U counts {m}x{n} do not sum to C({m + n},{m}) or are not symmetric")
    # completely separated 11 vs 11: U = 0, exact two-sided p = 2 / C(22, 11) = 2 / 705432
    u, p, how = mann_whitney([float(i) for i in range(11)], [float(i) for i in range(100, 111)])
    expect("11 vs 11 separated: U", u, 0)
    expect("11 vs 11 separated: p", p, 2 / 705432)
    if how != "exact":
        bad.append("11 vs 11 without ties must use the exact distribution")
    # x = 1 2 4, y = 3 5 6: one pair with x > y (4 > 3), P(U <= 1) = 2/20, two-sided 0.2; swapped: same p
    expect("3 vs 3, U = 1: p", mann_whitney([1, 2, 4], [3, 5, 6])[1], 0.2)
    expect("3 vs 3 swapped: p", mann_whitney([3, 5, 6], [1, 2, 4])[1], 0.2)
    expect("3 vs 3 swapped: U", mann_whitney([3, 5, 6], [1, 2, 4])[0], 8)
    expect("3 vs 3 separated: p", mann_whitney([1, 2, 3], [4, 5, 6])[1], 0.1)
    # a tie (x = 1 2 3, y = 3 4 5): ranks 1 2 3.5 | 3.5 5 6, U = 6.5 - 6 = 0.5; normal approximation:
    # var = 9/12 * (7 - (2^3 - 2)/(6*5)) = 5.1, z = (4.5 - 0.5 - 0.5)/sqrt(5.1) = 1.549826, p = erfc(z/sqrt 2)
    u, p, how = mann_whitney([1, 2, 3], [3, 4, 5])
    expect("tie: U", u, 0.5)
    expect("tie: p", p, math.erfc(3.5 / math.sqrt(5.1) / math.sqrt(2)))
    expect("tie: p (0.12118)", p, 0.12118, rel=1e-4)
    if how != "normal":
        bad.append("samples with a tie must use the normal approximation")
    # 25 vs 25 separated (too many for the exact table): var = 25*25*51/12 = 2656.25, z = 312/51.5388 = 6.05369
    p = mann_whitney(list(range(25)), list(range(100, 125)))[1]
    expect("25 vs 25 separated: p", p, math.erfc(312 / math.sqrt(2656.25) / math.sqrt(2)))
    expect("25 vs 25 separated: p (1.4157e-9)", p, 1.4157e-9, rel=1e-4)
    # identical samples: p = 1; every value equal: p = 1
    expect("identical: p", mann_whitney([3.0, 1.0, 2.0], [1.0, 2.0, 3.0])[1], 1.0)
    expect("all equal: p", mann_whitney([5, 5, 5], [5, 5, 5, 5])[1], 1.0)
    return bad


def check_describers():
    """The summary's pattern finders on hand-made data; returns a list of failures."""
    bad = []

    def expect(what, got, want):
        if got != want:
            bad.append(f"{what}: got {got!r}, expected {want!r}")

    measured = list(range(0, 129)) + list(range(192, 3968, 64)) + list(range(3968, 4096))
    near8 = {d for d in measured if signed_dist(d) % 8 and abs(signed_dist(d)) < 128}
    expect("distances: +-127 but multiples of 8", describe_distances(near8, measured),
           "dst - src (mod 4096) = -127..127 except multiples of 8")
    expect("distances: 1..63 and a far one", describe_distances(set(range(1, 64)) | {1024}, measured),
           "dst - src (mod 4096) = 1..63, and 1 other distance")
    expect("distances: singles", describe_distances({9, 73, 4041}, measured), "dst - src (mod 4096) = -55; 9; 73")
    cells = [(s_, d, 0.1 if d == 9 else 1.0) for s_ in range(64) for d in range(64)]
    expect("grid: dst_off column", grid_line_rule(cells), "whenever dst_off = 9")
    cells = [(s_, d, 0.5 if (d - s_) % 8 else 1.0) for s_ in range(64) for d in range(64)]
    expect("grid: residue", grid_residue_rule(cells), "when (dst_off - src_off) mod 8 != 0")
    expect("grid: no line rule for a residue", grid_line_rule(cells), "")
    expect("size ranges", size_ranges([256, 4096, 16384], [256, 1024, 4096, 16384, 65536]), "256 B, 4 KiB-16 KiB")
    expect("fmt_size", [fmt_size(x) for x in (8191, 4096, 64 << 20)], ["8191 B", "4 KiB", "64 MiB"])
    return bad


def selftest(_args, out=None):
    out = out or sys.stdout
    failures = [f"mann_whitney: {b}" for b in check_mann_whitney()]
    out.write(f"mann-whitney: {'ok' if not failures else 'FAILED'}\n")
    described = [f"summary patterns: {b}" for b in check_describers()]
    out.write(f"summary patterns: {'ok' if not described else 'FAILED'}\n")
    failures += described

    from fcreport.cli import main

    def run_main(argv):
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(buf):
            rc = main(argv)
        return rc, buf.getvalue()

    def check(ok, what, detail=""):
        out.write(f"{'ok' if ok else 'FAIL'}: {what}\n")
        if not ok:
            failures.append(what + (f"\n{detail}" if detail else ""))

    with tempfile.TemporaryDirectory(prefix="fcbench-selftest-") as tmp:
        a, b, c = (os.path.join(tmp, x) for x in ("a.json", "b.json", "c.json"))
        docs = ((a, synthetic_run(1)), (b, synthetic_run(2)), (c, synthetic_run(1, slow={"generic": 1.2})))
        for path, doc in docs:
            with open(path, "w") as f:
                json.dump(doc, f)
        schema = os.path.join(SCRIPT_DIR, "fcbench.schema.json")
        if importlib.util.find_spec("jsonschema") and os.path.exists(schema):  # optional: the synthetic run's shape
            import jsonschema
            try:
                jsonschema.validate(docs[0][1], json.load(open(schema)))
                check(True, "the synthetic run validates against fcbench.schema.json")
            except jsonschema.ValidationError as e:
                check(False, "the synthetic run validates against fcbench.schema.json", str(e)[:2000])

        rc, text = run_main(["compare", a, a, "--min-n", "1024", "--max-diff", "0.05"])
        check(rc == 0 and "within" in text, "compare: a run agrees with itself", text[-2000:])
        rc, text = run_main(["compare", a, c, "--scenario", "sizes", "--max-diff", "0.1"])
        check(rc == 1 and "generic" in text and "slower" in text, "compare: 20% slower generic found, exit 1",
              text[-3000:])
        rc, text = run_main(["compare", a, b, "--all", "--scenario", "dist"])
        check(rc == 0 and "MemcpyGoogleA" in text, "compare --all lists every case", text[-2000:])
        rc, text = run_main(["compare", a, "--base", "libc", "--scenario", "sizes,dist"])
        check(rc == 0 and "byte" in text and "slower" in text, "compare --base libc: byte slower", text[-2000:])
        rc, text = run_main(["compare", a, "--base", "fc"])
        check(rc == 0 and "against fc[generic]" in text, "compare --base fc picks fc[NAME]", text[:500])
        rc, text = run_main(["targets", a])
        check(rc == 0 and text.count("\n  [") == 6 and "of 6 targets met" in text and "GoogleA" in text,
              "targets: six targets read off the synthetic run", text[-3000:])
        check("share of the ceiling at n" in text and "not the yardstick" in text,
              "targets: the 4-512 KiB window read against the ceiling at each size", text[-3000:])
        # the A/A noise allowance: fc 1.08x glibc where fc[x] and x read 10% apart is excused, 1.12x is not
        def res(c, n, ns):
            return {"scenario": "sizes", "contender": c, "label": "aligned", "cache": "hot", "n": n, "med_ns": ns}
        tiny = Run({"machine": {}, "method": {}, "contenders": ["libc", "fc[x]", "x"], "peaks": [], "results": [
            res("libc", 100, 10.0), res("fc[x]", 100, 10.8), res("x", 100, 9.8),
            res("libc", 200, 10.0), res("fc[x]", 200, 11.2), res("x", 200, 10.2),
            res("libc", 300, 10.0), res("fc[x]", 300, 10.4), res("x", 300, 10.4),
            res("libc", 400, 10.0), res("fc[x]", 400, 11.2), res("x", 400, 8.0)]}, "tiny")
        lim = _noise_limits(tiny, "sizes", "fc[x]", label="aligned", cache="hot")
        r = _time_ratios(tiny, "sizes", "fc[x]", "libc", label="aligned", cache="hot")
        check([n for n, _, _ in _excused(r, lim)] == [100] and [n for n in r if r[n] > lim[n]] == [200, 400],
              "targets: a size is excused only within its A/A spread, and never beyond 10%", f"{lim} {r}")
        # a size above glibc whose samples fall in two groups says so (the 13:49 memmove case), and stays a miss
        def sres(c, n, smp):
            return {"scenario": "sizes", "contender": c, "label": "aligned", "cache": "hot", "n": n,
                    "med_ns": sorted(smp)[len(smp) // 2], "samples_ns": smp}
        split = [574.0 + i for i in range(16)] + [702.0 + 10 * i for i in range(17)]
        two = Run({"machine": {}, "method": {}, "contenders": ["libc", "fc[x]"], "peaks": [], "cliffs": [], "results": [
            sres("libc", 64, [588.0] * 17 + [760.0 + 10 * i for i in range(16)]), sres("fc[x]", 64, split),
            sres("libc", 128, [10.0] * 33), sres("fc[x]", 128, [12.0] * 33)]}, "two")
        t2 = {name: (m, ok) for name, m, ok in targets_rows(two, "fc[x]")}[TARGET_NAMES[0]]
        check(t2[1] is False and "64 B 1.19x [samples in two groups: fc 16 of 33 within 3% of its fastest, glibc 17 "
              "of 33; fastest samples 0.98x]" in t2[0] and "128 B 1.20x," not in t2[0] and "128 B 1.20x [" not in t2[0]
              and _two_groups(two, "sizes", "fc[x]", "libc", 128, label="aligned", cache="hot") == "",
              "targets: a miss whose samples fall in two groups is marked so, one that does not is not", t2)
        # a miss is printed with the same routine's figure under its registry name; the verdict stays fc's
        def dres(c, lab, ns):
            return {"scenario": "dist", "contender": c, "label": lab, "cache": "hot", "n": 0, "med_ns": ns}
        dd = Run({"machine": {}, "method": {}, "contenders": ["libc", "fc[x]", "tuned[x]", "x"], "peaks": [],
                  "cliffs": [], "results": [
                      dres("libc", "MemcpyGoogleA", 10.0), dres("fc[x]", "MemcpyGoogleA", 9.0),
                      dres("x", "MemcpyGoogleA", 8.0), dres("libc", "MemcpyGoogleB", 10.0),
                      dres("fc[x]", "MemcpyGoogleB", 8.0), dres("x", "MemcpyGoogleB", 7.9)]}, "dd")
        dm = {name: (m, ok) for name, m, ok in targets_rows(dd, "fc[x]")}[TARGET_NAMES[3]]
        check(dm[1] is False and "GoogleA 0.90x MISS (x, the same routine: 0.80x)" in dm[0]
              and dm[0].endswith("GoogleB 0.80x")
              and _twin(dd, "tuned[x]") == "x" and _twin(dd, "x") is None and _twin(tiny, "libc") is None,
              "targets: a missed distribution shows the same routine's figure beside it, and stays missed", dm)
        # a figure next to its limit keeps the side it is on: 0.998 against >= 1.0 is not printed "1.00"
        check(_fr(0.998, 1.0) == "0.998" and _fr(0.851, 0.85) == "0.851" and _fr(0.87, 0.85) == "0.87"
              and _fr(0.85, 0.85) == "0.85" and _fr(0.9462, 0.95, pct=True) == "94.6%"
              and _fr(0.97, 0.95, pct=True) == "97%" and _fr(1.04, 1.0) == "1.04",
              "targets: a ratio that rounds to its limit is printed with one more digit",
              [_fr(0.998, 1.0), _fr(0.851, 0.85), _fr(0.9462, 0.95, pct=True)])
        # large: each copy that misses says so (the row once read "1.00x glibc's speed" and NOT MET)
        def lres(c, lab, gbps):
            return {"scenario": "large", "contender": c, "label": lab, "cache": "cold", "n": 400 << 20,
                    "med_ns": 1.0, "gbps": gbps}
        ll = Run({"machine": {}, "method": {}, "contenders": ["libc", "fc[x]"], "peaks": [], "cliffs": [], "results": [
            lres("libc", "aligned", 10.0), lres("fc[x]", "aligned", 10.4), lres("libc", "unaligned", 10.11),
            lres("fc[x]", "unaligned", 10.09),
            {"scenario": "large-ceiling", "contender": "k", "label": "aligned", "cache": "cold", "n": 400 << 20,
             "med_ns": 1.0, "gbps": 9.5}]}, "ll")
        lm = {name: (m, ok) for name, m, ok in targets_rows(ll, "fc[x]")}[TARGET_NAMES[4]]
        check(lm[1] is False and "unaligned 0.998x glibc's speed" in lm[0] and lm[0].endswith("MISS")
              and lm[0].count("MISS") == 1,
              "targets: large marks the copy that misses, with the digit that shows it", lm)
        # the 256 B page-split exception: only a placement with a buffer across a page is excepted
        def cliff(so, dist):
            return {"n": 256, "src_off": so, "dst_off": (so + dist) % 64, "dist": dist}
        check(_page_split(cliff(0, 4024)) == "dst at page offset 4024" and _page_split(cliff(0, 3840)) is None
              and _page_split(cliff(20, 33)) is None and _page_split(cliff(63, 3777)) is None
              and _page_split(cliff(10, 3831)) == "dst at page offset 3841",
              "targets: a 256 B cliff is a page split only when a buffer crosses a page",
              [_page_split(cliff(*x)) for x in ((0, 4024), (0, 3840), (20, 33), (63, 3777), (10, 3831))])
        # machine pages: a profile that keeps every default is said to (its column is then an A/A repeat)
        mach = {"fc_active": "avx2", "fastcopy_settings": {"nt_threshold": 1 << 24, "movsb_min": 0, "movsb_max": 0,
                                                           "movsb_gap": 128, "nt_pages": 1}}
        prof = "fastcopy-profile 1\nimpl avx2\nnt_threshold 16777216\nmovsb_min 0\nmovsb_max 0\nmovsb_gap {}\nnt_pages 1\n"
        prof2 = "# kept\nfastcopy-profile 2\ncpu x\n{}end\n"
        check(_same_as_defaults(prof2.format(""), mach) and _same_as_defaults(prof2.format("nt_pages 1\n"), mach)
              and not _same_as_defaults(prof2.format("nt_threshold 8388608\n"), mach)
              and not _same_as_defaults(prof2.format("impl avx512\n"), mach)
              and not _same_as_defaults(prof2.format("movsb_min 32768\nmovsb_max 65536\n"), mach)
              and _same_as_defaults(prof2.format("movsb_min 0\nmovsb_max 0\n"), mach)
              and _same_as_defaults(prof2.format("nt_threshold 16m\n"), mach)
              and _same_as_defaults(prof2.format("nt_threshold 016384K\n"), mach)
              and not _same_as_defaults(prof2.format("nt_threshold 0x1000000\n"), mach),
              "machine: a format 2 profile (only what moved) is compared key by key, a key left out is the default")
        check(_same_as_defaults(prof.format(64), mach) and not _same_as_defaults(prof.format(64).replace(
              "impl avx2", "impl avx512"), mach) and not _same_as_defaults(prof.format(64).replace(
              "movsb_max 0", "movsb_max 65536"), mach) and not _same_as_defaults("garbage", mach),
              "machine: a profile equal to the defaults is recognised (an empty window's gap does not count)")
        mach_io = {"fc_active": "avx2", "fastcopy_settings": dict(mach["fastcopy_settings"], inorder_min=2048)}
        mach_never = {"fc_active": "avx2", "fastcopy_settings": dict(mach["fastcopy_settings"], inorder_min=2**64 - 1)}
        check(_same_as_defaults(prof.format(64) + "inorder_min 2048\n", mach_io)
              and not _same_as_defaults(prof.format(64) + "inorder_min 4096\n", mach_io)
              and _same_as_defaults(prof.format(64) + "inorder_min 0\n", mach_never)
              and _same_as_defaults(prof.format(64), mach_io) and _same_as_defaults(prof.format(64) + "inorder_min 4096\n", mach),
              "machine: inorder_min counts where both the profile and the run have it (0: never)")
        # one run taken phase by phase: the same targets from its files, one of them gzipped; files that are not
        # one run's (another machine, a scenario twice) refused in one line
        import gzip
        whole = synthetic_run(1)
        phases = {}
        for r in whole["results"]:
            phases.setdefault("sizes" if r["scenario"].startswith("sizes") else "rest", []).append(r)
        parts = []
        for name, rows in sorted(phases.items()):
            path = os.path.join(tmp, f"phase-{name}.json" + (".gz" if name == "sizes" else ""))
            doc = dict(whole, results=rows, argv=f"fcbench {name}")
            if name != "sizes":
                doc.update(grids=[], cliffs=[], peaks=[])
            with (gzip.open(path, "wt") if path.endswith(".gz") else open(path, "w")) as f:
                json.dump(doc, f)
            parts.append(path)
        rc3, text3 = run_main(["targets"] + parts)
        check(rc3 == 0 and text3.split("\n", 1)[1] == text.split("\n", 1)[1],
              "targets: a run's phase files (one gzipped) read as the whole run", text3[-2000:])
        page = os.path.join(tmp, "phases.md")
        rc3, text3 = run_main(["machine"] + parts + ["-o", page])
        check(rc3 == 0 and "taken phase by phase (rest, sizes" in open(page).read(),
              "machine: a page from a run's phase files says so", text3[-1000:])
        rc3, text3 = run_main(["targets", parts[0], parts[0]])
        check(rc3 == 2 and "also in" in text3, "targets: a scenario in two files is refused", text3[-500:])
        other = os.path.join(tmp, "other.json")
        with open(other, "w") as f:
            json.dump(dict(whole, machine=dict(whole["machine"], cpu="another CPU"), results=phases["rest"]), f)
        rc3, text3 = run_main(["targets", parts[1], other])
        check(rc3 == 2 and "not one machine's run" in text3, "targets: another machine's file is refused", text3[-500:])
        rc2, _ = run_main(["targets", a, "--check"])
        check(rc2 == (0 if "6 of 6 targets met" in text else 1), "targets --check: exit 1 when one is missed")

        bogus = os.path.join(tmp, "old.json")
        with open(bogus, "w") as f:
            json.dump({"schema": "fcbench-1", "results": []}, f)
        for argv, want in ((["compare", os.path.join(tmp, "none.json"), a], "no such file"),
                           (["compare", bogus, a], "fcbench-1"),
                           (["compare", a, b, "--scenario", "nosuch"], "not in the input"),
                           (["compare", a, "--base", "libc", "--min-n", str(1 << 40)], "no case"),
                           (["report", bogus], "fcbench-1")):
            rc, text = run_main(argv)
            check(rc == 2 and want in text and "Traceback" not in text, f"error: {' '.join(argv[:2])}.. -> {want}",
                  text)

        rep = os.path.join(tmp, "report")
        rc, text = run_main(["report", a, "-o", rep])
        page_path = os.path.join(rep, "report.html")
        check(rc == 0 and os.path.exists(page_path) and text.startswith(page_path), "report writes report.html",
              text)
        if rc == 0 and os.path.exists(page_path):
            page = open(page_path, encoding="utf-8").read()
            imgs = [x.split('"')[1] for x in page.split('<img src=')[1:]]
            missing = [x for x in imgs if not os.path.exists(os.path.join(rep, x))]
            want_imgs = 10 if importlib.util.find_spec("matplotlib") else 0
            check(len(imgs) >= want_imgs and not missing, f"report has {len(imgs)} plots, all present", str(missing))
            check("libc:" in text and "copy_to_user" in text and "Machine:" in text,
                  "report summary names libc's cliff, copy_to_user and the machine", text)
            check("worst offset is 41 at" in text, "uaccess summary finds the synthetic slow offset 41", text)
            rb = page.split('<h2 id="readback">')[1].split("<h2")[0] if '<h2 id="readback">' in page else ""
            check("<td>1 KiB</td>" in rb and "geomean vs libc" in rb and (not want_imgs or "fcbench-readback.png" in rb)
                  and "read back at once (readback" in text,
                  "report has the readback section (table, plot) and its summary clause", rb + text)
        # the peers section: first on the page, a verdict per metric; with a peer and the packet scenario
        check(rc == 0 and page.index('<h2 id="peers">') < page.index('<h2 id="cliffs">')
              and "No peers in this run" in page and "fixed sizes, aligned (sizes, hot, up to 1 MiB)</b>: " in page,
              "report opens with the peers section (no peers: said so)", page[:3000])
        pp = os.path.join(tmp, "peers.json")
        with open(pp, "w") as f:
            json.dump(synthetic_run(3, peers=True), f)
        rep2 = os.path.join(tmp, "report-peers")
        rc, text = run_main(["report", pp, "-o", rep2])
        page2 = open(os.path.join(rep2, "report.html"), encoding="utf-8").read() if rc == 0 else ""
        sec = page2.split('<h2 id="peers">')[1].split("<h2")[0] if '<h2 id="peers">' in page2 else ""
        check("<th>rte-avx2</th>" in sec and "rte-avx2 faster than fc at" in sec and "packet path, inlined" in sec
              and sec.count("<li>") == 6 and '<h2 id="packet">' in page2 and "<td>var 1-1024</td>" in page2,
              "peers section: a peer's column, a verdict per metric that names where it beats fc; the packet section",
              sec + text)
        summ = page2.split('<h2 id="summary">')[1].split("</div>")[0] if '<h2 id="summary">' in page2 else ""
        check(summ.split("<h3>")[1:2] and summ.split("<h3>")[1].startswith("fastcopy and the alternatives on this machine")
              and "rte-avx2 faster than fc at" in summ and text.split("\n\n", 1)[-1].startswith(
                  "fastcopy and the alternatives on this machine:"),
              "the summary opens with the comparison's verdicts (page and printed text)", summ[:500])
    out.write(f"selftest: {'FAILED: ' + str(len(failures)) if failures else 'all checks passed'}\n")
    for f in failures:
        out.write(f"  {f}\n")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(selftest(None))
