#!/usr/bin/env python3
"""fcbench smoke tests (quick mode).

One `fcbench all --quick` run with libc, generic and a deliberately slowed
contender (FCBENCH_TEST_SLOW=1: generic done twice, 16 times when dst % 64 == 9),
then `grid` and `--cold` runs.  Checked: every scenario's JSON validates
against bench/fcbench.schema.json and its CSV matches it; the ceiling kernels
in sizes and large; physical page redraws on by default and off with
--same-pages; large/offsets/uaccess
print the seed formats; peak, pipe and dist cover what they promise; the
slowed contender is reported slower than generic and flagged as a cliff at
dst % 64 = 9 (by cliffs, in the grid and by compare); `fcbench report` writes
report.html with its plots; `fcbench compare` finds a run equal to itself.
FCBENCH_LIBS (A/B of builds in one process): the shared library loaded as
"ab", its entries timed beside this build's; a malformed value exits 2.
fastcopy-tune --quick writes a profile in its time budget that the library takes and
fcbench --tuned times as tuned[ENTRY]; a malformed --tuned profile exits 2.
usage: check_fcbench.py FCBENCH SCHEMA WORKDIR [LIBFASTCOPY_SO [FASTCOPY_TUNE FASTCOPY_INFO]]
"""
import csv, json, os, platform, re, statistics, subprocess, sys

try:
    import jsonschema
except ImportError:
    # `make test` installs it (scripts/setup-deps.sh); elsewhere say so and skip (ctest: 77)
    print("skipped: python3 module jsonschema missing (apt-get install python3-jsonschema)")
    sys.exit(77)

fcbench, schema_path, work = sys.argv[1:4]
shared_lib = sys.argv[4] if len(sys.argv) > 4 else None
tune_bin, info_bin = (sys.argv[5], sys.argv[6]) if len(sys.argv) > 6 else (None, None)
os.makedirs(work, exist_ok=True)
schema = json.load(open(schema_path))
env = dict(os.environ, FCBENCH_TEST_SLOW="1")
checks = 0


def ok(msg):
    global checks
    checks += 1
    print("ok:", msg)


def fail(msg):
    sys.exit("FAIL: " + msg)


def run(name, *args):
    out = os.path.join(work, name + ".json")
    p = subprocess.run([fcbench, *args, "--quick", "--json", out, "--csv", os.path.join(work, name + ".csv")],
                       env=env, capture_output=True, text=True)
    if p.returncode != 0:
        fail(f"fcbench {' '.join(args)} exited {p.returncode}\n{p.stdout}\n{p.stderr}")
    data = json.load(open(out))
    jsonschema.validate(data, schema)
    rows = list(csv.DictReader(open(os.path.join(work, name + ".csv"))))
    cells = sum(1 for g in data["grids"] for row in g["gbps"] for x in row if x > 0)
    if len(rows) != len(data["results"]) + cells:
        fail(f"{name}.csv has {len(rows)} rows, JSON {len(data['results'])} results + {cells} grid cells")
    ok(f"fcbench {' '.join(args)} --quick: {len(data['results'])} results, JSON valid, CSV matches")
    return p.stdout, data


def results(data, scenario, **kw):
    return [r for r in data["results"] if r["scenario"] == scenario and all(r[k] == v for k, v in kw.items())]


listing = subprocess.run([fcbench, "list"], env=env, capture_output=True, text=True, check=True).stdout
for name in ("libc", "generic", "test-slowed"):
    if name not in listing.split():
        fail(f"fcbench list lacks {name}")
ok("list names libc, generic, test-slowed")

out, al = run("all", "all", "--impl", "libc,generic,test-slowed")
if set(al["contenders"]) != {"libc", "generic", "test-slowed"}:
    fail(f"contenders {al['contenders']}")
scen = {r["scenario"] for r in al["results"]}
want = {"peak", "cliffs-aligned", "cliffs-worst", "sizes", "distance", "large", "offsets-read", "offsets-write",
        "uaccess-read", "uaccess-write", "pipe", "dist", "readback", "memmove", "field-rx", "packet"}
if not want <= scen:
    fail(f"all lacks scenarios {sorted(want - scen)}")
