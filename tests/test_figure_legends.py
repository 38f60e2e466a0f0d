"""Legends never cover the data-origin note, another legend, a text or the data: every kind of figure the pipeline
draws, drawn here on small simulated inputs (and on the shapes that crowd a figure: many measures, long names,
tall bars everywhere), is checked after drawing with ordeval.reports.figures.legend_overlaps, which save_figure runs
on every figure it writes (a job's log says what a legend covers); and the check finds each kind of cover. The
pipeline's own figures are checked in tests/workflow/test_report_print.py."""

from __future__ import annotations

import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg

from ordeval.analysis.popularity import Deltas, Example, scatter_panels
from ordeval.analysis.significance import PairwiseSignificance
from ordeval.io.table import Table
from ordeval.reports.figures import (
    PRINT_HEIGHT,
    PRINT_WIDTH,
    legend_overlaps,
    measure_text,
    new_figure,
    save_figure,
    smallest_font,
)
from ordeval.reports.figures.agreement import tau_heatmap
from ordeval.reports.figures.consistency import tau_distribution_figure
from ordeval.reports.figures.leaderboard import leaderboard_figure
from ordeval.reports.figures.popularity import ExamplePanel, examples_figure, scatter_figure
from ordeval.reports.figures.significance import dp_curves_figure, dp_curves_grid
from ordeval.reports.figures.topic_set_size import topic_set_size_figure

ORIGINS = {"D1": "synthetic"}
OQ = ["NMD", "RSNOD", "RNOD", "RNADW", "RNOD2", "RNADW2", "NVD", "RNSS", "JSD", "DNKT", "DNKT_JSD", "DNKT_NMD"]
OC = ["α_ORD", "α_INT", "HMPR", "F1^M", "MAE^M", "κ", "CEM_ORD", "Accuracy", "MAE^µ"]


def names(measures):
    return [measure_text(name) for name in measures]


def significance(measures, runs: int, seed: int) -> PairwiseSignificance:
    rng = np.random.default_rng(seed)
    pairs = runs * (runs - 1) // 2
    pvalues = np.sort(rng.beta(0.3, 1.0, size=(len(measures), pairs)), axis=1)
    return PairwiseSignificance(
        list(measures), [f"run{i}" for i in range(runs)], rng.random((len(measures), runs)), pvalues
    )


def boards(runs: int, measures: int):
    from ordeval.analysis.leaderboard import leaderboard

    rng = np.random.default_rng(3)
    found = []
    for measure in range(measures):
        scores = 0.5 + rng.normal(scale=0.05, size=runs)[None, :] + rng.normal(scale=0.1, size=(30, runs))
        means = scores.mean(axis=0)
        pvalues = np.where(np.abs(means[:, None] - means[None, :]) > 0.06, 0.001, 0.5)
        names = [f"BL-popularity-{i}" if i % 5 == 0 else f"TEAM{i:02d}-run{i % 3}" for i in range(runs)]
        found.append(leaderboard(scores, names, OQ[measure], measure % 2 == 0, pvalues).table())
    return found


def heatmap(measures):
    rng = np.random.default_rng(1)
    rows = [(a, b, float(rng.uniform(-0.2, 1.0))) for i, a in enumerate(measures) for b in measures[i + 1 :]]
    pairs = Table({"measure_a": [r[0] for r in rows], "measure_b": [r[1] for r in rows], "tau": [r[2] for r in rows]})
    return tau_heatmap(pairs, measures, names(measures), "Kendall's τ-a between run rankings, mean over 8 data sets")


def scatter(measures, topics: int):
    rng = np.random.default_rng(2)
    deltas = Deltas(list(measures), [f"t{i}" for i in range(topics)], rng.normal(size=(len(measures), topics)))
    shown = {m: measure_text(m) for m in measures}
    title = "D1: oriented Δ = M(BL-popularity-C) − M(BL-uniform-C) per topic (< 0: prefers BL-popularity-C)"
    return scatter_figure(title, deltas, scatter_panels(deltas), shown, 0.95)


