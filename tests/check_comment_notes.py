#!/usr/bin/env python3
"""Comments in src/, include/ and bench/ keep rules, not run logs.

Scans the comments of the C and assembly sources of the library and of
fcbench (C: /* */ and //; .S: the same plus '#' comment lines) and fails on
dated notes and measured figures,
which belong in docs/decisions/ (one record per decision, with the figures,
machine, date and the command that re-measures them):

  - ISO dates (20YY-MM-DD)
  - "the seed" / "the issue" (text the repository does not contain)
  - "Measured on"
  - ratio figures: 1.26x, 0.93-1.01x, 3x
  - timings and rates: 12.7 ns, 40 us, 139 GB/s, MB/s, 4-10%

Byte counts ("256 B", "4 KiB") and the size-class tables are fine.  Every
decision id in a comment, "(D07)", must name a file docs/decisions/D07-*.md
that docs/decisions/README.md lists, and every record whose status is kept
must be cited at a code site: a comment in those sources, or a '#' comment of
the report's Python package (bench/fcreport/, read for ids only).

Usage: check_comment_notes.py [repository root]   (default: this file's ../)
"""
import os
import re
import sys

SKIP = ()
ROOTS = ("src", "include", "bench")
EXTS = (".c", ".h", ".S", ".s")
# read for decision ids only (their docstrings and comments may quote output)
ID_ONLY = (("bench/fcreport", (".py",)),)

PATTERNS = [
    ("date", re.compile(r"\b20\d\d-\d\d-\d\d\b")),
    # "the seed patch", "the issue's", "the x86-64 tuning issue's": say what is meant
    ("seed/issue reference", re.compile(r"\bthe\s+(?:[\w-]+\s+){0,2}(?:seed|issue)(?:'s|s'|s)?\b|\bseed\s+patch", re.I)),
    ("'Measured on'", re.compile(r"\bmeasured\s+on\b", re.I)),
    # not "0x" (the hexadecimal prefix in prose)
    ("ratio figure", re.compile(r"(?<![\w.])(?!0x)\d+(\.\d+)?(\s*-\s*\d+(\.\d+)?)?x(?![\w])")),
    ("timing figure", re.compile(r"(?<![\w.])\d+(\.\d+)?(\s*-\s*\d+(\.\d+)?)?\s*(ns|us|µs|ms)\b")),
    ("throughput figure", re.compile(r"\b[GMK]i?B/s\b")),
    ("percentage figure", re.compile(r"(?<![\w.])\d+(\.\d+)?\s*%")),
]
DID = re.compile(r"\bD(\d\d)\b")


def comments(path, text):
    """Yield (line number, comment text) for each comment line."""
    asm = path.endswith((".S", ".s"))
    i, n, line = 0, len(text), 1
    quote = None
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
            continue
        if quote:
            if c == "\\":
                i += 2
                continue
            if c == quote:
                quote = None
            i += 1
            continue
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j
            for k, part in enumerate(text[i + 2:j].split("\n")):
                yield line + k, part
            line += text.count("\n", i, j)
            i = j + 2
            continue
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            yield line, text[i + 2:j]
            i = j
            continue
        if asm and c == "#":
            # a '#' comment line: '#' first on the line, not a preprocessor directive
            bol = text.rfind("\n", 0, i) + 1
            j = text.find("\n", i)
            j = n if j < 0 else j
            if text[bol:i].strip() == "" and not re.match(
                    r"#\s*(include|define|undef|if|ifdef|ifndef|elif|else|endif|error|warning|pragma|line)\b",
                    text[i:j]):
                yield line, text[i + 1:j]
            i = j
            continue
        if c in "\"'" and not asm:
            quote = c
        i += 1


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                           os.path.join(os.path.dirname(__file__), ".."))
    ddir = os.path.join(root, "docs", "decisions")
    records = {}
    if os.path.isdir(ddir):
        for f in os.listdir(ddir):
            m = re.match(r"D(\d\d)-.+\.md$", f)
            if m:
                records[m.group(1)] = f
    index = ""
    if os.path.exists(os.path.join(ddir, "README.md")):
        with open(os.path.join(ddir, "README.md"), encoding="utf-8") as fh:
            index = fh.read()

    bad = []
    for top in ROOTS:
        for dirpath, dirnames, files in os.walk(os.path.join(root, top)):
            rel_dir = os.path.relpath(dirpath, root).replace(os.sep, "/")
            if rel_dir.startswith(SKIP):
                dirnames[:] = []
                continue
            dirnames.sort()
            for f in sorted(files):
                if not f.endswith(EXTS):
                    continue
                path = os.path.join(dirpath, f)
                rel = rel_dir + "/" + f
                with open(path, encoding="utf-8", errors="replace") as fh:
                    text = fh.read()
                for ln, body in comments(path, text):
                    for what, rx in PATTERNS:
                        m = rx.search(body)
                        if m:
                            bad.append(f"{rel}:{ln}: {what} '{m.group(0)}' in a comment: "
                                       f"move it to docs/decisions/ | {body.strip()}")
                    for m in DID.finditer(body):
                        d = m.group(1)
                        if d not in records:
                            bad.append(f"{rel}:{ln}: D{d} has no docs/decisions/D{d}-*.md")
                        elif not re.search(r"\bD%s\b" % d, index) or records[d] not in index:
                            bad.append(f"{rel}:{ln}: D{d} is not listed (with a link to {records[d]}) "
                                       f"in docs/decisions/README.md")
    # the other way: a kept decision is cited at its code site
    cited = set()
    for top, exts in [(r, EXTS) for r in ROOTS] + list(ID_ONLY):
        for dirpath, _, files in os.walk(os.path.join(root, top)):
            for f in files:
                if f.endswith(exts):
                    with open(os.path.join(dirpath, f), encoding="utf-8", errors="replace") as fh:
                        text = fh.read()
                    ids = DID.findall(text)
                    cited.update(ids)
                    if exts != EXTS:
                        rel = os.path.relpath(os.path.join(dirpath, f), root).replace(os.sep, "/")
                        for d in sorted(set(ids)):
                            if d not in records:
                                bad.append(f"{rel}: D{d} has no docs/decisions/D{d}-*.md")
    for d, f in sorted(records.items()):
        with open(os.path.join(ddir, f), encoding="utf-8") as fh:
            kept = re.search(r"\*\*Status:\*\*\s*kept", fh.read())
        if kept and d not in cited:
            bad.append(f"docs/decisions/{f}: kept, but no comment in src/, include/ or bench/ cites D{d}")
    for b in bad:
        print(b)
    if bad:
        print(f"comment-notes: {len(bad)} problem(s); run figures, dates and decisions belong in "
              f"docs/decisions/ (comments keep the rule, a one-line why and the id)")
        return 1
    print("comment-notes: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