for r in al["results"]:
    if len(r["samples_ns"]) != r["samples"] or not r["q1_ns"] <= r["med_ns"] <= r["q3_ns"]:
        fail(f"inconsistent samples/quartiles in {r}")
ok(f"all runs every scenario ({len(scen)} result kinds), samples and quartiles consistent")

# packet: every case for libc, fc_memcpy_inline and its A/A twin; no peer there, as --impl leaves the peers out
pk = results(al, "packet")
for c in ("libc", "fc_memcpy_inline", "fc_memcpy_inline A/A"):
    got = sorted((r["label"], r["n"]) for r in pk if r["contender"] == c)
    if [lbl for lbl, _ in got].count("const") != 6 or not any(lbl.startswith("var ") for lbl, _ in got):
        fail(f"packet results for {c}: {got}")
if any(r["contender"].startswith("rte-") for r in pk):
    fail("packet timed a peer that --impl left out")
ok("packet: every case for libc, fc_memcpy_inline and its twin; --impl leaves the peers out")

# field: every frame size for libc, fc_memcpy and fc_memcpy_inline, one thread (and two where there are two CPUs)
rx = results(al, "field-rx")
frames = {64, 128, 256, 512, 1024, 1280, 1518, 9000}
for c in ("libc", "fc_memcpy", "fc_memcpy_inline"):
    got = {r["n"] for r in rx if r["contender"] == c}
    if got != frames:
        fail(f"field-rx {c}: frame sizes {sorted(got)}, want {sorted(frames)}")
if (os.cpu_count() or 1) > 1 and {r["n"] for r in results(al, "field-pvp") if r["contender"] == "libc"} != frames:
    fail("field-pvp lacks frame sizes for libc")
if any(r["label"] not in ("1 thread", "2 threads") for r in rx):
    fail("field-rx results carry another label")
ok(f"field: {len(rx)} one-thread results over {len(frames)} frame sizes")
progs = results(al, "field-programs")
if progs and any(r["contender"] not in ("libc", "preload") for r in progs):
    fail(f"field-programs contenders: {sorted({r['contender'] for r in progs})}")
if "DIFFERS" in out:
    fail("field-programs: a program's output differs under the preload shim:\n" + out)
ok(f"field-programs: {len(progs) // 2} programs timed (those installed), outputs identical")

# large times peak's DRAM-ceiling kernels in the samples of each of its copies (x86-64: non-temporal, rep movsb)
ceil = [r for r in al["results"] if r["scenario"] == "large-ceiling"]
if platform.machine() == "x86_64":
    by_label = {lab: [r for r in ceil if r["label"] == lab] for lab in ("aligned", "unaligned")}
    if not all(by_label.values()) or len(ceil) != sum(map(len, by_label.values())) or any(r["gbps"] <= 0 for r in ceil):
        fail(f"large-ceiling results (want kernels under both labels, aligned and unaligned): {ceil}")
    for lab in by_label:
        if f"ceiling beside the {lab} copies (best of peak's" not in out:
            fail(f"large does not print its {lab} ceiling line:\n" + out)
    ok(f"large times {len(ceil)} ceiling kernels beside the aligned and the unaligned copies")

# sizes times peak's kernels at every hot aligned size from 4 KiB (rounded up to 256 B), in its own rounds
hot = {r["n"] for r in results(al, "sizes", label="aligned", cache="hot") if r["n"] >= 4096}
sc = results(al, "sizes-ceiling", label="aligned", cache="hot")
up = {(n + 255) & ~255 for n in hot}
if not hot or up != {r["n"] for r in sc} or any(r["gbps"] <= 0 for r in sc):
    fail(f"sizes-ceiling covers {sorted({r['n'] for r in sc})}, want {sorted(up)}")
kernels = {r["contender"] for r in results(al, "peak")}
if not {r["contender"] for r in sc} <= kernels or kernels & {r["contender"] for r in results(al, "sizes")}:
    fail(f"sizes-ceiling contenders {sorted({r['contender'] for r in sc})} are not only peak's kernels "
         f"{sorted(kernels)}, or a kernel appears under sizes")
if "% of the copy ceiling at n" not in out:
    fail("sizes does not print its table of shares of the ceiling")
ok(f"sizes times {len({r['contender'] for r in sc})} ceiling kernels at {len(hot)} sizes from 4 KiB")