def examples(count: int, tall: bool):
    classes = ["-2", "-1", "0", "1", "2"]
    panels = []
    for index in range(count):
        # tall: every class near 1 in some distribution, so that no corner of a panel is free
        gold = np.full(5, 0.2) if not tall else np.array([0.9, 0.05, 0.9, 0.05, 0.9])
        popularity = np.eye(5)[index % 5]
        uniform = np.full(5, 0.2) if not tall else np.array([0.05, 0.95, 0.05, 0.95, 0.05])
        example = Example(index, f"d{index:03d}", -0.25, -0.1, 0.15)
        panels.append(
            ExamplePanel(
                f"DialEval1-DQ-{index}",
                example,
                classes,
                ["gold", "BL-popularity-C", "BL-uniform-C"],
                np.stack([gold, popularity, uniform]),
            )
        )
    return examples_figure(panels, "Topics where NMD favours Popularity most relative to RNOD (most negative d)")


def topic_set_size(measures):
    fractions = np.linspace(0.025, 0.3, 12)
    curves = {
        design: {m: 1000 * (0.02 + 0.001 * i) / fractions**2 for i, m in enumerate(measures)}
        for design in ("paired_t", "anova", "ci")
    }
    return topic_set_size_figure(
        curves, fractions, dict(zip(measures, names(measures), strict=True)), "D1: topics needed", runs=22
    )


FIGURES = {
    "tau distribution, 12 measures": lambda: tau_distribution_figure(
        np.random.default_rng(0).uniform(0.1, 0.95, size=(200, 12)), names(OQ), "D1, half: τ over 200 splits"
    ),
    "tau distribution, low taus": lambda: tau_distribution_figure(
        np.random.default_rng(0).uniform(-0.5, 0.2, size=(200, 9)), names(OC), "D1, 10v10: τ over 200 splits"
    ),
    "DP curves, one data set": lambda: dp_curves_figure(significance(OQ[:7], 22, 0), names(OQ[:7]), 0.05, "D1"),
    "DP curves, 12 measures": lambda: dp_curves_figure(significance(OQ, 22, 1), names(OQ), 0.05, "D1"),
    "DP curves, eight data sets": lambda: dp_curves_grid(
        {f"D{i}": significance(OQ[:7], 12 + i, i) for i in range(8)},
        {f"D{i}": names(OQ[:7]) for i in range(8)},
        0.05,
        "Discriminative power curves (quantification)",
    ),
    "DP curves with counts (the ACL 2021 Figure 1)": lambda: dp_curves_grid(
        {f"Sem1{i}T4C": significance(OC, 12 + 8 * i, i) for i in range(2)},
        {f"Sem1{i}T4C": names(OC) for i in range(2)},
        0.05,
        "Discriminative power curves of the ordinal classification measures",
        {f"Sem1{i}T4C": list(range(40, 49)) for i in range(2)},
    ),
    "leaderboards, 22 runs": lambda: leaderboard_figure(boards(22, 6), {m: m for m in OQ}, "D1: leaderboards"),
    "leaderboards, 200 runs": lambda: leaderboard_figure(boards(200, 9), {m: m for m in OQ}, "D1: leaderboards"),
    "leaderboards, classification names": lambda: leaderboard_figure(
        boards(22, 9), dict(zip(OQ, names(OC), strict=False)), "D1: leaderboards"
    ),
    "heatmap": lambda: heatmap(OQ),
    "scatter plots": lambda: scatter(OQ[:6], 80),
    "example topics": lambda: examples(12, tall=False),
    "example topics, tall bars": lambda: examples(4, tall=True),
    "topic set size": lambda: topic_set_size(OQ),
    # names with subscripts and superscripts: typeset by save_figure, a legend row taller than the plain name's
    "topic set size, classification names": lambda: topic_set_size(OC),
    "DP curves, classification data sets": lambda: dp_curves_grid(
        {f"Sem1{i}T4C": significance(OC, 12 + i, i) for i in range(2)},
        {f"Sem1{i}T4C": names(OC) for i in range(2)},
        0.05,
        "Discriminative power curves (classification)",
    ),
}


