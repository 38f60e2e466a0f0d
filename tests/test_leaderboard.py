"""Leaderboards: the significance groups (compact letter display) and their notation, the table writers."""

from __future__ import annotations

import numpy as np
import pytest

from ordeval.analysis.groups import (
    compact_letters,
    format_groups,
    group_label_index,
    group_membership,
    letter,
    parse_groups,
)
from ordeval.analysis.leaderboard import leaderboard
from ordeval.io.table import Table
from ordeval.reports.leaderboard_text import leaderboard_latex, leaderboard_markdown


def hsd_like(count: int, rng, spacing: str) -> np.ndarray:
    """A significance matrix as the randomised Tukey HSD gives one: runs sorted by mean differ
    significantly when their means are more than a critical distance apart."""
    if spacing == "chain":  # each run within reach of its neighbours only: count - 1 groups of two
        means = np.arange(count, dtype=float)
        critical = 1.5
    else:
        means = np.sort(rng.normal(size=count))
        critical = 4 * (means[-1] - means[0]) / count
    return np.abs(means[:, None] - means[None, :]) > critical


def check_groups(significant: np.ndarray, cells: list[str]) -> None:
    """The cells parse back to labels, and two runs share a label exactly when they do not differ."""
    labels = [set(parse_groups(cell)) for cell in cells]
    assert all(labels), "every run is in a group"
    count = len(cells)
    for first in range(count):
        for second in range(first + 1, count):
            shares = bool(labels[first] & labels[second])
            assert shares == (not significant[first, second]), (first, second, cells[first], cells[second])


@pytest.mark.parametrize("count", [2, 26, 27, 60, 300])
@pytest.mark.parametrize("spacing", ["chain", "random", "none significant", "all significant"])
def test_groups_round_trip_and_match_the_significance_matrix(count, spacing):
    rng = np.random.default_rng(count)
    if spacing == "none significant":
        significant = np.zeros((count, count), dtype=bool)
    elif spacing == "all significant":
        significant = ~np.eye(count, dtype=bool)
    else:
        significant = hsd_like(count, rng, spacing)
    membership = group_membership(significant)
    cells = compact_letters(significant)
    # the round trip: parsing a cell gives back exactly the computed groups
    for row, cell in zip(membership, cells, strict=True):
        assert [group_label_index(label) for label in parse_groups(cell)] == list(np.flatnonzero(row))
    check_groups(significant, cells)
    groups = membership.shape[1]
    if spacing == "all significant":
        assert groups == count and cells[-1] == letter(count - 1)
    if spacing == "chain" and count == 300:
        assert groups == 299 and cells[60] == "h1i1"  # groups 59 and 60 (a1 is group 52)


def test_labels_are_letters_then_numbered_letters():
    assert [letter(i) for i in (0, 25, 26, 51, 52, 53, 103, 104, 1000)] == [
        "a",
        "z",
        "A",
        "Z",
        "a1",
        "b1",
        "Z1",
        "a2",
        "m19",
    ]
    assert all(group_label_index(letter(i)) == i for i in range(5000))
    assert format_groups([0, 1]) == "ab" and format_groups([51, 52, 53]) == "Za1b1"
    assert parse_groups("Za1b1") == ["Z", "a1", "b1"] and parse_groups("") == []
    # "ab" (groups a and b) and "a1" (group 53) can no longer be confused with a group "ab"
    assert parse_groups("ab") == ["a", "b"] and parse_groups("a12") == ["a12"]
    for bad in ("1a", "a-b", "a b", "é"):
        with pytest.raises(ValueError, match="group cell"):
            parse_groups(bad)


def test_any_significance_matrix_gets_exact_groups():
    """Significance that is not a matter of distance between means (e.g. a test per pair): the blocks of
    neighbours cannot describe it, insert-absorb does."""
    rng = np.random.default_rng(3)
    for count in (3, 5, 8, 12, 20):
        for _ in range(20):
            upper = np.triu(rng.random((count, count)) < 0.4, 1)
            significant = upper | upper.T
            check_groups(significant, compact_letters(significant))
    # a run that differs from its neighbours' neighbour only: a b, a c, b c
    significant = np.array([[0, 0, 1], [0, 0, 0], [1, 0, 0]], dtype=bool)
    assert compact_letters(significant) == ["a", "ab", "b"]
    significant = np.array([[0, 1, 0], [1, 0, 0], [0, 0, 0]], dtype=bool)  # 0 and 2 alike, 1 and 2 alike
    assert compact_letters(significant) == ["a", "b", "ab"]


def test_leaderboard_orders_ranks_and_groups():
    scores = np.array([[0.1, 0.5, 0.2], [0.3, 0.7, 0.2], [0.2, 0.6, 0.3]])
    pvalues = np.array([[1, 0.01, 0.5], [0.01, 1, 0.02], [0.5, 0.02, 1]])
    board = leaderboard(scores, ["A", "B", "C"], "M", False, pvalues)
    assert board.runs == ["B", "C", "A"] and list(board.ranks) == [1, 2, 3]
    assert board.groups == ["a", "b", "b"]
    assert (board.ci_low <= board.means).all() and (board.means <= board.ci_high).all()