# physical pages: redrawn by default (the arenas' first 4 MiB), one draw with --same-pages
if al["method"].get("page_redraw_bytes", 0) < 4 << 20 or al["method"].get("pages_redrawn", 0) < 1000 \
        or "# physical pages: new ones" not in out:
    fail(f"the default run does not redraw physical pages: {al['method']}")
p = subprocess.run([fcbench, "sizes", "--quick", "--same-pages", "--impl", "generic", "--sizes", "4096",
                    "--json", os.path.join(work, "same.json")], env=env, capture_output=True, text=True)
same = json.load(open(os.path.join(work, "same.json"))) if p.returncode == 0 else None
if not same or same["method"].get("page_redraw_bytes") != 0 or same["method"].get("pages_redrawn") != 0 \
        or "one draw per process" not in p.stdout:
    fail(f"--same-pages: exit {p.returncode}, method {same and same['method']}\n{p.stdout}{p.stderr}")
jsonschema.validate(same, schema)
ok("physical pages redrawn before every round by default, one draw with --same-pages")

# peak: L1, L2 and DRAM at least, each the best of its kernels; L1 above DRAM
levels = {p["level"]: p for p in al["peaks"]}
if not {"L1", "L2", "DRAM"} <= set(levels) or levels["L1"]["gbps"] <= levels["DRAM"]["gbps"]:
    fail(f"peaks {al['peaks']}")
for lv, p in levels.items():
    best = max(r["gbps"] for r in results(al, "peak", label=lv))
    if abs(best - p["gbps"]) > 1e-3 * best:
        fail(f"peak {lv} is {p['gbps']}, its best kernel {best}")
ok("peak: " + ", ".join(f"{lv} {p['gbps']:.1f} GB/s ({p['kernel']})" for lv, p in levels.items()))

# the slowed contender: slower than generic, and its cliff found at dst%64 = 9
ratios = []
for r in results(al, "sizes", contender="test-slowed", cache="hot"):
    if r["n"] >= 1024 and r["dst_off"] != 9:
        g = [x for x in results(al, "sizes", contender="generic", cache="hot")
             if (x["n"], x["src_off"], x["dst_off"]) == (r["n"], r["src_off"], r["dst_off"])]
        ratios.append(r["med_ns"] / g[0]["med_ns"])
med = statistics.median(ratios)
if med < 1.5:
    fail(f"test-slowed (2 copies) is reported only {med:.2f}x slower than generic")
ok(f"test-slowed reported {med:.2f}x slower than generic (median over {len(ratios)} sizes >= 1 KiB)")
flagged = [l for l in out.splitlines() if "test-slowed" in l and "CLIFF" in l]
if not flagged or not all("dst%64=9 " in l for l in flagged):
    fail("the slowed contender's cliff at dst%64=9 was not flagged:\n" + out)
jc = [c for c in al["cliffs"] if c["contender"] == "test-slowed"]
if not jc or not all(c["flagged"] and c["dst_off"] == 9 for c in jc):
    fail(f"JSON cliffs for test-slowed: {jc}")
ok(f"cliff flagged for test-slowed at dst%64=9 ({len(flagged)} sizes, text and JSON)")

# the seeds' own line formats
seed = re.compile(r"^\S+ memcpy: (aligned|unaligned) copy of \d+ MBytes in \d+ msecs \(\d+ MB/s\)$", re.M)
if len(seed.findall(out)) != 6:
    fail("large does not print 3 contenders x {aligned, unaligned} seed lines:\n" + out)
row = re.compile(r"^test ([12]): copier ([123]): offset ([0-9]+), size (\d+): took [\d.]+ ms, [\d.]+ MiB/sec$", re.M)
rows = row.findall(out)
offs = [r for r in rows if int(r[3]) + int(r[2]) in (8192, 16384, 32768)]
if len(offs) != len(rows):
    fail("offset rows whose size is not 8/16/32 KiB minus the offset")
ur = results(al, "uaccess-read")
if {r["dst_off"] for r in ur} != set(range(64)) or not results(al, "uaccess-write", src_off=5):
    fail("uaccess JSON must cover user offsets 0..63 for copy_to_user and copy_from_user")
ok(f"large, offsets and uaccess print the seed formats ({len(rows)} offset rows)")

