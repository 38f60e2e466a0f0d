"""The results page's HTML, read back with html.parser: self-contained, every run, escaped names, the
per-topic scores as data, the protocol and origin stated, the same bytes for the same input."""

from __future__ import annotations

import json
from html.parser import HTMLParser

import numpy as np
import pytest

from ordeval.analysis.leaderboard import leaderboard
from ordeval.io.table import Table
from ordeval.reports.leaderboard_page import leaderboard_page, write_leaderboard_page
from ordeval.tasks.stack import ScoreStack

HOSTILE = '<img src=x onerror="alert(1)">&amp;</script><!--'


class Page(HTMLParser):
    """Tags with their attributes, the text of each board's cells, the inline scripts."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict]] = []
        self.boards: list[list[list[str]]] = []
        self.scripts: list[str] = []
        self.text: list[str] = []
        self._cell: list[str] | None = None
        self._script: list[str] | None = None
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        self.tags.append((tag, attributes))
        if tag == "table" and "board" in attributes.get("class", ""):
            self.boards.append([])
        elif tag == "tr" and "data-order" in attributes:
            self.boards[-1].append([])
        elif tag == "td" and self.boards and self.boards[-1] and self._cell is None:
            self._cell = []
        elif tag == "script":
            self._script = []

    def handle_endtag(self, tag):
        if tag == "td" and self._cell is not None:
            self.boards[-1][-1].append("".join(self._cell))
            self._cell = None
        elif tag == "script" and self._script is not None:
            self.scripts.append("".join(self._script))
            self._script = None

    def handle_data(self, data):
        self.text.append(data)
        for collector in (self._cell, self._script):
            if collector is not None:
                collector.append(data)


def make_page(runs: int = 6, protocol: str = "per-topic", **changes) -> tuple[str, ScoreStack, list[Table]]:
    rng = np.random.default_rng(1)
    names = [f"run{i}" for i in range(runs)]
    names[1] = HOSTILE
    topics = ["t<1>", "t2", "t3"]
    values = rng.random((2, 3, runs))
    values[0, 1, 2] = np.nan
    stack = ScoreStack(["M0", "M1"], topics, names, values, [True, False], ["M <zero>", "M1"])
    boards = []
    for measure in stack.measures:
        pvalues = np.where(rng.random((runs, runs)) < 0.5, 0.01, 0.5)
        pvalues = np.minimum(pvalues, pvalues.T)
        np.fill_diagonal(pvalues, 1)
        finite = np.nan_to_num(stack.matrix(measure), nan=0.5)  # a NaN mean is never ranked; the page's data keeps it
        boards.append(leaderboard(finite, names, measure, stack.direction_of(measure), pvalues).table())
    arguments = dict(
        title="Data <set>",
        boards=boards,
        names=dict(zip(stack.measures, stack.display, strict=True)),
        per_topic=stack,
        protocol=protocol,
        data_origin="SYNTHETIC data & co.",
        level=0.9,
        note="B = 100",
    )
    arguments.update(changes)
    return leaderboard_page(**arguments), stack, boards


def test_page_has_every_run_escaped_and_is_self_contained():
    text, stack, boards = make_page()
    page = Page(text)
    assert len(page.boards) == 2
    for cells, board in zip(page.boards, boards, strict=True):
        assert [row[1] for row in cells] == list(board["run"])  # the hostile name is text, not markup
        assert [row[5] for row in cells] == list(board["group"])
        assert [row[0] for row in cells] == [str(rank) for rank in board["rank"]]
    assert not [tag for tag, attributes in page.tags if tag == "img"]
    assert not [a for _, a in page.tags if "onerror" in a]
    for _, attributes in page.tags:  # nothing fetched: no external script, style sheet, image or font
        for name in ("src", "href"):
            value = attributes.get(name)
            assert value is None or value.startswith(("#", "data:")), (name, value)
    assert [tag for tag, _ in page.tags].count("script") == 2 and "<style>" in text
    joined = " ".join(page.text)
    assert "SYNTHETIC data & co." in joined and "per-topic: a run's score is the mean over topics" in joined
    assert "M <zero> (lower is better; per-topic protocol)" in joined and "90% CI" in joined
    assert "a1-Z1" in joined  # how to read the group cells


def test_per_topic_scores_travel_as_json_that_cannot_end_the_script():
    text, stack, _ = make_page()
    page = Page(text)
    data = json.loads(page.scripts[0])
    assert data["topics"] == stack.topics
    for measure in stack.measures:
        expected = stack.matrix(measure).T
        got = np.array([[np.nan if v is None else v for v in row] for row in data["scores"][measure]])
        np.testing.assert_allclose(got, expected, rtol=1e-5)
    assert "</script" not in page.scripts[0] and "<!--" not in page.scripts[0]
    rows = [a for tag, a in page.tags if tag == "details"]
    assert len(rows) == 2 * len(stack.runs)
    assert {int(a["data-run"]) for a in rows} == set(range(len(stack.runs)))


def test_same_input_same_bytes_and_written_atomically(tmp_path):
    first, _, boards = make_page()
    assert make_page()[0] == first
    text, stack, _ = make_page()
    write_leaderboard_page(
        tmp_path / "leaderboard.html",
        "Data <set>",
        boards,
        {"M0": "M <zero>", "M1": "M1"},
        stack,
        "per-topic",
        "SYNTHETIC data & co.",
        0.9,
        "B = 100",
    )
    assert (tmp_path / "leaderboard.html").read_text(encoding="utf-8") == first
    assert [path.name for path in tmp_path.iterdir()] == ["leaderboard.html"]


def test_pooled_boards_without_groups_or_intervals_and_no_per_topic_scores():
    board = Table(
        {
            "measure": ["MAE_M"] * 2,
            "rank": [1, 2],
            "run": ["a", "b"],
            "mean": [0.5, 0.7],
            "ci_low": [np.nan, np.nan],
            "ci_high": [np.nan, np.nan],
            "group": ["", ""],
            "lower_is_better": ["True", "True"],
            "protocol": ["pooled", "pooled"],
        }
    )
    text, _, _ = make_page(boards=[board], names={"MAE_M": "MAE^M"}, per_topic=None, protocol="per-topic")
    page = Page(text)
    assert [row[:4] for row in page.boards[0]] == [
        ["1", "a", "0.5000", "[\u2013, \u2013]"],
        ["2", "b", "0.7000", "[\u2013, \u2013]"],
    ]
    assert "MAE^M (lower is better; pooled protocol)" in " ".join(page.text)
    assert "one confusion matrix over all items" in " ".join(page.text)
    assert not [tag for tag, _ in page.tags if tag == "details"]
    with pytest.raises(ValueError, match="protocol 'macro'"):
        make_page(protocol="macro")
