"""Rule significance_pvalues: the p-values of every run pair of one data set under every scored measure
(randomised Tukey HSD, all measures sharing the permutations), and the sets of identical runs."""

from ordeval.analysis.significance import identical_run_sets, identical_set_table, pairwise_significance, write_pvalues
from ordeval.stats.seeding import stream
from ordeval.tasks.stack import read_stack
from ordeval.workflow.scripting import job

with job(snakemake) as log:
    dataset, params, output = snakemake.wildcards.dataset, snakemake.params, snakemake.output
    stack = read_stack(snakemake.input.stack)
    rng = stream(params.seed, dataset, "significance")
    significance = pairwise_significance(stack, params.hsd_trials, rng, snakemake.threads)
    write_pvalues(significance, output.pvalues, output.arrays)
    sets = identical_run_sets(stack)
    identical_set_table(stack.runs, sets).write(output.identical_runs)
    log.info(
        "%s: %d run pairs x %d measures, %d trials; identical runs: %s",
        dataset,
        significance.pair_count,
        len(stack.measures),
        params.hsd_trials,
        ", ".join(" = ".join(members) for members in sets if len(members) > 1) or "none",
    )
