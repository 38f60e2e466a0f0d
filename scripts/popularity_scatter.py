"""Rule popularity_scatter: per-topic Delta of one measure against another on one data set, with
the topics in the 2nd and 4th quadrants and Pearson r (SPEC 4.6); figure and panel table."""

import logging

from ordeval.outputs import read_run_origins, save_figure, write_csv, write_latex
from ordeval.popularity import compute_deltas, panels_latex, panels_table, scatter_figure, scatter_panels
from ordeval.scoring import load_score_stack

log = logging.getLogger("popularity_scatter")


def main(
    dataset: str,
    score_paths: dict[str, str],
    provenance_path: str,
    popularity_run: str,
    uniform_run: str,
    tolerance: float,
    level: float,
    pdf_path,
    png_path,
    csv_path,
    tex_path,
):
    deltas = compute_deltas(load_score_stack(score_paths), popularity_run, uniform_run)
    panels = scatter_panels(deltas, tolerance, level)
    origins = read_run_origins({dataset: provenance_path}, [popularity_run, uniform_run])
    title = (
        f"{dataset}: per-topic \u0394M = M({popularity_run}) \u2212 M({uniform_run}) "
        f"(negative: Popularity preferred), {len(deltas.topics)} topics"
    )
    description = (
        f"{dataset}: Delta = M({popularity_run}) - M({uniform_run}) per topic; topics in the 2nd quadrant "
        f"(x < 0 < y) and 4th (y < 0 < x), Pearson r with a Fisher-z {level:.0%} CI."
    )
    save_figure(scatter_figure(title, deltas, panels, level), pdf_path, png_path, origins, description)
    write_csv(panels_table(dataset, panels), csv_path, origins)
    write_latex(panels_latex(panels, level), tex_path, origins, description)
    for panel in panels:
        log.info(
            "%s: %s vs %s: 2nd %d, 4th %d, r = %.3f",
            dataset,
            panel.x,
            panel.y,
            panel.quadrants.second,
            panel.quadrants.fourth,
            panel.correlation.r,
        )
    return panels


if "snakemake" in globals():
    from rule_logging import logged

    with logged(snakemake.log[0], "popularity_scatter"):
        main(
            snakemake.wildcards.dataset,
            snakemake.params.scores,
            snakemake.input.provenance,
            snakemake.params.popularity_run,
            snakemake.params.uniform_run,
            snakemake.params.tie_tolerance,
            snakemake.params.ci_level,
            snakemake.output.pdf,
            snakemake.output.png,
            snakemake.output.csv,
            snakemake.output.tex,
        )
