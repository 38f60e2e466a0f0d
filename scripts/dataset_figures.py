"""Rule dataset_figures: the figures of one data set: the distribution of the split taus of every measure per
consistency condition, the discriminative power curves, the leaderboards (means with intervals and groups) and
the topics needed against the minimum detectable difference (topic set size design)."""

from ordeval.reports.figures.dataset import (
    write_dp_curves,
    write_leaderboard_figure,
    write_split_tau_figures,
    write_topic_set_size_figure,
)
from ordeval.workflow.scripting import job

with job(snakemake) as log:
    dataset, params, inputs, output = snakemake.wildcards.dataset, snakemake.params, snakemake.input, snakemake.output
    shared = (inputs.measures, inputs.provenance, output)
    taus = {c: inputs[f"taus_{c}"] for c in params.conditions}
    write_split_tau_figures(taus, *shared, dataset=dataset)
    write_dp_curves(
        inputs.pvalues,
        inputs.arrays,
        *shared,
        dataset=dataset,
        measures=params.significance_measures,
        alpha=params.alpha,
        trials=params.hsd_trials,
    )
    write_leaderboard_figure(inputs.leaderboard, *shared, dataset=dataset)
    write_topic_set_size_figure(
        inputs.stack,
        *shared,
        dataset=dataset,
        measures=params.topic_set_size_measures,
        alpha=params.tss_alpha,
        power=params.tss_power,
    )
    log.info("%s: %d figures", dataset, len(params.conditions) + 3)
