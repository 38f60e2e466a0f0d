"""Rule significance_pvalues: the p-values of every run pair of one data set under every scored measure
(randomised Tukey HSD, all measures sharing the permutations), and the sets of identical runs."""

from ordeval.analysis.significance import write_significance
from ordeval.workflow.scripting import job

with job(snakemake) as log:
    dataset, params, inputs = snakemake.wildcards.dataset, snakemake.params, snakemake.input
    significance, sets = write_significance(
        inputs.stack,
        snakemake.output,
        dataset=dataset,
        trials=params.hsd_trials,
        seed=params.seed,
        threads=snakemake.threads,
    )
    log.info(
        "%s: %d run pairs x %d measures, %d trials; identical runs: %s",
        dataset,
        significance.pair_count,
        len(significance.measures),
        params.hsd_trials,
        ", ".join(" = ".join(members) for members in sets if len(members) > 1) or "none",
    )
