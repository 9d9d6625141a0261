"""The HTML page: its CSS, Page (a minimal builder: sections with a table of contents, paragraphs, tables,
figures, details; every piece of data escaped) and label_n_rows(), the rows of the label x size tables."""

import html
from collections import defaultdict

from .fmt import fmt_ratio, fmt_size


CSS = """
body { font-family: system-ui, -apple-system, Segoe UI, sans-serif; max-width: 1250px; margin: 1em auto;
       padding: 0 1em; color: #222; line-height: 1.45; }
h1 { font-size: 1.5em; } h2 { border-bottom: 1px solid #ccc; margin-top: 1.8em; } h3 { margin-bottom: .3em; }
table { border-collapse: collapse; margin: .4em 0 1.2em; font-size: .9em; }
th, td { border: 1px solid #ccc; padding: 2px 7px; }
th { background: #f2f2f2; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tr.flag td { background: #fde2e2; }
td.bad { background: #fde2e2; }
figure { margin: .6em 0 1.4em; } figcaption { font-size: .85em; color: #555; }
img { max-width: 100%; border: 1px solid #eee; }
.summary li { margin: .35em 0; } .note { color: #555; font-size: .9em; }
pre { background: #f6f6f6; padding: .5em; overflow-x: auto; font-size: .85em; }
code { background: #f3f3f3; padding: 0 .2em; }
"""


class Page:
    """A minimal HTML builder: every piece of data goes through esc()."""

    def __init__(self):
        self.parts, self.toc = [], []

    @staticmethod
    def esc(x):
        return html.escape(str(x), quote=True)

    def section(self, title, anchor):
        self.toc.append((anchor, title))
        self.parts.append(f'<h2 id="{anchor}">{self.esc(title)}</h2>')

    def h3(self, title):
        self.parts.append(f"<h3>{self.esc(title)}</h3>")

    def p(self, text, cls=None):
        self.parts.append(f'<p{f" class={cls!r}" if cls else ""}>{self.esc(text)}</p>')

    def raw(self, s):
        self.parts.append(s)

    def table(self, headers, rows, num=None, flags=None, bad_cells=None):
        """rows of values (str or number); `num`: column indices right-aligned (default: every column but the
        first whose cells are all numeric-looking); `flags`: row indices to highlight; `bad_cells`: (row, col)."""
        flags, bad_cells = set(flags or ()), set(bad_cells or ())
        if num is None:
            num = {j for j in range(1, len(headers))}
        out = ["<table><tr>" + "".join(f"<th>{self.esc(h)}</th>" for h in headers) + "</tr>"]
        for i, r in enumerate(rows):
            cells = []
            for j, v in enumerate(r):
                cls = [x for x in ("num" if j in num else "", "bad" if (i, j) in bad_cells else "") if x]
                cells.append(f"<td{' class=' + repr(' '.join(cls)) if cls else ''}>{self.esc(v)}</td>")
            out.append(f"<tr{' class=flag' if i in flags else ''}>" + "".join(cells) + "</tr>")
        self.parts.append("".join(out) + "</table>")

    def img(self, name, caption):
        if name:
            self.parts.append(f'<figure><img src="{self.esc(name)}" alt="{self.esc(caption)}">'
                              f"<figcaption>{self.esc(caption)}</figcaption></figure>")

    def details(self, summary, build):
        self.parts.append(f"<details><summary>{self.esc(summary)}</summary>")
        build()
        self.parts.append("</details>")

    def render(self, title, head_parts):
        toc = "".join(f'<li><a href="#{a}">{self.esc(t)}</a></li>' for a, t in self.toc)
        return ("<!doctype html>\n<html lang=en><head><meta charset=utf-8>"
                f"<title>{self.esc(title)}</title><style>{CSS}</style></head><body>\n"
                f"<h1>{self.esc(title)}</h1>\n" + "\n".join(head_parts)
                + f"\n<nav><b>Sections</b><ul>{toc}</ul></nav>\n" + "\n".join(self.parts) + "\n</body></html>\n")


def vs_libc(text):
    """A label_n_rows cell: text(result), and for every contender but libc, in brackets, its time relative to
    libc's in the same case."""
    def cell(c, r, case):
        base = case.get("libc")
        return text(r) + (f" ({fmt_ratio(r['med_ns'] / base['med_ns'])})" if base and c != "libc" else "")
    return cell


def label_n_rows(rs, names, cell):
    """One row per (label, n) of results rs, labels in first-seen order, n ascending: [label, size, one
    cell per contender in names ("-" where it has no result; else cell(contender, result, case), case being
    that row's results by contender)].  Returns the rows and their (label, n, case)."""
    by = defaultdict(dict)
    for r in rs:
        by[(r["label"], r["n"])][r["contender"]] = r
    rows, cases = [], []
    for lbl in dict.fromkeys(r["label"] for r in rs):
        for n in sorted({r["n"] for r in rs if r["label"] == lbl}):
            case = by[(lbl, n)]
            rows.append([lbl, fmt_size(n)] + [cell(c, case[c], case) if c in case else "-" for c in names])
            cases.append((lbl, n, case))
    return rows, cases
