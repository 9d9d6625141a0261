#!/usr/bin/env python3
"""Time new / head per size (median over the processes, each process's figure
in brackets) for fcbench's aligned row (4K-congruent: dst - src = 0 mod 4096),
hot and cold; and, hot, the geometric mean per size band for every placement."""
import collections, glob, gzip, json, math, os, statistics as st

HERE = os.path.dirname(os.path.abspath(__file__))
A, B = 'head:avx512-ymmloop', 'new:avx512-ymmloop'


def ratios(pattern, cache):
    rat = collections.defaultdict(list)
    for f in sorted(glob.glob(os.path.join(HERE, pattern))):
        t = {}
        for r in json.load(gzip.open(f, 'rt'))['results']:
            if r['cache'] == cache:
                pl = 'aligned' if r['src_off'] == r['dst_off'] == 0 else 'src+1' if r['src_off'] else 'dst+1'
                t[(pl, r['n'], r['contender'])] = r['med_ns']
        for (pl, n, c), v in t.items():
            if c == B:
                rat[(pl, n)].append(v / t[(pl, n, A)])
    return rat


for cache, pattern, lo, hi in (('cold', 'cold-*.json.gz', 0, 1 << 40), ('hot', 'hot-*.json.gz', 513, 65537)):
    print(f'# {cache}, aligned (4K-congruent): time new / head')
    rat = ratios(pattern, cache)
    for (pl, n), v in sorted(rat.items()):
        if pl == 'aligned' and lo <= n <= hi:
            print(f'{n:9d} {st.median(v):.3f}  [{" ".join(f"{x:.2f}" for x in v)}]')
rat = ratios('hot-*.json.gz', 'hot')
print('# hot, every placement: geometric mean of the per-size medians by band (max, min)')
for pl in ('aligned', 'src+1', 'dst+1'):
    for lo, hi in ((0, 512), (513, 2048), (2049, 8192), (8193, 24576), (24577, 262144), (262145, 1 << 40)):
        m = {n: st.median(v) for (p, n), v in rat.items() if p == pl and lo <= n <= hi}
        g = math.exp(sum(map(math.log, m.values())) / len(m))
        mx, mn = max(m, key=m.get), min(m, key=m.get)
        print(f'{pl:8s} {lo:>9d}-{hi if hi < 1 << 40 else "":<9} {len(m):3d} sizes  geo {g:.3f}'
              f'  max {m[mx]:.3f} at {mx}  min {m[mn]:.3f} at {mn}')
