"""The figures of one data set, one job (rule dataset_figures: each job pays for matplotlib once): the
distribution of the split taus of every measure per consistency condition, the discriminative power curves, the
leaderboards and the topics needed against the minimum detectable difference. What a figure shows is said by its
caption, what its data say by its title and labels."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from ordeval.analysis.consistency import read_taus
from ordeval.analysis.leaderboard import read_leaderboards
from ordeval.analysis.significance import read_significance
from ordeval.io.provenance import origins_of
from ordeval.io.table import read_csv
from ordeval.reports.figures import figure_names, save_figure
from ordeval.reports.figures.consistency import tau_distribution_figure
from ordeval.reports.figures.leaderboard import leaderboard_figure
from ordeval.reports.figures.significance import dp_curves_figure
from ordeval.reports.figures.topic_set_size import dataset_figure
from ordeval.tasks.stack import read_stack

Files = Mapping[str, str | Path]


def write_split_tau_figures(
    taus: Files, measure_table: str | Path, provenance: str | Path, outputs: Files, *, dataset: str
) -> None:
    """For each condition of ``taus`` ({condition: the taus of data set ``dataset``'s random splits}), the
    distribution of every measure's tau, sorted by mean tau, titled with the number of splits. ``outputs``, per
    condition c: ``consistency_pdf_<c>``, ``consistency_png_<c>``."""
    origins = origins_of([provenance])
    names = figure_names(measure_table)
    for condition, path in taus.items():
        measures, values = read_taus(path)
        title = (
            f"{dataset}, {condition}: τ over {values.shape[0]} random\n"
            "topic splits (box: quartiles; whiskers: 2.5–97.5%;\ndot: mean)"
        )
        figure = tau_distribution_figure(values, [names[m] for m in measures], title)
        save_figure(figure, outputs[f"consistency_pdf_{condition}"], outputs[f"consistency_png_{condition}"], origins)


def write_dp_curves(
    pvalues: str | Path,
    arrays: str | Path,
    measure_table: str | Path,
    provenance: str | Path,
    outputs: Files,
    *,
    dataset: str,
    measures: Sequence[str],
    alpha: float,
    trials: int,
) -> None:
    """Data set ``dataset``'s discriminative power curves: each of ``measures``' p-values of every run pair
    (``pvalues``, or their binary copy ``arrays``; ``trials`` permutations) in decreasing order, against their
    rank (the horizontal axis runs to the number of pairs), ``alpha`` dashed. ``outputs``: ``curves_pdf``,
    ``curves_png``."""
    significance = read_significance(pvalues, measure_table, measures, trials, arrays)
    names = figure_names(measure_table)
    figure = dp_curves_figure(
        significance, [names[m] for m in measures], alpha, f"{dataset}: discriminative power curves"
    )
    save_figure(figure, outputs["curves_pdf"], outputs["curves_png"], origins_of([provenance]))


def write_leaderboard_figure(
    leaderboard: str | Path, measure_table: str | Path, provenance: str | Path, outputs: Files, *, dataset: str
) -> None:
    """Data set ``dataset``'s leaderboards (its leaderboard CSV): every run's mean with its interval per measure,
    best first, significance groups marked. ``outputs``: ``leaderboard_pdf``, ``leaderboard_png``."""
    table = read_csv(leaderboard, numeric=["mean", "ci_low", "ci_high"], integer=["rank"])
    figure = leaderboard_figure(read_leaderboards(table), figure_names(measure_table), f"{dataset}: leaderboards")
    save_figure(figure, outputs["leaderboard_pdf"], outputs["leaderboard_png"], origins_of([provenance]))


def write_topic_set_size_figure(
    stack: str | Path,
    measure_table: str | Path,
    provenance: str | Path,
    outputs: Files,
    *,
    dataset: str,
    measures: Sequence[str],
    alpha: float,
    power: float,
) -> None:
    """The topics data set ``dataset`` (its score stack at ``stack``) would need against the minimum detectable
    difference, per measure of ``measures`` and design (:func:`~ordeval.reports.figures.topic_set_size.
    dataset_figure`: the ANOVA over the data set's runs, its number in the panel's title), titled with ``alpha``
    and ``power``. ``outputs``: ``topic_set_size_pdf``, ``topic_set_size_png``."""
    scores = read_stack(stack, measures)
    names = figure_names(measure_table)
    matrices = {m: scores.matrix(m) for m in scores.measures}
    title = f"{dataset}: topics needed (α = {alpha:g}, power = {power:g})"
    figure = dataset_figure(matrices, {m: names[m] for m in scores.measures}, title, alpha=alpha, power=power)
    save_figure(figure, outputs["topic_set_size_pdf"], outputs["topic_set_size_png"], origins_of([provenance]))
