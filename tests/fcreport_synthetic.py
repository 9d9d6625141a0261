"""A synthetic fcbench-2 run for fcbench's report self test (tests/fcreport_selftest.py, which puts bench/ on
sys.path for the fcreport package); the model is rough but has the real shapes: cache levels, libc's 4K-aliasing
cliff, misalignment penalties, a pipe curve, uaccess per offset."""

import math
import random

from fcreport.run import CLIFF_RATIO, SCHEMA
from fcreport.analysis import signed_dist


def synthetic_run(seed=1, full=False, slow=None, peers=False):
    """A schema-valid fcbench-2 document.  full: the size of a real `fcbench all` (~15k results, 35 grids);
    otherwise about quick mode.  slow: {contender: factor} multiplies those contenders' times.  peers: with the
    peer rte-avx2 (generic's model at 0.8x its time) and the packet scenario."""
    rnd = random.Random(seed)
    slow = dict(slow or {})
    samples = 11 if full else 5
    l1, l2, l3 = 32768, 524288, 33554432
    contenders = ["libc", "fc[generic]", "byte", "word-coaligned", "generic"]
    if peers:
        contenders.append("rte-avx2")
        slow.setdefault("rte-avx2", 0.8)
    level_bw = {"L1": 80.0, "L2": 45.0, "L3": 22.0, "DRAM": 11.0}

    def level(n):
        return "L1" if 2 * n <= l1 else "L2" if 2 * n <= l2 else "L3" if 2 * n <= l3 else "DRAM"

    def model_ns(c, n, so, do, cold=False):
        dist = (do - so) % 4096
        sd = signed_dist(dist)
        lv = "DRAM" if cold else level(n)
        if c == "byte":
            t = 2.0 + n / 1.4
        elif c == "word-coaligned" and (do - so) % 8:
            t = 3.0 + n / 2.5
        elif c == "libc":
            bw = level_bw[lv]
            if n >= 256 and sd and -128 < sd < 128 and sd % 32 and not cold:
                bw *= 0.035 if n >= 4096 else 0.14
            t = 3.0 + n / bw
        else:
            bw = level_bw[lv] * (0.4 if lv in ("L1", "L2") else 0.8)
            if sd % 8 and -128 < sd < 128 and n >= 256:
                bw *= 0.55
            t = 5.0 + n / bw
        return (t + (40.0 if cold else 0.0)) * slow.get(c, 1.0)

    def quantile(v, q):
        pos = q * (len(v) - 1)
        i = int(pos)
        return v[i] + (pos - i) * (v[i + 1] - v[i]) if i + 1 < len(v) else v[i]

    results = []

    def record(scenario, c, label, n, so, do, ns, cold=False, k=samples, bytes_=None):
        xs = [ns * math.exp(rnd.gauss(0, 0.015)) * (1.25 if rnd.random() < 0.08 else 1.0) for _ in range(k)]
        v = sorted(xs)
        med = quantile(v, 0.5)
        results.append({"scenario": scenario, "contender": c, "label": label, "cache": "cold" if cold else "hot",
                        "n": n, "src_off": so % 64, "dst_off": do % 64, "dist": (do - so) % 4096,
                        "med_ns": round(med, 3), "q1_ns": round(quantile(v, 0.25), 3),
                        "q3_ns": round(quantile(v, 0.75), 3), "gbps": round((bytes_ or n) / med, 4), "samples": k,
                        "iters": max(1, int(1e5 / ns)), "samples_ns": [round(x, 3) for x in xs]})
        return results[-1]

    # peak
    kernels = {"word-loop": 0.5, "sse2-loop": 0.8, "avx2-loop": 0.95, "rep-movsb": 0.9, "sse2-nt": 0.3,
               "avx2-nt": 0.35}
    peaks = []
    for lv, n in (("L1", l1 // 4), ("L2", l2 // 4), ("L3", l3 // 4), ("DRAM", 2 * l3)):
        best = None
        for k, f in kernels.items():
            f = f if lv in ("L1", "L2") else (f * 0.8 if k.endswith("loop") or k == "rep-movsb" else 1.6 * f)
            r = record("peak", k, lv, n, 0, 0, n / (level_bw[lv] * f))
            if not best or r["gbps"] > best["gbps"]:
                best = r
        peaks.append({"level": lv, "n": n, "gbps": best["gbps"], "kernel": best["contender"]})

    # cliffs: screening grids, aligned and worst re-measured; distance sweep
    step = 1 if full else 9
    dists = list(range(0, 129, 1 if full else 8)) + list(range(192, 3968, 64 if full else 512)) + \
        list(range(3968, 4096, 1 if full else 8))
    cliff_sizes = [256, 1024, 4096, 16384, 65536, 262144] if full else [4096, 65536]
    grids, cliffs = [], []
    for n in cliff_sizes:
        for c in contenders:
            aligned = record("cliffs-aligned", c, "", n, 0, 0, model_ns(c, n, 0, 0))["gbps"]
            dofs = list(range(0, 64, step))
            m = [[round(n / (model_ns(c, n, so, do) * math.exp(rnd.gauss(0, 0.03))), 3) for do in dofs]
                 for so in range(64)]
            grids.append({"source": "cliffs-screen", "contender": c, "n": n, "cache": "hot", "samples": 3,
                          "src_offs": list(range(64)), "dst_offs": dofs, "gbps": m, "aligned_gbps": aligned})
            so, do = min(((s, d) for s in range(64) for d in dofs), key=lambda p: m[p[0]][dofs.index(p[1])])
            w = record("cliffs-worst", c, "", n, so, do, model_ns(c, n, so, do))
            cliffs.append({"contender": c, "n": n, "aligned_gbps": aligned, "worst_gbps": w["gbps"],
                           "ratio": round(w["gbps"] / aligned, 4), "selected_ratio": round(m[so][dofs.index(do)] / aligned, 4),
                           "src_off": so, "dst_off": do,
                           "dist": (do - so) % 4096, "flagged": w["gbps"] / aligned < CLIFF_RATIO})
    if full:
        for c in contenders:
            grids.append({"source": "grid", "contender": c, "n": 4096, "cache": "hot", "samples": 5,
                          "src_offs": list(range(64)), "dst_offs": list(range(64)),
                          "gbps": [[round(4096 / model_ns(c, 4096, so, do), 3) for do in range(64)]
                                   for so in range(64)],
                          "aligned_gbps": round(4096 / model_ns(c, 4096, 0, 0), 4)})

    # sizes: as fcbench's size_list, and an aligned cold table at powers of two
    sizes = list(range(1, 65)) + list(range(72, 512, 8 if full else 64))
    p = 512
    while p <= (64 << 20 if full else 1 << 20):
        sizes += [p - 1, p, p + 1]
        p *= 2
    for label, so, do in (("aligned", 0, 0), ("src+1", 1, 0), ("dst+1", 0, 1)):
        for n in sizes:
            for c in contenders:
                record("sizes", c, label, n, so, do, model_ns(c, n, so, do))
    for n in (x for x in sizes if x >= 8 and not x & (x - 1)):
        for c in contenders:
            record("sizes", c, "aligned", n, 0, 0, model_ns(c, n, 0, 0, cold=True), cold=True)
    for n in sorted({(x + 255) & ~255 for x in sizes if x >= 4096}):  # the copy ceiling at each size, as fcbench
        for k, f in kernels.items():
            lv = level(n)
            f = f if lv in ("L1", "L2") else (f * 0.8 if k.endswith("loop") or k == "rep-movsb" else 1.6 * f)
            record("sizes-ceiling", k, "aligned", n, 0, 0, 1.0 + n / (level_bw[lv] * f))

    for n in cliff_sizes:
        for d in dists:
            for c in contenders:
                record("distance", c, "", n, 0, d, model_ns(c, n, 0, d))

    big = (400 if full else 16) << 20
    for label, so in (("aligned", 0), ("unaligned", 1)):
        for c in contenders:
            record("large", c, label, big, so, 0, model_ns(c, big, so, 0), k=5 if full else 3)

    for scenario, src_side in (("offsets-read", True), ("offsets-write", False)):
        for base in (8192, 16384, 32768):
            for off in range(8):
                so, do = (off, 0) if src_side else (0, off)
                for c in contenders:
                    record(scenario, c, "", base - off, so, do, model_ns(c, base - off, so, do))

    for scenario, user_is_dst in (("uaccess-read", True), ("uaccess-write", False)):
        for base in (8192, 16384, 32768):
            for off in range(64):
                n = base - off
                for c, bw in (("kernel-memfd", 13.0), ("kernel-tmpfs", 12.5)):
                    f = 1.0 if off == 0 else 0.99
                    if user_is_dst and base == 16384 and off == 41:
                        f = 0.72
                    so, do = (0, off) if user_is_dst else (off, 0)
                    record(scenario, c, "", n, so, do, 300.0 + n / (bw * f))

    m = 32
    while m <= 65536:
        record("pipe", "pipe", "", m, 0, 0, 900.0 + m / (2.2 if m <= 8192 else 1.8))
        m *= 2

    for label, mean in (("MemcpyGoogleA", 142), ("MemcpyGoogleB", 64), ("MemcpyGoogleD", 44),
                        ("MemcpyGoogleL", 41), ("MemcpyGoogleM", 49), ("MemcpyGoogleW", 50)):
        for c in contenders:
            so, do = rnd.randrange(64), rnd.randrange(64)
            record("dist", c, label, mean, 0, 0, model_ns(c, mean, so, do) + 2.0)

    for n in (8, 16, 24, 32, 48, 64, 96, 128, 192, 256, 512, 1024) if full else (8, 32, 128, 1024):
        for c in contenders:  # the dependent chain: the copy, then the load waiting for its stores
            record("readback", c, "", n, 0, 0, model_ns(c, n, 0, 0) + 4.0)

    if peers:  # packet: the inline variants, libc called, the A/A twin
        for label, n in [("const", x) for x in (14, 20, 32, 64, 128, 1518)] + [("var 1-1024", 512)]:
            for c, f in (("libc", 1.0), ("libc-builtin", 0.9), ("fc_memcpy", 1.02), ("fc_memcpy_inline", 0.7),
                         ("fc_memcpy_inline A/A", 0.7), ("rte-avx2", 0.7 if n < 1000 else 0.5)):
                record("packet", c, label, n, 0, 0, (4.0 + n / 20.0) * f)

    return {
        "schema": SCHEMA, "scenario": "all",
        "argv": "fcbench all --json synthetic.json" + ("" if full else " --quick"),
        "date": "2026-01-01T00:00:00Z",
        "machine": {"cpu": "Synthetic CPU", "cpus": 2, "flags": "sse2 avx avx2 erms fsrm ", "l1d_bytes": l1,
                    "l2_bytes": l2, "l3_bytes": l3, "libc": "2.36", "kernel": "6.1.0-synthetic",
                    "machine": "x86_64", "fastcopy_version": "0.1.0", "fc_active": "generic",
                    "timer_resolution_ns": 20.0},
        "method": {"samples": samples, "min_sample_ns": 100000 if full else 20000, "statistic": "median",
                   "spread": "iqr", "bytes": "copied, counted once", "cache": "hot",
                   "cold_region_bytes": 4 * l3, "other_cpus_busy": 0.03, "steal": 0.0,
                   "pinned": "pinned to cpu 1"},
        "contenders": contenders, "results": results, "grids": grids, "cliffs": cliffs, "peaks": peaks,
    }
