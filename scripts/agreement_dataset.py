"""Rule agreement_dataset: Kendall's tau (with CIs) between the run rankings of every pair of measures
on one data set (SPEC 4.1)."""

import logging

from ordeval.agreement import ranking_agreement, tau_matrix_latex
from ordeval.outputs import read_origins, write_csv, write_latex
from ordeval.scoring import load_score_stack

log = logging.getLogger("agreement_dataset")


def main(dataset: str, measures: list[str], level: float, score_paths: dict, provenance_path, csv_path, tex_path):
    """Write the pairs (``measure_a, measure_b, tau, ci_low, ci_high``) as CSV and the upper
    triangle of the tau matrix, CIs under the taus, as a LaTeX fragment."""
    stack = load_score_stack({measure: score_paths[measure] for measure in measures})
    agreement = ranking_agreement(stack.means(), measures, level)
    origins = read_origins({dataset: provenance_path})
    pairs = agreement.pair_table()
    write_csv(pairs, csv_path, origins)
    description = (
        f"{dataset}: Kendall's tau between the rankings of {agreement.runs} runs by mean score, "
        f"for every pair of measures, with {level:.0%} CIs (Long and Cliff, 1997) below the taus."
    )
    write_latex(tau_matrix_latex(pairs, measures), tex_path, origins, description)
    log.info("%s: %d measure pairs over %d runs, lowest tau %.3f", dataset, len(pairs), agreement.runs, pairs.tau.min())
    return agreement


if "snakemake" in globals():
    from rule_logging import logged

    with logged(snakemake.log[0], "agreement_dataset"):
        main(
            snakemake.wildcards.dataset,
            snakemake.params.measures,
            snakemake.params.ci_level,
            dict(zip(snakemake.params.measures, snakemake.input.scores, strict=True)),
            snakemake.input.provenance,
            snakemake.output.csv,
            snakemake.output.tex,
        )