pipe = results(al, "pipe")
if [r["n"] for r in pipe] != [32 << k for k in range(12)] or not all(r["gbps"] > 0 for r in pipe):
    fail(f"pipe covers {[r['n'] for r in pipe]}")
if len(re.findall(r"^pipe: message size +\d+: +[\d.]+ MiB/sec", out, re.M)) != 12:
    fail("pipe table lines")
ok(f"pipe: 32 B .. 64 KiB, {pipe[0]['gbps'] * 1e3:.0f} MB/s at 32 B, {pipe[-1]['gbps'] * 1e3:.0f} MB/s at 64 KiB")

dist = results(al, "dist")
labels = {r["label"] for r in dist}
if labels != {"MemcpyGoogle" + x for x in "ABDLMW"} or len(dist) != 18:
    fail(f"dist results cover {sorted(labels)}, expected all six distributions x 3 contenders")
mean_a = results(al, "dist", label="MemcpyGoogleA")[0]["n"]
if not 100 <= mean_a <= 200:  # the file's mean size is 145 B
    fail(f"dist batch for MemcpyGoogleA has mean size {mean_a}, expected about 145")
ok(f"dist covers the six distributions (Google A mean {mean_a} B)")

mm = results(al, "memmove")
want_mm = {"no overlap", "dst = src + 1", "dst = src + 32", "dst = src + n/2", "dst = src - 1", "dst = src - 32",
           "dst = src - n/2"}
if {r["label"] for r in mm} != want_mm or not all(r["gbps"] > 0 for r in mm):
    fail(f"memmove covers {sorted({r['label'] for r in mm})}")
if any(r["dist"] != 4095 for r in mm if r["label"] == "dst = src - 1") or \
        any(r["dist"] != 1 for r in mm if r["label"] == "dst = src + 1"):
    fail("memmove: dst - src is not the overlap the label names")
if not re.search(r"^== memmove, dst = src \+ 1 \(hot; a correct copy runs backward\)", out, re.M):
    fail("memmove table heading")
ok(f"memmove: {len(want_mm)} overlaps x {len({r['n'] for r in mm})} sizes, dst - src as labelled")

cold = results(al, "sizes", cache="cold")
if not cold or {r["label"] for r in cold} != {"aligned"}:
    fail("sizes must add an aligned cold table")
ok(f"sizes: hot placements + {len(cold)} aligned cold results")

# grid: the slowed contender's dst%64 = 9 column is its worst
out, gr = run("grid", "grid", "--impl", "generic,test-slowed", "--sizes", "4096")
g = [x for x in gr["grids"] if x["contender"] == "test-slowed" and x["source"] == "grid"][0]
col = g["dst_offs"].index(9)
worst_col = min(range(len(g["dst_offs"])), key=lambda c: statistics.median(row[c] for row in g["gbps"]))
if worst_col != col or len(g["src_offs"]) != 64:
    fail(f"grid: worst column is dst_off {g['dst_offs'][worst_col]}, expected 9")
ok("grid: 64 src offsets, the slowed contender's worst column is dst%64 = 9")

# cold mode: every placement scenario result says so
_, co = run("cold", "offsets", "--cold", "--impl", "libc,generic")
if {r["cache"] for r in co["results"]} != {"cold"} or co["method"]["cold_region_bytes"] < 4 * (co["machine"]["l3_bytes"] or 1):
    fail("--cold results must be cold, over >= 4x the LLC")
ok(f"--cold: region {co['method']['cold_region_bytes'] >> 20} MiB (L3 {co['machine']['l3_bytes'] >> 20} MiB)")

# compare: a run against itself agrees exactly; within one run, test-slowed is slower than generic
p = subprocess.run([fcbench, "compare", os.path.join(work, "all.json"), os.path.join(work, "all.json"),
                    "--min-n", "1024", "--max-diff", "0.05"], capture_output=True, text=True)
if p.returncode != 0:
    fail(f"compare of a run with itself exited {p.returncode}\n{p.stdout}\n{p.stderr}")
p = subprocess.run([fcbench, "compare", os.path.join(work, "all.json"), "--base", "generic", "--scenario", "sizes"],
                   capture_output=True, text=True)
