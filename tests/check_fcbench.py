#!/usr/bin/env python3
"""fcbench smoke tests (quick mode): every scenario runs, its JSON validates
against bench/fcbench.schema.json, large/offsets print the seed formats, and a deliberately slowed contender
(FCBENCH_TEST_SLOW=1: generic done twice, 16 times when dst % 64 == 9) is
reported slower than generic and flagged as a cliff at dst % 64 = 9.
usage: check_fcbench.py FCBENCH SCHEMA WORKDIR"""
import json, os, re, statistics, subprocess, sys

import jsonschema

fcbench, schema_path, work = sys.argv[1:4]
os.makedirs(work, exist_ok=True)
schema = json.load(open(schema_path))
env = dict(os.environ, FCBENCH_TEST_SLOW="1")
checks = 0


def run(*args):
    global checks
    out = os.path.join(work, args[0] + ".json")
    p = subprocess.run([fcbench, *args, "--quick", "--json", out], env=env, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"FAIL: fcbench {' '.join(args)} exited {p.returncode}\n{p.stdout}\n{p.stderr}")
    data = json.load(open(out))
    jsonschema.validate(data, schema)
    checks += 1
    print(f"ok: fcbench {' '.join(args)} --quick: {len(data['results'])} results, JSON valid")
    return p.stdout, data


listing = subprocess.run([fcbench, "list"], env=env, capture_output=True, text=True, check=True).stdout
for name in ("libc", "generic", "test-slowed"):
    if name not in listing.split():
        sys.exit(f"FAIL: fcbench list lacks {name}")
checks += 1

_, sizes = run("sizes", "--impl", "generic,test-slowed")
ratios = []
for r in sizes["results"]:
    if r["contender"] == "test-slowed" and r["n"] >= 1024 and r["dst_off"] != 9:
        g = [x for x in sizes["results"] if x["contender"] == "generic" and
             (x["n"], x["src_off"], x["dst_off"]) == (r["n"], r["src_off"], r["dst_off"])]
        ratios.append(r["med_ns"] / g[0]["med_ns"])
med = statistics.median(ratios)
if med < 1.5:
    sys.exit(f"FAIL: test-slowed (2 copies) is reported only {med:.2f}x slower than generic")
print(f"ok: test-slowed reported {med:.2f}x slower than generic (median over {len(ratios)} sizes >= 1 KiB)")
checks += 1

run("distance", "--impl", "libc")

out, cl = run("cliffs", "--impl", "generic,test-slowed")
flagged = [l for l in out.splitlines() if "test-slowed" in l and "CLIFF" in l]
if not flagged or not all("dst%64=9 " in l for l in flagged):
    sys.exit("FAIL: the slowed contender's cliff at dst%64=9 was not flagged:\n" + out)
print(f"ok: cliff flagged for test-slowed at dst%64=9 ({len(flagged)} sizes)")
checks += 1
# the seeds' own line formats
out, _ = run("large", "--impl", "libc,generic")
seed = re.compile(r"^\S+ memcpy: (aligned|unaligned) copy of \d+ MBytes in \d+ msecs \(\d+ MB/s\)$", re.M)
if len(seed.findall(out)) != 4:
    sys.exit("FAIL: large does not print 2 contenders x {aligned, unaligned} seed lines:\n" + out)
checks += 1
out, _ = run("offsets", "--impl", "libc,generic")
row = re.compile(r"^test ([12]): copier ([12]): offset ([0-7]), size (\d+): took [\d.]+ ms, [\d.]+ MiB/sec$", re.M)
rows = row.findall(out)
if len(rows) != 2 * 2 * 3 * 8 or any(int(sz) % 8192 != (8192 - int(off)) % 8192 for _, _, off, sz in rows):
    sys.exit(f"FAIL: offsets table has {len(rows)} rows or wrong sizes:\n" + out)
print(f"ok: large and offsets print the seed formats ({len(rows)} offset rows)")
checks += 1
out, uj = run("uaccess")
krow = re.compile(r"^test ([12]): copier ([12]): offset (\d+), size (\d+): took [\d.]+ ms, [\d.]+ MiB/sec$", re.M)
urows = krow.findall(out)
copiers = len({c for _, c, _, _ in urows})
if len(urows) != 2 * 3 * 64 * copiers or {int(o) for _, _, o, _ in urows} != set(range(64)):
    sys.exit(f"FAIL: uaccess table has {len(urows)} rows for {copiers} copiers, offsets must be 0..63:\n" + out)
if not any(r["scenario"] == "uaccess-read" and r["dst_off"] == 5 for r in uj["results"]):
    sys.exit("FAIL: uaccess JSON lacks copy_to_user at user offset 5")
print(f"ok: uaccess table, {len(urows)} rows ({copiers} copiers x 2 tests x 3 sizes x offsets 0..63)")
checks += 1
out, dj = run("dist", "--impl", "libc,generic")
labels = {r["label"] for r in dj["results"] if r["scenario"] == "dist"}
want = {"MemcpyGoogle" + x for x in "ABDLMW"}
if labels != want or len(dj["results"]) != 12:
    sys.exit(f"FAIL: dist results cover {sorted(labels)}, expected all six distributions x 2 contenders")
mean_a = [r["n"] for r in dj["results"] if r["label"] == "MemcpyGoogleA"][0]
if not 100 <= mean_a <= 200:  # the file's mean size is 145 B
    sys.exit(f"FAIL: dist batch for MemcpyGoogleA has mean size {mean_a}, expected about 145")
print(f"ok: dist covers the six distributions (Google A mean {mean_a} B)")
checks += 1
print(f"fcbench-smoke: {checks} checks passed")
