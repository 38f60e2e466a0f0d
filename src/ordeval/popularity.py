"""Popularity vs Uniform (SPEC 4.6): which of two organiser baselines does each measure prefer?

BL-popularity is an oracle that puts all mass on the gold's most probable class(es); BL-uniform
gives 1/K to every class. For every topic t and measure M,

    Delta_M(t) = M(BL-popularity, t) - M(BL-uniform, t)

(lower is better for every measure, so Delta_M(t) < 0 means M prefers Popularity on t). This
module counts the preferences, relates the deltas of two measures (quadrant counts, Pearson r)
and finds the topics on which NMD and RNOD disagree most; it also draws the figures (matplotlib
is imported only there).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .measures import get_measure
from .outputs import bold, escape, measure_name, number, read_origins, read_run_origins, tabular
from .scoring import ScoreStack
from .stats import Correlation, pearson_with_ci

#: |Delta| at most this is a tie (the configuration's popularity.tie_tolerance overrides it).
TIE_TOLERANCE = 1e-12
#: Nominal measures (blind to the class order) that Delta_RNOD is plotted against.
NOMINAL_MEASURES = ("NVD", "RNSS", "JSD")
#: The two measures whose disagreement d = Delta_NMD - Delta_RNOD picks the example topics.
D_MEASURES = ("NMD", "RNOD")


# --------------------------------------------------------------------------- deltas


@dataclass(frozen=True)
class Deltas:
    """Per-topic deltas of one data set: ``values[m, t] = M_m(popularity, t) - M_m(uniform, t)``."""

    measures: list[str]
    topics: list[str]
    values: np.ndarray  # measures x topics

    def of(self, measure: str) -> np.ndarray:
        return self.values[self.measures.index(measure)]


def compute_deltas(stack: ScoreStack, popularity_run: str, uniform_run: str) -> Deltas:
    """Delta_M(t) = M(popularity_run, t) - M(uniform_run, t) for every measure of ``stack``."""
    missing = [run for run in (popularity_run, uniform_run) if run not in stack.runs]
    if missing:
        raise KeyError(f"no run(s) {', '.join(missing)} among the scored runs {', '.join(stack.runs)}")
    popularity = stack.values[:, :, stack.runs.index(popularity_run)]
    uniform = stack.values[:, :, stack.runs.index(uniform_run)]
    return Deltas(list(stack.measures), list(stack.topics), popularity - uniform)


def compared_origins(provenance_paths: dict[str, str], compared, runs: Sequence[str]) -> dict[str, str]:
    """``{dataset: origin}`` of the deltas of the ``compared`` data sets: they use only the gold and
    ``runs``, so real gold with baselines computed from it is real. With no data set compared,
    the origins of every data set of ``provenance_paths`` (those the empty outputs looked at)."""
    if not compared:
        return read_origins(provenance_paths)
    return read_run_origins({name: provenance_paths[name] for name in compared}, list(runs))


# --------------------------------------------------------------------------- wins and losses


@dataclass(frozen=True)
class Preferences:
    """Topics on which a measure prefers each baseline (they add up to the number of topics)."""

    uniform: int  #: Delta > tolerance: Uniform scores better
    popularity: int  #: Delta < -tolerance: Popularity scores better
    ties: int  #: |Delta| <= tolerance


def count_preferences(delta: np.ndarray, tolerance: float = TIE_TOLERANCE) -> Preferences:
    """Uniform wins where Delta > tol, Popularity where Delta < -tol, ties where |Delta| <= tol."""
    delta = np.asarray(delta, dtype=float)
    uniform = int(np.count_nonzero(delta > tolerance))
    popularity = int(np.count_nonzero(delta < -tolerance))
    return Preferences(uniform, popularity, delta.size - uniform - popularity)


PREFERENCE_COLUMNS = ["dataset", "measure", "uniform", "popularity", "ties"]
TOTAL = "TOTAL"


def preference_table(deltas: dict[str, Deltas], measures: Sequence[str], tolerance: float) -> pd.DataFrame:
    """Rows (dataset, measure, uniform, popularity, ties) for every data set, then one ``TOTAL``
    row per measure summing the counts over the data sets. No data set gives no rows."""
    rows = [
        {"dataset": name, "measure": measure, **vars(count_preferences(values.of(measure), tolerance))}
        for name, values in deltas.items()
        for measure in measures
    ]
    frame = pd.DataFrame(rows, columns=PREFERENCE_COLUMNS)
    if frame.empty:
        return frame
    totals = frame.groupby("measure", sort=False)[["uniform", "popularity", "ties"]].sum().reset_index()
    totals.insert(0, "dataset", TOTAL)
    return pd.concat([frame, totals], ignore_index=True)[PREFERENCE_COLUMNS]


def _pair(uniform: int, popularity: int) -> list[str]:
    """The two counts as LaTeX cells, the larger one in bold (neither when equal)."""
    cells = [str(uniform), str(popularity)]
    if uniform != popularity:
        larger = 0 if uniform > popularity else 1
        cells[larger] = bold(cells[larger])
    return cells


def preference_latex(table: pd.DataFrame, measures: Sequence[str], note: str) -> str:
    """Data sets as rows, a U(niform) / P(opularity) column pair per measure (a T(ie) column too
    when any topic ties); the larger count of each pair in bold; TOTAL last, after a rule.
    ``note`` fills the body when the table has no rows."""
    with_ties = bool((table["ties"] > 0).any()) if not table.empty else False
    per_measure = 3 if with_ties else 2
    header = [
        [""] + [rf"\multicolumn{{{per_measure}}}{{c}}{{{measure_name(m)}}}" for m in measures],
        ["Data set"] + (["U", "P", "T"] if with_ties else ["U", "P"]) * len(measures),
    ]
    align = "l" + "r" * per_measure * len(measures)
    if table.empty:
        return tabular(header, [[rf"\multicolumn{{{len(align)}}}{{l}}{{{escape(note)}}}"]], align)
    rows = []
    for name, group in table.groupby("dataset", sort=False):
        counts = group.set_index("measure")
        row = [escape(name)]
        for measure in measures:
            row += _pair(int(counts.at[measure, "uniform"]), int(counts.at[measure, "popularity"]))
            if with_ties:
                row.append(str(int(counts.at[measure, "ties"])))
        rows.append(row)
    return tabular(header, rows, align, rules_after=[len(rows) - 2])


def deltas_table(deltas: dict[str, Deltas]) -> pd.DataFrame:
    """Per-topic deltas: columns dataset, topic, ``delta_<M>`` per measure, and
    ``d = delta_NMD - delta_RNOD`` when both are there."""
    frames = []
    for name, values in deltas.items():
        frame = pd.DataFrame(values.values.T, columns=[f"delta_{m}" for m in values.measures])
        frame.insert(0, "topic", values.topics)
        frame.insert(0, "dataset", name)
        if all(m in values.measures for m in D_MEASURES):
            frame["d"] = disagreement(values)
        frames.append(frame)
    if not frames:
        return pd.DataFrame(columns=["dataset", "topic"])
    return pd.concat(frames, ignore_index=True)


# --------------------------------------------------------------------------- scatter plots


@dataclass(frozen=True)
class Quadrants:
    """Topics on which the two measures prefer different baselines."""

    second: int  #: x < -tol and y > tol: x prefers Popularity, y prefers Uniform
    fourth: int  #: x > tol and y < -tol: x prefers Uniform, y prefers Popularity


def quadrant_counts(x: np.ndarray, y: np.ndarray, tolerance: float = TIE_TOLERANCE) -> Quadrants:
    """Points in the 2nd (x < 0 < y) and 4th (y < 0 < x) quadrants; |value| <= tol counts as 0."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    second = np.count_nonzero((x < -tolerance) & (y > tolerance))
    fourth = np.count_nonzero((x > tolerance) & (y < -tolerance))
    return Quadrants(int(second), int(fourth))


