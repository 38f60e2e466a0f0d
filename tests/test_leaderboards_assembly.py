"""ordeval.analysis.leaderboard.build_leaderboards: the one function that assembles a data set's leaderboards
for the CLI, the API (and the pipeline's job): per-topic and pooled protocols, with or without groups, the
note, the data origin, the files."""

from __future__ import annotations

import csv
import io
import json
import math

import numpy as np
import pytest

from ordeval.analysis.leaderboard import build_leaderboards, leaderboard, read_pooled
from ordeval.analysis.significance import pairwise_significance
from ordeval.io.table import Table
from ordeval.reports.leaderboard_text import leaderboards_markdown, write_leaderboards
from ordeval.tasks.stack import ScoreStack


@pytest.fixture
def stack():
    rng = np.random.default_rng(0)
    values = rng.random((2, 10, 4)) + np.array([0.0, 0.1, 0.5, 0.9])
    return ScoreStack(
        ["MAE_M", "Accuracy"],
        [f"t{i}" for i in range(10)],
        ["A", "B", "C", "D"],
        values,
        [True, False],
        ["MAE^M", "Accuracy"],
        "classification",
        ["", ""],
    )


def test_per_topic_boards_are_the_measures_leaderboards_with_a_note(stack):
    significance = pairwise_significance(stack, 200, np.random.default_rng(1), 1)
    boards = build_leaderboards(stack, significance, dataset="D1", test="randomised Tukey HSD, B = 200, seed = 1")
    for index, measure in enumerate(stack.measures):
        expected = leaderboard(
            stack.values[index], stack.runs, measure, stack.lower_is_better[index], significance.matrix(measure)
        ).table()
        assert boards.tables()[index].records() == expected.records()
    assert boards.note == (
        "D1, per-topic protocol: mean over 10 topics with 95% t intervals, rank, and significance "
        "groups (runs sharing a letter do not differ significantly: randomised Tukey HSD, B = 200, "
        "seed = 1, alpha = 0.05)."
    )
    assert leaderboards_markdown(boards).startswith("# Leaderboard: D1\n\n" + boards.note)


def test_pooled_boards_have_no_interval_and_without_a_test_no_groups(stack, tmp_path):
    pooled = np.array([[0.4, 0.3, 0.2, 0.1], [0.5, 0.6, 0.7, 0.8]])
    boards = build_leaderboards(
        stack,
        None,
        dataset="D2",
        protocol="pooled",
        pooled=pooled,
        items=123,
        no_test_reason="a reason",
        origins={"D2": "real"},
    )
    mae = boards.boards[0]
    assert mae.runs == ["D", "C", "B", "A"] and np.allclose(mae.means, [0.1, 0.2, 0.3, 0.4])
    assert all(math.isnan(value) for value in mae.ci_low) and mae.groups == [""] * 4
    assert "pooled protocol: each measure on one confusion matrix over all 123 items" in boards.note
    assert "no significance groups (a reason)" in boards.note and "Real data" in boards.note
    assert "| Rank | Run | Score |" in leaderboards_markdown(boards) and "| 1 | D | 0.100 |" in leaderboards_markdown(
        boards
    )
    write_leaderboards(boards, tmp_path / "b.csv", tmp_path / "b.tex", tmp_path / "b.md")
    rows = list(csv.DictReader(io.StringIO((tmp_path / "b.csv").read_text())))
    assert {row["data_origin"] for row in rows} == {"real"} and rows[0]["ci_low"] == ""
    assert "pooled protocol" in (tmp_path / "b.tex").read_text().splitlines()[0]
    document = json.loads(json.dumps(boards.records(), allow_nan=False))
    assert document["protocol"] == "pooled" and document["measures"][0]["rows"][0]["ci_low"] is None
    table = Table({"run": ["B", "A", "D", "C"], "MAE_M": [0.3, 0.4, 0.1, 0.2], "Accuracy": [0.6, 0.5, 0.8, 0.7]})
    assert np.allclose(read_pooled(table, stack.measures, stack.runs), pooled)
    with pytest.raises(ValueError, match="pooled scores"):
        build_leaderboards(stack, None, dataset="D2", protocol="pooled")
    with pytest.raises(ValueError, match="protocol"):
        build_leaderboards(stack, None, dataset="D2", protocol="mean")
