#!/usr/bin/env bash
# Records the copy calls of five unmodified Debian programs with `fcbench
# record` and measures what the recording costs them, for
# bench/distributions/recorded/ (README.md there has the provenance).
#
#   scripts/record-programs.sh [FCBENCH [OUTDIR]]
#     FCBENCH  default build/release/fcbench (libfastcopy-record.so beside it)
#     OUTDIR   default bench/distributions/recorded
#
# The inputs are generated here, deterministically (a fixed-seed text corpus
# and SQL script), so a rerun on another machine records the same workload.
# Overhead: each program 7 times plain (glibc), 7 times under the preload
# shim (fastcopy, nothing counted) and 7 times under the recording shim,
# alternated, median CPU (user + system) and wall times: recorded / plain is
# what a user pays, recorded / preload what the counting itself costs.  On a
# shared 2-vCPU guest single runs move by 20%, so the counting's cost is also
# given in instructions (callgrind, deterministic) for python3, the program
# with the most calls per second, on the first 2 MB of the corpus (with a fixed
# hash seed: python's own count moves by 1% between seeds).  Printed,
# and written to OUTDIR/overhead.txt.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
fcbench=${1:-$root/build/release/fcbench}
out=${2:-$root/bench/distributions/recorded}
lib=$(dirname "$fcbench")/libfastcopy-record.so pre=$(dirname "$fcbench")/libfastcopy-preload.so
[ -x "$fcbench" ] && [ -r "$lib" ] && [ -r "$pre" ] ||
  { echo "record-programs: need $fcbench, $lib and $pre (make bench builds them)"; exit 2; }
for p in sqlite3 zstd xz sort python3; do
  command -v $p >/dev/null || { echo "record-programs: $p not installed (apt-get install sqlite3 zstd xz-utils coreutils python3)"; exit 2; }
done
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# a 24 MB text corpus: lines of 3-12 words from a 5000-word vocabulary (xorshift, fixed seed)
/usr/bin/python3 - "$work/corpus.txt" <<'EOF'
import sys
s = 88172645463325252
def r():
    global s
    s ^= (s << 13) & 0xFFFFFFFFFFFFFFFF; s ^= s >> 7; s ^= (s << 17) & 0xFFFFFFFFFFFFFFFF
    return s
vocab = []
for i in range(5000):
    vocab.append(''.join(chr(97 + r() % 26) for _ in range(2 + r() % 10)))
with open(sys.argv[1], 'w') as f:
    total = 0
    while total < 24 << 20:
        line = ' '.join(vocab[r() % 5000] for _ in range(3 + r() % 10)) + '\n'
        f.write(line); total += len(line)
EOF
cat > "$work/workload.sql" <<'EOF'
CREATE TABLE t(id INTEGER PRIMARY KEY, k TEXT, v BLOB, n INTEGER);
WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 200000)
  INSERT INTO t(k, v, n) SELECT printf('key-%08d', (i * 7919) % 200000), randomblob(16 + i % 200), i % 977 FROM c;
CREATE INDEX tk ON t(k);
SELECT n, count(*), sum(length(v)) FROM t GROUP BY n ORDER BY 2 DESC LIMIT 5;
SELECT k FROM t WHERE k LIKE 'key-0001%' ORDER BY k LIMIT 3;
UPDATE t SET v = substr(v, 1, 8) || v WHERE n % 3 = 0;
SELECT count(*), sum(length(v)) FROM t;
EOF
cat > "$work/bytes.py" <<'EOF'
# bytes and str work of an interpreter: joins, slices, bytearray growth, json
import json
data = open(__import__('sys').argv[1], 'rb').read()
lines = data.split(b'\n')
out = bytearray()
for i, l in enumerate(lines):
    out += l[: 40] + b'|' + l[-20:]
    if i % 4 == 0:
        out += bytes(reversed(l[:16]))
words = data[: 4 << 20].decode().split()
doc = [{'w': w, 'i': i, 'u': w.upper()} for i, w in enumerate(words[:200000])]
s = json.dumps(doc)
back = json.loads(s)
print(len(out), len(s), len(back))
EOF

