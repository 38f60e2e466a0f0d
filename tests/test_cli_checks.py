"""Every argument of ``ordeval score`` / ``leaderboard`` checked before the first file is written: one line on
stderr, exit status 2, nothing written; ``--out`` holds exactly what one call wrote."""

from __future__ import annotations

import numpy as np
import pytest
from cli_helpers import one_error_line

from ordeval.cli import main
from ordeval.cli.checks import RECORD


@pytest.fixture
def files(tmp_path):
    rng = np.random.default_rng(4)
    gold = rng.dirichlet(np.ones(5), 6)
    paths = {}
    for name, values in {"gold": gold, "A": rng.dirichlet(np.ones(5), 6), "B": rng.dirichlet(np.ones(5), 6)}.items():
        paths[name] = tmp_path / f"{name}.txt"
        lines = ["\t".join([f"t{i}", *map(repr, row.tolist())]) for i, row in enumerate(values)]
        paths[name].write_text("\n".join(lines) + "\n")
    return paths


def _score(files, out, *extra):
    return [
        "score",
        "--task",
        "quantification",
        "--format",
        "semeval_dist",
        "--gold",
        str(files["gold"]),
        "--run",
        f"A={files['A']}",
        "--run",
        f"B={files['B']}",
        "--out",
        str(out),
        "--trials",
        "50",
        "--measures",
        "NMD,RNOD",
        *extra,
    ]


@pytest.mark.parametrize(
    "extra, message",
    [
        (["--alpha", "nan"], "--alpha: 'nan': a finite number strictly between 0 and 1"),
        (["--alpha", "inf"], "--alpha: 'inf'"),
        (["--alpha", "1.5"], "--alpha: '1.5'"),
        (["--level", "-inf"], "--level"),
        (["--seed", "-1"], "--seed: -1: a seed is an integer from 0 to 2^63-1"),
        (["--seed", str(2**63)], "a seed is an integer from 0 to 2^63-1"),
        (["--seed", "1e3"], "is not an integer"),
        (["--trials", "0"], "--trials/-B: 0: from 1 to 10,000,000 trials"),
        (["--trials", str(10**12)], "from 1 to 10,000,000 trials"),
        (["--threads", "0"], "--threads: 0: at least 1"),
        (["--name", "a\nb"], "--name"),
        (["--run", "topic=x.txt"], "run name 'topic' is a reserved word"),
        (["--run", "../x=x.txt"], "run name '../x' contains a path separator"),
        (["--baseline", "median"], "quantification baselines are constant:<class>, popularity, uniform"),
    ],
)
def test_bad_arguments_are_refused_before_anything_is_written(files, tmp_path, capsys, extra, message):
    out = tmp_path / "out"
    assert main(_score(files, out, *extra)) == 2
    assert message in one_error_line(capsys.readouterr().err)
    assert not out.exists()


def test_trials_beyond_the_memory_limit_are_refused_with_the_estimate(files, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("ORDEVAL_MEMORY_LIMIT", "0.001")  # 1 MiB
    out = tmp_path / "out"
    assert main(_score(files, out, "--trials", "1000000")) == 2
    line = one_error_line(capsys.readouterr().err)
    assert "would need about 30.5 MiB, more than the limit of 1.0 MiB" in line
    assert "ORDEVAL_MEMORY_LIMIT" in line and not out.exists()
    monkeypatch.setenv("ORDEVAL_MEMORY_LIMIT", "nan")
    assert main(_score(files, out)) == 2
    assert "ORDEVAL_MEMORY_LIMIT='nan'" in one_error_line(capsys.readouterr().err)
    monkeypatch.setenv("ORDEVAL_MEMORY_LIMIT", "1")
    assert main(_score(files, out, "--trials", "1000")) == 0


def test_out_holds_exactly_what_the_last_call_wrote(files, tmp_path, capsys):
    out = tmp_path / "out"
    assert main(_score(files, out)) == 0
    first = sorted(path.name for path in out.iterdir())
    assert "NMD.tsv" in first and RECORD in first
    assert main(_score(files, out, "--measures", "JSD", "--no-leaderboard")) == 0  # the same folder again
    second = sorted(path.name for path in out.iterdir())
    assert "NMD.tsv" not in second and "leaderboard.csv" not in second and "JSD.tsv" in second
    (out / "notes.txt").write_text("mine")
    capsys.readouterr()
    assert main(_score(files, out)) == 2
    assert "holds notes.txt, which an earlier 'ordeval score' call did not write" in one_error_line(
        capsys.readouterr().err
    )
    assert sorted(path.name for path in out.iterdir()) == sorted([*second, "notes.txt"])
    other = tmp_path / "other"
    other.mkdir()
    capsys.readouterr()
    (other / "data.csv").write_text("x")
    assert main(_score(files, other)) == 2
    assert "not empty and was not written by 'ordeval score'" in one_error_line(capsys.readouterr().err)
    assert [path.name for path in other.iterdir()] == ["data.csv"]


def test_leaderboard_arguments_are_checked_before_writing(files, tmp_path, capsys):
    scores = tmp_path / "scores"
    assert main(_score(files, scores, "--no-leaderboard")) == 0
    capsys.readouterr()
    board = tmp_path / "board"
    for extra in (["--alpha", "nan"], ["--seed", "-1"], ["--trials", "0"], ["--level", "1"]):
        assert main(["leaderboard", str(scores), "--out", str(board), *extra]) == 2
        one_error_line(capsys.readouterr().err)
    assert not board.exists()
