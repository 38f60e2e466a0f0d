"""Rule dp_curves: discriminative power curves (p-values sorted decreasingly against the pair rank,
one line per measure), one figure per data set and one with a panel per data set."""

import logging
import math
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from cycler import cycler  # noqa: E402

from ordeval.outputs import read_origins, save_figure  # noqa: E402
from ordeval.significance import draw_dp_curves, read_pvalue_table  # noqa: E402

log = logging.getLogger("dp_curves")


def line_styles(count: int) -> cycler:
    """Distinct colour and dash pattern for each of ``count`` measures."""
    colours = plt.get_cmap("tab20" if count > 10 else "tab10").colors[:count]
    dashes = ["-", "--", "-.", ":"]
    return cycler(color=colours) + cycler(linestyle=[dashes[i % len(dashes)] for i in range(len(colours))])


def main(
    datasets: list[str], pvalue_paths: list, provenance_paths: list, measures: list[str], alpha, trials, figures_dir
):
    """Write ``<figures_dir>/<dataset>.{pdf,png}`` and ``<figures_dir>/all.{pdf,png}``."""
    figures = Path(figures_dir)
    shows = (
        f"discriminative power curves: the p-values of all run pairs (randomised Tukey HSD, B = {trials}) sorted "
        f"in decreasing order against the pair rank, one curve per measure; dashed: alpha = {alpha:g}."
    )
    origins = read_origins(dict(zip(datasets, provenance_paths, strict=True)))
    significances = {d: read_pvalue_table(p).subset(measures) for d, p in zip(datasets, pvalue_paths, strict=True)}
    with plt.rc_context({"axes.prop_cycle": line_styles(len(measures))}):
        for dataset, significance in significances.items():
            figure, axes = plt.subplots(figsize=(6, 4), layout="constrained")
            draw_dp_curves(axes, significance, alpha, title=f"Discriminative power curves: {dataset}")
            axes.legend(fontsize=8, ncols=2)
            own = {dataset: origins[dataset]}
            save_figure(figure, figures / f"{dataset}.pdf", figures / f"{dataset}.png", own, f"{dataset}: {shows}")

        columns = min(4, len(datasets))
        rows = math.ceil(len(datasets) / columns)
        figure, grid = plt.subplots(
            rows, columns, figsize=(3.6 * columns, 3.0 * rows + 0.5), squeeze=False, layout="constrained"
        )
        for index, (dataset, significance) in enumerate(significances.items()):
            axes = grid.flat[index]
            draw_dp_curves(axes, significance, alpha, title=dataset)
            if index % columns:  # axis titles on the outer panels only; every panel keeps its own ticks
                axes.set_ylabel("")
            if index + columns < len(datasets):
                axes.set_xlabel("")
        for axes in grid.flat[len(datasets) :]:
            axes.set_visible(False)
        handles, labels = grid.flat[0].get_legend_handles_labels()
        figure.legend(handles, labels, loc="outside lower center", ncols=min(7, len(labels)), fontsize=8, frameon=False)
        save_figure(figure, figures / "all.pdf", figures / "all.png", origins, f"All data sets: {shows}")
    log.info("DP curves of %d measures on %d data sets", len(measures), len(datasets))


if "snakemake" in globals():
    from rule_logging import logged

    with logged(snakemake.log[0], "dp_curves"):
        main(
            snakemake.params.datasets,
            snakemake.input.pvalues,
            snakemake.input.provenance,
            snakemake.params.measures,
            snakemake.params.alpha,
            snakemake.params.trials,
            Path(snakemake.output.all_pdf).parent,
        )
