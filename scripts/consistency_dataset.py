"""Rule consistency_dataset: system ranking consistency of the measures on one data set (SPEC 4.2).

For each condition (topic halves, two small subsets): the taus between the run rankings on the two
topic sets of every random split, then the measures compared on them (mean tau, randomised Tukey
HSD, VE2, effect sizes)."""

import logging

import numpy as np

from ordeval.consistency import (
    compare_measures,
    comparison_latex,
    condition_splits,
    effect_size_latex,
    split_taus,
    symbols,
    write_taus,
)
from ordeval.outputs import read_origins, write_csv, write_latex
from ordeval.scoring import load_score_stack
from ordeval.seeding import stream

log = logging.getLogger("consistency_dataset")


def main(dataset: str, measures: list[str], settings: dict, threads: int, score_paths: dict, provenance_path, outputs):
    """``settings`` holds ``trials, subset_size, hsd_trials, alpha, seed``; ``outputs`` maps each
    condition to its paths ``taus`` (the trials x measures tau matrix, TSV), ``csv`` and ``tex`` (mean
    tau and the measures each one significantly outperforms), ``pairs_csv`` and ``pairs_tex`` (effect
    sizes and p-values of every pair). The splits of a condition come from the stream (seed, data set,
    ``consistency-<condition>``), the HSD permutations from (seed, data set, ``consistency-<condition>-hsd``).
    """
    stack = load_score_stack({measure: score_paths[measure] for measure in measures})
    origins = read_origins({dataset: provenance_path})
    comparisons = {}
    for condition, paths in outputs.items():  # the two conditions, not the trials
        rng = stream(settings["seed"], dataset, f"consistency-{condition}")
        splits = condition_splits(condition, len(stack.topics), settings["trials"], settings["subset_size"], rng)
        taus = split_taus(stack.values, splits)
        write_taus(taus, measures, paths["taus"])
        rng = stream(settings["seed"], dataset, f"consistency-{condition}-hsd")
        comparison = compare_measures(taus, measures, settings["hsd_trials"], settings["alpha"], rng, threads)
        sizes = f"{splits.first[0].sum()} vs {splits.second[0].sum()} of {len(stack.topics)} topics"
        setting = (
            f"{dataset}, condition {condition}: {settings['trials']} random splits ({sizes}; "
            f"{comparison.trials} with every tau defined), {len(stack.runs)} runs; randomised Tukey HSD "
            f"with B = {settings['hsd_trials']}, alpha = {settings['alpha']}; VE2 = {comparison.ve2:.3g}."
        )
        write_csv(comparison.summary_table(), paths["csv"], origins)
        description = (
            "System ranking consistency: mean Kendall's tau between the run rankings on the two topic sets, "
            "sorted; each measure's symbol and the symbols of the measures it significantly outperforms. "
        )
        write_latex(comparison_latex(comparison, symbols(measures)), paths["tex"], origins, description + setting)
        write_csv(comparison.pair_table(), paths["pairs_csv"], origins)
        description = (
            "Effect sizes (mean tau of the row measure - that of the column measure) / sqrt(VE2); "
            "significant differences in bold. "
        )
        write_latex(effect_size_latex(comparison), paths["pairs_tex"], origins, description + setting)
        log.info(
            "%s %s: %s; undefined taus %d; best %s (%.4f), VE2 %.3g",
            dataset,
            condition,
            sizes,
            np.isnan(taus).sum(),
            comparison.measures[0],
            comparison.mean_tau[0],
            comparison.ve2,
        )
        comparisons[condition] = comparison
    return comparisons


if "snakemake" in globals():
    from rule_logging import logged

    with logged(snakemake.log[0], "consistency_dataset"):
        parts = ["taus", "csv", "tex", "pairs_csv", "pairs_tex"]
        main(
            snakemake.wildcards.dataset,
            snakemake.params.measures,
            snakemake.params.settings,
            snakemake.threads,
            dict(zip(snakemake.params.measures, snakemake.input.scores, strict=True)),
            snakemake.input.provenance,
            {
                condition: {part: snakemake.output[part][i] for part in parts}
                for i, condition in enumerate(snakemake.params.conditions)
            },
        )
