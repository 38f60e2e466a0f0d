"""Rule significance_pvalues: p-values of every run pair of one data set under every scored measure
(randomised Tukey HSD, all measures sharing the permutations), and the groups of identical runs."""

from __future__ import annotations

import logging

from ..analysis.significance import identical_run_groups, pairwise_significance, run_group_table, write_pvalues
from ..scores import read_stack
from ..seeding import stream
from . import Job, each_dataset

log = logging.getLogger("significance_pvalues")


def run(job: Job):
    """params: datasets, seed, trials. Per data set (input ``stack``; outputs ``pvalues``, ``run_groups``):
    pvalues (measure, run_a, run_b, mean_a, mean_b, p) and run_groups (run, group); the permutations
    come from the stream (seed, data set, ``significance``)."""
    params = job.params
    found = {}
    for index, dataset in each_dataset(job, params["datasets"]):
        stack = read_stack(job.input["stack"][index])
        significance = pairwise_significance(
            stack, params["trials"], stream(params["seed"], dataset, "significance"), job.threads
        )
        write_pvalues(significance, job.output["pvalues"][index])  # and pvalues.npz beside it
        groups = identical_run_groups(stack)
        run_group_table(stack.runs, groups).write(job.output["run_groups"][index])
        log.info(
            "%s: %d run pairs x %d measures, %d trials; identical runs: %s",
            dataset, significance.pair_count, len(stack.measures), params["trials"],
            ", ".join(" = ".join(group) for group in groups if len(group) > 1) or "none",
        )  # fmt: skip
        found[dataset] = significance
    return found
