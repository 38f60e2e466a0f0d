"""Writes are atomic and faults leave nothing behind: a writer failing mid-write leaves no target file (or the
old one whole), every writer goes through a temporary file and no module writes an output in place, a write error
names the file, a killed job's or PDF build's leftovers are removed by the next one, figures leave no font folder,
and ``ordeval score --out`` after a full disk or a killed call leaves a folder the next call writes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from cli_helpers import one_error_line

from ordeval.cli import main
from ordeval.io.files import remove_temporaries, write_atomically, write_json, write_text
from ordeval.io.table import Table, write_csv
from ordeval.reports.latex import report, write_latex


def _failing(partial: bytes):
    def write(temporary):
        Path(temporary).write_bytes(partial)
        raise KeyboardInterrupt("killed mid-write")

    return write


def test_a_writer_failing_mid_write_leaves_no_target_file(tmp_path):
    target = tmp_path / "out" / "table.csv"
    with pytest.raises(KeyboardInterrupt):
        write_atomically(target, _failing(b"half a ta"))
    assert not target.exists()
    assert list(target.parent.iterdir()) == []  # no temporary left either


def test_a_writer_failing_mid_rewrite_keeps_the_old_file_whole(tmp_path):
    target = tmp_path / "table.csv"
    write_text("complete\n", target)
    with pytest.raises(KeyboardInterrupt):
        write_atomically(target, _failing(b"half"))
    assert target.read_text() == "complete\n"
    assert [p.name for p in tmp_path.iterdir()] == ["table.csv"]


@pytest.mark.parametrize(
    "writer",
    [
        lambda path: write_text("x" * 10, path),
        lambda path: write_json({"a": 1}, path),
        lambda path: write_csv(Table({"a": [1, 2]}), path, {"A": "real"}),
        lambda path: write_latex("x", path, {"A": "real"}),
        lambda path: Table({"a": [1]}).write(path),
    ],
)
def test_every_writer_goes_through_a_temporary_file(tmp_path, monkeypatch, writer):
    """The project's writers (text, JSON, CSV, LaTeX, tables) all rename a finished temporary file into
    place: with the rename failing, the target never appears."""

    def broken(source, destination):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", broken)
    target = tmp_path / "out.txt"
    with pytest.raises(OSError, match="disk full"):
        writer(target)
    assert not target.exists()
    assert list(tmp_path.iterdir()) == []


def test_no_module_writes_an_output_in_place():
    """Outputs are written through ``ordeval.io.files.write_atomically`` only: every call that writes a
    file (``open(..., "w")``, ``write_text``, ``savefig``, ``to_csv``, ``np.save*``) writes a
    ``temporary`` (checked in the source)."""
    import ast

    root = Path(__file__).parents[1] / "src" / "ordeval"
    writing = {"write_text", "write_bytes", "savefig", "to_csv", "save", "savez", "savez_compressed", "tofile"}
    offenders = []
    for path in root.rglob("*.py"):
        if path.name == "files.py":
            continue
        source = path.read_text(encoding="utf-8")
        for node in ast.walk(ast.parse(source)):
            if not isinstance(node, ast.Call):
                continue
            # (a bare ``write_text(...)`` is ordeval.io.files.write_text, atomic itself)
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if isinstance(node.func, ast.Name) and name == "write_text":
                continue
            mode = [a.value for a in node.args[1:2] if isinstance(a, ast.Constant)]
            if name in writing or (name == "open" and mode and str(mode[0])[:1] in "wax"):
                target = ast.get_source_segment(source, node.args[0]) if node.args else ""
                # into a temporary file, or into a handle (whose ``open`` is checked in its turn)
                marked = "# not an output" in source.splitlines()[node.lineno - 1]  # scratch copies, live logs
                if "temporary" not in ast.dump(node) and target != "handle" and not marked:
                    offenders.append(f"{path.relative_to(root)}:{node.lineno}: {ast.get_source_segment(source, node)}")
    assert offenders == []


def test_a_write_error_names_the_file_and_leaves_no_temporary(tmp_path):
    target = tmp_path / "out" / "table.csv"

    def full_disk(temporary):
        Path(temporary).write_text("partial")
        raise OSError(28, "No space left on device")

    with pytest.raises(OSError, match=r"No space left on device: '.*table.csv'") as error:
        write_atomically(target, full_disk)
    assert error.value.errno == 28 and error.value.filename == str(target)
    assert os.listdir(target.parent) == []


def test_a_job_removes_what_a_killed_run_of_it_left_beside_its_outputs_and_nothing_else(tmp_path):
    """The temporaries of write_atomically named after a job's output (``.<name>.<8 characters>``) are removed when
    the job starts again (ordeval.workflow.scripting.job); other files, and temporaries of other outputs, stay."""
    folder = tmp_path / "results" / "x" / "figures" / "dp_curves"
    folder.mkdir(parents=True)
    own = [folder / ".Sem17T4E.png.xwx2fo4o", folder / ".Sem17T4E.png.ab_cd123"]
    kept = [
        folder / "Sem17T4E.png",
        folder / ".Sem16T4E.png.ab_cd123",
        folder / ".keep",
        folder / ".Sem17T4E.png.short",
    ]
    for path in [*own, *kept]:
        path.write_bytes(b"")
    assert sorted(remove_temporaries([folder / "Sem17T4E.png", folder / "Sem17T4E.pdf"])) == sorted(own)
    assert sorted(os.listdir(folder)) == sorted(path.name for path in kept)
    assert remove_temporaries([tmp_path / "nowhere" / "a.csv"]) == []


def _engine(monkeypatch, script: str):
    monkeypatch.setattr(report, "tex_engine", lambda: ["sh", "-c", script, "sh"])


def test_a_failed_pdf_build_leaves_no_build_files_and_the_next_one_works(tmp_path, monkeypatch):
    tex = write_text_file(tmp_path / "ordeval.tex")
    _engine(monkeypatch, "touch ordeval-partial.aux ordeval-partial.fdb_latexmk ordeval-partial.pdf; exit 1")
    with pytest.raises(report.ReportError, match="LaTeX failed on .*ordeval.tex"):
        report.compile_pdf(tex)
    assert sorted(os.listdir(tmp_path)) == ["ordeval.tex"]
    _engine(monkeypatch, "test ! -e ordeval-partial.aux && echo pdf > ordeval-partial.pdf")
    assert report.compile_pdf(tex).read_text() == "pdf\n"
    assert sorted(os.listdir(tmp_path)) == ["ordeval.pdf", "ordeval.tex"]


def test_a_killed_pdf_build_is_cleaned_by_the_next_one(tmp_path, monkeypatch):
    tex = write_text_file(tmp_path / "ordeval.tex")
    for name in ("ordeval-partial.running", "ordeval-partial.aux", "ordeval-partial.fdb_latexmk"):
        (tmp_path / name).write_bytes(b"\0\0")  # what a run killed on a full disk leaves
    _engine(monkeypatch, "test ! -e ordeval-partial.aux && echo pdf > ordeval-partial.pdf")
    assert report.compile_pdf(tex).read_text() == "pdf\n"
    assert sorted(os.listdir(tmp_path)) == ["ordeval.pdf", "ordeval.tex"]


def write_text_file(path: Path) -> Path:
    write_text("\\documentclass{article}\\begin{document}x\\end{document}\n", path)
    return path


def test_figures_leave_no_temporary_font_folder(tmp_path):
    environment = {**os.environ, "TMPDIR": str(tmp_path / "tmp"), "MPLCONFIGDIR": str(tmp_path / "mpl")}
    (tmp_path / "tmp").mkdir()
    code = "import ordeval.reports.figures, matplotlib; print(matplotlib.rcParams['font.family'][0])"
    for _ in range(2):  # derived once, then reused
        result = subprocess.run([sys.executable, "-c", code], env=environment, capture_output=True, text=True)
        assert result.returncode == 0, result.stderr
        assert result.stdout.strip() == "DejaVu Sans ordeval"
    assert os.listdir(tmp_path / "tmp") == []
    assert len(list((tmp_path / "mpl").glob("DejaVuSans-ordeval-*.ttf"))) == 1


def quantification_files(folder, topics: int = 150, runs: int = 3) -> list[str]:
    """A gold and ``runs`` runs (semeval_dist) of ``topics`` topics; the arguments of 'ordeval score' on them."""
    rng = np.random.default_rng(0)
    folder.mkdir(parents=True, exist_ok=True)
    arguments = ["score", "--task", "quantification", "--format", "semeval_dist", "--trials", "50"]
    for name in ["gold", *(f"r{index}" for index in range(runs))]:
        rows = rng.dirichlet(np.ones(5), size=topics)
        path = folder / f"{name}.txt"
        path.write_text("".join(f"t{t}\t" + "\t".join(map(repr, row.tolist())) + "\n" for t, row in enumerate(rows)))
        arguments += ["--gold", str(path)] if name == "gold" else ["--run", f"{name}={path}"]
    return arguments


def complete(out) -> bool:
    listed = set((out / ".ordeval-files").read_text().split())
    present = {path.name for path in out.iterdir()} - {".ordeval-files"}
    return present == listed and {"NMD.tsv", "means.tsv", "stack.npz", "leaderboard.html"} <= listed


def test_score_stopped_by_a_full_disk_leaves_a_folder_the_next_call_writes(tmp_path, monkeypatch, capsys):
    """ENOSPC on the fifth file (as on a full disk): one line naming the file, and the folder holds the record
    of what the call was writing, so the same command once there is room writes the complete output."""
    import errno
    import os

    arguments = [*quantification_files(tmp_path / "in"), "--out", str(tmp_path / "out")]
    replace, calls = os.replace, []

    def full(source, target):
        calls.append(target)
        if len(calls) == 5:
            raise OSError(errno.ENOSPC, "No space left on device")
        return replace(source, target)

    monkeypatch.setattr(os, "replace", full)
    assert main(arguments) == 2
    monkeypatch.setattr(os, "replace", replace)
    line = one_error_line(capsys.readouterr().err)
    assert line == f"ordeval: error: {calls[4]}: No space left on device"
    out = tmp_path / "out"
    assert (out / ".ordeval-files").is_file() and not complete(out)
    assert not [path for path in out.iterdir() if path.name.startswith(".") and path.name != ".ordeval-files"]
    assert main(arguments) == 0, capsys.readouterr().err
    assert complete(out)


def test_score_on_a_filesystem_that_fills_up(tmp_path, capsys):
    """The same on a real small filesystem (a tmpfs, where the tests may mount one): the first call fails on
    a full disk naming the file, the same call once there is room writes everything."""
    import subprocess

    from conftest import small_filesystem

    arguments = quantification_files(tmp_path / "in", topics=400)
    with small_filesystem(tmp_path / "disk", "48k") as disk:
        out = disk / "scores"
        assert main([*arguments, "--out", str(out)]) == 2
        line = one_error_line(capsys.readouterr().err)
        assert line.startswith(f"ordeval: error: {out}/") and line.endswith(": No space left on device")
        subprocess.run(["mount", "-o", "remount,size=16m", str(disk)], check=True)
        assert main([*arguments, "--out", str(out)]) == 0, capsys.readouterr().err
        assert complete(out)


def test_the_temporary_file_of_a_killed_call_does_not_block_the_next_one(tmp_path, capsys):
    arguments = [*quantification_files(tmp_path / "in", topics=20), "--out", str(tmp_path / "out")]
    assert main(arguments) == 0
    (tmp_path / "out" / ".NMD.tsv.k1ll3d00").write_text("half a matrix")  # write_atomically's name
    capsys.readouterr()
    assert main(arguments) == 0, capsys.readouterr().err
    assert complete(tmp_path / "out") and not (tmp_path / "out" / ".NMD.tsv.k1ll3d00").exists()