# name | command (run in $work)
progs=(
  "sqlite3|sqlite3 $work/db.sqlite < $work/workload.sql; rm -f $work/db.sqlite"
  "zstd|zstd -3 -T1 -q -c $work/corpus.txt > $work/c.zst && zstd -d -q -c $work/c.zst > /dev/null"
  "xz|head -c 4194304 $work/corpus.txt | xz -3 -T1 -c > $work/c.xz && xz -d -c $work/c.xz > /dev/null"
  "sort|sort -S 64M $work/corpus.txt > /dev/null"
  "python3|/usr/bin/python3 $work/bytes.py $work/corpus.txt"
)
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# one run: "wall cpu" seconds (cpu: user + system of the command and its children)
run() {
  local TIMEFORMAT='%R %U %S' t
  t=$({ time env "$@" >/dev/null 2>&1; } 2>&1)
  awk '{printf "%.3f %.3f\n", $1, $2 + $3}' <<<"$t"
}
: > "$out/overhead.txt.new"
for p in "${progs[@]}"; do
  name=${p%%|*} cmd=${p#*|}
  echo "== $name: $cmd"
  "$fcbench" record -o "$out/$name" -- sh -c "$cmd" | sed 's/^/   /'
  : > "$work/plain" && : > "$work/pre" && : > "$work/rec"
  for i in 1 2 3 4 5 6 7; do
    run sh -c "$cmd" >> "$work/plain"
    run LD_PRELOAD="$pre" sh -c "$cmd" >> "$work/pre"
    d=$(mktemp -d)
    run FASTCOPY_RECORD_DIR="$d" LD_PRELOAD="$lib" sh -c "$cmd" >> "$work/rec"
    rm -rf "$d"
  done
  line=$(awk -v n="$name" \
    -v pw="$(cut -d' ' -f1 "$work/plain" | median)" -v pc="$(cut -d' ' -f2 "$work/plain" | median)" \
    -v sw="$(cut -d' ' -f1 "$work/pre" | median)" -v sc="$(cut -d' ' -f2 "$work/pre" | median)" \
    -v rw="$(cut -d' ' -f1 "$work/rec" | median)" -v rc="$(cut -d' ' -f2 "$work/rec" | median)" \
    'BEGIN { printf "%-8s cpu %.3f s plain, %.3f s preload, %.3f s recorded: recorded/plain %.3fx, recorded/preload %.3fx; wall %.3f %.3f %.3f s; medians of 7, alternated", n, pc, sc, rc, rc / pc, rc / sc, pw, sw, rw }')
  echo "   $line"
  echo "$line" >> "$out/overhead.txt.new"
done
if command -v valgrind >/dev/null; then
  head -c 2000000 "$work/corpus.txt" > "$work/small.txt"
  ir() { # instructions of python3 on the 2 MB corpus under callgrind (env words first)
    env PYTHONHASHSEED=0 "$@" valgrind --tool=callgrind --callgrind-out-file=/dev/null /usr/bin/python3 "$work/bytes.py" \
      "$work/small.txt" 2>&1 >/dev/null | sed -n 's/.*Collected : //p'
  }
  d=$(mktemp -d)
  ip=$(ir) is=$(ir LD_PRELOAD="$pre") irec=$(ir FASTCOPY_RECORD_DIR="$d" LD_PRELOAD="$lib")
  calls=$(sed -n 's/^calls //p' "$d"/rec.* | sort -n | tail -n 1)
  rm -rf "$d"
  line=$(awk -v p="$ip" -v s="$is" -v r="$irec" -v c="$calls" 'BEGIN { printf "python3  instructions (callgrind, first 2 MB of the corpus, PYTHONHASHSEED=0): %.0f plain, %.0f preload, %.0f recorded: recorded/plain %.4fx, recorded/preload %.4fx; %.1f instructions per call for the counting (%.0f calls)", p, s, r, r / p, r / s, (r - s) / c, c }')
  echo "   $line"
  echo "$line" >> "$out/overhead.txt.new"
fi
mv "$out/overhead.txt.new" "$out/overhead.txt"
echo "recordings in $out"
