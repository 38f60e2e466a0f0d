"""Measure tables (``measures.tsv``) are parsed strictly and read back as written with their directions;
every registered display label is safe markup, dangerous markup is not."""

from __future__ import annotations

from pathlib import Path

import pytest

from ordeval.io.errors import InputError
from ordeval.io.markup import markup_problem
from ordeval.tasks.stack import read_measure_table


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


HEADER = "measure\tdisplay\tlower_is_better\ttask\tlatex\n"


@pytest.mark.parametrize(
    ("row", "where"),
    [
        ("MAE_M\tMAE^M\tyes\tclassification\t", "line 2: column lower_is_better: 'yes' is not True or False"),
        ("MAE_M\tMAE^M\ttrue\tclassification\t", "line 2: column lower_is_better: 'true' is not True or False"),
        ("MAE_M\tMAE^M\tTrue\tclassification\t\\input{/etc/passwd}", "line 2: column latex:"),
        ("MAE_M\tMAE^M\tTrue\tclassification\t^^5cinput{/etc/passwd}", "line 2: column latex:"),
        ("MAE_M\tMAE^M\tTrue\tclassification\t$x% comment", "line 2: column latex:"),
        ("../x\tx\tTrue\tclassification\t", "line 2: column measure: measure '../x' contains a path separator"),
        ("topic\tx\tTrue\tclassification\t", "line 2: column measure: measure 'topic' is a reserved word"),
        ("MAE_M\tMAE\x1b\tTrue\tclassification\t", "line 2: column display: 'MAE\\x1b' has a control character"),
    ],
)
def test_measure_tables_are_parsed_strictly(tmp_path, row, where):
    path = write(tmp_path, "measures.tsv", HEADER + row + "\n")
    with pytest.raises(InputError) as error:
        read_measure_table(path)
    assert str(error.value).startswith(f"{path}, {where}"), str(error.value)
    assert "\n" not in str(error.value)


def test_a_measure_table_as_written_reads_back_with_its_directions(tmp_path):
    rows = ["MAE_M\tMAE$^{M}$\tTrue\tclassification\tMAE$^{M}$", "kappa\tkappa\tFalse\tclassification\t$\\kappa$"]
    text = HEADER + "\n".join(rows) + "\n"
    path = tmp_path / "measures.tsv"
    path.write_bytes(b"\xef\xbb\xbf" + text.encode())  # a byte-order mark is dropped
    table = read_measure_table(path)
    assert table["lower_is_better"] == [True, False] and table["latex"] == ["MAE$^{M}$", "$\\kappa$"]


def test_every_registered_label_is_safe_markup_and_dangerous_markup_is_not():
    from ordeval.tasks import get_task

    for task in ("quantification", "classification"):
        registry = get_task(task).registry
        for name in registry.names():
            assert markup_problem(registry[name].properties.get("latex", "")) is None, name
    for markup in ["\\write18{rm}", "\\catcode`\\^=7", "{", "$x", "a\\\\b", "\\def\\x{}", "~", "a#1", "x&y"]:
        assert markup_problem(markup), markup
