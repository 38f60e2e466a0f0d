"""Issue 34 (round 3 of careless and hostile use): no silent direction, no infinite mean ranked, no zero-width
interval from one topic; ``ordeval score --out`` after a full disk; help and output text that is what it says.
(``ordeval run``'s cases are in tests/test_cli_run.py, the plugin measures' in tests/test_plugin_measures.py.)"""

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


TWO_TOPICS = [["t1", "0.9", "0.5"], ["t2", "0.8", "0.4"]]


# --------------------------------------------------------------------------- point 3: no silent direction


def test_a_measure_neither_registered_nor_in_measures_tsv_needs_a_stated_direction(tmp_path, capsys):
    scores = tmp_path / "scores"
    score_table(scores, "accuracy", TWO_TOPICS)  # not 'Accuracy': unregistered, no measures.tsv
    out = tmp_path / "board"
    assert main(["leaderboard", str(scores), "--out", str(out), "--trials", "50"]) == 2
    line = one_error_line(capsys.readouterr().err)
    assert f"{scores / 'accuracy.tsv'}: measure 'accuracy' is not registered" in line
    assert "--lower-is-better accuracy or --higher-is-better accuracy" in line
    assert "the registered measure 'Accuracy', spelt differently, is higher is better" in line
    assert not out.exists()
    for option, best in (("--higher-is-better", "A"), ("--lower-is-better", "B")):
        assert main(["leaderboard", str(scores), "--out", str(out), "--trials", "50", "--json", option,
                     "accuracy"]) == 0  # fmt: skip
        board = json.loads(capsys.readouterr().out)["leaderboard"]["measures"][0]
        assert board["lower_is_better"] is (option == "--lower-is-better")
        assert board["rows"][0]["run"] == best and board["rows"][0]["rank"] == 1


@pytest.mark.parametrize(
    "arguments, expected",
    [
        (["--higher-is-better", "NMD"], "--higher-is-better NMD: the measure registry says lower is better"),
        (["--lower-is-better", "RNOD"], "--lower-is-better RNOD: "),  # a measure the folder does not have
        (["--lower-is-better", "NMD", "--higher-is-better", "NMD"], "both name NMD"),
    ],
)
def test_a_stated_direction_contradicting_the_registry_or_naming_no_scores_is_refused(
    tmp_path, capsys, arguments, expected
):
    scores = tmp_path / "scores"
    score_table(scores, "NMD", TWO_TOPICS)
    assert main(["leaderboard", str(scores), "--out", str(tmp_path / "b"), *arguments]) == 2
    assert expected in one_error_line(capsys.readouterr().err)
    assert not (tmp_path / "b").exists()


def test_a_stated_direction_that_contradicts_measures_tsv_is_refused(tmp_path, capsys):
    scores = tmp_path / "scores"
    score_table(scores, "mine", TWO_TOPICS)
    (scores / "measures.tsv").write_text("measure\tdisplay\tlower_is_better\ttask\tlatex\nmine\tMine\tFalse\t\t\n")
    assert main(["leaderboard", str(scores), "--out", str(tmp_path / "b"), "--lower-is-better", "mine"]) == 2
    assert f"{scores / 'measures.tsv'} says higher is better" in one_error_line(capsys.readouterr().err)
    assert main(["leaderboard", str(scores), "--out", str(tmp_path / "b"), "--trials", "50"]) == 0


# --------------------------------------------------------------------------- point 3: infinite means, one topic


def test_means_that_overflow_are_refused_in_one_line_naming_measure_run_and_file(tmp_path, capsys):
    scores = tmp_path / "scores"
    score_table(scores, "NMD", [["t1", "1e308", "1e308"], ["t2", "1e308", "1.5e308"]])
    assert main(["leaderboard", str(scores), "--out", str(tmp_path / "b"), "--trials", "50"]) == 2
    err = capsys.readouterr().err
    line = one_error_line(err)
    assert f"{scores / 'NMD.tsv'}: measure 'NMD': the mean of run 'A' over 2 topics is inf" in line
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
