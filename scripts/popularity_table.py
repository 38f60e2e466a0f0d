"""Rule popularity_table: per data set and measure, the topics on which Uniform or Popularity scores
better (SPEC 4.6), with a TOTAL row; and the per-topic deltas."""

import logging

from ordeval.outputs import write_csv, write_latex
from ordeval.popularity import compared_origins, compute_deltas, deltas_table, preference_latex, preference_table
from ordeval.scoring import load_score_stack

log = logging.getLogger("popularity_table")


def main(
    score_paths: dict[str, dict[str, str]],
    provenance_paths: dict[str, str],
    skipped: dict[str, str],
    measures: list[str],
    popularity_run: str,
    uniform_run: str,
    tolerance: float,
    csv_path,
    tex_path,
    deltas_path,
):
    """``score_paths`` holds the score tables of the data sets that have both runs; ``skipped`` the
    reason each other data set is left out; ``provenance_paths`` covers every data set."""
    for name, reason in skipped.items():
        log.info("%s skipped: %s", name, reason)
    deltas = {
        name: compute_deltas(load_score_stack(paths), popularity_run, uniform_run)
        for name, paths in score_paths.items()
    }
    origins = compared_origins(provenance_paths, deltas, [popularity_run, uniform_run])
    table = preference_table(deltas, measures, tolerance)
    note = f"No data set has both runs {popularity_run} and {uniform_run}."
    if not deltas:
        log.warning("%s The tables are empty.", note)
    description = (
        f"Popularity vs Uniform: per data set and measure, the topics on which {uniform_run} scores better "
        f"(U: Delta > {tolerance:g}) and on which {popularity_run} does (P: Delta < -{tolerance:g}), "
        f"Delta = M({popularity_run}) - M({uniform_run}); T: ties; the larger of U and P in bold."
    )
    if skipped:
        description += f" Left out (lacking a run): {', '.join(skipped)}."
    write_csv(table, csv_path, origins)
    write_latex(preference_latex(table, measures, note), tex_path, origins, description)
    write_csv(deltas_table(deltas), deltas_path, origins)
    for row in table[table["dataset"] == "TOTAL"].itertuples():
        log.info("TOTAL %s: uniform %d, popularity %d, ties %d", row.measure, row.uniform, row.popularity, row.ties)
    return table


if "snakemake" in globals():
    from rule_logging import logged

    with logged(snakemake.log[0], "popularity_table"):
        main(
            snakemake.params.scores,
            snakemake.params.provenance,
            snakemake.params.skipped,
            snakemake.params.measures,
            snakemake.params.popularity_run,
            snakemake.params.uniform_run,
            snakemake.params.tie_tolerance,
            snakemake.output.csv,
            snakemake.output.tex,
            snakemake.output.deltas,
        )