def scatter_pairs(measures: Sequence[str]) -> list[tuple[str, str]]:
    """The (x, y) measure pairs plotted: NMD against every other measure, then RNOD against the
    nominal measures NVD, RNSS and JSD; pairs with a measure not in ``measures`` are left out."""
    pairs = [("NMD", m) for m in measures if m != "NMD"] if "NMD" in measures else []
    if "RNOD" in measures:
        pairs += [("RNOD", m) for m in NOMINAL_MEASURES if m in measures]
    return pairs


@dataclass(frozen=True)
class Panel:
    """One scatter panel: Delta of ``x`` against Delta of ``y`` over the topics."""

    x: str
    y: str
    quadrants: Quadrants
    correlation: Correlation  #: Pearson r with a Fisher-z CI, se = 1 / sqrt(n - 3)


def scatter_panels(deltas: Deltas, tolerance: float = TIE_TOLERANCE, level: float = 0.95) -> list[Panel]:
    """Quadrant counts and Pearson r (CI at ``level``) for every pair of :func:`scatter_pairs`."""
    return [
        Panel(
            x,
            y,
            quadrant_counts(deltas.of(x), deltas.of(y), tolerance),
            pearson_with_ci(deltas.of(x), deltas.of(y), level),
        )
        for x, y in scatter_pairs(deltas.measures)
    ]