if p.returncode != 0 or "test-slowed" not in p.stdout or "slower" not in p.stdout:
    fail(f"compare --base generic does not report test-slowed slower:\n{p.stdout}\n{p.stderr}")
ok("compare: a run equals itself; test-slowed significantly slower than generic")

# FCBENCH_LIBS: another build's entries as contenders, beside this build's
if shared_lib:
    ab_env = dict(env, FCBENCH_LIBS="ab=" + shared_lib)
    p = subprocess.run([fcbench, "sizes", "--sizes", "64,4096", "--impl", "generic,ab:generic,ab:fc", "--quick",
                        "--json", os.path.join(work, "ab.json")], env=ab_env, capture_output=True, text=True)
    if p.returncode != 0:
        fail(f"fcbench with FCBENCH_LIBS exited {p.returncode}\n{p.stdout}\n{p.stderr}")
    names = {r["contender"] for r in json.load(open(os.path.join(work, "ab.json")))["results"]}
    if not {"generic", "ab:generic", "ab:fc"} <= names:
        fail(f"FCBENCH_LIBS: contenders {sorted(names)}, expected generic, ab:generic, ab:fc")
    p = subprocess.run([fcbench, "list"], env=dict(env, FCBENCH_LIBS="nopath"), capture_output=True, text=True)
    if p.returncode != 2 or "tag=path" not in p.stderr:
        fail(f"FCBENCH_LIBS=nopath: exit {p.returncode}, stderr {p.stderr!r}")
    ok("FCBENCH_LIBS: another build's entries timed as ab:*, a malformed value refused")

