"""Checks that a LaTeX fragment is a well-formed booktabs tabular (used by the table tests)."""

from __future__ import annotations

import re

CELL_SEPARATOR = re.compile(r"(?<!\\)&")


def check_tabular(fragment: str) -> int:
    """Assert that ``fragment`` holds balanced environments and one tabular whose rows all have as
    many cells as its column specification; returns the number of table rows."""
    lines = [line for line in fragment.splitlines() if not line.startswith("%")]
    text = "\n".join(lines)
    begins = re.findall(r"\\begin\{(\w+)\}", text)
    ends = re.findall(r"\\end\{(\w+)\}", text)
    assert begins == ["tabular"] and ends == ["tabular"], (begins, ends)
    assert text.count("{") - text.count(r"\{") == text.count("}") - text.count(r"\}"), "unbalanced braces"
    assert text.count("$") % 2 == 0 and "$$" not in text, "unbalanced math"
    spec = re.search(r"\\begin\{tabular\}\{((?:[^{}]|\{[^{}]*\})*)\}", text).group(1)
    columns = len(re.findall(r"[lcrp]", re.sub(r"\{[^{}]*\}", "", spec)))
    rows = [line for line in lines if line.rstrip().endswith(r"\\")]
    assert rows, "no table rows"
    for row in rows:
        spans = [int(n) for n in re.findall(r"\\multicolumn\{(\d+)\}", row)]
        cells = len(CELL_SEPARATOR.findall(row)) + 1 - len(spans) + sum(spans)
        assert cells == columns, f"{columns} columns expected: {row}"
    for rule in (r"\toprule", r"\midrule", r"\bottomrule"):
        assert rule in text
    return len(rows)