def test_table_writers_keep_the_group_cells():
    count = 60
    significant = hsd_like(count, None, "chain")
    scores = np.tile(np.arange(count, dtype=float)[::-1], (4, 1)) + np.linspace(0, 0.1, 4)[:, None]
    pvalues = np.where(significant, 0.001, 0.9)
    board = leaderboard(scores, [f"run{i}" for i in range(count)], "M", False, pvalues).table()
    cells = list(board["group"])
    assert cells[-1] == letter(count - 2) == "g1"
    markdown = leaderboard_markdown("D", [board], {"M": "M"}, 0.95, "note")
    latex = leaderboard_latex([board], {"M": "M"}, 0.95)
    for cell in cells:
        assert f"| {cell} |" in markdown and f"& {cell} \\\\" in latex
    assert "a1-Z1" in markdown  # the key says how to read the cells


def test_table_writers_leave_out_the_columns_no_row_fills():
    """Ranks without intervals or groups (the pooled protocol's boards in the pipeline): no interval or group
    column and no key to the group cells; the score is headed as given."""
    board = Table(
        {
            "measure": ["M"] * 3,
            "rank": [1, 2, 3],
            "run": ["B", "C", "A"],
            "mean": [0.4, 0.3, 0.2],
            "ci_low": [np.nan] * 3,
            "ci_high": [np.nan] * 3,
            "group": [""] * 3,
            "lower_is_better": [False] * 3,
        }
    )
    markdown = leaderboard_markdown("D", [board], {"M": "M"}, 0.95, "note", "Score")
    latex = leaderboard_latex([board], {"M": "M"}, 0.95, "Score")
    assert "| Rank | Run | Score |" in markdown and "| 1 | B | 0.400 |" in markdown
    assert "CI" not in markdown and "Group" not in markdown and "a1-Z1" not in markdown
    assert "Rank & Run & Score" in latex and "CI" not in latex and "Group" not in latex
    assert r"\multicolumn{3}{l}" in latex and "B & 0.400" in latex


def synthetic_boards(runs: int, measures: int, seed: int = 0) -> list:
    """Leaderboards of simulated runs whose differences are significant beyond a fixed distance."""
    rng = np.random.default_rng(seed)
    names = [f"team{i:04d}-run{i % 7}" for i in range(runs)]
    boards = []
    for measure in range(measures):
        scores = 0.5 + rng.normal(scale=0.05, size=runs)[None, :] + rng.normal(scale=0.1, size=(50, runs))
        means = scores.mean(axis=0)
        pvalues = np.where(np.abs(means[:, None] - means[None, :]) > 0.06, 0.001, 0.5)
        boards.append(leaderboard(scores, names, f"M{measure}", measure % 2 == 0, pvalues).table())
    return boards


@pytest.mark.parametrize("runs", [12, 1000])
def test_leaderboard_figures_are_bounded_and_reproducible(tmp_path, runs):
    import warnings

    from PIL import Image

    from ordeval.reports.figures import save_figure
    from ordeval.reports.figures.leaderboard import MAX_HEIGHT, leaderboard_figure

    boards = synthetic_boards(runs, 3)
    names = {f"M{m}": f"Measure {m}" for m in range(3)}
    outputs = []
    for attempt in range(2 if runs < 100 else 1):  # byte-reproducible (checked where it is quick)
        pdf, png = tmp_path / f"{attempt}.pdf", tmp_path / f"{attempt}.png"
        figure = leaderboard_figure(boards, names, "D: leaderboards")
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # e.g. "constrained_layout not applied because axes sizes collapsed"
            save_figure(figure, pdf, png, {"D": "synthetic"})
        outputs.append((pdf.read_bytes(), png.read_bytes()))
    texts = [text.get_text() for text in figure.axes[0].texts]
    if runs == 12:  # every run labelled, its group cell beside its interval
        assert set(boards[0]["run"]) <= set(texts) and set(boards[0]["group"]) <= set(texts)
    else:  # a label every k-th run ("rank. run"), the best run's group in colour
        assert 15 < len(texts) <= 250 and texts[0] == f"1. {boards[0]['run'][0]}"
    assert outputs[0] == outputs[-1]
    with Image.open(tmp_path / "0.png") as image:
        width, height = image.size
    assert height <= 4000 and width <= 4000 and height <= MAX_HEIGHT * 150
    if runs == 1000:
        assert height > 0.95 * MAX_HEIGHT * 150  # the room is used, not a thumbnail
    else:
        assert height < 1000  # 12 runs: 0.22 inch a row, as before