# fastcopy-tune --quick: a profile within its budget, taken by the library, timed by fcbench --tuned
if tune_bin:
    import time
    prof = os.path.join(work, "profile")
    t0 = time.monotonic()
    p = subprocess.run([tune_bin, "--quick", "-o", prof], capture_output=True, text=True)
    took = time.monotonic() - t0
    if p.returncode != 0 or not os.path.exists(prof):
        fail(f"fastcopy-tune --quick exited {p.returncode}\n{p.stdout}\n{p.stderr}")
    if took > 20:
        fail(f"fastcopy-tune --quick took {took:.0f} s (its budget: 10 s on 2 cores)")
    p = subprocess.run([info_bin], env=dict(os.environ, FASTCOPY_PROFILE=prof), capture_output=True, text=True)
    if p.returncode != 0 or f"profile: {prof}\n" not in p.stdout or f"{prof}: in use" not in p.stdout:
        fail(f"fastcopy-info does not take the profile fastcopy-tune wrote:\n{p.stdout}")
    out = os.path.join(work, "tuned.json")
    p = subprocess.run([fcbench, "sizes", "--quick", "--sizes", "64,65536", "--impl", "libc,fc", "--tuned", prof,
                        "--json", out], env=dict(os.environ, FASTCOPY_PROFILE="off"), capture_output=True, text=True)
    names = json.load(open(out))["contenders"] if p.returncode == 0 else []
    if not any(n.startswith("tuned[") for n in names):
        fail(f"fcbench --tuned: contenders {names}\n{p.stdout}\n{p.stderr}")
    # the JSON's machine.fastcopy_settings: the defaults fc[...] ran with, not the profile's (tuned[...] sets the
    # process-wide settings before its calls; here it is the only fastcopy contender)
    alt = os.path.join(work, "profile-alt")
    lines = [ln for ln in open(prof).read().splitlines()
             if not ln.startswith(("movsb_min", "movsb_max", "nt_thr", "end"))]
    open(alt, "w").write("\n".join(lines + ["movsb_min 12288", "movsb_max 45056", "nt_threshold 3145728", "end"]) + "\n")
    got = {}
    for name, extra in (("plain", []), ("alt", ["--tuned", alt])):
        o = os.path.join(work, f"settings-{name}.json")
        p = subprocess.run([fcbench, "sizes", "--quick", "--sizes", "64", "--impl", "libc", "--json", o] + extra,
                           env=dict(os.environ, FASTCOPY_PROFILE="off"), capture_output=True, text=True)
        got[name] = json.load(open(o))["machine"]["fastcopy_settings"] if p.returncode == 0 else p.stderr
    if got["plain"] != got["alt"] or got["alt"]["movsb_min"] == 12288 or got["alt"]["nt_threshold"] == 3145728:
        fail(f"fcbench --tuned: the JSON's fastcopy_settings {got['alt']} are not the defaults {got['plain']}")
    # written whole: format 2 with its end line, mode 0644 whatever the umask, the profile it replaced kept
    old_umask = os.umask(0o002)
    p = subprocess.run([tune_bin, "--quick", "--samples", "3", "-o", prof], capture_output=True, text=True)
    os.umask(old_umask)
    text = open(prof).read()
    lines = [ln for ln in text.splitlines() if ln.strip() and not ln.startswith("#")]
    mode = os.stat(prof).st_mode & 0o777
    if (p.returncode != 0 or lines[0] != "fastcopy-profile 2" or lines[-1] != "end" or mode != 0o644
            or not os.path.exists(prof + ".old") or "the previous profile is now" not in p.stdout):
        fail(f"fastcopy-tune over an existing profile: exit {p.returncode}, mode {mode:o}, lines {lines[:1]}..{lines[-1:]}, "
             f".old {os.path.exists(prof + '.old')}\n{p.stdout[-400:]}")
    p = subprocess.run([tune_bin, "--print", "-o", prof], capture_output=True, text=True)
    if p.returncode != 2:
        fail(f"fastcopy-tune --print -o: exit {p.returncode}, not refused")
    # the directories it makes: 0755 under umask 077 (else the 0644 profile is unreadable to others);
    # --print: the profile alone on standard output, a profile the library takes
    deep = os.path.join(work, "um", "fastcopy", "profile")
    old_umask = os.umask(0o077)
    p = subprocess.run([tune_bin, "--quick", "--samples", "3", "-o", deep], capture_output=True, text=True)
    os.umask(old_umask)
    modes = [os.stat(os.path.join(work, *parts)).st_mode & 0o777 for parts in (("um",), ("um", "fastcopy"))]
    if p.returncode != 0 or modes != [0o755, 0o755] or os.stat(deep).st_mode & 0o777 != 0o644:
        fail(f"fastcopy-tune -o into new directories under umask 077: exit {p.returncode}, modes {[oct(m) for m in modes]}")
    printed = os.path.join(work, "printed")
    with open(printed, "w") as f:
        p = subprocess.run([tune_bin, "--quick", "--samples", "3", "--print"], stdout=f, stderr=subprocess.PIPE, text=True)
    q = subprocess.run([info_bin], env=dict(os.environ, FASTCOPY_PROFILE=printed), capture_output=True, text=True)
    if p.returncode != 0 or f"{printed}: in use" not in q.stdout or "1. entry" not in p.stderr:
        fail(f"fastcopy-tune --print > FILE is not a profile the library takes:\n{q.stdout}")
    bad = os.path.join(work, "bad-profile")
    open(bad, "w").write("fastcopy-profile 2\ncpu another\nend\n")
    p = subprocess.run([fcbench, "list", "--tuned", bad], capture_output=True, text=True)
    if p.returncode != 2 or "another CPU" not in p.stderr:
        fail(f"fcbench --tuned with another CPU's profile: exit {p.returncode}, {p.stderr!r}")
    ok(f"fastcopy-tune --quick: a profile in {took:.1f} s, taken by the library, timed as tuned[...]; "
       "rewritten whole (format 2, 0644, .old kept, new directories 0755); --print > FILE loads; "
       "another CPU's profile refused")

# report: HTML with its plots
rep = os.path.join(work, "report")
p = subprocess.run([fcbench, "report", os.path.join(work, "all.json"), "-o", rep], capture_output=True, text=True)
html = os.path.join(rep, "report.html")
if p.returncode != 0 or not os.path.exists(html):
    fail(f"fcbench report exited {p.returncode}\n{p.stdout}\n{p.stderr}")
page = open(html).read()
pngs = re.findall(r'src="([^"]+\.png)"', page)
missing = [x for x in pngs if not os.path.exists(os.path.join(rep, x))]
if len(pngs) < 5 or missing or "test-slowed" not in page:
    fail(f"report.html shows {len(pngs)} plots, missing files {missing}")
ok(f"report: report.html with {len(pngs)} plots")
print(f"fcbench-smoke: {checks} checks passed")
