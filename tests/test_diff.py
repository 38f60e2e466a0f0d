"""``ordeval diff`` and ``ordeval reference`` on small results folders that differ in one way each (a cell by
1e-3, a cell within the tolerance, a file added or removed, a PNG changed, columns or rows reordered, a text
cell changed, bad input), the output formats, and the engine's API (ordeval.results.compare) for comparing
reproduced numbers with printed ones."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from cli_helpers import one_error_line
from conftest import REPO

from ordeval.cli import main
from ordeval.io.table import Table
from ordeval.results.compare import ROW_NUMBER, Tolerance, compare_printed, compare_tables, decimals, key_columns
from ordeval.results.reference import VOLATILE, compare_folders, matches, open_folder

AGREEMENT = "tables/agreement/X.csv"
SCORES = "scores/X/JSD.tsv"
FIGURE = "figures/agreement/heatmap.png"

AGREEMENT_TEXT = """measure_a,measure_b,tau,ci_low,data_origin
NMD,RNOD,0.8787878787878788,0.7222522375117074,synthetic
NMD,JSD,0.5,0.25,synthetic
RNOD,JSD,0.6666666666666666,0.3333891050384704,synthetic
"""
SCORES_TEXT = "topic\tA\tB\nt1\t0.25\t0.12548971234567891\nt2\t0.5\t0.0625\nt3\t0.75\t0.03125\n"


def _write(folder: Path, name: str, content: str | bytes) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


def _manifest(folder: Path, name: str = "demo") -> None:
    """manifest.json as the pipeline writes it: every output but the volatile ones, with its SHA-256."""
    entries = [
        {
            "path": f"results/{name}/{path.relative_to(folder).as_posix()}",
            "sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
            "bytes": path.stat().st_size,
        }
        for path in sorted(folder.rglob("*"))
        if path.is_file() and not matches(path.relative_to(folder).as_posix(), VOLATILE)
    ]
    _write(folder, "manifest.json", json.dumps({"name": name, "git_commit": "abc", "output_files": entries}))


@pytest.fixture
def old(tmp_path) -> Path:
    """A small results folder: a CSV table, a score matrix, a PNG, an NPZ, a LaTeX fragment, a log and the
    manifest."""
    folder = tmp_path / "old"
    _write(folder, AGREEMENT, AGREEMENT_TEXT)
    _write(folder, SCORES, SCORES_TEXT)
    _write(folder, FIGURE, b"\x89PNG\r\n\x1a\n" + bytes(range(64)))
    np.savez(_write(folder, "scores/X/stack.npz", b""), scores=np.arange(6.0))
    _write(folder, "tables/agreement/X.tex", "% synthetic\n\\begin{tabular}{lr}\\end{tabular}\n")
    _write(folder, "logs/agreement_tables.log", "2026-01-01 12:00:00 done\n")
    _manifest(folder)
    return folder


@pytest.fixture
def new(old, tmp_path) -> Path:
    return Path(shutil.copytree(old, tmp_path / "new"))


def _edit(folder: Path, name: str, before: str, after: str) -> None:
    path = folder / name
    text = path.read_text(encoding="utf-8")
    assert before in text
    path.write_text(text.replace(before, after, 1), encoding="utf-8")


def _diff(capsys, *args) -> tuple[int, str]:
    status = main(["diff", *map(str, args)])
    return status, capsys.readouterr().out


# --------------------------------------------------------------------------- each kind of difference


def test_identical_folders_are_equal_and_volatile_files_are_left_out(capsys, old, new):
    _write(new, "logs/agreement_tables.log", "2026-02-02 08:00:00 done\n")
    _edit(new, "manifest.json", '"git_commit": "abc"', '"git_commit": "def"')
    status, out = _diff(capsys, old, new)
    assert status == 0
    assert out.splitlines()[1].startswith(
        "EQUAL: 0 tables with changed cells or rows, 0 files with changed numbers or text, 0 files changed"
    )
    assert "2 volatile files left out" in out


def test_a_cell_changed_by_one_thousandth(capsys, old, new):
    _edit(new, AGREEMENT, "NMD,RNOD,0.8787878787878788", "NMD,RNOD,0.8797878787878788")
    status, out = _diff(capsys, old, new)
    assert status == 1
    assert out.splitlines()[1].startswith("NOT EQUAL: 1 table with changed cells or rows")
    summary = next(line for line in out.splitlines() if line.strip().startswith(AGREEMENT))
    assert summary.split()[1:4] == ["1", "of", "9"]  # 3 rows x tau, ci_low, data_origin (not the key columns)
    assert "+0.001 (tau; measure_a=NMD, measure_b=RNOD)" in summary
    detail = out.splitlines()[-1].split()
    assert detail == ["measure_a=NMD,", "measure_b=RNOD", "tau", "0.8787878787878788", "0.8797878787878788", "+0.001"]


def test_a_cell_within_the_tolerance(capsys, old, new):
    _edit(new, AGREEMENT, "NMD,JSD,0.5,", "NMD,JSD,0.5000000001,")
    status, out = _diff(capsys, old, new)  # within the default tolerance (1e-9 of the larger magnitude)
    assert status == 0 and "within 1e-12 or within 1e-09 of the larger magnitude" in out
    assert _diff(capsys, old, new, "--exact")[0] == 1  # the column is written at full precision: exact
    status, out = _diff(capsys, old, new, "--tolerance", "1e-9", "--relative-tolerance", "0")
    assert status == 0 and "within 1e-09" in out and "magnitude" not in out
    assert _diff(capsys, old, new, "--relative-tolerance", "1e-10")[0] == 1
    assert _diff(capsys, old, new, "--tolerance", "1e-11", "--relative-tolerance", "0")[0] == 1


def test_the_written_precision_of_a_column(capsys, old, new):
    """A table printed at 3 decimals against a full-precision one: equal where they agree to 3 decimals."""
    printed = (
        "measure_a,measure_b,tau,ci_low,data_origin\nNMD,RNOD,0.879,0.722,synthetic\nNMD,JSD,0.500,0.250,"
        "synthetic\nRNOD,JSD,0.667,0.333,synthetic\n"
    )
    _write(new, AGREEMENT, printed)
    assert _diff(capsys, old, new)[0] == 0
    _write(new, AGREEMENT, printed.replace("0.879", "0.878"))
    status, out = _diff(capsys, old, new)
    assert status == 1 and "0.8787878787878788  0.878" in out


def test_short_numbers_of_a_full_precision_table_are_exact():
    """0.5 in a column of 0.5s is 0.5 where the table is written in full precision, 0.45..0.55 where it is not."""
    full = Table({"run": ["A", "B"], "DNKT": ["0.5", "0.5"], "NMD": ["0.8787878787878788", "0.25"]})
    moved = full.with_column("DNKT", ["0.54", "0.5"])
    assert [(cell.key, cell.old, cell.new) for cell in compare_tables(full, moved).changed] == [(("A",), "0.5", "0.54")]
    short = Table({"run": ["A", "B"], "DNKT": ["0.5", "0.5"], "NMD": ["0.88", "0.25"]})
    assert compare_tables(short, short.with_column("DNKT", ["0.54", "0.5"])).equal
    assert not compare_tables(short, short.with_column("DNKT", ["0.56", "0.5"])).equal


def test_a_file_added_and_a_file_removed(capsys, old, new):
    _write(new, "tables/sso/X.csv", "measure_a,measure_b,sso\nNMD,RNOD,90.9\n")
    _manifest(new)  # an output of the run (a file its manifest does not list is left out)
    status, out = _diff(capsys, old, new)
    assert status == 1 and "0 removed" in out and out.split("Added\n")[1].startswith("  tables/sso/X.csv\n")
    (new / "tables/sso/X.csv").unlink()
    (new / "tables/agreement/X.tex").unlink()
    status, out = _diff(capsys, old, new)
    assert status == 1 and "0 added, 1 removed" in out
    assert out.split("Removed\n")[1].startswith("  tables/agreement/X.tex\n")


def test_a_changed_png_or_npz_is_named_by_its_hash(capsys, old, new):
    _write(new, FIGURE, b"\x89PNG\r\n\x1a\n" + bytes(range(1, 65)))
    status, out = _diff(capsys, old, new)
    assert status == 1 and "1 file changed (SHA-256)" in out and f"\n  {FIGURE}\n" in out
    assert _diff(capsys, old, new, "--ignore", "figures/*")[0] == 0
    status, out = _diff(capsys, old, new, "--json")
    changed = json.loads(out)["changed"]
    assert status == 1 and [entry["path"] for entry in changed] == [FIGURE]
    assert changed[0]["new_sha256"] == hashlib.sha256((new / FIGURE).read_bytes()).hexdigest()
    np.savez(new / "scores/X/stack.npz", scores=np.arange(7.0))  # an archive is compared by value
    status, out = _diff(capsys, old, new, "--json", "--ignore", "figures/*")
    assert status == 1 and json.loads(out)["values"] == [
        {"path": "scores/X/stack.npz", "what": "array 'scores': its type, shape or non-float contents changed"}
    ]


def test_reordered_columns_and_rows_are_not_differences(capsys, old, new):
    lines = AGREEMENT_TEXT.splitlines()
    rows = [line.split(",") for line in [lines[0], lines[3], lines[1], lines[2]]]
    order = [2, 0, 4, 1, 3]  # tau, measure_a, data_origin, measure_b, ci_low
    _write(new, AGREEMENT, "".join(",".join(row[i] for i in order) + "\n" for row in rows))
    status, out = _diff(capsys, old, new, "--json")
    table = json.loads(out)["tables"][0]
    assert status == 0 and json.loads(out)["equal"]
    assert table["columns_reordered"] and table["rows_reordered"] and table["cells_changed"] == 0
    assert table["key"] == ["measure_a", "measure_b"]


def test_a_changed_text_cell(capsys, old, new):
    _edit(new, AGREEMENT, "0.25,synthetic", "0.25,real")
    status, out = _diff(capsys, old, new, "--json")
    cells = json.loads(out)["tables"][0]["cells"]
    assert status == 1
    assert cells == [
        {
            "key": {"measure_a": "NMD", "measure_b": "JSD"},
            "column": "data_origin",
            "old": "synthetic",
            "new": "real",
            "difference": None,
        }
    ]


def test_a_score_matrix_rows_added_and_columns_removed(capsys, old, new):
    _write(new, SCORES, "topic\tA\nt1\t0.25\nt2\t0.5\nt3\t0.75\nt4\t1.0\n")  # B removed, t4 added
    status, out = _diff(capsys, old, new)
    assert status == 1
    assert "1 rows added: topic=t4" in out and "columns removed: B" in out


# --------------------------------------------------------------------------- output formats


def test_json_shape(capsys, old, new):
    _edit(new, SCORES, "t2\t0.5\t", "t2\t0.625\t")
    status, out = _diff(capsys, old, new, "--json")
    document = json.loads(out)
    assert status == 1
    assert set(document) == {
        "old",
        "new",
        "equal",
        "tolerance",
        "added",
        "removed",
        "changed",
        "tables",
        "values",
        "identical",
        "unlisted",
        "equal_by_value",
        "ignored",
        "left_out",
        "environments",
    }
    assert document["old"] == {"path": str(old), "kind": "results"} and document["equal"] is False
    assert document["tolerance"] == {
        "absolute": 1e-12,
        "relative": 1e-9,
        "rule": "equal at the written precision or within 1e-12 or within 1e-09 of the larger magnitude",
    }
    [table] = document["tables"]
    assert table["path"] == SCORES and table["key"] == ["topic"] and table["cells_compared"] == 6
    assert table["cells"] == [
        {"key": {"topic": "t2"}, "column": "A", "old": "0.5", "new": "0.625", "difference": 0.125}
    ]
    assert table["largest_difference"] == 0.125 and document["identical"] == 4


def test_markdown_shape(capsys, old, new):
    _edit(new, SCORES, "t2\t0.5\t", "t2\t0.625\t")
    _write(new, FIGURE, b"other")
    status, out = _diff(capsys, old, new, "--markdown")
    lines = out.splitlines()
    assert status == 1
    assert lines[0] == f"### ordeval diff: `{old}` → `{new}`"
    assert lines[2].startswith(
        "**NOT EQUAL**: 1 table with changed cells or rows, 0 files with changed numbers or "
        "text, 1 file changed (SHA-256)"
    )
    assert "| table | cells changed | largest difference |" in lines
    assert f"| `{SCORES}` | 1 of 6 | +0.125 (A; topic=t2) |" in lines
    assert f"- `{FIGURE}`" in lines and f"#### `{SCORES}`" in lines
    first_row = lines[lines.index("| row | column | old | new | difference |") + 2]
    assert first_row == "| topic=t2 | A | 0.5 | 0.625 | +0.125 |"


def test_details_are_capped_unless_all_is_asked(capsys, old, new):
    _write(old, SCORES, "topic\tA\tB\n" + "".join(f"t{i}\t{i / 7!r}\t{i / 9!r}\n" for i in range(1, 16)))
    _write(new, SCORES, "topic\tA\tB\n" + "".join(f"t{i}\t{i / 7 + 1!r}\t{i / 9!r}\n" for i in range(1, 16)))
    status, out = _diff(capsys, old, new)
    assert status == 1 and "  ... 5 more (--all shows every one)" in out
    assert "... 12 more" in _diff(capsys, old, new, "--limit", "3")[1]
    status, out = _diff(capsys, old, new, "--all")
    assert "more (--all" not in out and len([line for line in out.splitlines() if line.startswith("  topic=t")]) == 15


# --------------------------------------------------------------------------- bad input: exit 2, one line


@pytest.mark.parametrize("problem", ["missing", "file", "ragged", "duplicate column", "bad reference"])
def test_bad_input_is_one_line_and_exit_status_2(capsys, old, new, tmp_path, problem):
    target = new
    if problem == "missing":
        target, expected = tmp_path / "nowhere", f"{tmp_path / 'nowhere'}: no such folder"
    elif problem == "file":
        target, expected = new / SCORES, f"{new / SCORES}: not a folder (a results folder or a recorded reference)"
    elif problem == "ragged":
        _edit(new, AGREEMENT, "NMD,JSD,0.5,0.25,synthetic", "NMD,JSD,0.5,0.3")
        expected = f"{new / AGREEMENT}:3: 4 fields, the header has 5"
    elif problem == "duplicate column":
        _edit(new, AGREEMENT, "tau,ci_low", "tau,tau")
        expected = f"{new / AGREEMENT}:1: column 'tau' appears twice in the header"
    else:
        _write(new, "reference.json", '{"format": "ordeval reference", "version": 1, "files": {"../x": "0"}}')
        expected = f"{new / 'reference.json'}, key 'files'['../x']: not a relative path inside the folder"
    status = main(["diff", str(old), str(target)])
    assert status == 2
    assert one_error_line(capsys.readouterr().err) == f"ordeval: error: {expected}"


# --------------------------------------------------------------------------- the recorded reference


def test_a_changed_table_fails_the_reference_check(capsys, old, new, tmp_path):
    reference = tmp_path / "reference"
    assert main(["reference", str(old), str(reference)]) == 0
    recorded = json.loads((reference / "reference.json").read_text())
    assert sorted(recorded["files"]) == sorted(
        [AGREEMENT, SCORES, FIGURE, "scores/X/stack.npz", "tables/agreement/X.tex"]
    )
    assert sorted(p.relative_to(reference).as_posix() for p in reference.rglob("*") if p.is_file()) == [
        "reference.json",
        AGREEMENT,
    ]
    _write(new, "logs/agreement_tables.log", "another time\n")
    assert _diff(capsys, reference, new)[0] == 0
    _edit(new, AGREEMENT, "RNOD,JSD,0.6666666666666666", "RNOD,JSD,0.6676666666666666")
    status, out = _diff(capsys, reference, new)
    assert status == 1 and "+0.001 (tau; measure_a=RNOD, measure_b=JSD)" in out
    assert out.startswith(f"ordeval diff: {reference} (reference) -> {new} (results)")
    _write(new, AGREEMENT, AGREEMENT_TEXT)
    _edit(new, SCORES, "t3\t0.75", "t3\t0.76")  # kept as a fingerprint: named, not compared cell by cell
    status, out = _diff(capsys, reference, new)
    assert status == 1 and f"\n  {SCORES}: numbers changed beyond the tolerance" in out


def test_recording_again_replaces_the_reference(capsys, old, tmp_path):
    reference = tmp_path / "reference"
    _write(old, "tables/sso/X.csv", "measure_a,measure_b,sso\nNMD,RNOD,90.9\n")
    _manifest(old)
    assert main(["reference", str(old), str(reference)]) == 0
    assert (reference / "tables/sso/X.csv").is_file()
    (old / "tables/sso/X.csv").unlink()
    _manifest(old)
    assert main(["reference", str(old), str(reference)]) == 0
    assert not (reference / "tables/sso").exists() and _diff(capsys, reference, old)[0] == 0
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no staging folder left


def test_recording_refuses_an_incomplete_run_or_another_folder(capsys, old, tmp_path):
    other = _write(tmp_path, "notes/todo.txt", "keep me").parent
    assert main(["reference", str(old), str(other)]) == 2
    assert one_error_line(capsys.readouterr().err).endswith(
        "exists and is not a recorded reference (no readable reference.json): give a new or empty folder"
    )
    _edit(old, SCORES, "t1\t0.25", "t1\t0.26")
    assert main(["reference", str(old), str(tmp_path / "ref")]) == 2
    assert "changed since the pipeline wrote it" in one_error_line(capsys.readouterr().err)
    (old / "manifest.json").unlink()
    assert main(["reference", str(old), str(tmp_path / "ref")]) == 2
    assert "no manifest.json" in one_error_line(capsys.readouterr().err)
    assert not (tmp_path / "ref").exists() and (other / "todo.txt").read_text() == "keep me"


def test_a_reference_table_edited_by_hand_is_bad_input(capsys, old, tmp_path):
    reference = tmp_path / "reference"
    assert main(["reference", str(old), str(reference)]) == 0
    assert capsys.readouterr().err == (
        f"{reference}: reference of {old}: 5 outputs by SHA-256, the text of 1 tables, "
        "the fingerprint of the numbers of 3 other files\n"
    )
    _edit(reference, AGREEMENT, "0.5,", "0.55,")
    assert main(["diff", str(reference), str(old)]) == 2
    assert "its SHA-256 is not the one reference.json records" in one_error_line(capsys.readouterr().err)


def test_the_committed_reference_of_the_default_configuration():
    """reference/synthetic: complete (every CSV table with its text), small, no volatile output."""
    folder = open_folder(REPO / "reference" / "synthetic")  # checks each kept table against its SHA-256
    assert folder.kind == "reference" and len(folder.hashes) > 500
    tables = [name for name in folder.hashes if name.startswith("tables/") and name.endswith(".csv")]
    assert len(tables) > 50 and sorted(folder.text) == sorted(tables)
    assert not [name for name in folder.hashes if matches(name, VOLATILE)]
    assert any(name.startswith("figures/") for name in folder.hashes)
    size = sum(path.stat().st_size for path in (REPO / "reference").rglob("*") if path.is_file())
    assert size < 2_000_000


# --------------------------------------------------------------------------- the engine's API


def test_a_printed_number_against_a_computed_one():
    assert decimals("0.854") == 3 and decimals("38") == 0 and decimals("1.5e-3") == 4 and decimals("1e5") == -5
    cell = compare_printed("0.854", 0.85417)
    assert cell.equal and cell.old == "0.854" and cell.new == "0.85417" and cell.difference == pytest.approx(1.7e-4)
    assert not compare_printed("0.854", 0.8556).equal
    assert compare_printed("0.854", 0.8545).equal and compare_printed("0.854", 0.8535).equal  # ties either way
    assert not compare_printed("0.854", 0.85451).equal and not compare_printed("0.854", 0.85349).equal
    assert compare_printed("38", 38.4).equal and not compare_printed("38", 38.6).equal
    assert compare_printed("1", 0.6).equal and not compare_printed("1", 0.6, places=3).equal  # its column's decimals
    assert compare_printed("1", 0.9996, places=3).equal and not compare_printed("1", 0.9994, places=3).equal
    assert compare_printed("0.854", 0.86, Tolerance(absolute=0.01)).equal
    assert compare_printed("0.854", 0.86, Tolerance(relative=0.01)).equal
    labelled = compare_printed("0.5", 0.5, key=("NMD",), column="tau")
    assert labelled.key == ("NMD",) and labelled.column == "tau" and labelled.difference == 0.0
    with pytest.raises(ValueError, match="not a number"):
        compare_printed("n/a", 0.5)
    with pytest.raises(ValueError, match="absolute must be a finite number >= 0"):
        Tolerance(absolute=-1.0)


def test_a_published_table_against_a_reproduced_one_cell_by_cell():
    published = Table({"measure": ["NMD", "RNOD", "JSD"], "tau": ["0.854", "0.912", "0.700"], "n": ["38", "40", "41"]})
    reproduced = Table(
        {"n": [41, 38, 42], "measure": ["JSD", "NMD", "RNOD"], "tau": np.array([0.7004, 0.85417, 0.9135])}
    )
    diff = compare_tables(published, reproduced, keep_equal=True)
    verdicts = {(cell.key, cell.column): cell.equal for cell in diff.cells}
    assert diff.key == ["measure"] and diff.compared == 6 and len(diff.cells) == 6
    assert verdicts == {
        (("NMD",), "tau"): True,
        (("RNOD",), "tau"): False,
        (("JSD",), "tau"): True,
        (("NMD",), "n"): True,
        (("RNOD",), "n"): False,
        (("JSD",), "n"): True,
    }
    assert diff.columns_reordered and diff.rows_reordered and not diff.equal
    assert diff.largest.column == "n" and diff.largest.difference == 2.0
    changed = compare_tables(published, reproduced).cells
    assert [(cell.key, cell.column) for cell in changed] == [(("RNOD",), "tau"), (("RNOD",), "n")]


def test_how_the_key_is_chosen():
    columns = {"measure": ["A", "A", "B"], "rank": ["1", "2", "1"], "run": ["x", "y", "x"], "mean": ["1", "2", "3"]}
    board = Table(columns)
    assert key_columns(board, board) == ["measure", "run"]  # the fewest text columns that identify the rows
    design = Table(
        {
            "measure": ["A", "A", "A", "B"],
            "design": ["t", "t", "F", "t"],
            "mdd": ["0.1", "0.2", "0.1", "0.1"],
            "origin": ["real"] * 4,
        }
    )
    assert key_columns(design, design) == ["measure", "design", ROW_NUMBER]  # the closest, numbered among equal keys
    numbers = Table({"x": ["1", "2"], "y": ["3", ""]})
    assert key_columns(numbers, numbers) == [ROW_NUMBER]  # no text column: row by row
    moved = Table({"x": ["2", "1"], "y": ["", "3"]})
    diff = compare_tables(numbers, moved)
    assert [(cell.key, cell.column, cell.old, cell.new) for cell in diff.cells] == [
        ((1,), "x", "1", "2"),
        ((2,), "x", "2", "1"),
        ((1,), "y", "3", ""),
        ((2,), "y", "", "3"),
    ]
    explicit = compare_tables(design, design, key=["measure"])
    assert explicit.key == ["measure", ROW_NUMBER] and explicit.equal  # a given key that repeats is numbered
    moved = Table({name: design.cells(name)[::-1] for name in design.columns}).with_column("mdd", ["0.1"] * 4)
    diff = compare_tables(design, moved)  # reversed rows: matched by key, equal keys in order
    assert diff.rows_reordered and [(cell.key, cell.old, cell.new) for cell in diff.cells] == [
        (("A", "t", 2), "0.2", "0.1")
    ]


def test_compare_folders_from_python(old, new):
    _edit(new, SCORES, "t1\t0.25", "t1\t0.2500001")
    result = compare_folders(old, new, Tolerance(absolute=1e-6))
    assert result.equal and len(result.tables) == 1 and result.tables[0].diff.equal
    [table] = compare_folders(old, new).changed_tables  # full precision: exact
    assert [(cell.column, cell.key, cell.difference) for cell in table.diff.changed] == [("A", ("t1",), 1e-7)]


def _ci_reference_step() -> str:
    """The step of .ci/run that compares the default results with reference/synthetic."""
    text = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    start = text.index('step "the default results against the recorded reference')
    return text[start : text.index("\nfi\n", start) + 4]


def test_ci_fails_when_a_table_changes_without_its_reference(old, tmp_path):
    """.ci/run's step, run as written on a small results/synthetic and its recorded reference."""
    work = tmp_path / "work"
    results = Path(shutil.copytree(old, work / "results" / "synthetic"))
    _manifest(results, "synthetic")
    assert main(["reference", str(results), str(work / "reference" / "synthetic")]) == 0
    script = 'step() { echo "== $1"; }\n' + _ci_reference_step().replace(
        "ordeval diff ", f"{sys.executable} -m ordeval diff "
    )

    def ci():
        return subprocess.run(
            ["bash", "-euo", "pipefail", "-c", script], cwd=work, capture_output=True, text=True, timeout=120
        )

    assert ci().returncode == 0
    _edit(results, AGREEMENT, "NMD,RNOD,0.8787878787878788", "NMD,RNOD,0.8797878787878788")
    done = ci()
    assert done.returncode == 1, done.stderr
    assert "measure_a=NMD, measure_b=RNOD tau 0.8787878787878788 0.8797878787878788 +0.001" in " ".join(
        done.stdout.split()
    )
    assert "ordeval reference results/synthetic reference/synthetic" in done.stdout


def test_the_help_states_the_rules(capsys):
    assert main(["diff", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "the one written with more decimals, rounded to the decimals of the other, gives the other" in text
    assert "columns or rows in another order are not a difference" in text and "manifest.json, logs/*" in text
    assert "Exit status: 0 equal, 1 not equal, 2 bad input." in text
    assert main(["reference", "--help"]) == 0
    assert "never when anything else is in it" in " ".join(capsys.readouterr().out.split())
    assert main(["diff", "a", "b", "--json", "--markdown"]) == 2
    assert "not allowed with argument" in one_error_line(capsys.readouterr().err)
    assert main(["diff", "a", "b", "--tolerance", "-1"]) == 2
    one_error_line(capsys.readouterr().err)