def panels_table(dataset: str, panels: Sequence[Panel]) -> pd.DataFrame:
    """One row per panel: dataset, x, y, second_quadrant, fourth_quadrant, r, r_low, r_high, n."""
    rows = [
        {
            "dataset": dataset,
            "x": panel.x,
            "y": panel.y,
            "second_quadrant": panel.quadrants.second,
            "fourth_quadrant": panel.quadrants.fourth,
            "r": panel.correlation.r,
            "r_low": panel.correlation.low,
            "r_high": panel.correlation.high,
            "n": panel.correlation.n,
        }
        for panel in panels
    ]
    return pd.DataFrame(
        rows, columns=["dataset", "x", "y", "second_quadrant", "fourth_quadrant", "r", "r_low", "r_high", "n"]
    )


def panels_latex(panels: Sequence[Panel], level: float) -> str:
    """x, y, 2nd / 4th quadrant counts, Pearson r and its CI, one row per panel (3 decimals)."""
    header = [r"$\Delta$ x", r"$\Delta$ y", "2nd", "4th", "$r$", f"{level:.0%} CI".replace("%", r"\%")]
    rows = [
        [
            measure_name(panel.x),
            measure_name(panel.y),
            str(panel.quadrants.second),
            str(panel.quadrants.fourth),
            number(panel.correlation.r),
            f"[{number(panel.correlation.low)}, {number(panel.correlation.high)}]",
        ]
        for panel in panels
    ]
    return tabular(header, rows, "llrrrl")


def _annotation(panel: Panel, level: float) -> str:
    correlation = panel.correlation
    r = (
        "r undefined"
        if np.isnan(correlation.r)
        else f"r = {correlation.r:.3f} [{correlation.low:.3f}, {correlation.high:.3f}]"
    )
    return f"2nd quadrant: {panel.quadrants.second}, 4th: {panel.quadrants.fourth}\n{r} ({level:.0%} CI)"


def _delta_label(measure: str) -> str:
    return f"\u0394{get_measure(measure).display}"


def _figure(width: float, height: float):
    """A constrained-layout figure that leaves the bottom 0.2 inch free for the data-origin note
    that :func:`ordeval.outputs.save_figure` writes there."""
    from matplotlib.figure import Figure

    figure = Figure(figsize=(width, height), layout="constrained")
    margin = 0.2 / height
    figure.get_layout_engine().set(rect=(0, margin, 1, 1 - margin))
    return figure


