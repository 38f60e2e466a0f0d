"""Files read whole before any check (issue 54, item 2).

Class: a file (or standard input) far larger than what it should hold, read into memory before the problem is
seen. Members: the number-bearing files ``ordeval diff`` and ``ordeval reference`` compare (now read block by
block, the file that is not text refused at its first block), tables compared cell by cell (over 4 MiB: as text),
a huge line or field of a table (refused at its line), standard input (checked as it is copied, at most
256 MiB), the records ordeval writes and reads back (reference.json, manifest.json, provenance.json: 64 MiB)."""

from __future__ import annotations

import io
import os
import subprocess
import sys

import pytest
from cli_helpers import peak, sparse
from conftest import REPO

from ordeval.cli import inputs, main
from ordeval.io import parsing
from ordeval.io.errors import InputError


def _results(folder, files: dict[str, str | bytes]):
    from test_diff import _manifest, _write

    for name, content in files.items():
        _write(folder, name, content)
    _manifest(folder)
    return folder


def test_diff_stops_at_the_first_block_of_a_file_that_is_not_text(tmp_path):
    old = _results(tmp_path / "old", {"tables/a.tex": "1 2 3\n"})
    new = _results(tmp_path / "new", {"tables/a.tex": "1 2 3\n"})
    sparse(new / "tables/a.tex", "1 2 4\n", 256 << 20)
    from test_diff import _manifest

    _manifest(new)
    status, err, mib = peak(["diff", str(old), str(new)])
    assert status == 2 and f"{new / 'tables/a.tex'}:2: NUL byte at line 2 (byte offset 6): not a text file" in err
    assert mib < 150, f"peak {mib} MiB"


def test_diff_compares_long_number_files_side_by_side_in_bounded_memory(tmp_path):
    line = " ".join(f"0.{i}" for i in range(1, 21)) + "\n"
    text = line * 100_000  # 8 MB, 2 million numbers (held as Python strings, as before: a peak of 327 MB)
    changed = text[: len(text) - len(line)] + line.replace("0.5 ", "0.55 ", 1)
    old = _results(tmp_path / "old", {"tables/a.tex": text})
    new = _results(tmp_path / "new", {"tables/a.tex": changed})
    status, err, mib = peak(["diff", str(old), str(new)])
    assert status == 1 and "tables/a.tex: line 100000: 0.5 -> 0.55" in err, err
    assert mib < 200, f"peak {mib} MiB"
    status, err, mib = peak(["reference", str(old), str(tmp_path / "ref")])
    assert status == 0 and mib < 200, f"peak {mib} MiB"


def test_a_large_table_is_compared_as_text(tmp_path, monkeypatch, capsys):
    from ordeval.results import reference

    old = _results(tmp_path / "old", {"scores/X/NMD.tsv": "topic\tA\nt1\t0.5\nt2\t0.25\n"})
    new = _results(tmp_path / "new", {"scores/X/NMD.tsv": "topic\tA\nt1\t0.5\nt2\t0.75\n"})
    monkeypatch.setattr(reference, "CELL_BY_CELL_BYTES", 10)
    assert main(["diff", str(old), str(new)]) == 1
    out = capsys.readouterr().out
    assert "scores/X/NMD.tsv: line 3: 0.25 -> 0.75" in out and "cells changed" not in out


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        ("t" * (17 << 20) + "\t-2\t1\n", "gold.tsv:2: line 2 is longer than 16,777,216 bytes: not a line of a table"),
        ("t" * 5000 + "\t-2\t1\n", "gold.tsv:2: topic field of 5,000 bytes (a field may have at most 1,024"),
    ],
)
def test_a_huge_line_or_field_is_refused_at_its_line(tmp_path, content, problem):
    gold = tmp_path / "gold.tsv"
    gold.write_text("topic\tclass\tprob\n" + content)
    status, err, mib = peak(["validate", "--task", "quantification", "--format", "tsv", str(gold)])
    assert status == 1 and problem in err, err
    assert mib < 150, f"peak {mib} MiB"
    status, err, mib = peak(["score", "--task", "quantification", "--gold", str(gold), "--baseline", "uniform"])
    assert status == 2 and problem in err and mib < 150, err


def test_the_planner_counts_topics_without_holding_a_huge_line(tmp_path):
    from conftest import tiny_config

    from ordeval.workflow.plan import plan

    (tmp_path / "data").mkdir()
    (tmp_path / "data/gold.tsv").write_text("topic\tclass\tprob\n" + "t" * (17 << 20) + "\t-2\t1\n")
    (tmp_path / "data/runs.tsv").write_text("topic\trun\tclass\tprob\nt\tA\t-2\t1\n")
    config = tiny_config(data_root="data")
    config["datasets"] = {
        "F": {
            "classes": [-2, -1, 0, 1, 2],
            "gold": {"type": "tsv", "path": "gold.tsv"},
            "runs": [{"type": "tsv", "path": "runs.tsv"}, {"type": "simulate", "systems": 5}],
        }
    }
    with pytest.raises(InputError, match=r"gold.tsv, line 2: line 2 is longer than 16,777,216 bytes"):
        plan(config, workdir=tmp_path)


def test_standard_input_that_is_not_text_stops_at_its_first_block():
    done = subprocess.run(
        f"head -c 1G /dev/zero | {sys.executable} -m ordeval validate --task quantification --format tsv -",
        shell=True,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO / "src")},
        executable="/bin/bash",
        timeout=120,
    )
    assert done.returncode == 1
    assert done.stdout.startswith("<stdin>:1: NUL byte at line 1 (byte offset 0): not a text file"), done.stdout


def test_standard_input_is_copied_up_to_its_limit(monkeypatch, tmp_path):
    class Stdin:
        buffer = io.BytesIO(b"topic\tclass\tprob\n" + b"t1\t-2\t1\n" * 200)

        def isatty(self):
            return False

    monkeypatch.setattr(sys, "stdin", Stdin())
    monkeypatch.setattr(inputs, "MAX_STDIN_BYTES", 1000)
    monkeypatch.setattr(inputs.tempfile, "tempdir", str(tmp_path))
    inputs.reset()
    with pytest.raises(InputError, match=r"<stdin>: more than 1,000 bytes on standard input"):
        inputs.input_path("-")
    assert not list(tmp_path.iterdir())  # its copy is gone


def test_records_ordeval_writes_are_refused_beyond_their_limit(tmp_path, monkeypatch):
    from ordeval.io.provenance import read_provenance

    path = tmp_path / "provenance.json"
    path.write_text('{"origin": "synthetic", "padding": "' + "x" * 5000 + '"}')
    monkeypatch.setattr(parsing, "RECORD_BYTES", 1000)
    with pytest.raises(InputError, match=f"^{path}: more than 1,000 bytes: too large for a file of its kind"):
        read_provenance(path)
