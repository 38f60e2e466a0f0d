"""``ordeval validate``'s report: nested JSON is one line, a file of only a hole is NUL bytes at line 1, an
emptiness that follows from the lines reported is not reported, and trailing tabs, a missing final newline and
bare points are noted as the README says."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_helpers import sparse
from conftest import shared_file

from ordeval.cli import main
from ordeval.io.errors import InputError
from ordeval.io.parsing import load_json
from ordeval.tasks.validation import check_file


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_deeply_nested_json_is_one_line(tmp_path):
    path = write(tmp_path, "deep.json", "[" * 200_000 + "]" * 200_000)
    with pytest.raises(InputError, match=r"deep.json: invalid JSON: nested too deeply"):
        load_json(path)
    checked = check_file(path, "quantification", "ntcir_annotations", [0, 1, 2], score="A")
    assert [str(problem) for problem in checked.problems] == [
        f"{path}: invalid JSON: nested too deeply (arrays or objects inside each other)"
    ]


FORMAT = ["--task", "quantification", "--format", "semeval_dist"]


@pytest.mark.parametrize("size", [1 << 20, 1 << 30])
def test_a_file_of_only_a_hole_is_nul_bytes_at_line_1_not_empty(tmp_path, capsys, size):
    hole = sparse(tmp_path / "hole.txt", "", size)
    assert main(["validate", *FORMAT, str(hole)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out == [f"{hole}:1: NUL byte at line 1 (byte offset 0): not a text file"]


def test_validate_does_not_report_an_emptiness_that_follows_from_the_lines_it_reported(tmp_path, capsys):
    one = tmp_path / "one.txt"
    one.write_text("t1\t0.5\t0.45\t0\t0\t0\n")
    assert main(["validate", *FORMAT, str(one)]) == 1
    assert capsys.readouterr().out.splitlines() == [f"{one}:1: probabilities sum to 0.95, not 1 (tolerance 0.01)"]


def test_validate_reports_trailing_tabs_a_missing_final_newline_and_bare_points_as_readme_says(tmp_path, capsys):
    """README: the organisers' quirks (trailing tabs, no final newline, .01) are read as the official scorers
    read them, "which ordeval validate reports per run" (was: two trailing tabs accepted silently)."""
    path = tmp_path / "run.txt"
    path.write_text("t1\t0.2\t.2\t0.2\t0.2\t0.2\t\t\nt2\t0.2\t0.2\t0.2\t0.2\t0.2")
    assert main(["validate", "--task", "quantification", "--format", "semeval_dist", str(path)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f"{path}: note: 1 line ends with a tab after the last field (ignored, as the official scorers read them; "
        "first at line 1)",
        f"{path}: note: 1 number without a digit before the point, as .01 (read as 0.01; first at line 1)",
        f"{path}: note: no newline at the end of the file (the last line is read all the same)",
        f"{path}: OK (gold: 2 topics, every distribution sums to 1)",
    ]
    lys = shared_file("Sem16T4CE/official/runs/E/LYS-E.output")
    assert main(["validate", "--task", "quantification", "--format", "semeval_dist", "--role", "run", str(lys)]) == 0
    assert f"{lys}: note: 100 lines end with a tab after the last field" in capsys.readouterr().out
