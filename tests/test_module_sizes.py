"""The parsing split keeps each module of it readable (at most 600 lines)."""

from __future__ import annotations

from conftest import REPO


def test_the_parsing_split_keeps_each_module_readable():
    for module in ("parsing.py", "fields.py"):
        assert len((REPO / "src" / "ordeval" / "io" / module).read_text().splitlines()) <= 600
