"""Rule consistency_taus: system ranking consistency of the measures on one data set (Sakai, CIKM 2021). For
each condition (topic halves, two small subsets): the taus between the run rankings on the two topic sets of
every random split, then the measures compared on them (mean tau, randomised Tukey HSD, VE2, effect sizes):
the taus as TSV, the summary and the pairs as CSV, their pages and LaTeX."""

from ordeval.reports.jobs.consistency import write_consistency
from ordeval.workflow.scripting import job

with job(snakemake) as log:
    dataset, params, inputs = snakemake.wildcards.dataset, snakemake.params, snakemake.input
    results = write_consistency(
        inputs.stack,
        inputs.provenance,
        snakemake.output,
        dataset=dataset,
        measures=params.measures,
        conditions=params.conditions,
        trials=params.splits,
        subset_size=params.subset_size,
        hsd_trials=params.hsd_trials,
        alpha=params.alpha,
        seed=params.seed,
        variant=params.kendall,
        threads=snakemake.threads,
    )
    log.info(
        "%s: %s",
        dataset,
        "; ".join(
            f"{r.condition}: {r.comparison.trials} of {r.splits.trials} splits with every tau defined, best "
            f"{r.comparison.measures[0]} ({r.comparison.mean_tau[0]:.4f}), VE2 {r.comparison.ve2:.3g}"
            for r in results
        ),
    )
