"""Rule significance_pvalues: p-values of every run pair of one data set under every scored measure
(randomised Tukey HSD, all measures sharing the permutations), and the groups of identical runs."""

import logging

from ordeval import seeding
from ordeval.files import write_table
from ordeval.scoring import load_score_stack
from ordeval.significance import identical_run_groups, pairwise_significance, pvalue_table, run_group_table

log = logging.getLogger("significance_pvalues")


def main(dataset: str, score_paths: dict, seed: int, trials: int, threads: int, pvalues_path, groups_path):
    """Write ``pvalues_path`` (measure, run_a, run_b, mean_a, mean_b, p) and ``groups_path`` (run, group)."""
    stack = load_score_stack(score_paths)
    significance = pairwise_significance(stack, trials, seeding.stream(seed, dataset, "significance"), threads)
    write_table(pvalue_table(significance), pvalues_path)
    groups = identical_run_groups(stack)
    write_table(run_group_table(stack.runs, groups), groups_path)
    log.info(
        "%s: %d run pairs x %d measures, %d trials; identical runs: %s",
        dataset,
        significance.pair_count,
        len(stack.measures),
        trials,
        ", ".join(" = ".join(group) for group in groups if len(group) > 1) or "none",
    )
    return significance


if "snakemake" in globals():
    from rule_logging import logged

    with logged(snakemake.log[0], "significance_pvalues"):
        main(
            snakemake.wildcards.dataset,
            dict(zip(snakemake.params.measures, snakemake.input.scores, strict=True)),
            snakemake.params.seed,
            snakemake.params.trials,
            snakemake.threads,
            snakemake.output.pvalues,
            snakemake.output.groups,
        )
