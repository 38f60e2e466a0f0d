"""Popularity vs Uniform (docs/methods.md 4.6): which of two organiser baselines does each measure prefer?

BL-popularity is an oracle that puts all mass on the gold's most probable class(es); BL-uniform
gives 1/K to every class. For every topic t and measure M,

    Delta_M(t) = M(BL-popularity, t) - M(BL-uniform, t).

Where lower is better, Delta_M(t) < 0 means M prefers Popularity on t; where higher is better,
Delta_M(t) > 0 does. The counts and the quadrants use the *oriented* delta o_M(t) = Delta_M(t) for a
lower-is-better measure and -Delta_M(t) otherwise, so that o_M(t) < 0 always means "prefers
Popularity"; the table of deltas keeps the raw Delta_M. This module computes; presentation is in
:mod:`ordeval.reports.latex.popularity` and :mod:`ordeval.reports.figures.popularity`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from ordeval.io.provenance import read_origins, read_run_origins
from ordeval.io.table import Table
from ordeval.stats.intervals import Correlation, pearson_with_ci
from ordeval.tasks.stack import ScoreStack

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
    lower_is_better: list[bool] = field(default_factory=list)

    def __post_init__(self):
        if not self.lower_is_better:
            object.__setattr__(self, "lower_is_better", [True] * len(self.measures))

    def of(self, measure: str) -> np.ndarray:
        return self.values[self.measures.index(measure)]

    def oriented(self, measure: str) -> np.ndarray:
        """The delta of ``measure`` signed so that negative means "prefers Popularity"."""
        sign = 1.0 if self.lower_is_better[self.measures.index(measure)] else -1.0
        return sign * self.of(measure)


def compute_deltas(stack: ScoreStack, popularity_run: str, uniform_run: str) -> Deltas:
    """Delta_M(t) = M(popularity_run, t) - M(uniform_run, t) for every measure of ``stack``."""
    missing = [run for run in (popularity_run, uniform_run) if run not in stack.runs]
    if missing:
        raise KeyError(f"no run(s) {', '.join(missing)} among the scored runs {', '.join(stack.runs)}")
    popularity = stack.values[:, :, stack.runs.index(popularity_run)]
    uniform = stack.values[:, :, stack.runs.index(uniform_run)]
    return Deltas(list(stack.measures), list(stack.topics), popularity - uniform, list(stack.lower_is_better))


def compared_origins(provenance_paths: Mapping[str, str], compared, runs: Sequence[str]) -> dict[str, str]:
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

    uniform: int  #: the measure scores Uniform better
    popularity: int  #: the measure scores Popularity better
    ties: int  #: |Delta| <= tolerance


def count_preferences(delta: np.ndarray, tolerance: float = TIE_TOLERANCE, lower_is_better: bool = True) -> Preferences:
    """With o = Delta (lower is better) or -Delta (higher is better): Uniform wins where o > tol,
    Popularity where o < -tol, ties where |o| <= tol."""
    oriented = np.asarray(delta, dtype=float) * (1.0 if lower_is_better else -1.0)
    uniform = int(np.count_nonzero(oriented > tolerance))
    popularity = int(np.count_nonzero(oriented < -tolerance))
    return Preferences(uniform, popularity, oriented.size - uniform - popularity)


PREFERENCE_COLUMNS = ["dataset", "measure", "uniform", "popularity", "ties"]
TOTAL = "TOTAL"


def total_label(origin: str | None = None) -> str:
    """The name of a TOTAL row: ``TOTAL``, or ``TOTAL (real)`` etc. for the total of one origin."""
    return TOTAL if origin is None else f"{TOTAL} ({origin})"


def preference_table(
    deltas: Mapping[str, Deltas], measures: Sequence[str], tolerance: float, origins: Mapping[str, str] | None = None
) -> Table:
    """Rows (dataset, measure, uniform, popularity, ties) for every data set, then one ``TOTAL``
    row per measure summing the counts over the data sets. No data set gives no rows.

    With ``origins`` ({data set: origin}) of more than one kind, real counts are never added to
    synthetic ones: one ``TOTAL (<origin>)`` row per origin and measure instead (in the order of
    :class:`~ordeval.io.provenance.Origin`)."""
    from ordeval.io.provenance import ORIGINS

    rows = []
    for name, values in deltas.items():
        for measure in measures:
            direction = values.lower_is_better[values.measures.index(measure)]
            counts = count_preferences(values.of(measure), tolerance, direction)
            rows.append((name, measure, counts.uniform, counts.popularity, counts.ties))
    kinds = sorted({origins[name] for name in deltas}, key=ORIGINS.index) if origins else []
    groups = [(total_label(kind), [n for n in deltas if origins[n] == kind]) for kind in kinds]
    if len(groups) < 2:
        groups = [(TOTAL, list(deltas))]
    if rows:
        for label, names in groups:
            for measure in measures:
                mine = [row for row in rows if row[1] == measure and row[0] in names]
                rows.append((label, measure, *(sum(row[k] for row in mine) for k in (2, 3, 4))))
    return Table({name: [row[k] for row in rows] for k, name in enumerate(PREFERENCE_COLUMNS)})


def total_origins(table: Table, origins: Mapping[str, str]) -> dict[str, str]:
    """``origins`` with the origin of each TOTAL row of a :func:`preference_table` (for its CSV)."""
    from ordeval.io.provenance import ORIGINS, combined_origin

    result = dict(origins)
    for name in dict.fromkeys(table["dataset"]):
        if name == TOTAL:
            result[name] = combined_origin(origins)
        for kind in ORIGINS:
            if name == total_label(kind):
                result[name] = kind
    return result


def deltas_table(deltas: Mapping[str, Deltas]) -> Table:
    """Per-topic deltas: columns dataset, topic, ``delta_<M>`` per measure, and
    ``d = delta_NMD - delta_RNOD`` when both are there."""
    tables = []
    for name, values in deltas.items():
        table = Table({"dataset": [name] * len(values.topics), "topic": list(values.topics)})
        for measure in values.measures:
            table[f"delta_{measure}"] = values.of(measure)
        if all(m in values.measures for m in D_MEASURES):
            table["d"] = disagreement(values)
        tables.append(table)
    if not tables:
        return Table({"dataset": [], "topic": []})
    return Table.concat(tables)


# --------------------------------------------------------------------------- scatter plots


@dataclass(frozen=True)
class Quadrants:
    """Topics on which the two measures prefer different baselines (oriented deltas)."""

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
    """One scatter panel: the oriented delta of ``x`` against that of ``y`` over the topics."""

    x: str
    y: str
    quadrants: Quadrants
    correlation: Correlation  #: Pearson r of the oriented deltas, Fisher-z CI (se = 1 / sqrt(n - 3))


def scatter_panels(deltas: Deltas, tolerance: float = TIE_TOLERANCE, level: float = 0.95) -> list[Panel]:
    """Quadrant counts and Pearson r (CI at ``level``) for every pair of :func:`scatter_pairs`."""
    return [
        Panel(
            x,
            y,
            quadrant_counts(deltas.oriented(x), deltas.oriented(y), tolerance),
            pearson_with_ci(deltas.oriented(x), deltas.oriented(y), level),
        )
        for x, y in scatter_pairs(deltas.measures)
    ]


PANEL_COLUMNS = ["dataset", "x", "y", "second_quadrant", "fourth_quadrant", "r", "r_low", "r_high", "n"]


def panels_table(dataset: str, panels: Sequence[Panel]) -> Table:
    """One row per panel: dataset, x, y, second_quadrant, fourth_quadrant, r, r_low, r_high, n."""
    rows = [
        (
            dataset,
            panel.x,
            panel.y,
            panel.quadrants.second,
            panel.quadrants.fourth,
            panel.correlation.r,
            panel.correlation.low,
            panel.correlation.high,
            panel.correlation.n,
        )
        for panel in panels
    ]
    return Table({name: [row[k] for row in rows] for k, name in enumerate(PANEL_COLUMNS)})


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