@pytest.mark.parametrize("kind", FIGURES)
def test_no_legend_covers_the_note_another_legend_a_text_or_the_data(kind, tmp_path):
    figure = FIGURES[kind]()
    covered = save_figure(figure, tmp_path / "f.pdf", tmp_path / "f.png", ORIGINS)
    assert covered == [], covered
    assert smallest_font(figure) >= 7.0 - 1e-9  # a measure name's script too (0.7 of its text's size)
    width, height = figure.get_size_inches()  # drawn at most the printed size
    assert width <= PRINT_WIDTH + 1e-9 and height <= PRINT_HEIGHT + 1e-9


def drawn(figure):
    canvas = FigureCanvasAgg(figure)
    canvas.draw()
    return canvas.get_renderer()


def test_the_check_finds_a_legend_over_the_data_the_note_a_title_or_another_legend():
    figure = new_figure(4, 3)
    axis = figure.subplots()
    axis.bar([0, 1, 2], [1.0, 1.0, 1.0], label="bars")  # bars to the top: no free corner
    axis.set_ylim(0, 1)
    axis.legend(loc="upper left")
    note = figure.text(0.995, 0.005, "SYNTHETIC DATA (simulated)", ha="right", va="bottom")
    renderer = drawn(figure)
    assert any("covers the data" in found for found in legend_overlaps(figure, renderer, note))

    figure = new_figure(4, 3)
    axis = figure.subplots()
    axis.plot([0, 1], [0, 0], label="a line at the bottom")
    axis.legend(loc="upper right")
    assert legend_overlaps(figure, drawn(figure)) == []  # clear of a line it does not cross
    axis.plot([0, 1], [0, 1], label="a diagonal")
    axis.legend(loc="upper right")
    assert any("covers the data" in found for found in legend_overlaps(figure, drawn(figure)))  # a segment crossed

    figure = new_figure(4, 3)
    axis = figure.subplots()
    axis.scatter([0.95], [0.95], s=20, label="a point")
    axis.set_xlim(0, 1)
    axis.set_ylim(0, 1)
    axis.legend(loc="upper right")
    assert any("covers the data" in found for found in legend_overlaps(figure, drawn(figure)))

    figure = new_figure(4, 3)
    axis = figure.subplots()
    axis.plot([0, 1], [0.5, 0.5], label="x")
    figure.legend(loc="lower right")  # over the corner where save_figure writes the note
    note = figure.text(0.995, 0.005, "SYNTHETIC DATA (simulated)", ha="right", va="bottom")
    figure.suptitle("A title")
    figure.legend(["y"], loc="upper center")  # over the title
    found = legend_overlaps(figure, drawn(figure), note)
    assert any("covers the data-origin note" in item for item in found)
    assert any("covers the text 'A title'" in item for item in found)

    figure = new_figure(4, 3)
    axis = figure.subplots()
    axis.plot([0, 1], [0.5, 0.5], label="x")
    axis.legend(loc="upper left")
    figure.legend(["y"], loc="upper left", bbox_to_anchor=(0, 1))
    assert any("covers legend" in found for found in legend_overlaps(figure, drawn(figure)))


def test_a_covering_legend_is_logged_with_the_figure_it_is_in(tmp_path, caplog):
    figure = new_figure(4, 3)
    axis = figure.subplots()
    axis.bar([0, 1, 2], [1.0, 1.0, 1.0], label="bars")
    axis.set_ylim(0, 1)
    axis.legend(loc="upper left")
    with caplog.at_level("INFO"):
        covered = save_figure(figure, tmp_path / "f.pdf", tmp_path / "f.png", ORIGINS)
    assert covered and "f.pdf: legend 1 (bars) covers the data" in caplog.text
    assert [record.levelname for record in caplog.records if "f.pdf" in record.getMessage()] == ["WARNING"]
