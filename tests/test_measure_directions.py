"""A measure's direction is never silent: a measure neither registered nor in measures.tsv needs a stated
direction, and a stated direction that contradicts the registry or measures.tsv, or names no scores, is refused."""

from __future__ import annotations

import json

import pytest
from cli_helpers import one_error_line

from ordeval.cli import main


def score_table(folder, name: str, rows: list[list[str]], runs=("A", "B")) -> None:
    folder.mkdir(exist_ok=True)
    lines = ["\t".join(["topic", *runs])] + ["\t".join(row) for row in rows]
    (folder / f"{name}.tsv").write_text("\n".join(lines) + "\n")


TWO_TOPICS = [["t1", "0.9", "0.5"], ["t2", "0.8", "0.4"]]


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
        assert (
            main(["leaderboard", str(scores), "--out", str(out), "--trials", "50", "--json", option, "accuracy"]) == 0
        )
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
