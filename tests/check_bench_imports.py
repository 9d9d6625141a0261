#!/usr/bin/env python3
"""The import graph of bench/ and src/: no circles, imports flowing one way.

usage: check_bench_imports.py [ROOT] [--print]

A file's imports: the headers it includes (#include "...", resolved as the
build does: beside the file, then bench/, src/, include/, tools/), and, for a
.c file, the .c files that define the non-static functions and globals it
uses.  "Uses" is approximated: every function or global a header declares
(a prototype, or an extern) is a symbol; the .c file that defines it at file
scope is its definer; a .c file that names it without defining it imports
the definer.  Fails (exit 1) when

  - two or more files import each other, directly or round a circle;
  - an import flows upward: tools -> bench -> src -> include is the order,
    and within bench/, fcbench.c (the CLI) -> bench/scenarios/ -> the harness
    -> the engine (the sources of CMakeLists.txt's fcbench_engine, and
    bench.h): nothing below reaches up.

--print writes the graph (file -> what it imports) of bench/ and tools/.
"""
import os, re, sys

KEYWORDS = {"if", "for", "while", "switch", "return", "sizeof", "__attribute__", "_Alignas", "_Static_assert",
            "__typeof__", "typeof", "alignas", "defined", "__asm__", "asm", "__declspec", "_Alignof",
            "__builtin_expect", "do", "else", "case", "goto", "void", "int", "char", "short", "long", "unsigned",
            "signed", "float", "double", "const", "volatile", "struct", "union", "enum", "_Bool", "inline",
            "restrict", "register", "auto", "extern", "static", "typedef", "_Noreturn", "__restrict"}


# Circles that predate this check, outside bench/: reported, not failed.  Remove
# an entry when its circle is broken; a new circle anywhere fails.
KNOWN_CIRCLES = set()


def strip(text):
    """Comments, string and character literals and preprocessor lines removed."""
    text = re.sub(r"\\\n", " ", text)
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j < 0 else j + 2
            out.append(" ")
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append('""' if c == '"' else "0")
            i = j + 1
        else:
            out.append(c)
            i += 1
    lines = [l for l in "".join(out).split("\n") if not l.lstrip().startswith("#")]
    return "\n".join(lines)


def statements(code):
    """File-scope statements: (text at brace depth 0, has a function body)."""
    res, cur, depth, fn = [], [], 0, False
    for c in code:
        if c == "{":
            if depth == 0:
                fn = bool(re.search(r"\)\s*$", "".join(cur)))  # a function's body, not an initializer
            depth += 1
            continue
        if c == "}":
            depth -= 1
            if depth == 0:
                if fn:
                    res.append(("".join(cur), True))
                    cur, fn = [], False
                else:
                    cur.append(" {} ")
            continue
        if depth:
            continue
        if c == ";":
            res.append(("".join(cur), False))
            cur = []
            continue
        cur.append(c)
    if "".join(cur).strip():
        res.append(("".join(cur), False))
    return res


def header_symbols(code):
    """Functions and globals a header declares (not types, not static inline)."""
    syms = set()
    for text, _ in statements(code):
        t = text.strip()
        if not t or re.match(r"(typedef|static)\b", t) or re.search(r"\bstatic\b", t):
            continue
        if re.match(r"(struct|union|enum)\s+\w*\s*(\{\})?\s*$", t):
            continue
        ptr = re.search(r"\(\s*\*\s*(?:(?:const|volatile)\s+)*([A-Za-z_]\w*)\s*\)\s*\(", t)
        if ptr and t[:ptr.start()].count("(") == t[:ptr.start()].count(")"):  # void (*name)(...), not a parameter
            syms.add(ptr.group(1))
            continue
        funcs = [m.group(1) for m in re.finditer(r"\b([A-Za-z_]\w*)\s*\(", t) if m.group(1) not in KEYWORDS]
        # a prototype: the first name followed by '(' outside parentheses (not a (*pointer))
        depth, name = 0, None
        for m in re.finditer(r"[()]|[A-Za-z_]\w*", t):
            tok = m.group(0)
            if tok == "(":
                depth += 1
            elif tok == ")":
                depth -= 1
            elif depth == 0 and tok not in KEYWORDS and t[m.end():].lstrip().startswith("("):
                name = tok
                break
        if name and funcs:
            syms.add(name)
        elif re.search(r"\bextern\b", t):
            for m in re.finditer(r"\b([A-Za-z_]\w*)\s*(?=\[|,|$|=)", t):
                if m.group(1) not in KEYWORDS:
                    syms.add(m.group(1))
    return syms


def defined(code, symbols):
    """The declared symbols a .c file defines at file scope (not static, not extern)."""
    out = set()
    for text, body in statements(code):
        t = text.strip()
        if not t or re.match(r"(typedef|extern)\b", t) or re.search(r"\bstatic\b|\bextern\b", t):
            continue
        for m in re.finditer(r"\b([A-Za-z_]\w*)\b", t):
            name = m.group(1)
            if name not in symbols:
                continue
            after = t[m.end():].lstrip()
            if not body and after.startswith("(") and "=" not in t[:m.start()]:
                continue  # a prototype, not a definition
            out.add(name)
    return out


