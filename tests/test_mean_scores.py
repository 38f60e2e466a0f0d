"""Mean scores as ranked and printed: means that overflow are refused in one line naming measure, run and
file, the library never ranks a mean that is not finite, one topic gives no interval (not a zero-width one), and
per-topic scores print their decimal."""

from __future__ import annotations

import json

import numpy as np
import pytest
from cli_helpers import one_error_line

from ordeval.analysis.leaderboard import UndefinedMean, leaderboard
from ordeval.cli import main


def score_table(folder, name: str, rows: list[list[str]], runs=("A", "B")) -> None:
    folder.mkdir(exist_ok=True)
    lines = ["\t".join(["topic", *runs])] + ["\t".join(row) for row in rows]
    (folder / f"{name}.tsv").write_text("\n".join(lines) + "\n")


def test_means_that_overflow_are_refused_in_one_line_naming_measure_run_and_file(tmp_path, capsys):
    scores = tmp_path / "scores"
    score_table(scores, "NMD", [["t1", "1e308", "1e308"], ["t2", "1e308", "1.5e308"]])
    assert main(["leaderboard", str(scores), "--out", str(tmp_path / "b"), "--trials", "50"]) == 2
    err = capsys.readouterr().err
    line = one_error_line(err)
    # refused where the scores are read (they are beyond what the statistics can square, ordeval.stats.MAX_SCORE)
    assert f"{scores / 'NMD.tsv'}:2: score of run 'A' '1e308' is out of range (at most 1e+100)" in line
    assert "RuntimeWarning" not in err and not (tmp_path / "b").exists()


def test_the_library_never_ranks_a_mean_that_is_not_finite():
    with pytest.raises(UndefinedMean, match=r"run 'B' over 2 topics is nan \(its scores include NaN"):
        leaderboard(np.array([[0.1, np.nan], [0.2, 0.3]]), ["A", "B"], "M", True, np.ones((2, 2)))


def test_one_topic_gives_no_interval_not_a_zero_width_one(tmp_path, capsys):
    scores = tmp_path / "scores"
    score_table(scores, "NMD", [["t1", "0.3", "0.2"]])
    out = tmp_path / "b"
    assert main(["leaderboard", str(scores), "--out", str(out), "--json"]) == 0
    document = json.loads(capsys.readouterr().out)["leaderboard"]
    rows = document["measures"][0]["rows"]
    assert [(row["run"], row["ci_low"], row["ci_high"]) for row in rows] == [("B", None, None), ("A", None, None)]
    assert "mean over 1 topic (no interval: a t interval needs 2 topics or more)" in document["note"]
    markdown = (out / "leaderboard.md").read_text()
    assert "CI" not in markdown.split("## NMD")[1] and "[0.200, 0.200]" not in markdown
    assert (out / "leaderboard.csv").read_text().splitlines()[1] == "NMD,1,B,0.2,,,,True"
    board = leaderboard(np.array([[0.3, 0.2]]), ["A", "B"], "NMD", True, np.ones((2, 2)))
    assert np.isnan(board.ci_low).all() and np.isnan(board.ci_high).all()


def test_per_topic_scores_print_their_decimal_not_the_rounding_of_a_mean():
    from ordeval.cli.score import per_topic_lines
    from ordeval.tasks.stack import ScoreStack

    values = np.array([[[0.4, 0.1], [0.44, 1 / 3]]])  # the mean of 0.4 and 0.44 is 0.42000000000000004
    assert float(values[0, :, 0].mean()) == 0.42000000000000004
    lines = per_topic_lines(ScoreStack(["NMD"], ["t1", "t2"], ["A", "B"], values))
    assert lines[:3] == ["A\tNMD\tt1\t0.4", "A\tNMD\tt2\t0.44", "A\tNMD\tall\t0.42"]
    assert lines[4] == "B\tNMD\tt2\t0.333333333333333"
