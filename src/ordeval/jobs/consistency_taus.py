"""Rule consistency_taus: system ranking consistency of the measures on each data set (Sakai, CIKM 2021).

For each condition (topic halves, two small subsets): the taus between the run rankings on the two
topic sets of every random split, then the measures compared on them (mean tau, randomised Tukey HSD,
VE2, effect sizes), written as TSV (the taus) and CSV (summary, pairs)."""

from __future__ import annotations

import logging

import numpy as np

from ..analysis.consistency import compare_measures, taus_table
from ..provenance import read_origins
from ..scores import read_stack
from ..seeding import stream
from ..splits import condition_splits, split_taus
from ..table import write_csv
from . import Job, each_dataset

log = logging.getLogger("consistency_taus")


def run(job: Job):
    """params: datasets, measures ({data set: measures}), trials, subset_size, hsd_trials, alpha, seed,
    kendall, conditions. Inputs ``stack``, ``provenance`` one per data set; outputs ``taus``, ``summary``,
    ``pairs`` one per data set and condition (data set first). The splits of a condition come from the
    stream (seed, data set, ``consistency-<condition>``), the HSD permutations from (seed, data set,
    ``consistency-<condition>-hsd``)."""
    params = job.params
    conditions = params["conditions"]
    found = {}
    for index, dataset in each_dataset(job, params["datasets"]):
        stack = read_stack(job.input["stack"][index], params["measures"][dataset])
        origins = read_origins({dataset: job.input["provenance"][index]})
        comparisons = {}
        for offset, condition in enumerate(conditions):
            out = index * len(conditions) + offset
            rng = stream(params["seed"], dataset, f"consistency-{condition}")
            splits = condition_splits(condition, len(stack.topics), params["trials"], params["subset_size"], rng)
            taus = split_taus(stack.values, splits, variant=params["kendall"])
            taus_table(taus, stack.measures).write(job.output["taus"][out])
            rng = stream(params["seed"], dataset, f"consistency-{condition}-hsd")
            comparison = compare_measures(taus, stack.measures, params["hsd_trials"], params["alpha"], rng, job.threads)
            write_csv(comparison.summary_table(), job.output["summary"][out], origins)
            write_csv(comparison.pair_table(), job.output["pairs"][out], origins)
            log.info(
                "%s %s: %d vs %d of %d topics; undefined taus %d; best %s (%.4f), VE2 %.3g",
                dataset, condition, splits.first[0].sum(), splits.second[0].sum(), len(stack.topics),
                np.isnan(taus).sum(), comparison.measures[0], comparison.mean_tau[0], comparison.ve2,
            )  # fmt: skip
            comparisons[condition] = comparison
        found[dataset] = comparisons
    return found