def layer(rel):
    return rel.split("/", 1)[0]


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    show = "--print" in sys.argv
    root = os.path.abspath(args[0] if args else os.path.join(os.path.dirname(__file__), ".."))
    files = {}
    for top in ("bench", "src", "include", "tools", "scripts"):
        for d, _, names in os.walk(os.path.join(root, top)):
            for nm in names:
                if nm.endswith((".c", ".h")):
                    rel = os.path.relpath(os.path.join(d, nm), root).replace(os.sep, "/")
                    with open(os.path.join(d, nm), encoding="utf-8", errors="replace") as f:
                        files[rel] = f.read()

    def resolve(rel, inc):
        for base in (os.path.dirname(rel), "bench", "src", "include", "tools"):
            cand = os.path.normpath(os.path.join(base, inc)).replace(os.sep, "/")
            if cand in files:
                return cand
        return None

    edges = {f: {} for f in files}  # file -> {target: why}
    for rel, text in files.items():
        for inc in re.findall(r'^\s*#\s*include\s*"([^"]+)"', text, re.M):
            tgt = resolve(rel, inc)
            if tgt and tgt != rel:
                edges[rel].setdefault(tgt, "#include")
    code = {rel: strip(text) for rel, text in files.items()}
    symbols = set()
    for rel in files:
        if rel.endswith(".h"):
            symbols |= header_symbols(code[rel])
    definers = {}
    defs = {}
    for rel in files:
        if rel.endswith(".c"):
            defs[rel] = defined(code[rel], symbols)
            for s in defs[rel]:
                definers.setdefault(s, set()).add(rel)
    for rel in files:
        if not rel.endswith(".c"):
            continue
        used = set(re.findall(r"\b[A-Za-z_]\w*\b", code[rel])) & set(definers)
        for s in sorted(used - defs[rel]):
            for d in definers[s]:
                if d != rel and layer(d) not in ("tools", "scripts"):  # they define nothing others may use
                    why = edges[rel].get(d)
                    edges[rel][d] = (why + ", " if why and why != "#include" else "") + s

    # ranks: include 0, src 1, bench engine 2, bench harness 3, scenarios 4, fcbench.c 5, tools 6
    engine = {"bench/bench.h"}
    cm = os.path.join(root, "CMakeLists.txt")
    if os.path.exists(cm):
        m = re.search(r"add_library\(fcbench_engine\s+STATIC\s+([^)]*)\)", open(cm).read())
        if m:
            engine |= {w for w in m.group(1).split() if w.startswith("bench/")}

    def rank(rel):
        top = layer(rel)
        if top == "include":
            return 0
        if top == "src":
            return 1
        if top in ("tools", "scripts"):
            return 6
        if rel in engine:
            return 2
        if rel.startswith("bench/scenarios/"):
            return 4
        if rel == "bench/fcbench.c":
            return 5
        return 3

    bad = []
    for a, tg in edges.items():
        for b, why in tg.items():
            if rank(b) > rank(a):
                bad.append(f"upward import: {a} -> {b} ({why})")

    # circles: strongly connected components (Tarjan, iterative)
    index, low, onstack, stack, comps, counter = {}, {}, set(), [], [], [0]
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = counter[0]
        counter[0] += 1
        stack.append(start)
        onstack.add(start)
        while work:
            v, it = work[-1]
            nxt = next(it, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter[0]
                    counter[0] += 1
                    stack.append(nxt)
                    onstack.add(nxt)
                    work.append((nxt, iter(sorted(edges[nxt]))))
                elif nxt in onstack:
                    low[v] = min(low[v], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    onstack.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    comps.append(sorted(comp))
    notes = []
    for comp in comps:
        lines = [f"  {a} -> {b} ({edges[a][b]})" for a in comp for b in sorted(edges[a]) if b in comp]
        pairs = [f"{a} <-> {b}" for a in comp for b in comp if a < b and b in edges[a] and a in edges[b]]
        text = ("circle between " + ", ".join(comp) + (" (each other: " + "; ".join(pairs) + ")" if pairs else "") +
                ":\n" + "\n".join(lines))
        (notes if frozenset(comp) in KNOWN_CIRCLES else bad).append(text)

    if show:
        print("import graph (file -> imports; '#include' or the symbols used), bench/ and tools/:")
        for a in sorted(edges):
            if layer(a) not in ("bench", "tools", "scripts") or not edges[a]:
                continue
            print(f"{a}")
            for b in sorted(edges[a], key=lambda x: (-rank(x), x)):
                print(f"    -> {b}  [{edges[a][b]}]")
    nfiles = len(files)
    nedges = sum(len(t) for t in edges.values())
    for n in notes:
        print("note: known, left to src/'s owners: " + n)
    if bad:
        print("\n".join("FAIL: " + b for b in bad))
        print(f"check_bench_imports: {len(bad)} problem(s) in {nfiles} files, {nedges} imports")
        return 1
    print(f"check_bench_imports: ok - {nfiles} files, {nedges} imports, no circles, every import flows down "
          "(tools -> bench [fcbench.c -> scenarios -> harness -> engine] -> src -> include)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