def scatter_figure(title: str, deltas: Deltas, panels: Sequence[Panel], level: float):
    """A grid of scatter plots, one per panel: Delta_x against Delta_y per topic, with the axes
    through 0 and the quadrant counts and Pearson r annotated."""
    columns = max(1, min(4, len(panels)))
    rows = max(1, -(-len(panels) // columns))
    figure = _figure(3.4 * columns, 3.2 * rows + 0.6)
    axes = np.atleast_1d(figure.subplots(rows, columns, squeeze=False)).ravel()
    for axis, panel in zip(axes, panels, strict=False):
        axis.scatter(deltas.of(panel.x), deltas.of(panel.y), s=7, alpha=0.5, linewidths=0)
        axis.axhline(0, color="0.5", linewidth=0.6)
        axis.axvline(0, color="0.5", linewidth=0.6)
        axis.set_xlabel(_delta_label(panel.x))
        axis.set_ylabel(_delta_label(panel.y))
        axis.text(
            0.03,
            0.97,
            _annotation(panel, level),
            transform=axis.transAxes,
            va="top",
            fontsize=7,
            bbox={"boxstyle": "round", "facecolor": "white", "alpha": 0.8, "edgecolor": "0.8"},
        )
    for axis in axes[len(panels) :]:
        axis.set_axis_off()
    if not panels:
        axes[0].text(0.5, 0.5, "No pair of measures to plot", ha="center", va="center")
    figure.suptitle(title, fontsize=10)
    return figure


# --------------------------------------------------------------------------- example topics


def disagreement(deltas: Deltas) -> np.ndarray:
    """d(t) = Delta_NMD(t) - Delta_RNOD(t): negative where NMD favours Popularity more than RNOD does."""
    return deltas.of(D_MEASURES[0]) - deltas.of(D_MEASURES[1])


@dataclass(frozen=True)
class Example:
    """A topic on which NMD and RNOD judge Popularity vs Uniform most differently."""

    index: int
    topic: str
    d: float
    delta_nmd: float
    delta_rnod: float


def most_negative_d(deltas: Deltas, count: int = 2) -> list[Example]:
    """The ``count`` topics with the smallest d = Delta_NMD - Delta_RNOD (ties keep topic order)."""
    d = disagreement(deltas)
    order = np.argsort(d, kind="stable")[:count]
    nmd, rnod = deltas.of(D_MEASURES[0]), deltas.of(D_MEASURES[1])
    return [Example(int(i), deltas.topics[i], float(d[i]), float(nmd[i]), float(rnod[i])) for i in order]


@dataclass(frozen=True)
class ExamplePanel:
    """What one panel of :func:`examples_figure` shows: ``distributions[k]`` over ``classes`` is
    drawn as the bars labelled ``labels[k]`` (gold, Popularity, Uniform)."""

    title: str
    example: Example
    classes: list[str]
    labels: list[str]
    distributions: np.ndarray  # labels x classes


def examples_figure(panels: Sequence[ExamplePanel], title: str, note: str = ""):
    """Grouped bar charts of the distributions of each example topic, two panels to a row;
    ``note`` is shown instead when there are no panels."""
    columns = 2
    rows = max(1, -(-len(panels) // columns))
    figure = _figure(4.2 * columns, 2.8 * rows + 0.5)
    axes = figure.subplots(rows, columns, squeeze=False).ravel()
    for axis, panel in zip(axes, panels, strict=False):
        positions = np.arange(len(panel.classes))
        width = 0.8 / len(panel.labels)
        for offset, (label, distribution) in enumerate(zip(panel.labels, panel.distributions, strict=True)):
            axis.bar(positions + (offset - (len(panel.labels) - 1) / 2) * width, distribution, width, label=label)
        axis.set_xticks(positions, panel.classes)
        axis.set_ylim(0, 1.05)
        axis.set_ylabel("probability")
        example = panel.example
        axis.set_title(
            f"{panel.title}, topic {example.topic}\n"
            f"\u0394NMD = {example.delta_nmd:.3f}, \u0394RNOD = {example.delta_rnod:.3f}, d = {example.d:.3f}",
            fontsize=8,
        )
        axis.legend(fontsize=7)
    for axis in axes[len(panels) :]:
        axis.set_axis_off()
    if not panels:
        axes[0].text(0, 0.5, note, ha="left", va="center", wrap=True, fontsize=9)
    figure.suptitle(title, fontsize=10)
    return figure
